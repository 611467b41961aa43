import { and, asc, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import {
  ALARM_LEVELS, ALARM_TYPES,
  type AlarmChartBucket, type AlarmKanbanCabinet, type AlarmKanbanChart, type AlarmKanbanQuery, type AlarmKanbanSite,
  type AlarmLevelCount, type AlarmType,
} from '@ess/contract';
import { alarm } from '../../db/schema/alarm.ts';
import { cabinet, device } from '../../db/schema/device.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { inSiteScope } from '../../platform/http/scope.ts';
import { assertAlarmFilter } from './alarm.service.ts';

/**
 * The alarm kanban (api-catalogue "Alarms" → kanban: site, chart, cabinet) and, over a chosen
 * range, the fault analysis: counts by station, energy cabinet, level, type and device, the
 * raised/ended time chart and the mean time to end.
 */

const DAY = 86_400_000;

interface Range {
  start: Date;
  end: Date;
}

function rangeOf(q: AlarmKanbanQuery): Range {
  const end = q.end ?? Date.now();
  const start = q.start ?? end - DAY;
  return { start: new Date(start), end: new Date(end) };
}

const stationsOf = (companyId: number) =>
  sql`(select s.id from site s join company c on c.id = s.company_id where c.path like (select p.path from company p where p.id = ${companyId}) || '%')`;

/** The stations asked for, within the caller's scope, as a condition on a station-id column. */
function stationFilter(db: DbOrTx, user: AuthUser, q: AlarmKanbanQuery, column: typeof alarm.siteId | typeof site.id | typeof cabinet.siteId): SQL | undefined {
  return and(inSiteScope(column, db, user), q.siteId ? eq(column, q.siteId) : undefined, q.companyId ? sql`${column} in ${stationsOf(q.companyId)}` : undefined);
}

const emptyLevels = (): AlarmLevelCount[] => ALARM_LEVELS.map((level) => ({ level, active: 0, raised: 0, ended: 0 }));

/** Counts by group and level: in progress now, raised and ended within the range. */
async function levelCounts<K extends Record<string, SQL | typeof alarm.siteId | typeof alarm.cabinetId>>(
  db: DbOrTx, user: AuthUser, q: AlarmKanbanQuery, r: Range, keys: K,
) {
  const touches = or(
    eq(alarm.status, 'active'),
    and(gte(alarm.startedAt, r.start), lt(alarm.startedAt, r.end)),
    and(gte(alarm.endedAt, r.start), lt(alarm.endedAt, r.end)),
  );
  return db
    .select({
      ...keys,
      level: alarm.level,
      active: sql<number>`(count(*) filter (where ${alarm.status} = 'active'))::int`,
      raised: sql<number>`(count(*) filter (where ${alarm.startedAt} >= ${r.start} and ${alarm.startedAt} < ${r.end}))::int`,
      ended: sql<number>`(count(*) filter (where ${alarm.status} = 'ended' and ${alarm.endedAt} >= ${r.start} and ${alarm.endedAt} < ${r.end}))::int`,
    })
    .from(alarm)
    .where(and(stationFilter(db, user, q, alarm.siteId), touches))
    .groupBy(...Object.values(keys), alarm.level);
}

function addTo(levels: AlarmLevelCount[], row: { level: number; active: number; raised: number; ended: number }) {
  const slot = levels[row.level - 1];
  if (!slot) return;
  slot.active += row.active;
  slot.raised += row.raised;
  slot.ended += row.ended;
}

export async function kanbanSite(ctx: AppContext, user: AuthUser, q: AlarmKanbanQuery): Promise<AlarmKanbanSite> {
  const { db } = ctx;
  await assertAlarmFilter(db, user, q);
  const r = rangeOf(q);
  const sites = await db.select({ id: site.id, name: site.name, code: site.code }).from(site).where(stationFilter(db, user, q, site.id)).orderBy(asc(site.id));
  const counts = await levelCounts(db, user, q, r, { siteId: alarm.siteId });
  const bySite = new Map(sites.map((s) => [s.id, { siteId: s.id, siteName: s.name, siteCode: s.code, levels: emptyLevels() }]));
  const total = emptyLevels();
  for (const c of counts) {
    const entry = bySite.get(c.siteId);
    if (entry) addTo(entry.levels, c);
    addTo(total, c);
  }
  return { start: r.start.toISOString(), end: r.end.toISOString(), total, sites: [...bySite.values()] };
}

export async function kanbanCabinet(ctx: AppContext, user: AuthUser, q: AlarmKanbanQuery): Promise<AlarmKanbanCabinet> {
  const { db } = ctx;
  await assertAlarmFilter(db, user, q);
  const r = rangeOf(q);
  const cabinets = await db
    .select({ id: cabinet.id, name: cabinet.name, code: cabinet.code, siteId: cabinet.siteId, siteName: site.name })
    .from(cabinet)
    .innerJoin(site, eq(site.id, cabinet.siteId))
    .where(stationFilter(db, user, q, cabinet.siteId))
    .orderBy(asc(cabinet.siteId), asc(cabinet.code));
  const counts = await levelCounts(db, user, q, r, { siteId: alarm.siteId, cabinetId: alarm.cabinetId });
  const key = (siteId: number, cabinetId: number | null) => `${siteId}:${cabinetId ?? '-'}`;
  const out = new Map<string, AlarmKanbanCabinet['cabinets'][number]>(
    cabinets.map((c) => [key(c.siteId, c.id), { cabinetId: c.id, cabinetName: c.name, cabinetCode: c.code, siteId: c.siteId, siteName: c.siteName, levels: emptyLevels() }]),
  );
  const names = new Map<number, string>();
  const noCabinet = counts.filter((c) => c.cabinetId === null);
  if (noCabinet.length) {
    const ids = [...new Set(noCabinet.map((c) => c.siteId))];
    for (const s of await db.select({ id: site.id, name: site.name }).from(site).where(inArray(site.id, ids))) names.set(s.id, s.name);
  }
  for (const c of counts) {
    const k = key(c.siteId, c.cabinetId);
    let entry = out.get(k);
    if (!entry) {
      if (c.cabinetId !== null) continue;
      entry = { cabinetId: null, cabinetName: null, cabinetCode: null, siteId: c.siteId, siteName: names.get(c.siteId) ?? '', levels: emptyLevels() };
      out.set(k, entry);
    }
    addTo(entry.levels, c);
  }
  return { start: r.start.toISOString(), end: r.end.toISOString(), cabinets: [...out.values()] };
}

/**
 * Raised and ended counts per bucket and level over the range: hours up to 48 hours, else days
 * starting at midnight of the caller's offset (UTC-Zone, minutes east of UTC); with the alarms
 * raised in the range by type, the devices raising most, and the mean time to end.
 */
export async function kanbanChart(ctx: AppContext, user: AuthUser, q: AlarmKanbanQuery, zoneMinutes: number): Promise<AlarmKanbanChart> {
  const { db } = ctx;
  await assertAlarmFilter(db, user, q);
  const r = rangeOf(q);
  const bucket: AlarmChartBucket = r.end.getTime() - r.start.getTime() <= 2 * DAY ? 'hour' : 'day';
  const size = bucket === 'hour' ? 3_600_000 : DAY;
  const offset = zoneMinutes * 60_000;
  const idxOf = (column: typeof alarm.startedAt | typeof alarm.endedAt) =>
    sql<number>`floor((extract(epoch from ${column}) * 1000 + ${offset}) / ${size})::int`;
  const scope = stationFilter(db, user, q, alarm.siteId);
  const raisedIn = and(scope, gte(alarm.startedAt, r.start), lt(alarm.startedAt, r.end));
  const [raised, ended, types, top, mttr] = await Promise.all([
    db.select({ idx: idxOf(alarm.startedAt), level: alarm.level, n: sql<number>`count(*)::int` }).from(alarm).where(raisedIn).groupBy(sql`1`, alarm.level),
    db
      .select({ idx: idxOf(alarm.endedAt), level: alarm.level, n: sql<number>`count(*)::int` })
      .from(alarm)
      .where(and(scope, eq(alarm.status, 'ended'), gte(alarm.endedAt, r.start), lt(alarm.endedAt, r.end)))
      .groupBy(sql`1`, alarm.level),
    db.select({ alarmType: alarm.alarmType, n: sql<number>`count(*)::int` }).from(alarm).where(raisedIn).groupBy(alarm.alarmType),
    db
      .select({ deviceId: alarm.deviceId, deviceCode: device.code, deviceName: device.name, siteName: site.name, n: sql<number>`count(*)::int` })
      .from(alarm)
      .innerJoin(device, eq(device.id, alarm.deviceId))
      .innerJoin(site, eq(site.id, alarm.siteId))
      .where(raisedIn)
      .groupBy(alarm.deviceId, device.code, device.name, site.name)
      .orderBy(desc(sql`count(*)`), asc(alarm.deviceId))
      .limit(10),
    db
      .select({
        n: sql<number>`count(*)::int`,
        mean: sql<number | null>`avg(extract(epoch from (${alarm.endedAt} - ${alarm.startedAt})) * 1000)::float8`,
      })
      .from(alarm)
      .where(and(raisedIn, eq(alarm.status, 'ended'))),
  ]);
  const first = Math.floor((r.start.getTime() + offset) / size);
  const last = Math.floor((r.end.getTime() - 1 + offset) / size);
  const points = new Map<number, { t: number; raised: number[]; ended: number[] }>();
  for (let i = first; i <= last; i++) points.set(i, { t: i * size - offset, raised: [0, 0, 0, 0, 0], ended: [0, 0, 0, 0, 0] });
  for (const x of raised) {
    const p = points.get(x.idx);
    if (p && x.level >= 1 && x.level <= 5) p.raised[x.level - 1]! += x.n;
  }
  for (const x of ended) {
    const p = points.get(x.idx);
    if (p && x.level >= 1 && x.level <= 5) p.ended[x.level - 1]! += x.n;
  }
  const typeCount = new Map(types.map((x) => [x.alarmType, x.n]));
  const m = mttr[0];
  return {
    start: r.start.toISOString(),
    end: r.end.toISOString(),
    bucket,
    points: [...points.values()],
    byType: ALARM_TYPES.map((alarmType: AlarmType) => ({ alarmType, count: typeCount.get(alarmType) ?? 0 })),
    topDevices: top.map((x) => ({ deviceId: x.deviceId, deviceCode: x.deviceCode, deviceName: x.deviceName, siteName: x.siteName, count: x.n })),
    endedCount: m?.n ?? 0,
    meanTimeToEndMs: m?.mean === null || m?.mean === undefined ? null : Math.round(Number(m.mean)),
  };
}

