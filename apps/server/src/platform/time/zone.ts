/**
 * Station-local hour and day boundaries as UTC instants (DOMAIN.md §7: days are computed in
 * the station's time zone; DST days last 23 or 25 hours). Lookups are cached per zone so the
 * ingest pays for Intl only when a report crosses into a new hour.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

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

/** The zone's offset from UTC at an instant, in ms (local = utc + offset). */
export function zoneOffsetMs(timeZone: string, ts: number): number {
  const parts = formatter(timeZone).formatToParts(new Date(ts));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(ts / 1000) * 1000;
}

const HOUR = 3_600_000;
const DAY = 86_400_000;

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

export const FIVE_MINUTES = 300_000;
