import type { ReportChart } from '@ess/contract/report';
import type { ChartOption } from '../../components/chart/EChart.tsx';
import { formatNumber } from '../../components/number-format.ts';

const COLOURS = ['#1677ff', '#389e0d', '#d46b08', '#c41d7f', '#531dab', '#08979c', '#7cb305', '#cf1322'];

/** A report chart's data as an ECharts option: the series' names translated, units in the legend, a tooltip per label. */
export function reportChartOption(c: ReportChart, t: (s: string, ...a: unknown[]) => string, name: (s: string) => string): ChartOption {
  const units = [...new Set(c.series.map((s) => s.unit).filter((u): u is string => !!u))];
  return {
    color: COLOURS,
    // A report is a document read at rest (and printed or photographed): drawn at once, no entry animation.
    animation: false,
    grid: { left: 56, right: 16, top: 40, bottom: 48 },
    legend: { top: 0, type: 'scroll' },
    tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? formatNumber(v) : '-') },
    xAxis: { type: 'category', data: c.labels, axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value', name: units.length === 1 ? t(units[0]!) : '' },
    dataZoom: c.labels.length > 31 ? [{ type: 'inside' }, { type: 'slider', height: 16, bottom: 4 }] : [],
    series: c.series.map((s) => ({
      name: `${name(t(s.name))}${s.unit && units.length > 1 ? ` (${t(s.unit)})` : ''}`,
      type: c.kind,
      data: s.data,
      connectNulls: false,
      ...(c.kind === 'line' ? { showSymbol: c.labels.length <= 31 } : { barMaxWidth: 24 }),
    })),
  };
}
