// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { rangeProblem, seriesTable } from './retrieval.ts';

const H = 3_600_000;

describe('data retrieval', () => {
  it('accepts a range within 24 hours and refuses a longer, reversed or missing one', () => {
    expect(rangeProblem(0, 24 * H)).toBeNull();
    expect(rangeProblem(0, 24 * H + 1)).toBe('查询时间范围不能超过24小时');
    expect(rangeProblem(5, 5)).toBe('结束时间须晚于开始时间');
    expect(rangeProblem(null, 5)).toBe('请选择时间范围');
  });

  it('puts series side by side by time, empty where a series has no point', () => {
    const rows = seriesTable([
      { key: 'a', points: [[2000, 2], [1000, 1]] },
      { key: 'b', points: [[1000, 10], [3000, null]] },
    ]);
    expect(rows).toEqual([
      { ts: 1000, a: 1, b: 10 },
      { ts: 2000, a: 2, b: null },
      { ts: 3000, a: null, b: null },
    ]);
  });
});
