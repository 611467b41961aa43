import type { DashboardSeries, DeviceTypeStatus, GenerationChart, PowerCurves } from '@ess/contract/comprehensive';
import { DEVICE_STATUS_LABELS } from '@ess/contract/device';
import type { ChartOption } from '../../components/chart/EChart.tsx';
import { emptyNote, formatNumber, timeChartOption, type TimeSeries } from '../../components/chart/chart-options.ts';

type Translate = (source: string, ...args: unknown[]) => string;

/** Series colours: the same part keeps its colour on every chart (and in the power-flow diagram). */
export const SERIES_COLOURS: Record<string, string> = {
  grid: '#1677ff', storage: '#13a8a8', pv: '#d48806', load: '#722ed1', piles: '#389e0d', soc: '#eb2f96', irradiance: '#faad14',
};

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** HH:mm of an instant in a time zone (the station's): its day's curves read in its own hours. */
export function zonedTime(timeZone: string, ts: number): string {
  let f = zoneFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    zoneFormats.set(timeZone, f);
  }
  return f.format(new Date(ts));
}

/** Names in a tooltip are device names too (typed by people): shown as text, never as markup. */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface AxisParam {
  axisValue: number;
  marker: string;
  seriesName: string;
  value: [number, number | null];
}

/**
 * A day's curves as a time chart over the whole station-local day (one y axis per unit), its
 * axis and tooltip in the station's own hours.
 */
export function curvesOption(c: PowerCurves | undefined, t: Translate, emptyText: string): ChartOption {
  const series: TimeSeries[] = (c?.series ?? []).map((s: DashboardSeries) => ({ key: s.key, name: t(s.name), unit: s.unit, points: s.points }));
  const hasData = series.some((s) => s.points.some(([, v]) => v !== null));
  const base = timeChartOption(series, { zoom: false, ...(c ? { min: Date.parse(c.start), max: Date.parse(c.end) } : {}) }) as Record<string, unknown>;
  const zone = c?.timeZone;
  const unitOf = new Map(series.map((s) => [s.name, s.unit]));
  const local = (v: number) => (zone ? zonedTime(zone, v) : new Date(v).toISOString().slice(11, 16));
  return {
    ...base,
    // Each part keeps its colour; the note shows while every bucket is still empty.
    color: series.map((s) => SERIES_COLOURS[s.key] ?? '#8c8c8c'),
    xAxis: { ...(base.xAxis as object), axisLabel: { formatter: local, hideOverlap: true } },
    tooltip: {
      trigger: 'axis',
      confine: true,
      formatter: (params: AxisParam[]) => {
        const head = params[0] ? local(params[0].axisValue) : '';
        const rows = params.map((p) => `${p.marker}${escapeHtml(p.seriesName)}: ${p.value[1] === null ? '-' : `${formatNumber(p.value[1])} ${unitOf.get(p.seriesName) ?? ''}`}`);
        return [head, ...rows].join('<br/>');
      },
    },
    graphic: emptyNote(hasData ? undefined : emptyText),
  };
}

/** Energy per hour, day or month as bars (kWh), labelled in station-local time. */
export function generationOption(g: GenerationChart | undefined, name: string, colour: string, emptyText: string): ChartOption {
  const has = !!g && g.points.some(([, v]) => v !== null);
  return {
    animation: false,
    grid: { left: 56, right: 16, top: 32, bottom: 32 },
    tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? `${formatNumber(v)} kWh` : '-') },
    xAxis: { type: 'category', data: g?.labels ?? [] },
    yAxis: { type: 'value', name: 'kWh' },
    series: [{ id: 'energy', type: 'bar', name, data: (g?.points ?? []).map(([, v]) => v), itemStyle: { color: colour }, barMaxWidth: 18 }],
    graphic: emptyNote(has ? undefined : emptyText),
  };
}

const STATUS_ORDER = ['online', 'offline', 'disabled', 'inactive'] as const;

/** Devices of each type by live status, as stacked bars. */
export function statusBarsOption(types: readonly DeviceTypeStatus[], t: Translate): ChartOption {
  return {
    animation: false,
    grid: { left: 120, right: 24, top: 36, bottom: 24 },
    legend: { top: 0 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: types.map((x) => t(x.label)), inverse: true },
    series: STATUS_ORDER.map((s) => ({
      id: s, type: 'bar', stack: 'status', name: t(DEVICE_STATUS_LABELS[s].label), itemStyle: { color: DEVICE_STATUS_LABELS[s].colour },
      data: types.map((x) => x[s]), barMaxWidth: 18,
    })),
  };
}
