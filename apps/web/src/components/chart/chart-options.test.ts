// @vitest-environment node
import type { HistorySeries } from '@ess/contract/device';
import { describe, expect, it } from 'vitest';
import { historyToSeries, LARGE_THRESHOLD, PERCENT_AXIS, timeChartOption, unitAxes, type TimeSeries } from './chart-options.ts';

const tr = (s: string) => `T(${s})`;
type Opt = { series: Record<string, unknown>[]; yAxis: Record<string, unknown>[]; dataZoom: Record<string, unknown>[]; animation: boolean };

const month = (): [number, number][] => Array.from({ length: 30 * 24 * 12 }, (_, i) => [i * 300_000, Math.sin(i / 50) * 100]);

describe('history chart options', () => {
  it('draws SOC on a fixed 0–100 % axis: not stretched to another axis (0–180 %), not zoomed to a flat line (94.4–95 %)', () => {
    const soc: TimeSeries = { key: 'soc', name: 'SOC', unit: '%', points: [[0, 94.4], [300_000, 94.7], [600_000, 95]] };
    const power: TimeSeries = { key: 'p', name: 'P', unit: 'kW', points: [[0, -180], [300_000, 20], [600_000, 350]] };
    for (const series of [[soc], [power, soc]]) {
      const o = timeChartOption(series) as unknown as Opt;
      const axis = o.yAxis.find((a) => a.name === '%')!;
      expect(axis).toMatchObject({ min: 0, max: 100, scale: false, alignTicks: false });
      expect(o.series.find((x) => x.id === 'soc')!.yAxisIndex).toBe(o.yAxis.indexOf(axis));
    }
    // The kW axis still follows its data.
    const both = timeChartOption([power, soc]) as unknown as Opt;
    expect(both.yAxis[0]).toMatchObject({ name: 'kW', scale: true });
    expect(both.yAxis[0]).not.toHaveProperty('max');
    expect(PERCENT_AXIS).toMatchObject({ min: 0, max: 100 });
  });

  it('draws a month of 5-minute points as a thinned, progressive line with zoom and no animation', () => {
    const s: TimeSeries[] = [{ key: 'p', name: 'P', unit: 'kW', points: month() }];
    const o = timeChartOption(s) as unknown as Opt;
    expect(s[0]!.points.length).toBeGreaterThan(LARGE_THRESHOLD);
    expect(o.series[0]).toMatchObject({ type: 'line', sampling: 'lttb', showSymbol: false, progressive: 5000 });
    expect(o.animation).toBe(false);
    expect(o.dataZoom.map((z) => z.type)).toEqual(['inside', 'slider']);
  });

  it('notes an empty chart, and clears the note once there are points', () => {
    const empty = timeChartOption([{ key: 'p', name: 'P', unit: 'kW', points: [] }], { emptyText: 'NONE' }) as unknown as { graphic: { style: { text: string } }[] };
    expect(empty.graphic.map((g) => g.style.text)).toEqual(['NONE']);
    const full = timeChartOption([{ key: 'p', name: 'P', unit: 'kW', points: [[0, 1]] }], { emptyText: 'NONE' }) as unknown as { graphic: unknown[] };
    expect(full.graphic).toEqual([]);
  });

  it('keeps animation and no progressive drawing for a few points', () => {
    const o = timeChartOption([{ key: 'p', name: 'P', unit: 'kW', points: [[0, 1], [1, 2]] }]) as unknown as Opt;
    expect(o.animation).toBe(true);
    expect(o.series[0]).toMatchObject({ progressive: 0 });
  });

  it('gives each unit its own y axis, the first on the left', () => {
    const s: TimeSeries[] = [
      { key: 'a', name: 'A', unit: 'kW', points: [] },
      { key: 'b', name: 'B', unit: '%', points: [] },
      { key: 'c', name: 'C', unit: 'kW', points: [] },
      { key: 'd', name: 'D', unit: 'V', points: [] },
    ];
    expect(unitAxes(s)).toEqual(['kW', '%', 'V']);
    const o = timeChartOption(s) as unknown as Opt;
    expect(o.yAxis.map((y) => [y.name, y.position, y.offset])).toEqual([['kW', 'left', 0], ['%', 'right', 0], ['V', 'right', 56]]);
    expect(o.series.map((x) => x.yAxisIndex)).toEqual([0, 1, 0, 2]);
  });

  it('shows the increase of a cumulative register as large-mode bars, measured values as lines', () => {
    const series: HistorySeries[] = [
      { identifier: 'totalEnergy', name: '累计发电量', unit: 'kWh', cumulative: true, points: [[0, 100], [1, 105]], delta: [[0, 0], [1, 5]] },
      { identifier: 'activePower', name: '有功功率', unit: 'kW', cumulative: false, points: [[0, 3]] },
    ];
    const s = historyToSeries(series, tr);
    expect(s[0]).toMatchObject({ key: 'totalEnergy', name: 'T(累计发电量) (T(增量))', bar: true, points: [[0, 0], [1, 5]] });
    expect(s[1]).toMatchObject({ key: 'activePower', name: 'T(有功功率)', bar: false, points: [[0, 3]] });
    const o = timeChartOption(s) as unknown as Opt;
    expect(o.series[0]).toMatchObject({ type: 'bar', large: true });
    expect(o.series[1]).toMatchObject({ type: 'line' });
  });

  it('prefixes names and keys when several devices share a chart', () => {
    const s = historyToSeries([{ identifier: 'soc', name: 'SOC', unit: '%', cumulative: false, points: [] }], tr, '1#BMS', 'd7-');
    expect(s[0]).toMatchObject({ key: 'd7-soc', name: '1#BMS T(SOC)' });
  });
});
