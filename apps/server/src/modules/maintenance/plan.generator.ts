import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import {
  PLAN_UNOPENED_PAUSE, WORK_ORDER_NO_PREFIX, WORK_ORDER_OPEN_STATES, addDays, dueSlot, lastScheduleDate, localDateOf, todayIn,
} from '@ess/contract';
import { inspectionItem, inspectionPlan, inspectionPlanItem, inspectionPlanSite, inspectionWorkOrder, inspectionWorkOrderItem } from '../../db/schema/maintenance.ts';
import type { AppContext } from '../../platform/context.ts';
import { emit } from '../../platform/events/outbox.ts';
import { SYSTEM_USER } from './maintenance.journal.ts';
import { isExpired, planSites, systemPlanAction } from './plan.service.ts';

/**
 * The plan generator (a periodic job on the jobs role, and a pass over a plan when it starts):
 * for each executing plan and each of its stations, in the station's time zone, the latest
 * scheduled date that has started and comes after the last one generated there gets its work
 * order. So a run missed during downtime is made once (the latest), never back-filled day by day.
 * The partial unique index on (plan, station, scheduled date) is the arbiter between instances:
 * the second insert does nothing. A pending plan is activated once its start date arrives at a
 * station; a plan whose last 5 generated orders were never opened is paused and its owner told;
 * a plan past its end date everywhere is stopped.
 */

/** How often the generator runs (also at start). */
export const GENERATOR_INTERVAL_MS = 60_000;

type Plan = typeof inspectionPlan.$inferSelect;
type PlanSite = Awaited<ReturnType<typeof planSites>>[number];

/** Every plan that is not stopped, once; returns how many orders were made. */
export async function generateDue(ctx: AppContext, now = Date.now()): Promise<number> {
  const plans = await ctx.db.select({ id: inspectionPlan.id }).from(inspectionPlan).where(ne(inspectionPlan.status, 'stopped')).orderBy(asc(inspectionPlan.id));
  let made = 0;
  for (const p of plans) made += await generatePlan(ctx, p.id, now);
  return made;
}

const readPlan = async (ctx: AppContext, id: number): Promise<Plan | undefined> => (await ctx.db.select().from(inspectionPlan).where(eq(inspectionPlan.id, id)))[0];

/** One plan's pass: activation, the pause rule, each station's due order, expiry. Returns how many orders were made. */
export async function generatePlan(ctx: AppContext, planId: number, now = Date.now()): Promise<number> {
  let p = await readPlan(ctx, planId);
  if (!p || p.status === 'stopped') return 0;
  const sites = await planSites(ctx.db, [planId]);
  if (sites.length === 0) return 0;
  if (p.status === 'pending') {
    if (!sites.some((s) => todayIn(s.timeZone, new Date(now)) >= p!.schedule.startDate)) return 0;
    await systemPlanAction(ctx, planId, 'activate');
    p = await readPlan(ctx, planId);
    if (p?.status !== 'executing') return 0;
  }
  if (await neverOpened(ctx, planId)) {
    await systemPlanAction(ctx, planId, 'pause', 'unopened');
    return 0;
  }
  let made = 0;
  for (const s of sites) made += await generateAt(ctx, p, s, now);
  if (isExpired(p.schedule, sites.map((s) => s.timeZone), now)) await systemPlanAction(ctx, planId, 'expire', 'expired');
  return made;
}

/** Whether the plan's last PLAN_UNOPENED_PAUSE generated orders were all never opened. */
async function neverOpened(ctx: AppContext, planId: number): Promise<boolean> {
  const last = await ctx.db
    .select({ openedAt: inspectionWorkOrder.openedAt })
    .from(inspectionWorkOrder)
    .where(and(eq(inspectionWorkOrder.planId, planId), eq(inspectionWorkOrder.origin, 'plan')))
    .orderBy(desc(inspectionWorkOrder.startAt), desc(inspectionWorkOrder.id))
    .limit(PLAN_UNOPENED_PAUSE);
  return last.length === PLAN_UNOPENED_PAUSE && last.every((o) => o.openedAt === null);
}

/**
 * The date a station's next order is for, if one is due now: the latest scheduled date after the
 * last generated one (and, counting from completion, after the last completion, with no order
 * open) whose start time has passed.
 */
async function dueDate(ctx: AppContext, p: Plan, s: PlanSite, now: number): Promise<string | null> {
  const zone = s.timeZone;
  const today = localDateOf(now, zone);
  let after = s.lastDueDate;
  let anchor = p.schedule.startDate;
  if (p.countFrom === 'completion') {
    const [open] = await ctx.db
      .select({ id: inspectionWorkOrder.id })
      .from(inspectionWorkOrder)
      .where(and(eq(inspectionWorkOrder.planId, p.id), eq(inspectionWorkOrder.siteId, s.siteId), inArray(inspectionWorkOrder.status, [...WORK_ORDER_OPEN_STATES])))
      .limit(1);
    if (open) return null;
    const [done] = await ctx.db
      .select({ at: sql<Date | string | null>`max(coalesce(${inspectionWorkOrder.completedAt}, ${inspectionWorkOrder.closedAt}))` })
      .from(inspectionWorkOrder)
      .where(and(eq(inspectionWorkOrder.planId, p.id), eq(inspectionWorkOrder.siteId, s.siteId)));
    if (done?.at) {
      const doneDate = localDateOf(new Date(done.at).getTime(), zone);
      if (after === null || doneDate > after) after = doneDate;
      if (p.schedule.kind === 'interval') anchor = doneDate;
    }
  }
  let date = lastScheduleDate(p.schedule, today, after, anchor);
  if (date !== null && dueSlot(p.schedule, date, zone).startAt > now) date = lastScheduleDate(p.schedule, addDays(today, -1), after, anchor);
  return date;
}

/** Makes the station's due order, if any and if no other instance made it first. */
async function generateAt(ctx: AppContext, p: Plan, s: PlanSite, now: number): Promise<number> {
  const date = await dueDate(ctx, p, s, now);
  if (date === null) return 0;
  const slot = dueSlot(p.schedule, date, s.timeZone);
  const made = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: string | number }>(sql`select nextval(pg_get_serial_sequence('inspection_work_order', 'id')) as id`);
    const id = Number(rows[0]!.id);
    const inserted = await tx
      .insert(inspectionWorkOrder)
      .values({
        id, no: `${WORK_ORDER_NO_PREFIX}${date.replaceAll('-', '')}${String(id).padStart(6, '0')}`, siteId: s.siteId, planId: p.id, origin: 'plan',
        title: p.name, status: 'toBeAssigned', scheduledDate: date, startAt: new Date(slot.startAt), dueAt: new Date(slot.dueAt),
        createdBy: null, createdByName: SYSTEM_USER.name,
      })
      .onConflictDoNothing()
      .returning({ id: inspectionWorkOrder.id, no: inspectionWorkOrder.no });
    await tx
      .update(inspectionPlanSite)
      .set({ lastDueDate: sql`greatest(coalesce(${inspectionPlanSite.lastDueDate}, ${date}::date), ${date}::date)`, ...(inserted.length ? { lastGeneratedAt: new Date(now) } : {}) })
      .where(and(eq(inspectionPlanSite.planId, p.id), eq(inspectionPlanSite.siteId, s.siteId)));
    const order = inserted[0];
    if (!order) return 0;
    const items = await tx
      .select({ i: inspectionItem, sort: inspectionPlanItem.sort })
      .from(inspectionPlanItem)
      .innerJoin(inspectionItem, eq(inspectionItem.id, inspectionPlanItem.itemId))
      .where(eq(inspectionPlanItem.planId, p.id))
      .orderBy(asc(inspectionPlanItem.sort));
    if (items.length) {
      await tx.insert(inspectionWorkOrderItem).values(
        items.map(({ i }, k) => ({
          orderId: order.id, itemId: i.id, sort: k, name: i.name, checkType: i.checkType, deviceType: i.deviceType, unit: i.unit,
          minValue: i.minValue, maxValue: i.maxValue, standard: i.standard,
        })),
      );
    }
    await tx.update(inspectionPlan).set({ lastGeneratedAt: new Date(now) }).where(eq(inspectionPlan.id, p.id));
    await emit(tx, 'workorder.created', [{ id: order.id, no: order.no, siteId: s.siteId, from: null, to: 'toBeAssigned', userId: null, assigneeId: null, note: null }]);
    return 1;
  });
  if (made) ctx.outbox.nudge();
  return made;
}

/** Registers the generator on instances with the jobs role. */
export function registerPlanJobs(ctx: AppContext): void {
  ctx.jobs.every(GENERATOR_INTERVAL_MS, async () => {
    const made = await generateDue(ctx);
    if (made) ctx.log.info({ made }, 'inspection orders generated');
  });
}
