import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import {
  READING_TOLERANCE_MS, REMETER_ACCEPTED, REMETER_OCCUPIED, localDayStart, localTime,
  type MeterSegment, type PeriodReadingDetail, type PeriodReadingExport, type PeriodReadingPage, type PeriodReadingRecord, type PeriodRegisterLine,
  type QualityFlag, type ReMeterBody, type ReMeterState, type ReMeterTask, type ReadingSubsystem,
} from '@ess/contract';
import { device } from '../../db/schema/device.ts';
import { deviceChange } from '../../db/schema/device-registry.ts';
import { meterChangeReading, meterPeriodReading, meterReMeterTask, meterZeroReading } from '../../db/schema/meter-reading.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { assertSites, inSiteScope } from '../../platform/http/scope.ts';
import { tariffsForSite } from '../pricing/index.ts';
import { assertPeriod, meterPeriodEnergy, type MeterPeriodEnergy } from './period-energy.ts';
import { readAroundChange, readAtInstants } from './reading.read.ts';
import {
  SETTLE_MS, addDays, datesFrom, fromStored, metersWhere, registersRecord, toStored, type MeterInfo,
} from './zero-reading.service.ts';

/**
 * The subsystems' period readings (issue 18 item 3): one meter (storage, PV or charging-pile
 * meter), one period of station-local dates — by default each past month, written by the sweep —
 * with the registers at both ends, the normalised differences, flags per register and the
 * replacement segments. Re-meter reads a period again from the stored telemetry as a background
 * task with progress (meter.jobs.ts runs it); at most one task per meter and period is queued or
 * running (a partial unique index), a second request is refused with TASK_BUSY.
 */

export const SUBSYSTEM_PURPOSE: Record<ReadingSubsystem, 'storage' | 'pv' | 'pile'> = { storage: 'storage', pv: 'pv', pile: 'pile' };
/** A task running longer than this is taken as lost (its server stopped) and failed, so the meter and period are free again. */
export const REMETER_STALE_MS = 30 * 60_000;
export const REMETER_JOB = 'meter.remeter';

// ── Writing ───────────────────────────────────────────────────────────────────────────

const toNumbers = (e: MeterPeriodEnergy) => ({
  start: e.registers.map((r) => r.start),
  end: e.registers.map((r) => r.end),
  diff: e.registers.map((r) => r.difference),
});

/** Computes and stores (replacing) one meter's period reading; answers its id and whether the figures changed. */
export async function writePeriodReading(
  ctx: AppContext, subsystem: ReadingSubsystem, m: MeterInfo, from: string, to: string, now = Date.now(),
): Promise<{ id: number; changed: boolean }> {
  const e = await meterPeriodEnergy(ctx, m, from, to, now);
  const n = toNumbers(e);
  const flags = Object.fromEntries(e.registers.map((r) => [r.register, r.flags]));
  const values = {
    subsystem, deviceId: m.id, siteId: m.siteId, periodStart: from, periodEnd: to, startAt: e.startAt, endAt: e.endAt,
    startRegisters: toStored(n.start), endRegisters: toStored(n.end), differences: toStored(n.diff), quality: e.quality, flags,
    segments: e.segments as unknown[], readAt: new Date(now),
  };
  const [before] = await ctx.db.select().from(meterPeriodReading)
    .where(and(eq(meterPeriodReading.deviceId, m.id), eq(meterPeriodReading.periodStart, from), eq(meterPeriodReading.periodEnd, to)));
  const [row] = await ctx.db.insert(meterPeriodReading).values(values)
    .onConflictDoUpdate({
      target: [meterPeriodReading.deviceId, meterPeriodReading.periodStart, meterPeriodReading.periodEnd],
      set: {
        startAt: values.startAt, endAt: values.endAt, startRegisters: values.startRegisters, endRegisters: values.endRegisters,
        differences: values.differences, quality: values.quality, flags: values.flags, segments: values.segments, readAt: values.readAt,
      },
    })
    .returning({ id: meterPeriodReading.id });
  const same = (a: (string | null)[] | null | undefined, b: (string | null)[]) =>
    JSON.stringify(fromStored(a ?? null)) === JSON.stringify(fromStored(b));
  const changed = !before || !same(before.startRegisters, values.startRegisters) || !same(before.endRegisters, values.endRegisters)
    || !same(before.differences, values.differences) || canonical(before.flags) !== canonical(flags);
  return { id: row!.id, changed };
}

/** JSON with sorted keys (jsonb keeps its own key order). */
const canonical = (o: Record<string, unknown>) => JSON.stringify(Object.keys(o).sort().map((k) => [k, o[k]]));

/** The station-local months [first, last] of dates. */
function monthsBetween(from: string, to: string): { start: string; end: string }[] {
  const out: { start: string; end: string }[] = [];
  let y = Number(from.slice(0, 4));
  let mo = Number(from.slice(5, 7));
  for (;;) {
    const start = `${y}-${String(mo).padStart(2, '0')}-01`;
    if (start > to) break;
    mo += 1;
    if (mo > 12) {
      mo = 1;
      y += 1;
    }
    const next = `${y}-${String(mo).padStart(2, '0')}-01`;
    out.push({ start, end: addDays(next, -1) });
  }
  return out;
}

/**
 * The monthly period readings of every subsystem meter: each whole past month from the month of
 * the meter's first zero reading that has no reading yet, once its end is settled.
 */
export async function sweepPeriodReadings(ctx: AppContext, now = Date.now()): Promise<number> {
  const meters = await metersWhere(ctx.db, inArray(device.meterPurpose, ['storage', 'pv', 'pile']));
  let written = 0;
  for (const m of meters) {
    const [first] = await ctx.db.select({ d: sql<string | null>`min(${meterZeroReading.readingDate})` }).from(meterZeroReading).where(eq(meterZeroReading.deviceId, m.id));
    if (!first?.d) continue;
    const today = localTime(now, m.timeZone).dateKey;
    const have = new Set((await ctx.db.select({ s: meterPeriodReading.periodStart, e: meterPeriodReading.periodEnd }).from(meterPeriodReading)
      .where(eq(meterPeriodReading.deviceId, m.id))).map((r) => `${r.s}/${r.e}`));
    for (const p of monthsBetween(first.d, today)) {
      const endAt = localDayStart(m.timeZone, addDays(p.end, 1));
      if (now < endAt + READING_TOLERANCE_MS + SETTLE_MS || have.has(`${p.start}/${p.end}`)) continue;
      await writePeriodReading(ctx, m.meterPurpose as ReadingSubsystem, m, p.start, p.end, now);
      written += 1;
    }
  }
  return written;
}

// ── Lists ─────────────────────────────────────────────────────────────────────────────

const taskRecord = (t: typeof meterReMeterTask.$inferSelect): ReMeterTask => ({
  id: t.id, deviceId: t.deviceId, subsystem: t.subsystem as ReadingSubsystem, periodStart: t.periodStart, periodEnd: t.periodEnd,
  state: t.state as ReMeterState, progress: t.progress, message: t.state === 'queued' || t.state === 'running' ? REMETER_ACCEPTED : '',
  startedAt: t.startedAt?.toISOString() ?? null, endedAt: t.endedAt?.toISOString() ?? null, changed: t.changed, error: t.error,
  createdAt: t.createdAt.toISOString(),
});

type PeriodFilter = Omit<PeriodReadingExport, 'sortField' | 'sortOrder'> & { subsystem: ReadingSubsystem };
const periodList = defineListQuery({
  table: meterPeriodReading,
  columns: {
    id: meterPeriodReading.id, subsystem: meterPeriodReading.subsystem, siteId: meterPeriodReading.siteId, siteName: site.name, timeZone: site.timeZone,
    deviceId: meterPeriodReading.deviceId, deviceCode: device.code, deviceName: device.name, periodStart: meterPeriodReading.periodStart,
    periodEnd: meterPeriodReading.periodEnd, startAt: meterPeriodReading.startAt, endAt: meterPeriodReading.endAt,
    start: meterPeriodReading.startRegisters, end: meterPeriodReading.endRegisters, difference: meterPeriodReading.differences,
    quality: meterPeriodReading.quality, flags: meterPeriodReading.flags, readAt: meterPeriodReading.readAt,
  },
  joins: [{ table: site, on: eq(site.id, meterPeriodReading.siteId) }, { table: device, on: eq(device.id, meterPeriodReading.deviceId) }],
  scope: (db, user) => inSiteScope(meterPeriodReading.siteId, db, user),
  filter: (f: PeriodFilter) => [
    eq(meterPeriodReading.subsystem, f.subsystem),
    f.siteId ? eq(meterPeriodReading.siteId, f.siteId) : undefined,
    f.deviceId ? eq(meterPeriodReading.deviceId, f.deviceId) : undefined,
    // Periods overlapping the dates asked.
    f.startDate ? gte(meterPeriodReading.periodEnd, f.startDate) : undefined,
    f.endDate ? lte(meterPeriodReading.periodStart, f.endDate) : undefined,
    f.quality ? eq(meterPeriodReading.quality, f.quality) : undefined,
  ],
  orderBy: [desc(meterPeriodReading.periodStart), asc(site.name), asc(device.name), asc(meterPeriodReading.id)],
  sortable: {
    periodStart: meterPeriodReading.periodStart, siteName: site.name, deviceName: device.name, deviceCode: device.code,
    quality: meterPeriodReading.quality, readAt: meterPeriodReading.readAt,
  },
});
type PeriodRow = Awaited<ReturnType<typeof periodList.rows>>[number];

async function withTasks(ctx: AppContext, rows: PeriodRow[]): Promise<PeriodReadingRecord[]> {
  const tasks = rows.length
    ? await ctx.db.select().from(meterReMeterTask).where(inArray(meterReMeterTask.deviceId, [...new Set(rows.map((r) => r.deviceId))]))
      .orderBy(desc(meterReMeterTask.createdAt), desc(meterReMeterTask.id))
    : [];
  return rows.map((r) => {
    const task = tasks.find((t) => t.deviceId === r.deviceId && t.periodStart === r.periodStart && t.periodEnd === r.periodEnd);
    return {
      ...r,
      subsystem: r.subsystem as ReadingSubsystem,
      startAt: r.startAt.toISOString(), endAt: r.endAt.toISOString(), readAt: r.readAt.toISOString(),
      start: registersRecord(fromStored(r.start)), end: registersRecord(fromStored(r.end)), difference: registersRecord(fromStored(r.difference)),
      quality: r.quality as QualityFlag,
      task: task ? taskRecord(task) : null,
    };
  });
}

export async function periodPage(ctx: AppContext, user: AuthUser, subsystem: ReadingSubsystem, b: PeriodReadingPage) {
  if (b.siteId) await assertSites(ctx.db, user, [b.siteId]);
  const page = await periodList.page(ctx.db, user, { ...b, subsystem });
  return { ...page, records: await withTasks(ctx, page.records) };
}

export const PERIOD_EXPORT_MAX = 50_000;
export async function periodRows(ctx: AppContext, user: AuthUser, subsystem: ReadingSubsystem, b: PeriodReadingExport) {
  if (b.siteId) await assertSites(ctx.db, user, [b.siteId]);
  return withTasks(ctx, await periodList.list(ctx.db, user, { ...b, subsystem }, PERIOD_EXPORT_MAX));
}

// ── Detail: prices and amounts ────────────────────────────────────────────────────────

/** A price as integer micro-units (prices are stored to at most 6 decimals). */
const micro = (price: number) => BigInt(Math.round(price * 1e6));
/** Wh × micro-units (1e-9 of the currency) → cents, half away from zero, as decimal text. */
function centsText(nano: bigint): string {
  const neg = nano < 0n;
  const abs = neg ? -nano : nano;
  const cents = (abs + 5_000_000n) / 10_000_000n;
  const text = `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
  return neg && cents !== 0n ? `-${text}` : text;
}
/** micro-units per kWh → decimal text, trailing zeros trimmed to at least 2 decimals. */
function priceText(microPerKwh: bigint): string {
  const neg = microPerKwh < 0n;
  const abs = neg ? -microPerKwh : microPerKwh;
  let frac = String(abs % 1_000_000n).padStart(6, '0').replace(/0+$/, '');
  if (frac.length < 2) frac = frac.padEnd(2, '0');
  return `${neg ? '-' : ''}${abs / 1_000_000n}.${frac}`;
}

/**
 * Prices and amounts of a period, per register: each day's normalised energy × the price of the
 * register's period in force that day (charging-pile meters: plus the service fee), summed exactly
 * and rounded to the cent once. A register whose price changed within the period shows the
 * energy-weighted average price (priceChanged). The total amount: storage discharge (reverse) −
 * charge (forward); PV generation (forward) at the buy price; piles delivered energy (forward).
 */
async function pricedLines(ctx: AppContext, subsystem: ReadingSubsystem, e: MeterPeriodEnergy, stored: { start: (number | null)[]; end: (number | null)[]; diff: (number | null)[] }) {
  const tariffs = await tariffsForSite(ctx, e.siteId, e.from, e.to);
  const byDate = new Map(tariffs.map((t) => [t.date, t]));
  const currency = tariffs.find((t) => t.template)?.template?.currency ?? null;
  let total = 0n;
  let anyPrice = false;
  const lines: PeriodRegisterLine[] = e.registers.map((r, i) => {
    const base = { register: r.register, direction: r.direction, period: r.period, start: stored.start[i] ?? null, end: stored.end[i] ?? null, difference: stored.diff[i] ?? 0, flags: r.flags };
    if (!r.period) return { ...base, price: null, priceChanged: false, amount: null };
    let nano = 0n;
    let wh = 0n;
    const seen = new Set<bigint>();
    let priced = true;
    for (const d of e.days) {
      const t = byDate.get(d.date);
      const p = t?.prices?.[r.period];
      const dayWh = BigInt(Math.round((d.difference[r.register] ?? 0) * 1000));
      if (p === null || p === undefined) {
        if (dayWh !== 0n) priced = false;
        continue;
      }
      const fee = subsystem === 'pile' && r.direction === 'forward' ? micro(t?.serviceFee ?? 0) : 0n;
      const unit = micro(p) + fee;
      seen.add(unit);
      nano += dayWh * unit;
      wh += dayWh;
    }
    if (!priced || seen.size === 0) return { ...base, price: null, priceChanged: false, amount: null };
    anyPrice = true;
    const unit = seen.size === 1 ? [...seen][0]! : wh === 0n ? [...seen][seen.size - 1]! : (nano + wh / 2n) / wh;
    const sign = subsystem === 'storage' ? (r.direction === 'reverse' ? 1n : -1n) : r.direction === 'forward' ? 1n : 0n;
    total += sign * nano;
    return { ...base, price: priceText(unit), priceChanged: seen.size > 1, amount: centsText(nano) };
  });
  return { lines, currency, amount: anyPrice ? centsText(total) : null };
}

export async function periodOne(ctx: AppContext, user: AuthUser, subsystem: ReadingSubsystem, id: number): Promise<PeriodReadingDetail> {
  const [row] = await periodList.rows(ctx.db, and(eq(meterPeriodReading.id, id), eq(meterPeriodReading.subsystem, subsystem), inSiteScope(meterPeriodReading.siteId, ctx.db, user)));
  if (!row) throw new AppError('NOT_FOUND', '抄表记录不存在');
  const [rec] = await withTasks(ctx, [row]);
  const [m] = await metersWhere(ctx.db, eq(device.id, row.deviceId));
  const e = await meterPeriodEnergy(ctx, m!, row.periodStart, row.periodEnd);
  const stored = { start: fromStored(row.start), end: fromStored(row.end), diff: fromStored(row.difference) };
  const { lines, currency, amount } = await pricedLines(ctx, subsystem, e, stored);
  return {
    ...rec!,
    flags: row.flags,
    currency,
    lines,
    amount,
    segments: (await storedSegments(ctx, row.id)) ?? e.segments,
    days: e.days.map((d) => ({ date: d.date, quality: d.quality, difference: d.difference })),
  };
}

async function storedSegments(ctx: AppContext, id: number): Promise<MeterSegment[] | null> {
  const [r] = await ctx.db.select({ s: meterPeriodReading.segments }).from(meterPeriodReading).where(eq(meterPeriodReading.id, id));
  return r ? (r.s as MeterSegment[]) : null;
}

// ── Re-meter ──────────────────────────────────────────────────────────────────────────

/** The meter of a subsystem the caller may see, else 404 (unknown, not a meter of this subsystem, or another company's). */
async function scopedMeter(ctx: AppContext, user: AuthUser, subsystem: ReadingSubsystem, deviceId: number): Promise<MeterInfo> {
  const [m] = await metersWhere(ctx.db, and(eq(device.id, deviceId), eq(device.meterPurpose, SUBSYSTEM_PURPOSE[subsystem]), inSiteScope(device.siteId, ctx.db, user)));
  if (!m) throw new AppError('NOT_FOUND', '电表不存在');
  return m;
}

const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/**
 * Queues a re-meter of one meter and period and answers at once (REMETER_ACCEPTED); while a task
 * of the same meter and period is queued or running, TASK_BUSY (REMETER_OCCUPIED). The period
 * must have ended (its end settled) so that there is something to read.
 */
export async function requestReMeter(ctx: AppContext, user: AuthUser, subsystem: ReadingSubsystem, b: ReMeterBody): Promise<ReMeterTask> {
  assertPeriod(b.periodStart, b.periodEnd);
  const m = await scopedMeter(ctx, user, subsystem, b.deviceId);
  const startAt = localDayStart(m.timeZone, b.periodStart);
  if (startAt > Date.now()) throw new AppError('RULE_VIOLATION', '抄表周期尚未开始');
  await failStaleTasks(ctx);
  let task: typeof meterReMeterTask.$inferSelect;
  try {
    [task] = (await ctx.db.insert(meterReMeterTask).values({
      subsystem, deviceId: m.id, siteId: m.siteId, periodStart: b.periodStart, periodEnd: b.periodEnd, state: 'queued', progress: 0, userId: user.id,
    }).returning()) as [typeof meterReMeterTask.$inferSelect];
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('TASK_BUSY', REMETER_OCCUPIED);
    throw err;
  }
  await ctx.jobs.send(REMETER_JOB, { taskId: task.id });
  return taskRecord(task);
}

/** Fails tasks left queued or running past REMETER_STALE_MS (their server stopped). */
export async function failStaleTasks(ctx: AppContext, now = Date.now()): Promise<void> {
  await ctx.db.update(meterReMeterTask).set({ state: 'failed', error: '任务超时', endedAt: new Date(now) })
    .where(and(inArray(meterReMeterTask.state, ['queued', 'running']), lte(meterReMeterTask.createdAt, new Date(now - REMETER_STALE_MS))));
}

/**
 * Runs a re-meter task: claims it (queued → running, so a redelivered job does nothing), reads the
 * period's midnights again from the stored telemetry (replacing the stored zero readings; progress
 * up to 80 %), the readings around its replacements, then recomputes and stores the period
 * reading. Done: changed says whether the figures differ from before.
 */
export async function runReMeterTask(ctx: AppContext, taskId: number, now = Date.now()): Promise<void> {
  const [task] = await ctx.db.update(meterReMeterTask).set({ state: 'running', startedAt: new Date(now), progress: 1 })
    .where(and(eq(meterReMeterTask.id, taskId), eq(meterReMeterTask.state, 'queued'))).returning();
  if (!task) return;
  try {
    const [m] = await metersWhere(ctx.db, eq(device.id, task.deviceId));
    if (!m) throw new AppError('NOT_FOUND', '电表不存在');
    const dates = datesFrom(task.periodStart, addDays(task.periodEnd, 1));
    const CHUNK = 16;
    for (let i = 0; i < dates.length; i += CHUNK) {
      const chunk = dates.slice(i, i + CHUNK).map((d) => ({ d, t: localDayStart(m.timeZone, d) })).filter((x) => x.t + SETTLE_MS <= now);
      const read = await readAtInstants(ctx, m, chunk.map((c) => c.t));
      for (const c of chunk) {
        const r = read.get(c.t)!;
        if (r.quality !== 'measured' && now < c.t + READING_TOLERANCE_MS + SETTLE_MS) continue;
        await ctx.db.update(meterZeroReading).set({ registers: toStored(r.values), quality: r.quality, sourceTs: r.sourceTs })
          .where(and(eq(meterZeroReading.deviceId, m.id), eq(meterZeroReading.readingDate, c.d)));
      }
      const progress = Math.min(80, Math.round(((i + chunk.length) / dates.length) * 80));
      await ctx.db.update(meterReMeterTask).set({ progress }).where(eq(meterReMeterTask.id, task.id));
    }
    // The replacements within the period, read again.
    const startAt = new Date(localDayStart(m.timeZone, task.periodStart));
    const endAt = new Date(localDayStart(m.timeZone, addDays(task.periodEnd, 1)));
    const changes = await ctx.db.select({ id: deviceChange.id, changedAt: deviceChange.changedAt }).from(deviceChange)
      .where(and(eq(deviceChange.deviceId, m.id), gte(deviceChange.changedAt, startAt), lte(deviceChange.changedAt, endAt)));
    for (const c of changes) {
      const { oldEnd, newStart } = await readAroundChange(ctx, m, c.changedAt.getTime());
      if (oldEnd.quality === 'missing' && newStart.quality === 'missing') continue;
      await ctx.db.update(meterChangeReading).set({
        oldEnd: toStored(oldEnd.values), oldEndTs: oldEnd.sourceTs, newStart: toStored(newStart.values), newStartTs: newStart.sourceTs,
        quality: oldEnd.quality === 'measured' && newStart.quality === 'measured' ? 'measured' : 'estimated',
      }).where(eq(meterChangeReading.changeId, c.id));
    }
    await ctx.db.update(meterReMeterTask).set({ progress: 90 }).where(eq(meterReMeterTask.id, task.id));
    const { id, changed } = await writePeriodReading(ctx, task.subsystem as ReadingSubsystem, m, task.periodStart, task.periodEnd, now);
    await ctx.db.update(meterReMeterTask).set({ state: 'done', progress: 100, endedAt: new Date(), changed, periodReadingId: id }).where(eq(meterReMeterTask.id, task.id));
  } catch (err) {
    ctx.log.error({ err, taskId }, 're-meter failed');
    const message = err instanceof AppError ? err.message : '抄表失败';
    await ctx.db.update(meterReMeterTask).set({ state: 'failed', endedAt: new Date(), error: message.slice(0, 500) }).where(eq(meterReMeterTask.id, task.id));
  }
}

/** The latest task of a meter and period (tests and the console's progress). */
export async function latestTask(ctx: AppContext, deviceId: number, periodStart: string, periodEnd: string): Promise<ReMeterTask | null> {
  const [t] = await ctx.db.select().from(meterReMeterTask)
    .where(and(eq(meterReMeterTask.deviceId, deviceId), eq(meterReMeterTask.periodStart, periodStart), eq(meterReMeterTask.periodEnd, periodEnd)))
    .orderBy(desc(meterReMeterTask.createdAt), desc(meterReMeterTask.id)).limit(1);
  return t ? taskRecord(t) : null;
}

