import type { ChartOption } from './EChart.tsx';

/** A chart's data in words, one line per series: what a screen reader reads instead of the canvas. */
export interface SeriesSummary {
  name: string;
  /** Number of data points with a value. */
  count: number;
  min?: number;
  max?: number;
  /** The last point with a value (a time series' latest). */
  last?: number;
  /** Slices of a pie, by name, when the series is one. */
  slices?: { name: string; value: number }[];
}

type Datum = unknown;

/** The plotted number of a data point: a number, the last element of an [x, y] pair, or `{ value }`. */
function valueOf(d: Datum): number | undefined {
  let v: unknown = d;
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && 'value' in v) v = (v).value;
  if (Array.isArray(v)) v = v[v.length - 1];
  if (typeof v === 'string' && v.trim() !== '') v = Number(v);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Summarises each series of an ECharts option: its name, how many points, lowest, highest, last; a pie's slices. */
export function summariseSeries(option: ChartOption): SeriesSummary[] {
  const series = asArray((option as { series?: Record<string, unknown> | Record<string, unknown>[] }).series);
  return series.map((s, i) => {
    const name = typeof s.name === 'string' && s.name ? s.name : `${i + 1}`;
    const data = Array.isArray(s.data) ? (s.data as Datum[]) : [];
    if (s.type === 'pie') {
      const slices = data.flatMap((d) => {
        const value = valueOf(d);
        const label = d !== null && typeof d === 'object' && 'name' in d ? String((d).name) : '';
        return value === undefined ? [] : [{ name: label, value }];
      });
      return { name, count: slices.length, slices };
    }
    const values = data.map(valueOf).filter((v): v is number => v !== undefined);
    if (!values.length) return { name, count: 0 };
    return { name, count: values.length, min: Math.min(...values), max: Math.max(...values), last: values[values.length - 1] };
  });
}

/**
 * The text alternative of a chart (WCAG 1.1.1): its series in words, through the language pack
 * (`t`) and with numbers in the locale's format; "no data" when no series has a point.
 */
export function chartSummary(option: ChartOption, t: (s: string, ...args: (string | number)[]) => string, locale: string): string {
  const nf = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const n = (v: number) => nf.format(v);
  const lines = summariseSeries(option).flatMap((s) => {
    if (s.slices) return s.slices.length ? [`${s.name}: ${s.slices.map((x) => `${x.name} ${n(x.value)}`).join(', ')}`] : [];
    if (!s.count || s.min === undefined || s.max === undefined || s.last === undefined) return [];
    return [t('$1：$2 个数据点，最小 $3，最大 $4，最后 $5', s.name, s.count, n(s.min), n(s.max), n(s.last))];
  });
  return lines.length ? lines.join('; ') : t('暂无数据');
}
