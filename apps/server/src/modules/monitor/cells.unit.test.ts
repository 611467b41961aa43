import { describe, expect, it } from 'vitest';
import { histogram } from './cells.service.ts';

describe('cell histogram', () => {
  it('puts each value in [k·step, (k+1)·step), boundaries included below, float noise ignored', () => {
    // 3.3 / 0.01 is 329.99999999999994 in floating point: it still belongs to [3.30, 3.31).
    const h = histogram([3.3, 3.305, 3.31, 3.299, 3.32], 0.01);
    expect(h).toEqual([
      { from: 3.29, to: 3.3, count: 1 },
      { from: 3.3, to: 3.31, count: 2 },
      { from: 3.31, to: 3.32, count: 1 },
      { from: 3.32, to: 3.33, count: 1 },
    ]);
  });

  it('leaves out empty buckets and sorts by value, negative temperatures included', () => {
    expect(histogram([-1.5, 20, 20.9, -0.2], 1)).toEqual([
      { from: -2, to: -1, count: 1 },
      { from: -1, to: 0, count: 1 },
      { from: 20, to: 21, count: 2 },
    ]);
    expect(histogram([], 1)).toEqual([]);
  });
});
