import type { TelemetryValue } from '@ess/contract/telemetry';
import { PACK_CELL_COUNT } from '@ess/contract/telemetry';
import type { ChartOption } from '../../components/chart/EChart.tsx';
import { emptyNote, formatNumber } from '../../components/chart/chart-options.ts';

export type CellKind = 'voltage' | 'temperature';

export const CELL_UNITS: Record<CellKind, string> = { voltage: 'V', temperature: '°C' };

/** `cellVoltage1` … `cellTemperature16`: the identifiers of a pack's cells. */
export function cellIdentifiers(kind: CellKind, count = PACK_CELL_COUNT): string[] {
  const stem = kind === 'voltage' ? 'cellVoltage' : 'cellTemperature';
  return Array.from({ length: count }, (_, i) => `${stem}${i + 1}`);
}

/** The cell values of one pack, in cell order; null where a cell did not report a number. */
export function packCells(values: Readonly<Record<string, TelemetryValue>>, kind: CellKind, count = PACK_CELL_COUNT): (number | null)[] {
  return cellIdentifiers(kind, count).map((id) => {
    const v = values[id];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  });
}

/** A heat map: x labels (columns), y labels (rows) and [x, y, value] cells. */
export interface HeatMatrix {
  xLabels: string[];
  yLabels: string[];
  data: [number, number, number | null][];
  stats: CellStats | null;
}

export interface CellStats {
  max: number;
  min: number;
  avg: number;
  /** max − min. */
  spread: number;
  /** Labels of the hottest/highest and coldest/lowest cells ("row · column"). */
  maxAt: string;
  minAt: string;
}

function statsOf(cells: { value: number | null; at: string }[]): CellStats | null {
  let max: { value: number; at: string } | null = null;
  let min: { value: number; at: string } | null = null;
  let sum = 0;
  let n = 0;
  for (const c of cells) {
    if (c.value === null) continue;
    if (!max || c.value > max.value) max = { value: c.value, at: c.at };
    if (!min || c.value < min.value) min = { value: c.value, at: c.at };
    sum += c.value;
    n++;
  }
  if (!max || !min) return null;
  return { max: max.value, min: min.value, avg: sum / n, spread: max.value - min.value, maxAt: max.at, minAt: min.at };
}

/**
 * One pack's cells laid out in rows of `columns` (16 cells → 2 rows of 8): cell i sits at
 * column i % columns of row ⌊i / columns⌋; labels are 1-based cell numbers.
 */
export function packMatrix(values: Readonly<Record<string, TelemetryValue>>, kind: CellKind, columns = 8, count = PACK_CELL_COUNT): HeatMatrix {
  const cells = packCells(values, kind, count);
  const rows = Math.ceil(count / columns);
  const data: HeatMatrix['data'] = cells.map((v, i) => [i % columns, rows - 1 - Math.floor(i / columns), v]);
  return {
    xLabels: Array.from({ length: columns }, (_, i) => String(i + 1)),
    // Top row first on screen: ECharts counts category rows from the bottom.
    yLabels: Array.from({ length: rows }, (_, r) => String((rows - 1 - r) * columns + 1)),
    data,
    stats: statsOf(cells.map((value, i) => ({ value, at: `#${i + 1}` }))),
  };
}

/** A cluster's packs (rows, in the given order) × cells (columns). */
export function clusterMatrix(
  packs: readonly { name: string; values: Readonly<Record<string, TelemetryValue>> }[],
  kind: CellKind,
  count = PACK_CELL_COUNT,
): HeatMatrix {
  const rows = packs.length;
  const data: HeatMatrix['data'] = [];
  const all: { value: number | null; at: string }[] = [];
  packs.forEach((p, r) => {
    packCells(p.values, kind, count).forEach((v, c) => {
      data.push([c, rows - 1 - r, v]);
      all.push({ value: v, at: `${p.name} · #${c + 1}` });
    });
  });
  return {
    xLabels: Array.from({ length: count }, (_, i) => String(i + 1)),
    yLabels: packs.map((p) => p.name).reverse(),
    data,
    stats: statsOf(all),
  };
}

/** Colours from cool to hot; the scale spans the matrix's own min..max (a flat pack shows one colour). */
const HEAT_COLOURS = ['#313695', '#4575b4', '#74add1', '#abd9e9', '#fee090', '#fdae61', '#f46d43', '#d73027'];

export function heatmapOption(m: HeatMatrix, kind: CellKind, names: { series: string; empty: string }): ChartOption {
  const unit = CELL_UNITS[kind];
  const min = m.stats?.min ?? 0;
  const max = m.stats && m.stats.max > m.stats.min ? m.stats.max : min + (kind === 'voltage' ? 0.01 : 1);
  const showLabels = m.data.length <= 64;
  return {
    animation: false,
    tooltip: {
      position: 'top',
      formatter: (p: { value: [number, number, number | null] }) => {
        const [x, y, v] = p.value;
        return `${m.yLabels[y] ?? ''} · ${m.xLabels[x] ?? ''}: ${v === null ? '-' : `${formatNumber(v)} ${unit}`}`;
      },
    },
    grid: { left: 72, right: 80, top: 16, bottom: 32 },
    xAxis: { type: 'category', data: m.xLabels, splitArea: { show: true } },
    yAxis: { type: 'category', data: m.yLabels, splitArea: { show: true } },
    visualMap: {
      type: 'continuous', min, max, calculable: false, orient: 'vertical', right: 0, top: 'middle', itemHeight: 120,
      precision: kind === 'voltage' ? 3 : 1, text: [unit, ''], inRange: { color: HEAT_COLOURS },
    },
    series: [
      {
        id: 'cells',
        name: names.series,
        type: 'heatmap',
        data: m.data.map(([x, y, v]) => [x, y, v ?? '-']),
        label: { show: showLabels, formatter: (p: { value: [number, number, number | string] }) => (typeof p.value[2] === 'number' ? formatNumber(p.value[2]) : '-') },
        emphasis: { itemStyle: { borderColor: '#000', borderWidth: 1 } },
      },
    ],
    graphic: emptyNote(m.stats ? undefined : names.empty),
  };
}
