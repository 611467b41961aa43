// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { cellIdentifiers, clusterMatrix, heatmapOption, packCells, packMatrix } from './cells.ts';

const pack = (base: number, step: number): Record<string, number> =>
  Object.fromEntries([
    ...cellIdentifiers('voltage').map((id, i): [string, number] => [id, base + i * step]),
    ...cellIdentifiers('temperature').map((id, i): [string, number] => [id, 25 + i]),
  ]);

describe('cell heat map', () => {
  it('reads the 16 cells in order and leaves non-numbers empty', () => {
    const v = { ...pack(3.2, 0.001), cellVoltage3: 'n/a' };
    const cells = packCells(v, 'voltage');
    expect(cells).toHaveLength(16);
    expect(cells[0]).toBeCloseTo(3.2);
    expect(cells[2]).toBeNull();
  });

  it('lays a pack out in two rows of eight, cell 1 top left, with max/min and their cells', () => {
    const m = packMatrix(pack(3.3, 0.002), 'voltage');
    expect(m.xLabels).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    // Category rows count from the bottom: the top row (cells 1–8) is y = 1.
    expect(m.yLabels).toEqual(['9', '1']);
    expect(m.data[0]!.slice(0, 2)).toEqual([0, 1]);
    expect(m.data[8]!.slice(0, 2)).toEqual([0, 0]);
    expect(m.stats).toMatchObject({ maxAt: '#16', minAt: '#1' });
    expect(m.stats!.spread).toBeCloseTo(0.03);
  });

  it('puts a cluster\'s packs in rows (first pack on top) and cells in columns', () => {
    const m = clusterMatrix([
      { name: 'P1', values: pack(3.3, 0) },
      { name: 'P2', values: { ...pack(3.3, 0), cellVoltage5: 3.4 } },
    ], 'voltage');
    expect(m.yLabels).toEqual(['P2', 'P1']);
    expect(m.data).toHaveLength(32);
    expect(m.data.find(([x, y]) => x === 4 && y === 0)![2]).toBe(3.4);
    expect(m.stats).toMatchObject({ max: 3.4, maxAt: 'P2 · #5' });
  });

  it('has no statistics and says so when no cell reported', () => {
    const m = packMatrix({}, 'temperature');
    expect(m.stats).toBeNull();
    const o = heatmapOption(m, 'temperature', { series: 'S', empty: 'EMPTY' }) as { graphic: { style: { text: string } }[] };
    expect(o.graphic.map((g) => g.style.text)).toEqual(['EMPTY']);
    const full = heatmapOption(packMatrix(pack(3.3, 0.001), 'voltage'), 'voltage', { series: 'S', empty: 'EMPTY' }) as { graphic: unknown[] };
    expect(full.graphic).toEqual([]);
  });

  it('spans the colour scale over the pack own range', () => {
    const o = heatmapOption(packMatrix(pack(3.3, 0.001), 'voltage'), 'voltage', { series: 'S', empty: 'E' }) as { visualMap: { min: number; max: number } };
    expect(o.visualMap.min).toBeCloseTo(3.3);
    expect(o.visualMap.max).toBeCloseTo(3.315);
  });
});
