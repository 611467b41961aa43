import { describe, expect, it } from 'vitest';
import {
  ZoneBuckets, bucketStarts, dayPeriod, daysBetween, daysSince, localLabel, localMonth, localStart, localTime, monthPeriod,
  periodAt, periodMinutesPerDay, periodMinutesUntil, todayIn, utcOffsetMinutes, yearPeriod, zoneOffsetMs,
} from './time.ts';

const H = 3_600_000;
const NY = 'America/New_York';

describe('station-local time (the one implementation: server and simulator)', () => {
  it('knows a zone\'s offset on both sides of a DST change, cached or not', () => {
    const before = Date.UTC(2024, 2, 10, 6, 59); // 01:59 EST
    const after = Date.UTC(2024, 2, 10, 7, 0); // 03:00 EDT
    for (let i = 0; i < 2; i++) {
      expect(zoneOffsetMs(NY, before)).toBe(-5 * H);
      expect(zoneOffsetMs(NY, after)).toBe(-4 * H);
    }
    expect(utcOffsetMinutes(after, NY)).toBe(-240);
    expect(zoneOffsetMs('Asia/Kolkata', Date.UTC(2024, 0, 1))).toBe(5.5 * H);
  });

  it('a spring-forward day has 23 hours, a fall-back day 25, a Shanghai day 24', () => {
    const spring = dayPeriod(NY, '2024-03-10');
    expect(spring.start).toBe(Date.UTC(2024, 2, 10, 5));
    expect((spring.end - spring.start) / H).toBe(23);
    const fall = dayPeriod(NY, '2024-11-03');
    expect((fall.end - fall.start) / H).toBe(25);
    expect(bucketStarts(NY, 'hour', fall.start, fall.end)).toHaveLength(25);
    const sh = dayPeriod('Asia/Shanghai', '2024-06-01');
    expect(sh).toEqual({ date: '2024-06-01', start: Date.UTC(2024, 4, 31, 16), end: Date.UTC(2024, 5, 1, 16) });
  });

  it('months and years start at local midnight; labels and buckets are local', () => {
    const m = monthPeriod('Asia/Shanghai', '2024-02-15');
    expect(m.start).toBe(Date.UTC(2024, 0, 31, 16));
    expect(m.end).toBe(Date.UTC(2024, 1, 29, 16));
    expect(localMonth('Asia/Shanghai', m.start + 1)).toEqual({ start: m.start, end: m.end });
    const y = yearPeriod('Asia/Shanghai', '2024-07-01');
    expect(bucketStarts('Asia/Shanghai', 'month', y.start, y.end).map((t) => localLabel('Asia/Shanghai', t, 'month'))).toEqual(
      Array.from({ length: 12 }, (_, i) => `2024-${String(i + 1).padStart(2, '0')}`),
    );
    expect(localLabel('Asia/Shanghai', m.start, 'day')).toBe('02-01');
    expect(localStart('Asia/Shanghai', m.start + 90 * 60_000, 'hour')).toBe(m.start + H);
  });

  it('ZoneBuckets answers the hour and day of an instant', () => {
    const z = new ZoneBuckets(NY);
    const t = Date.UTC(2024, 10, 3, 6, 30); // 01:30 EDT, the first of two
    expect(z.dayOf(t)).toBe(Date.UTC(2024, 10, 3, 4));
    expect(z.hourOf(t)).toBe(Date.UTC(2024, 10, 3, 6));
    expect(z.hourOf(t + H)).toBe(Date.UTC(2024, 10, 3, 7)); // 01:30 EST, the second
  });

  it('wall-clock parts, today and day counts', () => {
    const lt = localTime(Date.UTC(2024, 11, 31, 16, 30, 30), 'Asia/Shanghai');
    expect(lt).toMatchObject({ year: 2025, month: 1, day: 1, hour: 0, minute: 30, weekday: 3, dayOfYear: 1, dateKey: '2025-01-01', monthKey: '2025-01' });
    expect(lt.minuteOfDay).toBeCloseTo(30.5);
    expect(todayIn('Asia/Shanghai', new Date(Date.UTC(2024, 11, 31, 16)))).toBe('2025-01-01');
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysSince('Asia/Shanghai', '2024-12-30', Date.UTC(2024, 11, 31, 16))).toBe(2);
    expect(daysSince('Asia/Shanghai', '2030-01-01', Date.UTC(2024, 11, 31, 16))).toBe(0);
    expect(daysSince('Asia/Shanghai', null, 0)).toBeNull();
  });

  it('price periods of a time-of-use schedule', () => {
    const schedule = [{ start: '00:00', period: 'valley' }, { start: '08:00', period: 'peak' }, { start: '20:00', period: 'flat' }] as const;
    expect(periodAt(schedule, 7 * 60 + 59)).toBe('valley');
    expect(periodAt(schedule, 8 * 60)).toBe('peak');
    expect(periodMinutesPerDay(schedule)).toEqual({ tip: 0, peak: 720, flat: 240, valley: 480, deepValley: 0 });
    expect(periodMinutesUntil(schedule, 9 * 60)).toEqual({ tip: 0, peak: 60, flat: 0, valley: 480, deepValley: 0 });
  });
});
