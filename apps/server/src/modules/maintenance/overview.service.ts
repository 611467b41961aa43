import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  REPAIR_OPEN_STATES, WORK_ORDER_OPEN_STATES, addDays,
  type MttRecord, type OverviewCalendar, type OverviewQuery, type OverviewSiteRecord, type OverviewStatistic, type OverviewStatisticQuery,
  type OverviewSummary, type ServiceRecord,
} from '@ess/contract';
import { site } from '../../db/schema/site.ts';
import { company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { found } from '../../platform/http/errors.ts';
import { assertCompany, assertSites, inSiteScope, likeEscaped } from '../../platform/http/scope.ts';

/**
 * The maintenance overview (POST /inspection/overview/*): summary, statistic over time with MTTA
 * and MTTR per station and month, the month calendar, the service per assignee, and the stations
 * with their open work. Days and months are each station's own (its time zone); "now" is a
 * parameter so tests pin it.
 */

const inList = (states: readonly string[]) => sql.raw(`(${states.map((s) => `'${s}'`).join(', ')})`);
const WO_OPEN = inList(WORK_ORDER_OPEN_STATES);
const RO_OPEN = inList(REPAIR_OPEN_STATES);
/** Assigned and not finished: the assignee's load. */
const WO_LOAD = inList(['pending', 'processing']);
const RO_LOAD = inList(['pending', 'processing', 'toBeAccepted']);

/** The stations the overview covers: the caller's, of a company (and those under it) or one station. */
async function stationCondition(db: DbOrTx, user: AuthUser, q: OverviewQuery): Promise<SQL> {
  if (q.companyId) await assertCompany(db, user, q.companyId);
  if (q.siteId) await assertSites(db, user, [q.siteId]);
  let companyCond: SQL | undefined;
  if (q.companyId) {
    const [c] = await db.select({ path: company.path }).from(company).where(eq(company.id, q.companyId));
    companyCond = sql`${site.companyId} in (select id from company where path like ${found(c).path + '%'})`;
  }
  return and(inSiteScope(site.id, db, user), companyCond, q.siteId ? eq(site.id, q.siteId) : undefined)!;
}

const local = (col: SQL) => sql`(${col} at time zone site.time_zone)`;
const localNow = (now: Date) => sql`(${now.toISOString()}::timestamptz at time zone site.time_zone)`;
const round1 = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v) * 10) / 10);
const n = (v: unknown) => Number(v ?? 0);

type Counts = {
  open: number;
  overdue: number;
  due_today: number;
  completed_month: number;
};

async function typeCounts(db: DbOrTx, table: 'inspection_work_order' | 'repair_order', open: SQL, cond: SQL, now: Date) {
  const t = sql.raw(table);
  const { rows } = await db.execute<Counts>(sql`
    select
      count(*) filter (where o.status in ${open})::int as open,
      count(*) filter (where o.status in ${open} and o.due_at < ${now.toISOString()}::timestamptz)::int as overdue,
      count(*) filter (where o.status <> 'closed' and ${local(sql`o.due_at`)}::date = ${localNow(now)}::date)::int as due_today,
      count(*) filter (where o.status = 'completed' and date_trunc('month', ${local(sql`o.completed_at`)}) = date_trunc('month', ${localNow(now)}))::int as completed_month
    from ${t} o join site on site.id = o.site_id
    where ${cond}`);
  const r = rows[0];
  return { open: n(r?.open), overdue: n(r?.overdue), dueToday: n(r?.due_today), completedThisMonth: n(r?.completed_month) };
}

/** MTTA (alarm start → accepted) and MTTR (alarm start → completed) in minutes, over repair orders from alarms. */
const mttColumns = sql`
  count(*)::int as orders,
  avg(extract(epoch from (r.accepted_at - r.alarm_started_at))) filter (where r.accepted_at is not null) / 60 as mtta,
  avg(extract(epoch from (r.completed_at - r.alarm_started_at))) filter (where r.completed_at is not null and r.status = 'completed') / 60 as mttr`;

export async function overviewSummary(ctx: AppContext, user: AuthUser, q: OverviewQuery, now = new Date()): Promise<OverviewSummary> {
  const cond = await stationCondition(ctx.db, user, q);
  const inspection = await typeCounts(ctx.db, 'inspection_work_order', WO_OPEN, cond, now);
  const repair = await typeCounts(ctx.db, 'repair_order', RO_OPEN, cond, now);
  const { rows: defects } = await ctx.db.execute<{ n: number }>(sql`
    select count(*)::int as n from inspection_defect d join site on site.id = d.site_id where d.status <> 'resolved' and ${cond}`);
  const { rows: mtt } = await ctx.db.execute<{ mtta: unknown; mttr: unknown }>(sql`
    select ${mttColumns} from repair_order r join site on site.id = r.site_id
    where r.alarm_started_at is not null and date_trunc('month', ${local(sql`r.alarm_started_at`)}) = date_trunc('month', ${localNow(now)}) and ${cond}`);
  return { inspection, repair, openDefects: n(defects[0]?.n), mttaMinutes: round1(mtt[0]?.mtta), mttrMinutes: round1(mtt[0]?.mttr) };
}

/** The day or month labels from `from` to `to` (station-local dates). */
function labels(from: string, to: string, bucket: 'day' | 'month'): string[] {
  const out: string[] = [];
  if (bucket === 'day') {
    for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
    return out;
  }
  let [y, m] = from.split('-').map(Number) as [number, number];
  const end = to.slice(0, 7);
  for (;;) {
    const key = `${y}-${String(m).padStart(2, '0')}`;
    if (key > end) break;
    out.push(key);
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
  return out;
}

export async function overviewStatistic(ctx: AppContext, user: AuthUser, q: OverviewStatisticQuery): Promise<OverviewStatistic> {
  const cond = await stationCondition(ctx.db, user, q);
  const fmt = q.bucket === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM';
  const { rows } = await ctx.db.execute<{ kind: string; d: string; n: number }>(sql`
    select x.kind, to_char(${local(sql`x.t`)}, ${fmt}) as d, count(*)::int as n from (
      select 'ic' as kind, created_at as t, site_id from inspection_work_order
      union all select 'id', completed_at, site_id from inspection_work_order where status = 'completed' and completed_at is not null
      union all select 'rc', created_at, site_id from repair_order
      union all select 'rd', completed_at, site_id from repair_order where status = 'completed' and completed_at is not null
      union all select 'df', found_at, site_id from inspection_defect
    ) x join site on site.id = x.site_id
    where ${cond} and ${local(sql`x.t`)}::date between ${q.from}::date and ${q.to}::date
    group by x.kind, 2`);
  const at = new Map(rows.map((r) => [`${r.kind}|${r.d}`, n(r.n)]));
  const get = (kind: string, d: string) => at.get(`${kind}|${d}`) ?? 0;
  const points = labels(q.from, q.to, q.bucket).map((d) => ({
    date: d,
    inspectionCreated: get('ic', d),
    inspectionCompleted: get('id', d),
    repairCreated: get('rc', d),
    repairCompleted: get('rd', d),
    defectsFound: get('df', d),
  }));
  return { bucket: q.bucket, points, mtt: await mttByStationMonth(ctx.db, cond, q.from, q.to) };
}

/** MTTA and MTTR per station and station-local month of the alarm's start, over alarms started from `from` to `to`. */
export async function mttByStationMonth(db: DbOrTx, cond: SQL, from: string, to: string): Promise<MttRecord[]> {
  const { rows } = await db.execute<{ site_id: number; site_name: string; month: string; orders: number; mtta: unknown; mttr: unknown }>(sql`
    select site.id as site_id, site.name as site_name, to_char(${local(sql`r.alarm_started_at`)}, 'YYYY-MM') as month, ${mttColumns}
    from repair_order r join site on site.id = r.site_id
    where r.alarm_started_at is not null and ${cond} and ${local(sql`r.alarm_started_at`)}::date between ${from}::date and ${to}::date
    group by site.id, site.name, 3
    order by site.name, site.id, 3`);
  return rows.map((r) => ({ siteId: n(r.site_id), siteName: r.site_name, month: r.month, orders: n(r.orders), mttaMinutes: round1(r.mtta), mttrMinutes: round1(r.mttr) }));
}

export async function overviewCalendar(
  ctx: AppContext,
  user: AuthUser,
  q: OverviewQuery & { month: string; assigneeId?: number | undefined },
  now = new Date(),
): Promise<OverviewCalendar> {
  const cond = await stationCondition(ctx.db, user, q);
  const from = `${q.month}-01`;
  const [y, m] = q.month.split('-').map(Number) as [number, number];
  const to = addDays(`${m === 12 ? y + 1 : y}-${String(m === 12 ? 1 : m + 1).padStart(2, '0')}-01`, -1);
  const who = q.assigneeId ? sql`and o.assignee_id = ${q.assigneeId}` : sql``;
  const nowTs = sql`${now.toISOString()}::timestamptz`;
  const perDay = (table: 'inspection_work_order' | 'repair_order', open: SQL) => sql`
    select ${sql.raw(`'${table === 'repair_order' ? 'r' : 'i'}'`)} as kind, 'due' as what, ${local(sql`o.due_at`)}::date as d,
      count(*)::int as n,
      count(*) filter (where (o.completed_at is not null and o.completed_at > o.due_at) or (o.status in ${open} and o.due_at < ${nowTs}))::int as late
    from ${sql.raw(table)} o join site on site.id = o.site_id
    where ${cond} ${who} and o.status <> 'closed' and o.due_at is not null and ${local(sql`o.due_at`)}::date between ${from}::date and ${to}::date
    group by 3
    union all
    select ${sql.raw(`'${table === 'repair_order' ? 'r' : 'i'}'`)}, 'done', ${local(sql`o.completed_at`)}::date, count(*)::int, 0
    from ${sql.raw(table)} o join site on site.id = o.site_id
    where ${cond} ${who} and o.status = 'completed' and ${local(sql`o.completed_at`)}::date between ${from}::date and ${to}::date
    group by 3`;
  const { rows } = await ctx.db.execute<{ kind: string; what: string; d: string | Date; n: number; late: number }>(
    sql`${perDay('inspection_work_order', WO_OPEN)} union all ${perDay('repair_order', RO_OPEN)}`,
  );
  const key = (d: string | Date) => (typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10));
  const days = labels(from, to, 'day').map((date) => {
    const of = (kind: string, what: string) => rows.filter((r) => r.kind === kind && r.what === what && key(r.d) === date);
    const sum = (rs: typeof rows, f: 'n' | 'late') => rs.reduce((a, r) => a + n(r[f]), 0);
    return {
      date,
      inspectionDue: sum(of('i', 'due'), 'n'),
      repairDue: sum(of('r', 'due'), 'n'),
      inspectionDone: sum(of('i', 'done'), 'n'),
      repairDone: sum(of('r', 'done'), 'n'),
      overdue: sum(of('i', 'due'), 'late') + sum(of('r', 'due'), 'late'),
    };
  });
  return { month: q.month, days };
}

export async function overviewService(
  ctx: AppContext,
  user: AuthUser,
  q: OverviewQuery & { from: string; to: string },
  now = new Date(),
): Promise<ServiceRecord[]> {
  const cond = await stationCondition(ctx.db, user, q);
  const nowTs = sql`${now.toISOString()}::timestamptz`;
  const part = (table: 'inspection_work_order' | 'repair_order', kind: string, load: SQL, open: SQL) => sql`
    select o.assignee_id as user_id, ${sql.raw(`'${kind}'`)} as kind,
      count(*) filter (where o.status in ${load})::int as load,
      count(*) filter (where o.status in ${open} and o.due_at < ${nowTs})::int as overdue_open,
      count(*) filter (where o.status = 'completed' and ${local(sql`o.completed_at`)}::date between ${q.from}::date and ${q.to}::date)::int as completed,
      count(*) filter (where o.status = 'completed' and ${local(sql`o.completed_at`)}::date between ${q.from}::date and ${q.to}::date
        and (o.due_at is null or o.completed_at <= o.due_at))::int as on_time
    from ${sql.raw(table)} o join site on site.id = o.site_id
    where o.assignee_id is not null and ${cond}
    group by o.assignee_id`;
  const { rows } = await ctx.db.execute<{ user_id: number; kind: string; load: number; overdue_open: number; completed: number; on_time: number; name: string }>(sql`
    select x.*, u.name from (${part('inspection_work_order', 'i', WO_LOAD, WO_OPEN)} union all ${part('repair_order', 'r', RO_LOAD, RO_OPEN)}) x
    join app_user u on u.id = x.user_id`);
  const by = new Map<number, ServiceRecord>();
  for (const r of rows) {
    const id = n(r.user_id);
    const cur = by.get(id) ?? { userId: id, name: r.name, load: 0, overdueOpen: 0, completed: 0, onTime: 0, onTimeRate: null, inspectionCompleted: 0, repairCompleted: 0 };
    cur.load += n(r.load);
    cur.overdueOpen += n(r.overdue_open);
    cur.completed += n(r.completed);
    cur.onTime += n(r.on_time);
    if (r.kind === 'i') cur.inspectionCompleted += n(r.completed);
    else cur.repairCompleted += n(r.completed);
    by.set(id, cur);
  }
  return [...by.values()]
    .map((s) => ({ ...s, onTimeRate: s.completed ? Math.round((s.onTime / s.completed) * 1000) / 1000 : null }))
    .sort((a, b) => b.load - a.load || a.name.localeCompare(b.name) || a.userId - b.userId);
}

export async function overviewSiteList(ctx: AppContext, user: AuthUser, q: OverviewQuery & { keyword?: string | undefined }, now = new Date()): Promise<OverviewSiteRecord[]> {
  const cond = await stationCondition(ctx.db, user, q);
  const kw = q.keyword ? sql`and (${likeEscaped(site.name, q.keyword)} or ${likeEscaped(site.code, q.keyword)})` : sql``;
  const nowTs = sql`${now.toISOString()}::timestamptz`;
  const orders = (table: string, open: SQL) => sql`
    select o.site_id,
      count(*) filter (where o.status in ${open})::int as open,
      count(*) filter (where o.status in ${open} and o.due_at < ${nowTs})::int as overdue,
      count(*) filter (where o.status <> 'closed' and ${local(sql`o.due_at`)}::date = ${localNow(now)}::date)::int as due_today
    from ${sql.raw(table)} o join site on site.id = o.site_id group by o.site_id`;
  const { rows } = await ctx.db.execute<{
    id: number; name: string; code: string; time_zone: string; wo_open: number; wo_overdue: number; wo_today: number; ro_open: number; ro_overdue: number; ro_today: number; defects: number;
  }>(sql`
    select site.id, site.name, site.code, site.time_zone,
      coalesce(w.open, 0) as wo_open, coalesce(w.overdue, 0) as wo_overdue, coalesce(w.due_today, 0) as wo_today,
      coalesce(r.open, 0) as ro_open, coalesce(r.overdue, 0) as ro_overdue, coalesce(r.due_today, 0) as ro_today,
      (select count(*)::int from inspection_defect d where d.site_id = site.id and d.status <> 'resolved') as defects
    from site
    left join (${orders('inspection_work_order', WO_OPEN)}) w on w.site_id = site.id
    left join (${orders('repair_order', RO_OPEN)}) r on r.site_id = site.id
    where ${cond} ${kw}
    order by (coalesce(w.overdue, 0) + coalesce(r.overdue, 0)) desc, (coalesce(w.open, 0) + coalesce(r.open, 0)) desc, site.name, site.id`);
  return rows.map((r) => ({
    siteId: n(r.id),
    siteName: r.name,
    siteCode: r.code,
    timeZone: r.time_zone,
    openInspection: n(r.wo_open),
    openRepair: n(r.ro_open),
    overdue: n(r.wo_overdue) + n(r.ro_overdue),
    dueToday: n(r.wo_today) + n(r.ro_today),
    openDefects: n(r.defects),
  }));
}
