import { PRICE_PERIODS } from '@ess/contract';

export type PricePeriod = (typeof PRICE_PERIODS)[number];

/** Wall-clock parts of an instant in a time zone (DOMAIN.md §7: days, months and periods are local). */
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

const formatters = new Map<string, Intl.DateTimeFormat>();
/** UTC offsets (minutes) by zone and quarter hour: zone transitions fall on quarter hours. */
const offsets = new Map<string, number>();
const QUARTER_MS = 900_000;

function formatter(timeZone: string): Intl.DateTimeFormat {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, fmt);
  }
  return fmt;
}

/** The zone's offset from UTC in minutes at an instant (positive east of Greenwich). */
export function utcOffsetMinutes(epochMs: number, timeZone: string): number {
  const bucket = Math.floor(epochMs / QUARTER_MS);
  const key = `${timeZone}|${bucket}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const at = bucket * QUARTER_MS;
    const parts = formatter(timeZone).formatToParts(new Date(at));
    const get = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
    const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
    offset = Math.round((asUtc - at) / 60_000);
    if (offsets.size > 50_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function localTime(epochMs: number, timeZone: string): LocalTime {
  const d = new Date(epochMs + utcOffsetMinutes(epochMs, timeZone) * 60_000);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + 1;
  const day = d.getUTCDate();
  const hour = d.getUTCHours();
  const minute = d.getUTCMinutes();
  const second = d.getUTCSeconds();
  const dayOfYear = Math.round((Date.UTC(year, month - 1, day) - Date.UTC(year, 0, 1)) / 86_400_000) + 1;
  return {
    year, month, day, hour, minute, second,
    weekday: d.getUTCDay(),
    minuteOfDay: hour * 60 + minute + (second + d.getUTCMilliseconds() / 1000) / 60,
    dayOfYear,
    dateKey: `${year}-${pad(month)}-${pad(day)}`,
    monthKey: `${year}-${pad(month)}`,
  };
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

/** Minutes per day spent in each period by a schedule. */
export function periodMinutesPerDay(schedule: readonly TouSegment[]): Record<PricePeriod, number> {
  const out = Object.fromEntries(PRICE_PERIODS.map((p) => [p, 0])) as Record<PricePeriod, number>;
  schedule.forEach((seg, i) => {
    const end = i + 1 < schedule.length ? parseHhMm(schedule[i + 1]!.start) : 1440;
    out[seg.period] += end - parseHhMm(seg.start);
  });
  return out;
}

/** Minutes spent in each period from local midnight up to a local minute of the day. */
export function periodMinutesUntil(schedule: readonly TouSegment[], minuteOfDay: number): Record<PricePeriod, number> {
  const out = Object.fromEntries(PRICE_PERIODS.map((p) => [p, 0])) as Record<PricePeriod, number>;
  schedule.forEach((seg, i) => {
    const start = parseHhMm(seg.start);
    const end = i + 1 < schedule.length ? parseHhMm(schedule[i + 1]!.start) : 1440;
    out[seg.period] += Math.max(0, Math.min(end, minuteOfDay) - start);
  });
  return out;
}

/** Whole calendar days between two YYYY-MM-DD dates (b − a). */
export function daysBetween(a: string, b: string): number {
  const toUtc = (k: string) => {
    const [y, m, d] = k.split('-').map(Number);
    return Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1);
  };
  return Math.round((toUtc(b) - toUtc(a)) / 86_400_000);
}
