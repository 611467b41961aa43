import { and, asc, desc, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import {
  READING_TOLERANCE_MS, localDayStart, localTime, type TimingKind, type TimingReadingExport,
  type TimingReadingPage, type TimingReadingRecord,
} from '@ess/contract';
import { device } from '../../db/schema/device.ts';
import { meterTimingConfig, meterTimingReading } from '../../db/schema/meter-reading.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { assertSites, inSiteScope } from '../../platform/http/scope.ts';
import { readAtInstants } from './reading.read.ts';
import {
  SETTLE_MS, ZERO_CATCH_UP_DAYS, addDays, metersWhere, readingFields, toStored, type MeterInfo,
} from './zero-reading.service.ts';

/**
 * Timing readings (issue 18 item 2): registers at configured station-local times — the month end
 * at 24:00 (for settlement) is configured for every station by default (seeded), more may be
 * added per company or station. Times are whole hours (the hour rollups' boundaries), 24:00 the
 * end of the day. Written by the same sweep as the zero readings, once per configuration, meter
 * and instant (a unique index), catching up after downtime.
 */

export const DEFAULT_TIMING_NAME = '月末24点抄表';

/** The default configuration (month end 24:00, every station), made once. */
export async function ensureDefaultTiming(s: { db: DbOrTx }): Promise<void> {
  const [have] = await s.db.select({ id: meterTimingConfig.id }).from(meterTimingConfig)
    .where(and(isNull(meterTimingConfig.companyId), isNull(meterTimingConfig.siteId), eq(meterTimingConfig.kind, 'monthEnd'))).limit(1);
  if (!have) await s.db.insert(meterTimingConfig).values({ name: DEFAULT_TIMING_NAME, kind: 'monthEnd', time: '24:00' });
}

interface Due {
  t: number;
  localTime: string;
}

/** The instants of a configuration at a station from `from` to `to` (dates inclusive, by the day they are named for). */
export function dueInstants(cfg: { kind: string; day: number | null; time: string }, timeZone: string, from: string, to: string): Due[] {
  const hour = Number(cfg.time.slice(0, 2));
  const out: Due[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const next = addDays(d, 1);
    const isMonthEnd = next.slice(8, 10) === '01';
    const match = cfg.kind === 'daily' || (cfg.kind === 'monthEnd' && isMonthEnd) || (cfg.kind === 'monthDay' && Number(d.slice(8, 10)) === cfg.day);
    if (!match) continue;
    const t = hour === 24 ? localDayStart(timeZone, next) : localDayStart(timeZone, d) + hour * 3_600_000;
    out.push({ t, localTime: `${d} ${cfg.time}` });
  }
  return out;
}

/** Writes the due and settled timing readings of every enabled configuration. */
export async function sweepTimingReadings(ctx: AppContext, now = Date.now()): Promise<number> {
  const configs = await ctx.db.select().from(meterTimingConfig).where(eq(meterTimingConfig.enabled, true)).orderBy(asc(meterTimingConfig.id));
  let written = 0;
  for (const cfg of configs) {
    const where = cfg.siteId ? eq(device.siteId, cfg.siteId) : cfg.companyId ? eq(site.companyId, cfg.companyId) : undefined;
    const meters = await metersWhere(ctx.db, where);
    for (const m of meters) written += await fillTiming(ctx, cfg, m, now);
  }
  return written;
}

async function fillTiming(ctx: AppContext, cfg: typeof meterTimingConfig.$inferSelect, m: MeterInfo, now: number): Promise<number> {
  const today = localTime(now, m.timeZone).dateKey;
  const [last] = await ctx.db.select({ t: sql<Date | null>`max(${meterTimingReading.readAt})` }).from(meterTimingReading)
    .where(and(eq(meterTimingReading.configId, cfg.id), eq(meterTimingReading.deviceId, m.id)));
  const floor = addDays(today, -ZERO_CATCH_UP_DAYS);
  const lastT = last?.t ? new Date(last.t).getTime() : null;
  const from = lastT ? localTime(lastT - 1, m.timeZone).dateKey : floor;
  const due = dueInstants(cfg, m.timeZone, from < floor ? floor : from, today).filter((d) => (lastT === null || d.t > lastT) && d.t + SETTLE_MS <= now);
  if (!due.length) return 0;
  // Not before the meter's first report.
  const { rows } = await ctx.database.sql.query<{ t: number | null }>('select (extract(epoch from min(first_ts)) * 1000)::float8 as t from telemetry_1d where device_id = $1', [m.id]);
  const firstTs = rows[0]?.t === null || rows[0]?.t === undefined ? null : Number(rows[0].t);
  if (firstTs === null) return 0;
  const wanted = due.filter((d) => d.t >= firstTs - READING_TOLERANCE_MS);
  const read = await readAtInstants(ctx, m, wanted.map((d) => d.t));
  const values = wanted
    .map((d) => ({ d, r: read.get(d.t)! }))
    .filter(({ d, r }) => r.quality === 'measured' || now >= d.t + READING_TOLERANCE_MS + SETTLE_MS)
    .map(({ d, r }) => ({
      configId: cfg.id, deviceId: m.id, siteId: m.siteId, readAt: new Date(d.t), localTime: d.localTime, sourceTs: r.sourceTs, quality: r.quality,
      registers: toStored(r.values), code: m.code,
    }));
  if (!values.length) return 0;
  const done = await ctx.db.insert(meterTimingReading).values(values).onConflictDoNothing().returning({ id: meterTimingReading.id });
  return done.length;
}

// ── Lists ─────────────────────────────────────────────────────────────────────────────

type TimingFilter = Omit<TimingReadingExport, 'sortField' | 'sortOrder'>;
const timingList = defineListQuery({
  table: meterTimingReading,
  columns: {
    id: meterTimingReading.id, configId: meterTimingReading.configId, configName: meterTimingConfig.name, kind: meterTimingConfig.kind,
    siteId: meterTimingReading.siteId, siteName: site.name, timeZone: site.timeZone, deviceId: meterTimingReading.deviceId,
    deviceCode: meterTimingReading.code, deviceName: device.name, meterPurpose: device.meterPurpose, readAt: meterTimingReading.readAt,
    localTime: meterTimingReading.localTime, sourceTime: meterTimingReading.sourceTs, quality: meterTimingReading.quality,
    registers: meterTimingReading.registers, createdAt: meterTimingReading.createdAt,
  },
  joins: [
    { table: meterTimingConfig, on: eq(meterTimingConfig.id, meterTimingReading.configId) },
    { table: site, on: eq(site.id, meterTimingReading.siteId) },
    { table: device, on: eq(device.id, meterTimingReading.deviceId) },
  ],
  scope: (db, user) => inSiteScope(meterTimingReading.siteId, db, user),
  filter: (f: TimingFilter) => [
    f.siteId ? eq(meterTimingReading.siteId, f.siteId) : undefined,
    f.deviceId ? eq(meterTimingReading.deviceId, f.deviceId) : undefined,
    f.configId ? eq(meterTimingReading.configId, f.configId) : undefined,
    f.meterPurpose ? eq(device.meterPurpose, f.meterPurpose) : undefined,
    // By the station-local date the reading is named for (its local_time's date).
    f.startDate ? gte(sql`substr(${meterTimingReading.localTime}, 1, 10)`, f.startDate) : undefined,
    f.endDate ? lt(sql`substr(${meterTimingReading.localTime}, 1, 10)`, addDays(f.endDate, 1)) : undefined,
    f.quality ? eq(meterTimingReading.quality, f.quality) : undefined,
  ],
  orderBy: [desc(meterTimingReading.readAt), asc(site.name), asc(device.name), asc(meterTimingReading.id)],
  sortable: {
    readAt: meterTimingReading.readAt, siteName: site.name, deviceName: device.name, deviceCode: meterTimingReading.code,
    configName: meterTimingConfig.name, quality: meterTimingReading.quality,
  },
  toRecord: (r): TimingReadingRecord => ({ ...r, kind: r.kind as TimingKind, ...readingFields(r) }),
});

export async function timingPage(ctx: AppContext, user: AuthUser, b: TimingReadingPage) {
  if (b.siteId) await assertSites(ctx.db, user, [b.siteId]);
  return timingList.page(ctx.db, user, b);
}
export const TIMING_EXPORT_MAX = 50_000;
export async function timingRows(ctx: AppContext, user: AuthUser, b: TimingReadingExport) {
  if (b.siteId) await assertSites(ctx.db, user, [b.siteId]);
  return timingList.list(ctx.db, user, b, TIMING_EXPORT_MAX);
}
