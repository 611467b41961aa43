import { and, asc, desc, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import {
  PLAN_EVENTS, PLAN_EXPIRED, PLAN_STOP_REASON_LABELS, WORK_ORDER_OPEN_STATES, nextDueDates, planMachine, todayIn,
  type CheckType, type Page, type PageRequest, type PlanAction, type PlanAdd, type PlanEdit, type PlanFilter, type PlanRecord,
  type PlanSchedule, type PlanSiteRecord, type PlanState, type PlanStopReason,
} from '@ess/contract';
import { inspectionItem, inspectionPlan, inspectionPlanItem, inspectionPlanSite, inspectionWorkOrder } from '../../db/schema/maintenance.ts';
import { site } from '../../db/schema/site.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { emit } from '../../platform/events/outbox.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { sortedBy, type SortRequest } from '../../platform/http/paging.ts';
import { assertCompany, assertSites, inCompanyScope, inSiteScope, likeEscaped } from '../../platform/http/scope.ts';
import { transition, type StatefulEntity } from '../../platform/state.ts';
import { translatorOf } from '../i18n/index.ts';
import { deliver, noticeLanguageOf, notifyUsers, type Delivery } from '../system/index.ts';
import { assertItems } from './item.service.ts';
import { generatePlan } from './plan.generator.ts';
import { journalOf, SYSTEM_USER } from './maintenance.journal.ts';

/**
 * Inspection plans (api-catalogue "Inspection" → plan): list, page, one, add, edit, start (GET,
 * id), startOrStop, and their stations. A plan belongs to a company; its stations must be in the
 * caller's scope. States follow the contract's planMachine through the transition helper, which
 * journals every change (maintenance_log) and emits its event.
 */

const NOT_FOUND_TIP = '巡检计划不存在';
export const PAUSED_TITLE = '巡检计划已自动暂停';
export const PAUSED_TEXT = '巡检计划「$1」：$2';

type PlanRow = typeof inspectionPlan.$inferSelect;

const inScope = (db: DbOrTx, user: AuthUser) => inCompanyScope(inspectionPlan.companyId, db, user);

function filterOf(db: DbOrTx, user: AuthUser, f: PlanFilter): SQL | undefined {
  return and(
    inScope(db, user),
    f.companyId ? eq(inspectionPlan.companyId, f.companyId) : undefined,
    f.status ? eq(inspectionPlan.status, f.status) : undefined,
    f.siteId ? sql`exists (select 1 from ${inspectionPlanSite} where ${inspectionPlanSite.planId} = ${inspectionPlan.id} and ${inspectionPlanSite.siteId} = ${f.siteId})` : undefined,
    f.itemId ? sql`exists (select 1 from ${inspectionPlanItem} where ${inspectionPlanItem.planId} = ${inspectionPlan.id} and ${inspectionPlanItem.itemId} = ${f.itemId})` : undefined,
    f.keyword ? likeEscaped(inspectionPlan.name, f.keyword) : undefined,
  );
}

const SORTABLE = { name: inspectionPlan.name, status: inspectionPlan.status, createdAt: inspectionPlan.createdAt, updatedAt: inspectionPlan.updatedAt };

async function assertFilter(db: DbOrTx, user: AuthUser, f: PlanFilter) {
  if (f.companyId) await assertCompany(db, user, f.companyId);
  if (f.siteId) await assertSites(db, user, [f.siteId]);
}

/** A plan's stations with their zones and bookkeeping. */
export async function planSites(db: DbOrTx, planIds: number[]) {
  if (planIds.length === 0) return [];
  return db
    .select({
      planId: inspectionPlanSite.planId, siteId: site.id, siteName: site.name, siteCode: site.code, timeZone: site.timeZone,
      lastDueDate: inspectionPlanSite.lastDueDate, lastGeneratedAt: inspectionPlanSite.lastGeneratedAt,
    })
    .from(inspectionPlanSite)
    .innerJoin(site, eq(site.id, inspectionPlanSite.siteId))
    .where(inArray(inspectionPlanSite.planId, planIds))
    .orderBy(asc(site.name), asc(site.id));
}

/** Whether a plan is past its end date at every one of its stations (today in each station's zone). */
export function isExpired(schedule: PlanSchedule, zones: readonly string[], now: number): boolean {
  if (schedule.endDate === null) return false;
  const end = schedule.endDate;
  return zones.length > 0 && zones.every((z) => todayIn(z, new Date(now)) > end);
}

/** The next scheduled date at a station after what was generated there (null when stopped or none is left). */
function nextDue(p: PlanRow, zone: string, lastDueDate: string | null, now: number): string | null {
  if (p.status === 'stopped') return null;
  const [slot] = nextDueDates(p.schedule, now, 1, zone).filter((s) => lastDueDate === null || s.date > lastDueDate);
  if (slot) return slot.date;
  const [later] = nextDueDates(p.schedule, now, 2, zone).filter((s) => lastDueDate === null || s.date > lastDueDate);
  return later?.date ?? null;
}

async function toRecords(db: DbOrTx, rows: PlanRow[], now = Date.now()): Promise<PlanRecord[]> {
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const sites = await planSites(db, ids);
  const items = await db
    .select({ planId: inspectionPlanItem.planId, itemId: inspectionItem.id, name: inspectionItem.name, checkType: inspectionItem.checkType })
    .from(inspectionPlanItem)
    .innerJoin(inspectionItem, eq(inspectionItem.id, inspectionPlanItem.itemId))
    .where(inArray(inspectionPlanItem.planId, ids))
    .orderBy(asc(inspectionPlanItem.sort));
  const userIds = [...new Set(rows.flatMap((r) => [...r.assigneeIds, ...(r.ownerId ? [r.ownerId] : [])]))];
  const users = new Map(
    userIds.length ? (await db.select({ id: appUser.id, name: appUser.name }).from(appUser).where(inArray(appUser.id, userIds))).map((u) => [u.id, u.name]) : [],
  );
  const companies = new Map(
    (await db.select({ id: company.id, name: company.name }).from(company).where(inArray(company.id, [...new Set(rows.map((r) => r.companyId))]))).map((c) => [c.id, c.name]),
  );
  const counts = new Map(
    (
      await db
        .select({ planId: inspectionWorkOrder.planId, n: sql<number>`count(*)::int` })
        .from(inspectionWorkOrder)
        .where(inArray(inspectionWorkOrder.planId, ids))
        .groupBy(inspectionWorkOrder.planId)
    ).map((c) => [c.planId, Number(c.n)]),
  );
  return rows.map((p) => {
    const mine = sites.filter((s) => s.planId === p.id);
    const nexts = mine.map((s) => nextDue(p, s.timeZone, s.lastDueDate, now)).filter((d): d is string => d !== null).sort();
    return {
      id: p.id,
      companyId: p.companyId,
      companyName: companies.get(p.companyId) ?? '',
      name: p.name,
      status: p.status as PlanState,
      expired: isExpired(p.schedule, mine.map((s) => s.timeZone), now),
      stopReason: p.status === 'stopped' ? (p.stopReason as PlanStopReason | null) : null,
      schedule: p.schedule,
      countFrom: p.countFrom as PlanRecord['countFrom'],
      sites: mine.map((s) => ({ siteId: s.siteId, siteName: s.siteName, siteCode: s.siteCode, timeZone: s.timeZone })),
      items: items.filter((i) => i.planId === p.id).map((i) => ({ itemId: i.itemId, name: i.name, checkType: i.checkType as CheckType })),
      assignees: p.assigneeIds.map((id) => ({ userId: id, name: users.get(id) ?? '' })),
      ownerId: p.ownerId,
      ownerName: p.ownerId ? (users.get(p.ownerId) ?? null) : null,
      nextDueDate: nexts[0] ?? null,
      lastGeneratedAt: p.lastGeneratedAt?.toISOString() ?? null,
      orderCount: counts.get(p.id) ?? 0,
      remark: p.remark,
      createdAt: p.createdAt.toISOString(),
      updatedAt: p.updatedAt.toISOString(),
    };
  });
}

const LIST_MAX = 2000;

export async function planList(ctx: AppContext, user: AuthUser, f: PlanFilter & SortRequest): Promise<PlanRecord[]> {
  await assertFilter(ctx.db, user, f);
  const rows = await ctx.db.select().from(inspectionPlan).where(filterOf(ctx.db, user, f)).orderBy(...sortedBy(f, SORTABLE, [desc(inspectionPlan.id)])).limit(LIST_MAX);
  return toRecords(ctx.db, rows);
}

export async function planPage(ctx: AppContext, user: AuthUser, req: PlanFilter & SortRequest & PageRequest): Promise<Page<PlanRecord>> {
  await assertFilter(ctx.db, user, req);
  const where = filterOf(ctx.db, user, req);
  const [{ n } = { n: 0 }] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(inspectionPlan).where(where);
  const rows = n === 0 ? [] : await ctx.db.select().from(inspectionPlan).where(where).orderBy(...sortedBy(req, SORTABLE, [desc(inspectionPlan.id)])).limit(req.pageSize).offset((req.current - 1) * req.pageSize);
  return { records: await toRecords(ctx.db, rows), total: Number(n), current: req.current, pageSize: req.pageSize };
}

/** The plan if the caller may see it (404 otherwise, the same for another company's). */
export async function planInScope(db: DbOrTx, user: AuthUser, id: number): Promise<PlanRow> {
  const [row] = await db.select().from(inspectionPlan).where(and(eq(inspectionPlan.id, id), inScope(db, user)));
  return found(row, NOT_FOUND_TIP);
}

export async function planOne(ctx: AppContext, user: AuthUser, id: number): Promise<PlanRecord> {
  const [rec] = await toRecords(ctx.db, [await planInScope(ctx.db, user, id)]);
  return rec!;
}

/** The assignee group: enabled users of the caller's companies. */
async function assertAssignees(db: DbOrTx, user: AuthUser, ids: number[]) {
  if (ids.length === 0) return;
  const rows = await db
    .select({ id: appUser.id })
    .from(appUser)
    .where(and(inArray(appUser.id, ids), eq(appUser.status, 1), sql`${appUser.deletedAt} is null`, inCompanyScope(appUser.companyId, db, user)));
  if (rows.length !== ids.length) throw new AppError('NOT_FOUND', '执行人不存在或已停用');
}

async function assertPlanInput(db: DbOrTx, user: AuthUser, body: PlanAdd, companyId: number) {
  await assertCompany(db, user, companyId);
  await assertSites(db, user, body.siteIds);
  const path = await companyPath(db, companyId);
  const foreign = await db
    .select({ id: site.id })
    .from(site)
    .innerJoin(company, eq(company.id, site.companyId))
    .where(and(inArray(site.id, body.siteIds), sql`${company.path} not like ${path + '%'}`));
  if (foreign.length) throw new AppError('RULE_VIOLATION', '站点须属于计划所在公司或其下级公司');
  await assertItems(db, user, body.itemIds);
  await assertAssignees(db, user, body.assigneeIds);
}

async function companyPath(db: DbOrTx, companyId: number): Promise<string> {
  const [c] = await db.select({ path: company.path }).from(company).where(eq(company.id, companyId));
  return found(c, '公司不存在').path;
}

const fieldsOf = (b: PlanAdd) => ({
  name: b.name, schedule: b.schedule, startDate: b.schedule.startDate, endDate: b.schedule.endDate, countFrom: b.countFrom,
  assigneeIds: b.assigneeIds, remark: b.remark,
});

async function writeRelations(tx: DbOrTx, planId: number, b: PlanAdd) {
  await tx.delete(inspectionPlanSite).where(and(eq(inspectionPlanSite.planId, planId), notInArray(inspectionPlanSite.siteId, b.siteIds)));
  await tx.insert(inspectionPlanSite).values(b.siteIds.map((siteId) => ({ planId, siteId }))).onConflictDoNothing();
  await tx.delete(inspectionPlanItem).where(eq(inspectionPlanItem.planId, planId));
  await tx.insert(inspectionPlanItem).values(b.itemIds.map((itemId, i) => ({ planId, itemId, sort: i })));
}

/** Adds a plan, stopped: it generates nothing until started. */
export async function addPlan(ctx: AppContext, user: AuthUser, body: PlanAdd): Promise<{ id: number }> {
  const companyId = body.companyId ?? user.companyId;
  return ctx.db.transaction(async (tx) => {
    await assertPlanInput(tx, user, body, companyId);
    const [row] = await tx.insert(inspectionPlan).values({ ...fieldsOf(body), companyId, ownerId: user.id, status: 'stopped' }).returning({ id: inspectionPlan.id });
    await writeRelations(tx, row!.id, body);
    return { id: row!.id };
  });
}

/**
 * Edits a plan in any state: its next orders follow the new schedule, stations and items (orders
 * already made keep theirs). A station taken out loses its bookkeeping; one kept keeps it, so an
 * edit never makes an order twice.
 */
export async function editPlan(ctx: AppContext, user: AuthUser, body: PlanEdit): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const cur = await planInScope(tx, user, body.id);
    if (body.companyId !== undefined && body.companyId !== cur.companyId) throw new AppError('RULE_VIOLATION', '计划不能改到其他公司');
    await assertPlanInput(tx, user, body, cur.companyId);
    await tx.update(inspectionPlan).set({ ...fieldsOf(body), updatedAt: new Date() }).where(eq(inspectionPlan.id, body.id));
    await writeRelations(tx, body.id, body);
  });
}

// ── States ────────────────────────────────────────────────────────────────────────────

type LockedPlan = PlanRow & { state: PlanState };

/**
 * A plan as an entity with statuses. The journal callback also emits the action's own event and,
 * when the generator pauses the plan, writes its owner's notification (delivered after commit).
 */
export function statefulPlan(
  planId: number,
  user: AuthUser | null,
  opts: { stopReason?: PlanStopReason; deliveries?: Delivery[] } = {},
): StatefulEntity<PlanState, LockedPlan, unknown> {
  return {
    lock: async (tx) => {
      const where = user ? and(eq(inspectionPlan.id, planId), inScope(tx, user)) : eq(inspectionPlan.id, planId);
      const [row] = await tx.select().from(inspectionPlan).where(where).for('update');
      const p = found(row, NOT_FOUND_TIP);
      return { ...p, state: p.status as PlanState };
    },
    write: async (tx, e) => {
      await tx
        .update(inspectionPlan)
        .set({ status: e.to, stopReason: e.to === 'stopped' ? (opts.stopReason ?? null) : null, updatedAt: new Date() })
        .where(eq(inspectionPlan.id, e.row.id));
    },
    journal: async (tx, e) => {
      const log = await journalOf('plan')(tx, e);
      const action = e.action as PlanAction;
      const system = e.user.id === SYSTEM_USER.id;
      await emit(tx, PLAN_EVENTS[action] as 'plan.started', [
        { id: e.row.id, name: e.row.name, companyId: e.row.companyId, from: e.from, to: e.to, userId: system ? null : e.user.id, ownerId: e.row.ownerId, note: e.note },
      ]);
      if (action === 'pause' && e.row.ownerId && opts.deliveries) {
        // In the owner's language, as the order notices are.
        const { t } = await translatorOf(await noticeLanguageOf(tx, e.row.ownerId));
        const reason = t(PLAN_STOP_REASON_LABELS[opts.stopReason ?? 'unopened']);
        opts.deliveries.push(...(await notifyUsers(tx, [e.row.ownerId], t(PAUSED_TITLE), t(PAUSED_TEXT, e.row.name, reason))));
      }
      return log;
    },
  };
}

/** Takes a plan action as the generator (system role); false when another instance already did. */
export async function systemPlanAction(ctx: AppContext, planId: number, action: PlanAction, stopReason?: PlanStopReason): Promise<boolean> {
  const deliveries: Delivery[] = [];
  try {
    await transition(ctx, planMachine, statefulPlan(planId, null, { stopReason, deliveries }), { action, user: SYSTEM_USER, roles: ['system'] });
  } catch (err) {
    if (err instanceof AppError && err.code === 'A0406') return false;
    throw err;
  }
  await deliver(ctx, deliveries);
  return true;
}

/** Starts a stopped plan (refused when it is past its end date); it runs at once if its start date has come. */
export async function startPlan(ctx: AppContext, user: AuthUser, id: number): Promise<{ id: number; status: PlanState }> {
  const p = await planInScope(ctx.db, user, id);
  const zones = (await planSites(ctx.db, [id])).map((s) => s.timeZone);
  if (p.status === 'stopped' && isExpired(p.schedule, zones, Date.now())) throw new AppError('RULE_VIOLATION', PLAN_EXPIRED);
  await transition(ctx, planMachine, statefulPlan(id, user), { action: 'start', user });
  // The generator's pass over it at once: activation when its start date has come, and a due order.
  await generatePlan(ctx, id);
  const [now] = await ctx.db.select({ status: inspectionPlan.status }).from(inspectionPlan).where(eq(inspectionPlan.id, id));
  return { id, status: now!.status as PlanState };
}

/** Starts a stopped plan, stops an executing or pending one. */
export async function startOrStopPlan(ctx: AppContext, user: AuthUser, id: number): Promise<{ id: number; status: PlanState }> {
  const p = await planInScope(ctx.db, user, id);
  if (p.status === 'stopped') return startPlan(ctx, user, id);
  const { to } = await transition(ctx, planMachine, statefulPlan(id, user), { action: 'stop', user });
  return { id, status: to };
}

// ── Stations of plans ─────────────────────────────────────────────────────────────────

export async function planSiteRecords(ctx: AppContext, user: AuthUser, f: { planId?: number | undefined; siteId?: number | undefined }, page?: PageRequest): Promise<Page<PlanSiteRecord>> {
  if (f.planId) await planInScope(ctx.db, user, f.planId);
  if (f.siteId) await assertSites(ctx.db, user, [f.siteId]);
  const where = and(
    inScope(ctx.db, user),
    inSiteScope(inspectionPlanSite.siteId, ctx.db, user),
    f.planId ? eq(inspectionPlanSite.planId, f.planId) : undefined,
    f.siteId ? eq(inspectionPlanSite.siteId, f.siteId) : undefined,
  );
  const from = () =>
    ctx.db
      .select({ p: inspectionPlan, s: inspectionPlanSite, siteName: site.name, siteCode: site.code, timeZone: site.timeZone })
      .from(inspectionPlanSite)
      .innerJoin(inspectionPlan, eq(inspectionPlan.id, inspectionPlanSite.planId))
      .innerJoin(site, eq(site.id, inspectionPlanSite.siteId));
  const [{ n } = { n: 0 }] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(inspectionPlanSite)
    .innerJoin(inspectionPlan, eq(inspectionPlan.id, inspectionPlanSite.planId))
    .where(where);
  const q = from().where(where).orderBy(asc(inspectionPlan.name), asc(inspectionPlan.id), asc(site.name));
  const rows = page ? (Number(n) === 0 ? [] : await q.limit(page.pageSize).offset((page.current - 1) * page.pageSize)) : await q.limit(LIST_MAX);
  const open = rows.length
    ? await ctx.db
        .select({ planId: inspectionWorkOrder.planId, siteId: inspectionWorkOrder.siteId, n: sql<number>`count(*)::int` })
        .from(inspectionWorkOrder)
        .where(and(inArray(inspectionWorkOrder.planId, [...new Set(rows.map((r) => r.p.id))]), inArray(inspectionWorkOrder.status, [...WORK_ORDER_OPEN_STATES])))
        .groupBy(inspectionWorkOrder.planId, inspectionWorkOrder.siteId)
    : [];
  const now = Date.now();
  return {
    records: rows.map((r) => ({
      planId: r.p.id,
      planName: r.p.name,
      planStatus: r.p.status as PlanState,
      siteId: r.s.siteId,
      siteName: r.siteName,
      siteCode: r.siteCode,
      timeZone: r.timeZone,
      lastDueDate: r.s.lastDueDate,
      nextDueDate: nextDue(r.p, r.timeZone, r.s.lastDueDate, now),
      openOrders: Number(open.find((o) => o.planId === r.p.id && o.siteId === r.s.siteId)?.n ?? 0),
    })),
    total: Number(n),
    current: page?.current ?? 1,
    pageSize: page?.pageSize ?? rows.length,
  };
}
