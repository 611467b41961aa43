import type { HistoryPoint, HistorySeries } from '@ess/contract/device';
import type { ChartOption } from './EChart.tsx';
import { formatNumber } from '../number-format.ts';

/** One line (or bar) of a time chart: its name and unit are already translated. */
export interface TimeSeries {
  key: string;
  name: string;
  unit: string;
  points: readonly HistoryPoint[];
  /** Bars for the increase of energy registers per bucket. */
  bar?: boolean;
}

/** Points above which the chart draws progressively and thins lines with LTTB. */
export const LARGE_THRESHOLD = 2000;

/**
 * The series of a history answer as chart lines: measured values as they are; cumulative
 * registers (energy counters) as the increase per bucket when the server gives it.
 */
export function historyToSeries(series: readonly HistorySeries[], translate: (s: string) => string, prefix = '', keyPrefix = ''): TimeSeries[] {
  return series.map((s) => {
    const useDelta = s.cumulative && s.delta !== undefined;
    return {
      key: `${keyPrefix}${s.identifier}`,
      name: `${prefix ? `${prefix} ` : ''}${translate(s.name)}${useDelta ? ` (${translate('增量')})` : ''}`,
      unit: s.unit,
      points: useDelta ? s.delta! : s.points,
      bar: useDelta,
    };
  });
}

/** The y axis of percentages on every chart: 0–100 %, ticks every 20. */
export const PERCENT_AXIS = { min: 0, max: 100, interval: 20, scale: false, alignTicks: false } as const;

/** Units in first-seen order: one y axis each (the first left, the others right). */
export function unitAxes(series: readonly Pick<TimeSeries, 'unit'>[]): string[] {
  return [...new Set(series.map((s) => s.unit))];
}

export interface TimeChartOptions {
  /** Show the zoom slider and inside zoom (default true). */
  zoom?: boolean;
  /** Start of the x axis (epoch ms), e.g. the start of the queried range. */
  min?: number;
  max?: number;
  /** Text shown when there is nothing to draw. */
  emptyText?: string;
}

/**
 * A time chart of any number of series that stays smooth with a month of points: LTTB sampling
 * and progressive drawing above LARGE_THRESHOLD points, large mode for bars, no symbols, no
 * animation on large data, inside + slider zoom. One y axis per unit.
 */
export function timeChartOption(series: readonly TimeSeries[], o: TimeChartOptions = {}): ChartOption {
  const units = unitAxes(series);
  const total = series.reduce((a, s) => a + s.points.length, 0);
  const large = total > LARGE_THRESHOLD;
  const zoom = o.zoom !== false;
  const rightAxes = Math.max(0, units.length - 1);
  return {
    animation: !large,
    grid: { left: 56, right: 24 + rightAxes * 56, top: 48, bottom: zoom ? 72 : 32, containLabel: false },
    tooltip: { trigger: 'axis', confine: true, valueFormatter: (v: unknown) => (typeof v === 'number' ? formatNumber(v) : '-') },
    legend: { type: 'scroll', top: 0 },
    xAxis: { type: 'time', ...(o.min !== undefined ? { min: o.min } : {}), ...(o.max !== undefined ? { max: o.max } : {}) },
    yAxis: (units.length ? units : ['']).map((unit, i) => ({
      type: 'value',
      name: unit,
      position: i === 0 ? 'left' : 'right',
      offset: i <= 1 ? 0 : (i - 1) * 56,
      splitLine: { show: i === 0 },
      // Percentages (SOC, SOH, efficiency, load rate) always on 0–100: neither stretched to the
      // other axis' ticks nor zoomed into a flat SOC's decimals.
      ...(unit === '%' ? PERCENT_AXIS : { scale: true, alignTicks: i > 0 }),
    })),
    dataZoom: zoom
      ? [
          { type: 'inside', xAxisIndex: 0, filterMode: 'none' },
          { type: 'slider', xAxisIndex: 0, filterMode: 'none', height: 20, bottom: 16 },
        ]
      : [],
    series: series.map((s) => {
      const base = { id: s.key, name: s.name, yAxisIndex: Math.max(0, units.indexOf(s.unit)), data: s.points as HistoryPoint[] };
      return s.bar
        ? { ...base, type: 'bar', large: true, largeThreshold: LARGE_THRESHOLD, barMaxWidth: 12 }
        : {
            ...base,
            type: 'line',
            showSymbol: false,
            symbol: 'none',
            sampling: 'lttb',
            connectNulls: false,
            lineStyle: { width: 1.5 },
            progressive: large ? 5000 : 0,
            progressiveThreshold: LARGE_THRESHOLD,
          };
    }),
    graphic: emptyNote(total === 0 ? o.emptyText : undefined),
  };
}

/** The "no data" note over an empty chart; an empty list removes it once data arrives (EChart replaces graphic). */
export function emptyNote(text: string | undefined): object[] {
  return text ? [{ type: 'text', left: 'center', top: 'middle', style: { text, fill: '#595959', fontSize: 14 } }] : [];
}

/** The console's one number formatter (components/number-format.ts), here for the charts' callers. */
export { formatNumber };
