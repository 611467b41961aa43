import { ARBITRAGE_MAX_DAYS, ARBITRAGE_MAX_MONTH_DAYS, type ArbitrageBucket } from '@ess/contract/dashboard';
import type { ArbitrageBody } from './dashboard.api.ts';

/** What the arbitrage overview asks about: a company or some stations, and a range of local dates. */
export interface ArbitrageFilters {
  companyId?: number;
  siteIds: number[];
  /** YYYY-MM-DD, inclusive. */
  start: string;
  end: string;
}

const DAY_MS = 86_400_000;
const pad = (n: number) => String(n).padStart(2, '0');
const isoDate = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The default range: the first of this month to today (the browser's calendar). */
export function defaultRange(today = new Date()): { start: string; end: string } {
  return { start: isoDate(new Date(today.getFullYear(), today.getMonth(), 1)), end: isoDate(today) };
}

/** Days from start to end, both counted. */
export const rangeDays = (start: string, end: string) => Math.round((Date.parse(end) - Date.parse(start)) / DAY_MS) + 1;

/**
 * The curves' bucket: days up to 62 days (a bar a day stays readable), else months; months also
 * beyond the contract's longest day range.
 */
export function bucketFor(start: string, end: string): ArbitrageBucket {
  const days = rangeDays(start, end);
  return days <= 62 && days <= ARBITRAGE_MAX_DAYS ? 'day' : 'month';
}

/** Why a range cannot be asked, as a source text, or null when it can. */
export function rangeProblem(start: string, end: string): string | null {
  if (start > end) return '开始日期不能晚于结束日期';
  if (rangeDays(start, end) > ARBITRAGE_MAX_MONTH_DAYS) return '日期范围过长：最多10年';
  return null;
}

/**
 * The calls' body: chosen stations win over the company; neither means every station in scope.
 * The bucket goes with it (a range beyond the day-bucket limit is only allowed with months).
 */
export function arbitrageBody(f: ArbitrageFilters): ArbitrageBody {
  return {
    start: f.start,
    end: f.end,
    bucket: bucketFor(f.start, f.end),
    ...(f.siteIds.length ? { siteIds: [...f.siteIds].sort((a, b) => a - b) } : f.companyId ? { companyId: f.companyId } : {}),
  };
}
