import { eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectionDefect, inspectionItem, inspectionPlan, inspectionWorkOrder, repairOrder } from '../../db/schema/maintenance.ts';
import { site } from '../../db/schema/site.ts';
import { appUser } from '../../db/schema/system.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { newAlarm, newDevice, newSite, seededCompanies } from '../../../test/factory.ts';
import { seedMaintenanceDemo } from './maintenance.demo.ts';

/**
 * The maintenance demo on a fresh start (rule 9): items for each device type, a daily and a weekly
 * plan per station, two weeks of completed, overdue and open orders with defects, repairs linked
 * to the demo's alarms; written once.
 */
describe('maintenance demo', () => {
  let t: TestApp;
  let a: { id: number };
  let b: { id: number };
  const now = Date.parse('2026-11-27T06:00:00Z');

  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLES: 'api' });
    const { east, south } = await seededCompanies(t);
    a = await newSite(t, east.id);
    b = await newSite(t, south.id);
    await t.ctx.db.update(site).set({ timeZone: 'America/Los_Angeles' }).where(eq(site.id, b.id));
    for (const s of [a, b]) {
      await newDevice(t, s.id, { type: 'pcs' });
      const bms = await newDevice(t, s.id, { type: 'bms' });
      await newAlarm(t, bms.id, { startedAt: new Date(now - 30 * 3_600_000), endedAt: new Date(now - 28 * 3_600_000) });
      await newAlarm(t, bms.id, { startedAt: new Date(now - 5 * 3_600_000) });
    }
  });
  afterAll(async () => t?.stop());

  it('writes items, plans, two weeks of worked orders, defects and repairs from alarms, once', async () => {
    expect(await seedMaintenanceDemo(t.ctx, now)).toBe(true);
    const { db } = t.ctx;
    const items = await db.select().from(inspectionItem);
    expect(new Set(items.map((i) => i.deviceType))).toEqual(new Set([null, 'pcs', 'bms']));
    const plans = await db.select().from(inspectionPlan);
    expect(plans).toHaveLength(4);
    expect(plans.every((p) => p.status === 'executing')).toBe(true);
    const count = async (where: ReturnType<typeof sql>) => Number((await db.select({ n: sql<number>`count(*)::int` }).from(inspectionWorkOrder).where(where))[0]!.n);
    expect(await count(sql`status = 'completed'`)).toBeGreaterThan(20);
    expect(await count(sql`status in ('pending', 'processing') and due_at < ${new Date(now).toISOString()}::timestamptz`)).toBeGreaterThan(0);
    expect(await count(sql`status in ('toBeAssigned', 'pending')`)).toBeGreaterThan(0);
    expect(await count(sql`completed_at > due_at`)).toBeGreaterThan(0);
    expect((await db.select().from(inspectionDefect)).length).toBeGreaterThan(0);
    const repairs = await db.select().from(repairOrder).where(isNotNull(repairOrder.alarmId));
    expect(repairs).toHaveLength(4);
    expect(new Set(repairs.map((r) => r.status)).size).toBe(4);
    // None closed: no call can close a repair order (decision 0045).
    expect((await db.select().from(repairOrder)).filter((r) => r.status === 'closed')).toEqual([]);
    // The administrator (the one account a new user can sign in with) has today's daily order of
    // each station waiting (each station's own today) and the repair waiting for check-in.
    const [admin] = await db.select({ id: appUser.id }).from(appUser).where(eq(appUser.username, 'admin'));
    const mine = await db.select().from(inspectionWorkOrder).where(eq(inspectionWorkOrder.assigneeId, admin!.id));
    expect(mine.map((o) => [o.siteId, o.scheduledDate, o.status]).sort()).toEqual(
      [[a.id, '2026-11-27', 'pending'], [b.id, '2026-11-26', 'pending']].sort(),
    );
    expect(mine.every((o) => plans.find((p) => p.id === o.planId)?.name.startsWith('日常巡检'))).toBe(true);
    expect(repairs.filter((r) => r.assigneeId === admin!.id).map((r) => r.status)).toEqual(['pending']);
    expect(await seedMaintenanceDemo(t.ctx, now)).toBe(false);
  });
});
