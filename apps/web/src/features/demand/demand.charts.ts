import type { DemandAnalysisPoint, DemandPoint } from '@ess/contract/demand';
import { emptyNote, formatNumber } from '../../components/chart/chart-options.ts';
import type { ChartOption } from '../../components/chart/EChart.tsx';

type T = (s: string, ...a: unknown[]) => string;

const COLORS = { demand: '#1677ff', counterfactual: '#fa8c16', target: '#f5222d', shaved: '#52c41a' };

/**
 * The 15-minute demands of a day or a month as a step line (each window holds its average from
 * its start), with the counterfactual without storage when given and the target as a dashed line.
 */
export function demandCurveOption(
  curve: readonly (DemandPoint | DemandAnalysisPoint)[],
  t: T,
  o: { targetKw?: number | null; counterfactual?: boolean; emptyText?: string } = {},
): ChartOption {
  const withCf = o.counterfactual === true;
  const series: object[] = [
    {
      id: 'demand', name: t('实际需量'), type: 'line', step: 'start', showSymbol: false, symbol: 'none', sampling: 'lttb', lineStyle: { width: 1.5 },
      color: COLORS.demand,
      data: curve.map((p) => [p.ts, p.demandKw]),
      ...(o.targetKw ? {
        markLine: {
          symbol: 'none', silent: true, lineStyle: { color: COLORS.target, type: 'dashed' },
          label: { formatter: `${t('目标需量')} ${formatNumber(o.targetKw)} kW`, position: 'insideEndTop' },
          data: [{ yAxis: o.targetKw }],
        },
      } : {}),
    },
  ];
  if (withCf) {
    series.push({
      id: 'counterfactual', name: t('无储能需量'), type: 'line', step: 'start', showSymbol: false, symbol: 'none', sampling: 'lttb',
      lineStyle: { width: 1.5, type: 'dashed' }, color: COLORS.counterfactual,
      data: curve.map((p) => [p.ts, 'counterfactualKw' in p ? p.counterfactualKw : null]),
    });
  }
  return {
    animation: curve.length < 500,
    grid: { left: 56, right: 24, top: 40, bottom: 64 },
    tooltip: { trigger: 'axis', confine: true, valueFormatter: (v: unknown) => (typeof v === 'number' ? `${formatNumber(v)} kW` : '-') },
    legend: { type: 'scroll', top: 0 },
    xAxis: { type: 'time' },
    // The target line stays in view when every demand is below it.
    yAxis: [{ type: 'value', name: 'kW', scale: true, ...(o.targetKw ? { max: (v: { max: number }) => Math.ceil(Math.max(v.max, o.targetKw! * 1.05)) } : {}) }],
    dataZoom: [
      { type: 'inside', xAxisIndex: 0, filterMode: 'none' },
      { type: 'slider', xAxisIndex: 0, filterMode: 'none', height: 18, bottom: 12 },
    ],
    series,
    graphic: emptyNote(curve.length === 0 ? o.emptyText : undefined),
  };
}

/** Months (or days) as bars of their maxima beside a second series (the target, or the counterfactual). */
export function maximaBarsOption(
  labels: readonly string[],
  bars: { name: string; values: readonly (number | null)[]; color?: string }[],
  t: T,
  emptyText?: string,
): ChartOption {
  return {
    grid: { left: 56, right: 24, top: 40, bottom: 32 },
    tooltip: { trigger: 'axis', confine: true, valueFormatter: (v: unknown) => (typeof v === 'number' ? `${formatNumber(v)} kW` : '-') },
    legend: { type: 'scroll', top: 0 },
    xAxis: { type: 'category', data: [...labels] },
    yAxis: [{ type: 'value', name: 'kW' }],
    series: bars.map((b, i) => ({ id: `bar-${i}`, name: b.name, type: 'bar', barMaxWidth: 18, ...(b.color ? { color: b.color } : {}), data: [...b.values] })),
    graphic: emptyNote(labels.length === 0 || bars.every((b) => b.values.every((v) => v === null)) ? emptyText ?? t('暂无需量数据') : undefined),
  };
}

export const DEMAND_COLORS = COLORS;
