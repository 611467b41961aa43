import type { HistoryPoint } from '@ess/contract/device';
import { QUERY_RANGE_LIMIT_MS } from '@ess/contract/constants';
import type { TimeSeries } from '../../components/chart/chart-options.ts';

/** What is wrong with a retrieval range (source text), or null: product-spec §5, large queries within 24 h. */
export function rangeProblem(start: number | null, end: number | null): string | null {
  if (start === null || end === null) return '请选择时间范围';
  if (end <= start) return '结束时间须晚于开始时间';
  if (end - start > QUERY_RANGE_LIMIT_MS) return '查询时间范围不能超过24小时';
  return null;
}

export interface RetrievalRow {
  ts: number;
  /** Value by series key. */
  [key: string]: number | null;
}

/**
 * Series side by side as table rows: one row per timestamp any series has (ascending), a
 * column per series; a series without a point at that time has null there.
 */
export function seriesTable(series: readonly Pick<TimeSeries, 'key' | 'points'>[]): RetrievalRow[] {
  const rows = new Map<number, RetrievalRow>();
  for (const s of series) {
    for (const [ts, v] of s.points as HistoryPoint[]) {
      let row = rows.get(ts);
      if (!row) {
        row = { ts };
        for (const other of series) row[other.key] = null;
        rows.set(ts, row);
      }
      row[s.key] = v;
    }
  }
  return [...rows.values()].sort((a, b) => a.ts - b.ts);
}
