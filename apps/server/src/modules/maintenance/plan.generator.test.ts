import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSchedule, type PlanScheduleInput } from '@ess/contract';
import { inspectionItem, inspectionPlan, inspectionPlanItem, inspectionPlanSite, inspectionWorkOrder, inspectionWorkOrderItem, maintenanceLog, repairOrder } from '../../db/schema/maintenance.ts';
import { domainEvent } from '../../db/schema/events.ts';
import { site } from '../../db/schema/site.ts';
import { appUser, notification } from '../../db/schema/system.ts';
import { DB_TARGETS, dbTargets, freshPostgres, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newAlarm, newDevice, newSite, newUser, seededCompanies } from '../../../test/factory.ts';
import { failingOnce } from './orders.fixtures.ts';
import { createAutomaticRepairs } from './repair.service.ts';
import { generateDue, generatePlan } from './plan.generator.ts';

/**
 * The plan generator: one order per plan, station and scheduled date, in each station's time zone;
 * never twice (also with two instances on one database); a run missed during downtime made once;
 * counting from the last completion; the pause after 5 unopened orders (owner notified); expiry.
 * Plans are written straight into the database as executing, and the generator is run with a
 * pinned "now" (the apps run without the jobs role, so no periodic pass interferes).
 */
const at = (iso: string) => Date.parse(iso);

async function makePlan(
  t: TestApp,
  companyId: number,
  siteIds: number[],
  schedule: PlanScheduleInput,
  opts: { countFrom?: 'schedule' | 'completion'; ownerId?: number; lastDueDate?: string } = {},
): Promise<number> {
  const s = planSchedule.parse(schedule);
  const { db } = t.ctx;
  const [p] = await db
    .insert(inspectionPlan)
    .values({ companyId, name: `gen-${Math.random()}`, status: 'executing', schedule: s, startDate: s.startDate, endDate: s.endDate, countFrom: opts.countFrom ?? 'schedule', ownerId: opts.ownerId ?? null })
    .returning({ id: inspectionPlan.id });
  await db.insert(inspectionPlanSite).values(siteIds.map((siteId) => ({ planId: p!.id, siteId, lastDueDate: opts.lastDueDate ?? null })));
  const [item] = await db.insert(inspectionItem).values({ companyId, name: `gen-item-${Math.random()}`, checkType: 'number', unit: 'V', minValue: 1, maxValue: 2 }).returning({ id: inspectionItem.id });
  await db.insert(inspectionPlanItem).values({ planId: p!.id, itemId: item!.id });
  return p!.id;
}

const ordersOf = (t: TestApp, planId: number) =>
  t.ctx.db.select().from(inspectionWorkOrder).where(eq(inspectionWorkOrder.planId, planId)).orderBy(asc(inspectionWorkOrder.siteId), asc(inspectionWorkOrder.scheduledDate));

describe.each(dbTargets(import.meta.url))('plan generator on %s', (target) => {
  let t: TestApp;
  let companyId: number;
  let shanghai: number;
  let losAngeles: number;

  beforeAll(async () => {
    t = await startTestApp(target, { ROLES: 'api' });
    companyId = (await seededCompanies(t)).east.id;
    shanghai = (await newSite(t, companyId)).id;
    losAngeles = (await newSite(t, companyId)).id;
    await t.ctx.db.update(site).set({ timeZone: 'Asia/Shanghai' }).where(eq(site.id, shanghai));
    await t.ctx.db.update(site).set({ timeZone: 'America/Los_Angeles' }).where(eq(site.id, losAngeles));
  });
  afterAll(async () => t?.stop());

  it('makes each station its order at 08:00 of its own day (Asia/Shanghai, America/Los_Angeles), with the items copied', async () => {
    const id = await makePlan(t, companyId, [shanghai, losAngeles], { kind: 'daily', startDate: '2026-11-26', time: '08:00', dueHours: 24 });
    // 01:00 UTC: 09:00 on the 27th in Shanghai (started), 17:00 on the 26th in Los Angeles (started).
    expect(await generatePlan(t.ctx, id, at('2026-11-27T01:00:00Z'))).toBe(2);
    let orders = await ordersOf(t, id);
    expect(orders.map((o) => [o.siteId, o.scheduledDate, o.startAt.toISOString(), o.dueAt.toISOString(), o.status])).toEqual([
      [shanghai, '2026-11-27', '2026-11-27T00:00:00.000Z', '2026-11-28T00:00:00.000Z', 'toBeAssigned'],
      [losAngeles, '2026-11-26', '2026-11-26T16:00:00.000Z', '2026-11-27T16:00:00.000Z', 'toBeAssigned'],
    ]);
    expect(orders[0]!.no).toMatch(/^XJ20261127\d{6}$/);
    const items = await t.ctx.db.select().from(inspectionWorkOrderItem).where(eq(inspectionWorkOrderItem.orderId, orders[0]!.id));
    expect(items.map((i) => [i.checkType, i.unit, i.minValue, i.maxValue])).toEqual([['number', 'V', 1, 2]]);
    // 15:00 UTC: 23:00 in Shanghai (done today), 07:00 on the 27th in Los Angeles (not yet started): nothing.
    expect(await generatePlan(t.ctx, id, at('2026-11-27T15:00:00Z'))).toBe(0);
    // 16:00 UTC: 08:00 in Los Angeles: its order of the 27th.
    expect(await generatePlan(t.ctx, id, at('2026-11-27T16:00:00Z'))).toBe(1);
    orders = await ordersOf(t, id);
    expect(orders.map((o) => [o.siteId, o.scheduledDate])).toEqual([
      [shanghai, '2026-11-27'],
      [losAngeles, '2026-11-26'],
      [losAngeles, '2026-11-27'],
    ]);
  });

  it('never makes an order twice: again, and in two concurrent passes', async () => {
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await makePlan(t, companyId, [shanghai, losAngeles], { kind: 'daily', startDate: '2026-11-01', time: '06:00' }));
    const now = at('2026-11-20T20:00:00Z');
    const [a, b] = await Promise.all([generateDue(t.ctx, now), generateDue(t.ctx, now)]);
    for (const id of ids) expect(await ordersOf(t, id)).toHaveLength(2);
    expect(a + b).toBeGreaterThanOrEqual(8);
    expect(await generateDue(t.ctx, now)).toBe(0);
  });

  it('after downtime makes the latest missed order once, not one per missed day', async () => {
    const id = await makePlan(t, companyId, [shanghai], { kind: 'daily', startDate: '2026-10-01', time: '08:00' }, { lastDueDate: '2026-10-10' });
    // Ten days down: one pass makes the 20th only.
    expect(await generatePlan(t.ctx, id, at('2026-10-20T02:00:00Z'))).toBe(1);
    expect((await ordersOf(t, id)).map((o) => o.scheduledDate)).toEqual(['2026-10-20']);
    // Weekly on Mondays, down across two Mondays: the later one only.
    const weekly = await makePlan(t, companyId, [shanghai], { kind: 'weekly', weekdays: [1], startDate: '2026-10-01', time: '08:00' }, { lastDueDate: '2026-10-05' });
    expect(await generatePlan(t.ctx, weekly, at('2026-10-22T02:00:00Z'))).toBe(1);
    expect((await ordersOf(t, weekly)).map((o) => o.scheduledDate)).toEqual(['2026-10-19']);
  });

  it('counting from the last completion: no new order while one is open, the next after the completion day', async () => {
    const id = await makePlan(t, companyId, [shanghai], { kind: 'interval', everyDays: 3, startDate: '2026-09-01', time: '08:00' }, { countFrom: 'completion', lastDueDate: '2026-09-01' });
    expect(await generatePlan(t.ctx, id, at('2026-09-04T02:00:00Z'))).toBe(1);
    // Still open on the 10th: nothing more.
    expect(await generatePlan(t.ctx, id, at('2026-09-10T02:00:00Z'))).toBe(0);
    const [first] = await ordersOf(t, id);
    await t.ctx.db.update(inspectionWorkOrder).set({ status: 'completed', completedAt: new Date('2026-09-10T03:00:00Z'), openedAt: new Date('2026-09-10T02:00:00Z') }).where(eq(inspectionWorkOrder.id, first!.id));
    // Completed on the 10th: every 3 days from then, the 13th.
    expect(await generatePlan(t.ctx, id, at('2026-09-12T02:00:00Z'))).toBe(0);
    expect(await generatePlan(t.ctx, id, at('2026-09-13T02:00:00Z'))).toBe(1);
    expect((await ordersOf(t, id)).map((o) => o.scheduledDate)).toEqual(['2026-09-04', '2026-09-13']);
  });

  it('pauses a plan whose last 5 orders were never opened and tells its owner; an opened one keeps it going', async () => {
    const owner = await newUser(t, companyId, { signIn: false });
    const id = await makePlan(t, companyId, [shanghai], { kind: 'daily', startDate: '2026-08-01', time: '08:00' }, { ownerId: owner.id, lastDueDate: '2026-08-01' });
    for (let d = 2; d <= 6; d++) expect(await generatePlan(t.ctx, id, at(`2026-08-0${d}T02:00:00Z`))).toBe(1);
    expect(await generatePlan(t.ctx, id, at('2026-08-07T02:00:00Z'))).toBe(0);
    const [p] = await t.ctx.db.select().from(inspectionPlan).where(eq(inspectionPlan.id, id));
    expect([p!.status, p!.stopReason]).toEqual(['stopped', 'unopened']);
    const notes = await t.ctx.db.select().from(notification).where(eq(notification.userId, owner.id));
    expect(notes.map((n) => n.title)).toEqual(['巡检计划已自动暂停']);
    const [log] = await t.ctx.db.select().from(maintenanceLog).where(and(eq(maintenanceLog.entity, 'plan'), eq(maintenanceLog.entityId, id)));
    expect([log!.action, log!.fromState, log!.toState, log!.username, log!.userId]).toEqual(['pause', 'executing', 'stopped', '系统', null]);

    // An owner who signed in with English reads the notice in English.
    const english = await newUser(t, companyId, { signIn: false });
    await t.ctx.db.update(appUser).set({ language: 'en-US' }).where(eq(appUser.id, english.id));
    const en = await makePlan(t, companyId, [shanghai], { kind: 'daily', startDate: '2026-08-01', time: '08:00' }, { ownerId: english.id, lastDueDate: '2026-08-01' });
    for (let d = 2; d <= 6; d++) await generatePlan(t.ctx, en, at(`2026-08-0${d}T02:00:00Z`));
    await generatePlan(t.ctx, en, at('2026-08-07T02:00:00Z'));
    const [enNote] = await t.ctx.db.select().from(notification).where(eq(notification.userId, english.id));
    expect([enNote!.title, enNote!.content]).toEqual([
      'Inspection plan paused automatically',
      `Inspection plan "${(await t.ctx.db.select({ name: inspectionPlan.name }).from(inspectionPlan).where(eq(inspectionPlan.id, en)))[0]!.name}": Paused: its last 5 orders were never opened`,
    ]);

    const kept = await makePlan(t, companyId, [shanghai], { kind: 'daily', startDate: '2026-08-01', time: '08:00' }, { lastDueDate: '2026-08-01' });
    for (let d = 2; d <= 6; d++) await generatePlan(t.ctx, kept, at(`2026-08-0${d}T02:00:00Z`));
    const [oldest] = await ordersOf(t, kept);
    await t.ctx.db.update(inspectionWorkOrder).set({ openedAt: new Date() }).where(eq(inspectionWorkOrder.id, oldest!.id));
    expect(await generatePlan(t.ctx, kept, at('2026-08-07T02:00:00Z'))).toBe(1);
    expect((await t.ctx.db.select().from(inspectionPlan).where(eq(inspectionPlan.id, kept)))[0]!.status).toBe('executing');
  });

  it('activates a pending plan when its start date comes, and stops one past its end date', async () => {
    const pending = await makePlan(t, companyId, [shanghai], { kind: 'daily', startDate: '2026-07-10', time: '08:00' });
    await t.ctx.db.update(inspectionPlan).set({ status: 'pending' }).where(eq(inspectionPlan.id, pending));
    expect(await generatePlan(t.ctx, pending, at('2026-07-09T02:00:00Z'))).toBe(0);
    expect((await t.ctx.db.select().from(inspectionPlan).where(eq(inspectionPlan.id, pending)))[0]!.status).toBe('pending');
    expect(await generatePlan(t.ctx, pending, at('2026-07-10T02:00:00Z'))).toBe(1);
    expect((await t.ctx.db.select().from(inspectionPlan).where(eq(inspectionPlan.id, pending)))[0]!.status).toBe('executing');

    const ending = await makePlan(t, companyId, [shanghai], { kind: 'daily', startDate: '2026-07-01', endDate: '2026-07-05', time: '08:00' }, { lastDueDate: '2026-07-04' });
    // Down over its end: its last date is made, then it stops.
    expect(await generatePlan(t.ctx, ending, at('2026-07-08T02:00:00Z'))).toBe(1);
    expect((await ordersOf(t, ending)).map((o) => o.scheduledDate)).toEqual(['2026-07-05']);
    const [p] = await t.ctx.db.select().from(inspectionPlan).where(eq(inspectionPlan.id, ending));
    expect([p!.status, p!.stopReason]).toEqual(['stopped', 'expired']);
  });

  it('a database failure in the middle of a pass leaves no partial order, and the next pass makes each order exactly once', async () => {
    const id = await makePlan(t, companyId, [shanghai, losAngeles], { kind: 'daily', startDate: '2026-06-01', time: '08:00' }, { lastDueDate: '2026-06-10' });
    const now = at('2026-06-20T20:00:00Z');
    const sitesOf = async () =>
      (await t.ctx.db.select().from(inspectionPlanSite).where(eq(inspectionPlanSite.planId, id)).orderBy(asc(inspectionPlanSite.siteId))).map((r) => [r.siteId, r.lastDueDate]);
    const createdEvents = async () => (await t.ctx.db.select().from(domainEvent).where(eq(domainEvent.type, 'workorder.created'))).length;
    const events = await createdEvents();
    // The second station's transaction loses its connection after writing the order and the station's last date, at the items.
    await expect(generatePlan(failingOnce(t.ctx, inspectionWorkOrderItem, 2), id, now)).rejects.toThrow('Connection terminated');
    let orders = await ordersOf(t, id);
    expect(orders).toHaveLength(1);
    const [first] = orders;
    const failedSite = first!.siteId === shanghai ? losAngeles : shanghai;
    expect((await sitesOf()).find(([siteId]) => siteId === failedSite)).toEqual([failedSite, '2026-06-10']);
    expect(await t.ctx.db.select().from(inspectionWorkOrderItem).where(eq(inspectionWorkOrderItem.orderId, first!.id))).toHaveLength(1);
    expect(await createdEvents()).toBe(events + 1);

    // The next pass (the database back) makes the missing one, once; another pass makes nothing.
    expect(await generatePlan(t.ctx, id, now)).toBe(1);
    expect(await generatePlan(t.ctx, id, now)).toBe(0);
    orders = await ordersOf(t, id);
    // 20:00 UTC on the 20th: the 21st has begun in Shanghai (04:00, before 08:00: the 20th is the latest), 13:00 of the 20th in Los Angeles.
    expect(orders.map((o) => [o.siteId, o.scheduledDate])).toEqual([[shanghai, '2026-06-20'], [losAngeles, '2026-06-20']]);
    for (const o of orders) expect(await t.ctx.db.select().from(inspectionWorkOrderItem).where(eq(inspectionWorkOrderItem.orderId, o.id))).toHaveLength(1);
    expect(await sitesOf()).toEqual([[shanghai, '2026-06-20'], [losAngeles, '2026-06-20']].sort((x, y) => Number(x[0]) - Number(y[0])));
    expect(await createdEvents()).toBe(events + 2);
  });

  it('a database failure in the middle of the automatic-repair run leaves no partial order, and the next run makes each alarm its one order', async () => {
    const MIN = 60_000;
    // The default rule (level ≤ 2, open 10 minutes) applies: no rule row in this database.
    const older = await newAlarm(t, (await newDevice(t, shanghai, { type: 'pcs' })).id, { level: 1, startedAt: new Date(Date.now() - 40 * MIN) });
    const newer = await newAlarm(t, (await newDevice(t, shanghai, { type: 'pcs' })).id, { level: 2, startedAt: new Date(Date.now() - 30 * MIN) });
    const ordersOfAlarm = (alarmId: number) => t.ctx.db.select().from(repairOrder).where(eq(repairOrder.alarmId, alarmId));
    const journalOf = async (alarmId: number) => {
      const [o] = await ordersOfAlarm(alarmId);
      return o ? t.ctx.db.select().from(maintenanceLog).where(and(eq(maintenanceLog.entity, 'repair'), eq(maintenanceLog.entityId, o.id))) : [];
    };
    // The older alarm's order commits; the newer one's transaction fails at its journal row, after the order row.
    await expect(createAutomaticRepairs(failingOnce(t.ctx, maintenanceLog, 2))).rejects.toThrow('Connection terminated');
    expect(await ordersOfAlarm(older.id)).toHaveLength(1);
    expect(await ordersOfAlarm(newer.id)).toHaveLength(0);
    expect(await journalOf(older.id)).toHaveLength(1);
    const orphans = await t.ctx.database.sql.query<{ n: number }>(
      "select count(*)::int as n from maintenance_log l where l.entity = 'repair' and not exists (select 1 from repair_order r where r.id = l.entity_id)",
    );
    expect(orphans.rows[0]!.n).toBe(0);

    expect(await createAutomaticRepairs(t.ctx)).toBe(1);
    expect(await createAutomaticRepairs(t.ctx)).toBe(0);
    for (const a of [older, newer]) {
      const rows = await ordersOfAlarm(a.id);
      expect(rows.map((r) => [r.source, r.status, r.level])).toEqual([['autoAlarm', 'toBeDispatched', a.id === older.id ? 1 : 2]]);
      expect(await journalOf(a.id)).toHaveLength(1);
    }
    const created = (await t.ctx.db.select().from(domainEvent).where(eq(domainEvent.type, 'repair.created'))).filter((e) =>
      [older.id, newer.id].includes((e.payload as { alarmId: number }).alarmId),
    );
    expect(created).toHaveLength(2);
  });
});

describe.runIf(DB_TARGETS.includes('postgres'))('plan generator: two instances on one PostgreSQL database', () => {
  let db: Awaited<ReturnType<typeof freshPostgres>>;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    db = await freshPostgres();
    a = await startTestApp('postgres', { ROLES: 'api' }, { databaseUrl: db.url });
    b = await startTestApp('postgres', { ROLES: 'api' }, { databaseUrl: db.url });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await db?.drop();
  });

  it('both run the generator at once: every order exists exactly once', async () => {
    const companyId = (await seededCompanies(a)).east.id;
    const sites = [];
    for (let i = 0; i < 3; i++) sites.push((await newSite(a, companyId)).id);
    const plans = [];
    for (let i = 0; i < 6; i++) plans.push(await makePlan(a, companyId, sites, { kind: 'daily', startDate: '2026-11-01', time: '00:00' }));
    const now = at('2026-11-20T12:00:00Z');
    const made = await Promise.all([generateDue(a.ctx, now), generateDue(b.ctx, now), generateDue(a.ctx, now), generateDue(b.ctx, now)]);
    expect(made.reduce((x, y) => x + y, 0)).toBe(plans.length * sites.length);
    for (const id of plans) {
      const orders = await ordersOf(a, id);
      expect(orders.map((o) => o.scheduledDate)).toEqual(sites.map(() => '2026-11-20'));
      const items = await a.ctx.db.select().from(inspectionWorkOrderItem).where(eq(inspectionWorkOrderItem.orderId, orders[0]!.id));
      expect(items).toHaveLength(1);
    }
  });
});
