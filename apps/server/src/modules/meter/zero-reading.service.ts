import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import {
  READING_REGISTERS, READING_TOLERANCE_MS, localDayStart, localTime, type MeterPurpose, type QualityFlag, type ZeroReadingExport, type ZeroReadingPage,
  type ZeroReadingRecord,
} from '@ess/contract';
import { device } from '../../db/schema/device.ts';
import { deviceChange } from '../../db/schema/device-registry.ts';
import { meterChangeReading, meterZeroReading } from '../../db/schema/meter-reading.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { assertSites, inSiteScope } from '../../platform/http/scope.ts';
import { readAroundChange, readAtInstants, type ReadValues } from './reading.read.ts';

/**
 * Zero readings (issue 18 item 1): every meter's registers at 00:00 station-local time of each
 * day, written by the sweep (meter.jobs.ts) from the stored telemetry. One row per meter and date
 * (a unique index; inserts skip an existing row), so several instances and repeated sweeps write
 * each reading once, and after downtime the sweep fills every day it missed.
 * A measured reading is written as soon as its midnight has passed and the rollups had time to
 * take the last reports (SETTLE_MS); anything else waits until the tolerance after midnight has
 * passed too, so a report just after midnight can still make it estimated rather than missing.
 */

/** The ingest flushes rollups within seconds; two minutes is plenty. */
export const SETTLE_MS = 2 * 60_000;
/** How far back a meter without any zero reading is read (the 5-minute rollups' retention). */
export const ZERO_CATCH_UP_DAYS = 93;

const DAY = 86_400_000;
/** YYYY-MM-DD plus n days (calendar arithmetic). */
export const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
export const datesFrom = (from: string, to: string) => {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
};

export interface MeterInfo {
  id: number;
  productId: number;
  siteId: number;
  siteName: string;
  timeZone: string;
  code: string;
  name: string;
  meterPurpose: MeterPurpose | null;
}

const meterColumns = {
  id: device.id, productId: device.productId, siteId: device.siteId, siteName: site.name, timeZone: site.timeZone,
  code: device.code, name: device.name, meterPurpose: sql<MeterPurpose | null>`${device.meterPurpose}`,
};

/** Meters (devices of type meter) under a condition. */
export async function metersWhere(db: DbOrTx, where?: SQL): Promise<MeterInfo[]> {
  return db.select(meterColumns).from(device).innerJoin(site, eq(site.id, device.siteId))
    .where(and(eq(device.type, 'meter'), where)).orderBy(asc(device.id));
}

/**
 * Registers as stored (numeric[] text) → numbers. Drizzle reads a NULL element of a numeric array
 * as the text 'null' (String(null)), so anything not a finite number is null.
 */
export const fromStored = (v: (string | null)[] | null): (number | null)[] =>
  (v ?? []).map((x) => (x === null || x === 'null' || !Number.isFinite(Number(x)) ? null : Number(x)));
export const toStored = (v: (number | null)[]): (string | null)[] => v.map((x) => (x === null ? null : x.toFixed(3)));

/** The first local date whose midnight the meter's reports reach (within the tolerance); null when it never reported. */
async function firstReadableDate(ctx: AppContext, m: MeterInfo): Promise<string | null> {
  const { rows } = await ctx.database.sql.query<{ t: number | null }>(
    'select (extract(epoch from min(first_ts)) * 1000)::float8 as t from telemetry_1d where device_id = $1',
    [m.id],
  );
  const t = rows[0]?.t;
  if (t === null || t === undefined) return null;
  const reach = Number(t) - READING_TOLERANCE_MS;
  const date = localTime(reach, m.timeZone).dateKey;
  return localDayStart(m.timeZone, date) >= reach ? date : addDays(date, 1);
}

/** The hardware code at an instant: the old code of the first change after it, else the current one. */
function codeAt(m: MeterInfo, changes: { changedAt: Date; oldCode: string }[], t: number): string {
  return changes.find((c) => c.changedAt.getTime() > t)?.oldCode ?? m.code;
}

/** Whether a reading of instant `t` read now may be written (see the module comment). */
const settled = (r: ReadValues, t: number, now: number) =>
  now >= t + SETTLE_MS && (r.quality === 'measured' || now >= t + READING_TOLERANCE_MS + SETTLE_MS);

/**
 * Writes the meter's zero readings of the dates `from`..`to` that are not stored yet and can be
 * written now (settled, and not before the meter's first report). Answers how many it wrote.
 */
export async function fillZeroReadings(ctx: AppContext, m: MeterInfo, from: string, to: string, now = Date.now()): Promise<number> {
  if (from > to) return 0;
  const first = await firstReadableDate(ctx, m);
  if (first === null) return 0;
  const start = from < first ? first : from;
  if (start > to) return 0;
  const have = new Set(
    (await ctx.db.select({ d: meterZeroReading.readingDate }).from(meterZeroReading)
      .where(and(eq(meterZeroReading.deviceId, m.id), gte(meterZeroReading.readingDate, start), lte(meterZeroReading.readingDate, to)))).map((r) => r.d),
  );
  const wanted = datesFrom(start, to).filter((d) => !have.has(d)).map((d) => ({ d, t: localDayStart(m.timeZone, d) })).filter((x) => x.t + SETTLE_MS <= now);
  if (!wanted.length) return 0;
  const read = await readAtInstants(ctx, m, wanted.map((w) => w.t));
  const changes = await ctx.db.select({ changedAt: deviceChange.changedAt, oldCode: deviceChange.oldCode }).from(deviceChange)
    .where(eq(deviceChange.deviceId, m.id)).orderBy(asc(deviceChange.changedAt));
  const rows = wanted
    .map((w) => ({ ...w, r: read.get(w.t)! }))
    .filter((w) => settled(w.r, w.t, now))
    .map((w) => ({
      deviceId: m.id, siteId: m.siteId, readingDate: w.d, readAt: new Date(w.t), sourceTs: w.r.sourceTs, quality: w.r.quality,
      registers: toStored(w.r.values), code: codeAt(m, changes, w.t),
    }));
  let written = 0;
  for (let i = 0; i < rows.length; i += 500) {
    const done = await ctx.db.insert(meterZeroReading).values(rows.slice(i, i + 500)).onConflictDoNothing().returning({ id: meterZeroReading.id });
    written += done.length;
  }
  return written;
}

/** Reads and stores the readings around each replacement of the meter not stored yet (once settled). */
export async function fillChangeReadings(ctx: AppContext, m: MeterInfo, now = Date.now()): Promise<number> {
  const pending = await ctx.db
    .select({ id: deviceChange.id, changedAt: deviceChange.changedAt, oldCode: deviceChange.oldCode, newCode: deviceChange.newCode })
    .from(deviceChange)
    .leftJoin(meterChangeReading, eq(meterChangeReading.changeId, deviceChange.id))
    .where(and(eq(deviceChange.deviceId, m.id), sql`${meterChangeReading.id} is null`));
  let written = 0;
  for (const c of pending) {
    const at = c.changedAt.getTime();
    if (now < at + READING_TOLERANCE_MS + SETTLE_MS) continue;
    const { oldEnd, newStart } = await readAroundChange(ctx, m, at);
    const order: QualityFlag[] = ['measured', 'estimated', 'missing'];
    const quality = order[Math.max(order.indexOf(oldEnd.quality), order.indexOf(newStart.quality))]!;
    const done = await ctx.db.insert(meterChangeReading).values({
      changeId: c.id, deviceId: m.id, siteId: m.siteId, changedAt: c.changedAt, oldCode: c.oldCode, newCode: c.newCode,
      oldEnd: toStored(oldEnd.values), oldEndTs: oldEnd.sourceTs, newStart: toStored(newStart.values), newStartTs: newStart.sourceTs, quality,
    }).onConflictDoNothing().returning({ id: meterChangeReading.id });
    written += done.length;
  }
  return written;
}

/**
 * Missing readings the meter's later reports may fill (late data: a gateway's buffer, an ingest
 * backlog, history written while the sweep ran): each missing reading within the catch-up window
 * is read again, and taken when it is no longer missing. Answers the dates that changed.
 */
export async function refillMissing(ctx: AppContext, m: MeterInfo, floor: string): Promise<string[]> {
  const rows = await ctx.db.select({ id: meterZeroReading.id, date: meterZeroReading.readingDate, readAt: meterZeroReading.readAt }).from(meterZeroReading)
    .where(and(eq(meterZeroReading.deviceId, m.id), eq(meterZeroReading.quality, 'missing'), gte(meterZeroReading.readingDate, floor)));
  if (!rows.length) return [];
  const read = await readAtInstants(ctx, m, rows.map((r) => r.readAt.getTime()));
  const changed: string[] = [];
  for (const r of rows) {
    const v = read.get(r.readAt.getTime());
    if (!v || v.quality === 'missing') continue;
    const done = await ctx.db.update(meterZeroReading).set({ registers: toStored(v.values), quality: v.quality, sourceTs: v.sourceTs })
      .where(and(eq(meterZeroReading.id, r.id), eq(meterZeroReading.quality, 'missing'))).returning({ id: meterZeroReading.id });
    if (done.length) changed.push(r.date);
  }
  return changed;
}

/**
 * The daily job's sweep: for every meter, the zero readings from the day after its last stored
 * one (or ZERO_CATCH_UP_DAYS back, or its first report) to today, its replacements' readings, and
 * the missing readings later reports now fill (`refilled`: dates by meter).
 */
export async function sweepZeroReadings(ctx: AppContext, now = Date.now(), where?: SQL): Promise<{ written: number; refilled: Map<number, string[]> }> {
  const refilled = new Map<number, string[]>();
  const meters = await metersWhere(ctx.db, where);
  if (!meters.length) return { written: 0, refilled };
  const last = new Map(
    (await ctx.db.select({ id: meterZeroReading.deviceId, d: sql<string>`max(${meterZeroReading.readingDate})` }).from(meterZeroReading)
      .where(inArray(meterZeroReading.deviceId, meters.map((m) => m.id))).groupBy(meterZeroReading.deviceId)).map((r) => [r.id, r.d]),
  );
  let written = 0;
  for (const m of meters) {
    const today = localTime(now, m.timeZone).dateKey;
    const floor = addDays(today, -ZERO_CATCH_UP_DAYS);
    const after = last.get(m.id);
    const from = after ? addDays(after, 1) : floor;
    written += await fillChangeReadings(ctx, m, now);
    written += await fillZeroReadings(ctx, m, from < floor ? floor : from, today, now);
    const dates = await refillMissing(ctx, m, floor);
    if (dates.length) refilled.set(m.id, dates);
  }
  return { written, refilled };
}

// ── Lists ─────────────────────────────────────────────────────────────────────────────

type ZeroFilter = Omit<ZeroReadingExport, 'sortField' | 'sortOrder'>;
const zeroList = defineListQuery({
  table: meterZeroReading,
  columns: {
    id: meterZeroReading.id, siteId: meterZeroReading.siteId, siteName: site.name, timeZone: site.timeZone, deviceId: meterZeroReading.deviceId,
    deviceCode: meterZeroReading.code, deviceName: device.name, meterPurpose: device.meterPurpose, readingDate: meterZeroReading.readingDate,
    readAt: meterZeroReading.readAt, sourceTime: meterZeroReading.sourceTs, quality: meterZeroReading.quality, registers: meterZeroReading.registers,
    createdAt: meterZeroReading.createdAt,
  },
  joins: [{ table: site, on: eq(site.id, meterZeroReading.siteId) }, { table: device, on: eq(device.id, meterZeroReading.deviceId) }],
  scope: (db, user) => inSiteScope(meterZeroReading.siteId, db, user),
  filter: (f: ZeroFilter) => [
    f.siteId ? eq(meterZeroReading.siteId, f.siteId) : undefined,
    f.deviceId ? eq(meterZeroReading.deviceId, f.deviceId) : undefined,
    f.meterPurpose ? eq(device.meterPurpose, f.meterPurpose) : undefined,
    f.startDate ? gte(meterZeroReading.readingDate, f.startDate) : undefined,
    f.endDate ? lte(meterZeroReading.readingDate, f.endDate) : undefined,
    f.quality ? eq(meterZeroReading.quality, f.quality) : undefined,
  ],
  orderBy: [desc(meterZeroReading.readingDate), asc(site.name), asc(device.name), asc(meterZeroReading.id)],
  sortable: {
    readingDate: meterZeroReading.readingDate, siteName: site.name, deviceName: device.name, deviceCode: meterZeroReading.code, quality: meterZeroReading.quality,
  },
  toRecord: (r): ZeroReadingRecord => ({ ...r, ...readingFields(r) }),
});

/** The fields a midnight and a timing reading share, as the contract gives them. */
export function readingFields(r: {
  meterPurpose: string | null; quality: string; readAt: Date; sourceTime: Date | null; createdAt: Date; registers: Parameters<typeof fromStored>[0];
}) {
  return {
    meterPurpose: r.meterPurpose as MeterPurpose | null,
    quality: r.quality as QualityFlag,
    readAt: r.readAt.toISOString(),
    sourceTime: r.sourceTime ? r.sourceTime.toISOString() : null,
    createdAt: r.createdAt.toISOString(),
    registers: registersRecord(fromStored(r.registers)),
  };
}

/** Stored register array → identifier → value. */
export function registersRecord(values: (number | null)[]): Record<string, number | null> {
  return Object.fromEntries(READING_REGISTERS.map((k, i) => [k, values[i] ?? null]));
}

export const ZERO_EXPORT_MAX = 50_000;
export async function zeroPage(ctx: AppContext, user: AuthUser, b: ZeroReadingPage) {
  if (b.siteId) await assertSites(ctx.db, user, [b.siteId]);
  return zeroList.page(ctx.db, user, b);
}
export async function zeroRows(ctx: AppContext, user: AuthUser, b: ZeroReadingExport) {
  if (b.siteId) await assertSites(ctx.db, user, [b.siteId]);
  return zeroList.list(ctx.db, user, b, ZERO_EXPORT_MAX);
}
