import { todayIn } from '@ess/contract';
import { AppError } from '../http/errors.ts';
import { localMonth, localStart, zoneOffsetMs } from './zone.ts';

/**
 * Station-local calendar periods as instants (DOMAIN.md §7): a day is 23 or 25 hours on a DST
 * change day, months and years start at the station's local midnight.
 */

const DAY = 86_400_000;

export interface Period {
  /** The station-local date the period was asked for (YYYY-MM-DD). */
  date: string;
  start: number;
  end: number;
}

/** The instant the station-local day of `date` (YYYY-MM-DD) begins. */
export function localDayStart(timeZone: string, date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const noonUtc = Date.UTC(y, m - 1, d, 12);
  // Local noon of that date (± an hour of DST) lies inside the local day.
  return localStart(timeZone, noonUtc - zoneOffsetMs(timeZone, noonUtc), 'day');
}

/** The start of the local day after the one that begins at `start`. */
export const nextDayStart = (timeZone: string, start: number) => localStart(timeZone, start + DAY * 1.5, 'day');

/** The asked date, or the station's today; a date after today is refused (nothing can be known of it). */
export function resolveDate(timeZone: string, date: string | undefined, now: number): string {
  const today = todayIn(timeZone, new Date(now));
  if (!date) return today;
  if (date > today) throw new AppError('RULE_VIOLATION', '不能查询站点当地今天之后的日期');
  return date;
}

export function dayPeriod(timeZone: string, date: string): Period {
  const start = localDayStart(timeZone, date);
  return { date, start, end: nextDayStart(timeZone, start) };
}

export function monthPeriod(timeZone: string, date: string): Period {
  const m = localMonth(timeZone, localDayStart(timeZone, date) + DAY / 2);
  return { date, start: m.start, end: m.end };
}

export function yearPeriod(timeZone: string, date: string): Period {
  const year = Number(date.slice(0, 4));
  return { date, start: localDayStart(timeZone, `${year}-01-01`), end: localDayStart(timeZone, `${year + 1}-01-01`) };
}

/** Starts of the local hours, days or months within [start, end). */
export function bucketStarts(timeZone: string, unit: 'hour' | 'day' | 'month', start: number, end: number): number[] {
  const out: number[] = [];
  let b = start;
  while (b < end) {
    out.push(b);
    b = unit === 'hour' ? localStart(timeZone, b + 3_600_000 * 1.5, 'hour')
      : unit === 'day' ? nextDayStart(timeZone, b)
      : localMonth(timeZone, localMonth(timeZone, b).end + DAY / 2).start;
  }
  return out;
}

/** An instant as station-local text: HH:mm, MM-DD or YYYY-MM. */
export function localLabel(timeZone: string, ts: number, unit: 'hour' | 'day' | 'month'): string {
  const text = new Date(ts + zoneOffsetMs(timeZone, ts)).toISOString();
  return unit === 'hour' ? text.slice(11, 16) : unit === 'day' ? text.slice(5, 10) : text.slice(0, 7);
}

/** Whole local days from a date to today (0 on the date itself); null without a date. */
export function daysSince(timeZone: string, date: string | null, now: number): number | null {
  if (!date) return null;
  const today = todayIn(timeZone, new Date(now));
  const days = Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${date}T00:00:00Z`)) / DAY);
  return Math.max(0, days);
}
