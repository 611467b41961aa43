import { and, asc, eq, gte, lte } from 'drizzle-orm';
import {
  READING_MAX_DAYS, READING_REGISTERS, localDayStart, registerParts, worstQuality,
  type MeterPurpose, type MeterSegment, type PRICE_PERIODS, type QualityFlag, type ReadingDirection,
} from '@ess/contract';
import { device } from '../../db/schema/device.ts';
import { deviceChange } from '../../db/schema/device-registry.ts';
import { meterChangeReading, meterZeroReading } from '../../db/schema/meter-reading.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/http/errors.ts';
import { fromWh, normaliseRegister, toWh, type RegisterPoint } from './reading.normalise.ts';
import { meterLimitKw } from './reading.read.ts';
import {
  addDays, datesFrom, fillChangeReadings, fillZeroReadings, fromStored, metersWhere, registersRecord, type MeterInfo,
} from './zero-reading.service.ts';

/** What periodEnergy is asked: one station, one kind of meter, station-local dates inclusive. */
export interface PeriodEnergyQuery {
  siteId: number;
  /** The meters' purpose: storage, pv, pile (or main). */
  meterKind: MeterPurpose;
  /** Station-local date YYYY-MM-DD: the period starts at its 00:00. */
  from: string;
  /** Station-local date YYYY-MM-DD, inclusive: the period ends at the next day's 00:00. */
  to: string;
  /** Only this meter (it must be of the station and the kind); else every meter of the kind. */
  deviceId?: number;
}

/** One register over the period. */
export interface RegisterEnergy {
  /** Thing-model identifier: forwardActiveEnergy, forwardActiveEnergyPeak, … (READING_REGISTERS). */
  register: string;
  direction: ReadingDirection;
  /** Price period of the register; null for the total. */
  period: (typeof PRICE_PERIODS)[number] | null;
  /** The reading at the period's start (from's 00:00) and end (to + 1 day 00:00); null where missing. */
  start: number | null;
  end: number | null;
  /**
   * The normalised energy (kWh, 0.001; `difference.toFixed(3)` is its exact decimal): Σ of the
   * days' normalised increments — never negative, spikes clamped, a replacement split into
   * old end − old start + new end − new start. With a replacement in the period it is not
   * end − start.
   */
  difference: number;
  /** Every flag met by this register in the period; ['measured'] when all was read as it should. */
  flags: QualityFlag[];
}

/** One station-local day of a meter: the normalised energy per register (for a tariff that changes within the period). */
export interface DayEnergy {
  date: string;
  /** register → kWh (0.001) of this day. */
  difference: Record<string, number>;
  /** register → flags of this day's increment. */
  flags: Record<string, QualityFlag[]>;
  /** The worst flag of the day. */
  quality: QualityFlag;
}

/** One meter over the period. */
export interface MeterPeriodEnergy {
  deviceId: number;
  deviceCode: string;
  deviceName: string;
  meterPurpose: MeterPurpose;
  siteId: number;
  timeZone: string;
  from: string;
  to: string;
  startAt: Date;
  endAt: Date;
  /** The twelve registers in READING_REGISTERS order. */
  registers: RegisterEnergy[];
  /** The same by identifier. */
  byRegister: Record<string, RegisterEnergy>;
  /** The meter hardware's segments: one, or one more per replacement within the period. */
  segments: MeterSegment[];
  /** Every day of the period in order; Σ days[i].difference[r] = byRegister[r].difference exactly. */
  days: DayEnergy[];
  /** The worst flag of the period. */
  quality: QualityFlag;
}

/**
 * The normalised energy of each meter of a kind at a station over station-local dates `from`..`to`
 * (inclusive), per register, with the readings at both ends, the quality flags, the replacement
 * segments and the per-day split (issue 18 item 4; DOMAIN.md §3). Periods are additive: the
 * energy of a month equals the sum of its halves, so a settlement may price each day (or each
 * tariff version's days) separately from `days` and still agree with the month's total.
 *
 * Built from the stored zero readings (meter_zero_reading); a day not yet read is read from the
 * stored telemetry on the way and stored (as the daily job would), so a caller needs nothing run
 * before. No data scope is checked here: the caller has already checked the user's access to
 * `siteId`. Throws AppError NOT_FOUND for an unknown station or meter, RULE_VIOLATION when
 * `to` is before `from` or the range is longer than READING_MAX_DAYS. Meters without any reading
 * in the period still appear, every register 0 and flagged missing.
 */
export async function periodEnergy(ctx: AppContext, q: PeriodEnergyQuery): Promise<MeterPeriodEnergy[]> {
  assertPeriod(q.from, q.to);
  const [s] = await ctx.db.select({ id: site.id }).from(site).where(eq(site.id, q.siteId));
  if (!s) throw new AppError('NOT_FOUND', '站点不存在');
  const meters = await metersWhere(ctx.db, and(eq(device.siteId, q.siteId), eq(device.meterPurpose, q.meterKind), q.deviceId ? eq(device.id, q.deviceId) : undefined));
  if (q.deviceId && !meters.length) throw new AppError('NOT_FOUND', '电表不存在');
  const out: MeterPeriodEnergy[] = [];
  for (const m of meters) out.push(await meterPeriodEnergy(ctx, m, q.from, q.to));
  return out;
}

/** Refuses a period ending before it starts or longer than READING_MAX_DAYS (406). */
export function assertPeriod(from: string, to: string): void {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) throw new AppError('INVALID_PARAM', '日期格式不正确，应为YYYY-MM-DD');
  if (to < from) throw new AppError('RULE_VIOLATION', '结束日期不能早于开始日期');
  if ((Date.parse(to) - Date.parse(from)) / 86_400_000 >= READING_MAX_DAYS) throw new AppError('RULE_VIOLATION', `日期范围过长：最多${READING_MAX_DAYS}天`);
}

/** How far around the period the readings are looked at (a missing midnight at an edge is bridged from there). */
const PAD_DAYS = 31;

/** One meter's period (see periodEnergy). */
export async function meterPeriodEnergy(ctx: AppContext, m: MeterInfo, from: string, to: string, now = Date.now()): Promise<MeterPeriodEnergy> {
  const wFrom = addDays(from, -PAD_DAYS);
  const wTo = addDays(to, 1 + PAD_DAYS);
  await fillChangeReadings(ctx, m, now);
  await fillZeroReadings(ctx, m, wFrom, wTo, now);
  const zeros = await ctx.db
    .select({ date: meterZeroReading.readingDate, readAt: meterZeroReading.readAt, quality: meterZeroReading.quality, registers: meterZeroReading.registers })
    .from(meterZeroReading)
    .where(and(eq(meterZeroReading.deviceId, m.id), gte(meterZeroReading.readingDate, wFrom), lte(meterZeroReading.readingDate, wTo)));
  const zeroOf = new Map(zeros.map((z) => [z.date, { t: z.readAt.getTime(), quality: z.quality as QualityFlag, values: fromStored(z.registers) }]));
  const changes = await ctx.db
    .select({
      id: deviceChange.id, changedAt: deviceChange.changedAt, oldCode: deviceChange.oldCode, newCode: deviceChange.newCode,
      oldEnd: meterChangeReading.oldEnd, newStart: meterChangeReading.newStart, quality: meterChangeReading.quality,
    })
    .from(deviceChange)
    .leftJoin(meterChangeReading, eq(meterChangeReading.changeId, deviceChange.id))
    .where(eq(deviceChange.deviceId, m.id))
    .orderBy(asc(deviceChange.changedAt), asc(deviceChange.id));
  const changeTimes = changes.map((c) => c.changedAt.getTime());
  const segmentOf = (t: number) => changeTimes.filter((c) => c <= t).length;

  // Points: the stored zero readings, unknown ones for past midnights not stored, and each change's two readings.
  const windowDates = datesFrom(wFrom, wTo);
  const pointsOf = (i: number): RegisterPoint[] => {
    const pts: RegisterPoint[] = [];
    for (const d of windowDates) {
      const z = zeroOf.get(d);
      const t = z?.t ?? localDayStart(m.timeZone, d);
      if (!z && t > now) continue;
      const v = z?.values[i] ?? null;
      pts.push({ t, wh: v === null ? null : toWh(v), segment: segmentOf(t), quality: z && v !== null ? z.quality : 'missing' });
    }
    changes.forEach((c, k) => {
      const t = c.changedAt.getTime();
      const oldV = c.oldEnd ? fromStored(c.oldEnd)[i] ?? null : null;
      const newV = c.newStart ? fromStored(c.newStart)[i] ?? null : null;
      const q = (c.quality ?? 'missing') as QualityFlag;
      pts.push({ t, wh: oldV === null ? null : toWh(oldV), segment: k, quality: oldV === null ? 'missing' : q === 'missing' ? 'estimated' : q });
      pts.push({ t, wh: newV === null ? null : toWh(newV), segment: k + 1, quality: newV === null ? 'missing' : q === 'missing' ? 'estimated' : q });
    });
    return pts;
  };

  const periodDates = datesFrom(from, to);
  const bounds = [...periodDates, addDays(to, 1)].map((d) => zeroOf.get(d)?.t ?? localDayStart(m.timeZone, d));
  const startAt = bounds[0]!;
  const endAt = bounds[bounds.length - 1]!;
  const limitKw = await meterLimitKw(ctx.db, m.siteId, m.meterPurpose);
  const first = segmentOf(startAt);
  const last = segmentOf(endAt - 1);
  const segIds = Array.from({ length: last - first + 1 }, (_, k) => first + k);

  const startZero = zeroOf.get(from);
  const endZero = zeroOf.get(addDays(to, 1));
  const dayDiff: Record<string, number>[] = periodDates.map(() => ({}));
  const dayFlags: Record<string, QualityFlag[]>[] = periodDates.map(() => ({}));
  const segDiff: Record<string, number>[] = segIds.map(() => ({}));
  const registers: RegisterEnergy[] = READING_REGISTERS.map((register, i) => {
    const r = normaliseRegister({ bounds, points: pointsOf(i), changes: changeTimes, limitKw });
    let total = 0;
    const flags = new Set<QualityFlag>();
    r.days.forEach((wh, d) => {
      total += wh;
      dayDiff[d]![register] = fromWh(wh);
      dayFlags[d]![register] = r.flags[d]!.length ? r.flags[d]! : ['measured'];
      for (const f of r.flags[d]!) flags.add(f);
    });
    segIds.forEach((s, k) => {
      segDiff[k]![register] = fromWh(r.bySegment.reduce((a, row) => a + (row[s] ?? 0), 0));
    });
    const { direction, period } = registerParts(register);
    return {
      register, direction, period,
      start: startZero?.values[i] ?? null,
      end: endZero?.values[i] ?? null,
      difference: fromWh(total),
      flags: flags.size ? orderFlags(flags) : ['measured'],
    };
  });
  const days: DayEnergy[] = periodDates.map((date, d) => ({
    date, difference: dayDiff[d]!, flags: dayFlags[d]!, quality: worstQuality(Object.values(dayFlags[d]!).flat()),
  }));
  const values = (v: (number | null)[] | null | undefined) => registersRecord(v ?? READING_REGISTERS.map(() => null));
  const segments: MeterSegment[] = segIds.map((s, k) => {
    const opening = s === first ? null : changes[s - 1]!;
    const closing = s === last ? null : changes[s]!;
    return {
      changeId: opening?.id ?? null,
      code: changes[s]?.oldCode ?? m.code,
      startAt: new Date(opening ? opening.changedAt.getTime() : startAt).toISOString(),
      endAt: new Date(closing ? closing.changedAt.getTime() : endAt).toISOString(),
      start: values(opening ? fromStored(opening.newStart) : startZero?.values),
      end: values(closing ? fromStored(closing.oldEnd) : endZero?.values),
      difference: segDiff[k]!,
    };
  });
  return {
    deviceId: m.id, deviceCode: m.code, deviceName: m.name, meterPurpose: m.meterPurpose ?? 'main', siteId: m.siteId, timeZone: m.timeZone,
    from, to, startAt: new Date(startAt), endAt: new Date(endAt),
    registers, byRegister: Object.fromEntries(registers.map((r) => [r.register, r])), segments, days,
    quality: worstQuality(registers.flatMap((r) => r.flags)),
  };
}

const ORDER: QualityFlag[] = ['measured', 'estimated', 'spike_clamped', 'meter_replaced', 'missing'];
const orderFlags = (s: Set<QualityFlag>) => [...s].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
