import { PRICE_PERIODS } from './constants.ts';
import type { PricePeriod } from './pricing.ts';

/**
 * Station-local time (DOMAIN.md §7): hours, days, months and price periods are computed in the
 * station's time zone; a DST change day lasts 23 or 25 hours. The one implementation, used by the
 * server (platform/time re-exports it) and by the simulator. Offsets are cached per zone and
 * quarter hour (zone transitions fall on quarter hours), so the ingest and the simulator's ticks
 * pay for Intl only when they cross into a new quarter hour.
 */

const MINUTE = 60_000;
const QUARTER = 900_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
export const FIVE_MINUTES = 300_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Offsets (ms) by zone and quarter hour, kept only when the offset holds for the whole quarter. */
const offsets = new Map<string, number>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

function exactOffsetMs(timeZone: string, ts: number): number {
  const parts = formatter(timeZone).formatToParts(new Date(ts));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(ts / 1000) * 1000;
}

/** The zone's offset from UTC at an instant, in ms (local = utc + offset). */
export function zoneOffsetMs(timeZone: string, ts: number): number {
  const bucket = Math.floor(ts / QUARTER);
  const key = `${timeZone}|${bucket}`;
  const cached = offsets.get(key);
  if (cached !== undefined) return cached;
  const start = bucket * QUARTER;
  const offset = exactOffsetMs(timeZone, start);
  // A quarter hour with a transition inside it (historical zones) is answered exactly, never cached.
  if (exactOffsetMs(timeZone, start + QUARTER - 1000) !== offset) return exactOffsetMs(timeZone, ts);
  if (offsets.size > 50_000) offsets.clear();
  offsets.set(key, offset);
  return offset;
}

/** The zone's offset from UTC in minutes at an instant (positive east of Greenwich). */
export const utcOffsetMinutes = (epochMs: number, timeZone: string): number => Math.round(zoneOffsetMs(timeZone, epochMs) / MINUTE);

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Wall-clock parts of an instant in a time zone. */
export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday. */
  weekday: number;
  /** Minutes since local midnight, with seconds as a fraction. */
  minuteOfDay: number;
  /** 1 = 1 January. */
  dayOfYear: number;
  /** YYYY-MM-DD */
  dateKey: string;
  /** YYYY-MM */
  monthKey: string;
}

export function localTime(epochMs: number, timeZone: string): LocalTime {
  const d = new Date(epochMs + utcOffsetMinutes(epochMs, timeZone) * MINUTE);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + 1;
  const day = d.getUTCDate();
  const hour = d.getUTCHours();
  const minute = d.getUTCMinutes();
  const second = d.getUTCSeconds();
  const dayOfYear = Math.round((Date.UTC(year, month - 1, day) - Date.UTC(year, 0, 1)) / DAY) + 1;
  return {
    year, month, day, hour, minute, second,
    weekday: d.getUTCDay(),
    minuteOfDay: hour * 60 + minute + (second + d.getUTCMilliseconds() / 1000) / 60,
    dayOfYear,
    dateKey: `${year}-${pad(month)}-${pad(day)}`,
    monthKey: `${year}-${pad(month)}`,
  };
}

/**
 * Today's calendar date (YYYY-MM-DD) in a time zone. Through the cached per-zone formatter: a new
 * Intl.DateTimeFormat per call took a fifth of the home page's CPU under load.
 */
export function todayIn(zone: string, now = new Date()): string {
  return localTime(now.getTime(), zone).dateKey;
}

/** The instant at which the local hour or day containing `ts` began. */
export function localStart(timeZone: string, ts: number, unit: 'hour' | 'day'): number {
  const size = unit === 'hour' ? HOUR : DAY;
  const off = zoneOffsetMs(timeZone, ts);
  const floorLocal = Math.floor((ts + off) / size) * size;
  // The offset at the boundary may differ from the offset at ts (a DST change in between).
  let start = floorLocal - off;
  const off2 = zoneOffsetMs(timeZone, start);
  if (off2 !== off) start = floorLocal - off2;
  return start > ts ? localStart(timeZone, ts - size / 2, unit) : start;
}

/** The local calendar month [start, end) containing `ts`, as instants. */
export function localMonth(timeZone: string, ts: number): { start: number; end: number } {
  const off = zoneOffsetMs(timeZone, ts);
  const d = new Date(ts + off);
  // Local noon of the 1st (± an hour of DST) lies inside that local day.
  const noonOfFirst = (monthOffset: number) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + monthOffset, 1, 12) - off;
  return { start: localStart(timeZone, noonOfFirst(0), 'day'), end: localStart(timeZone, noonOfFirst(1), 'day') };
}

interface Window {
  start: number;
  end: number;
}

/** Caches the current local hour and day window of one zone. */
export class ZoneBuckets {
  private hour: Window = { start: 0, end: 0 };
  private day: Window = { start: 0, end: 0 };

  constructor(readonly timeZone: string) {}

  hourOf(ts: number): number {
    if (ts < this.hour.start || ts >= this.hour.end) this.hour = this.window(ts, 'hour');
    return this.hour.start;
  }

  dayOf(ts: number): number {
    if (ts < this.day.start || ts >= this.day.end) this.day = this.window(ts, 'day');
    return this.day.start;
  }

  private window(ts: number, unit: 'hour' | 'day'): Window {
    const start = localStart(this.timeZone, ts, unit);
    const size = unit === 'hour' ? HOUR : DAY;
    const end = localStart(this.timeZone, start + size * 1.5, unit);
    return { start, end };
  }
}

/** A station-local calendar period as instants [start, end). */
export interface LocalPeriod {
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

export function dayPeriod(timeZone: string, date: string): LocalPeriod {
  const start = localDayStart(timeZone, date);
  return { date, start, end: nextDayStart(timeZone, start) };
}

export function monthPeriod(timeZone: string, date: string): LocalPeriod {
  const m = localMonth(timeZone, localDayStart(timeZone, date) + DAY / 2);
  return { date, start: m.start, end: m.end };
}

export function yearPeriod(timeZone: string, date: string): LocalPeriod {
  const year = Number(date.slice(0, 4));
  return { date, start: localDayStart(timeZone, `${year}-01-01`), end: localDayStart(timeZone, `${year + 1}-01-01`) };
}

/** Starts of the local hours, days or months within [start, end). */
export function bucketStarts(timeZone: string, unit: 'hour' | 'day' | 'month', start: number, end: number): number[] {
  const out: number[] = [];
  let b = start;
  while (b < end) {
    out.push(b);
    b = unit === 'hour' ? localStart(timeZone, b + HOUR * 1.5, 'hour')
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

/** Whole calendar days between two YYYY-MM-DD dates (b − a). */
/** The month after a `YYYY-MM` month. */
export const nextMonth = (month: string): string => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
};
/** The month before a `YYYY-MM` month. */
export const prevMonth = (month: string): string => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
};

export function daysBetween(a: string, b: string): number {
  const toUtc = (k: string) => {
    const [y, m, d] = k.split('-').map(Number);
    return Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1);
  };
  return Math.round((toUtc(b) - toUtc(a)) / DAY);
}

/** Whole local days from a date to today (0 on the date itself); null without a date. */
export function daysSince(timeZone: string, date: string | null, now: number): number | null {
  if (!date) return null;
  return Math.max(0, daysBetween(date, todayIn(timeZone, new Date(now))));
}

/** One segment of a station's 24 h time-of-use partition: from `start` (HH:MM) until the next segment. */
export interface TouSegment {
  start: string;
  period: PricePeriod;
}

export function parseHhMm(hhmm: string): number {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm);
  if (!m) throw new Error(`bad HH:MM ${hhmm}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** The price period in force at a local minute of the day. Segments are sorted and start at 00:00. */
export function periodAt(schedule: readonly TouSegment[], minuteOfDay: number): PricePeriod {
  let period: PricePeriod = schedule[0]?.period ?? 'flat';
  for (const seg of schedule) {
    if (parseHhMm(seg.start) <= minuteOfDay) period = seg.period;
    else break;
  }
  return period;
}

const segmentEnd = (schedule: readonly TouSegment[], i: number) => {
  const next = schedule[i + 1];
  return next ? parseHhMm(next.start) : 1440;
};

/** Minutes spent in each period from local midnight up to a local minute of the day (the whole day by default). */
export function periodMinutesUntil(schedule: readonly TouSegment[], minuteOfDay = 1440): Record<PricePeriod, number> {
  const out = Object.fromEntries(PRICE_PERIODS.map((p) => [p, 0])) as Record<PricePeriod, number>;
  schedule.forEach((seg, i) => {
    out[seg.period] += Math.max(0, Math.min(segmentEnd(schedule, i), minuteOfDay) - parseHhMm(seg.start));
  });
  return out;
}

/** Minutes per day spent in each period by a schedule. */
export const periodMinutesPerDay = (schedule: readonly TouSegment[]): Record<PricePeriod, number> => periodMinutesUntil(schedule);
