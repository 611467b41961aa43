import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { demoFleet } from '@ess/simulator';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { device, productEvent } from '../db/schema/device.ts';
import { domainEvent } from '../db/schema/events.ts';
import { hook, hookDelivery } from '../db/schema/hooks.ts';
import { mailLog, messageDelivery, messageRule, smsLog } from '../db/schema/messaging.ts';
import { alarmEngineOf } from '../modules/alarm/index.ts';
import { DEMO_HOOK_NAME } from '../modules/hooks/hooks.demo.ts';
import { deviceRegistryOf } from '../modules/telemetry/index.ts';
import { seedDemoHistory } from './demo-history.ts';

/**
 * The demo's past is history, not news: the alarms the first start plays for past days (through
 * the same alarm engine as live ones) are written with their domain events marked as history, so
 * neither the demo hook (alarm.opened, levels 1–3, to the local receiver) nor the demo message
 * rules (level 1–2 alarms to the administrator in the console, level 1 by mail and SMS) plan a
 * single delivery for them. An alarm raised live afterwards plans both.
 */
describe('demo history and the hooks and messages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { SEED_DEMO: 'true' });
  });
  afterAll(async () => t?.stop());

  const count = async (q: Promise<{ n: number }[]>) => Number((await q)[0]?.n ?? 0);

  it('the history plans no hook delivery and no message; a live alarm after it plans both', async () => {
    // The demo's hook and rules are there, active (seeded at the first start).
    expect((await t.ctx.db.select({ active: hook.active }).from(hook).where(eq(hook.name, DEMO_HOOK_NAME)))[0]?.active).toBe(true);
    expect(await count(t.ctx.db.select({ n: sql<number>`count(*)::int` }).from(messageRule).where(eq(messageRule.enabled, true)))).toBeGreaterThan(0);

    // A day of the demo's past with many faults (a day's worth of alarms of every level).
    await seedDemoHistory(t.ctx, demoFleet(), 1, '', Date.now(), 3);
    await t.ctx.outbox.drain();
    const opened = await t.ctx.db.select({ id: domainEvent.id, history: domainEvent.history, payload: domainEvent.payload }).from(domainEvent).where(eq(domainEvent.type, 'alarm.opened'));
    const levels = opened.map((e) => (e.payload as { level: number }).level);
    // Enough alarms the hook's filter and the rules take, had they been live.
    expect(levels.filter((l) => l <= 2).length).toBeGreaterThan(2);
    expect(opened.every((e) => e.history)).toBe(true);
    expect(await count(t.ctx.db.select({ n: sql<number>`count(*)::int` }).from(hookDelivery))).toBe(0);
    expect(await count(t.ctx.db.select({ n: sql<number>`count(*)::int` }).from(messageDelivery))).toBe(0);
    expect(await count(t.ctx.db.select({ n: sql<number>`count(*)::int` }).from(mailLog))).toBe(0);
    expect(await count(t.ctx.db.select({ n: sql<number>`count(*)::int` }).from(smsLog))).toBe(0);
    // The events were handed to the subscribers that keep state (alarm.live), only not to these two.
    const subscribers = await t.ctx.database.sql.query<{ subscriber: string }>(
      `select distinct subscriber from domain_event_delivery d join domain_event e on e.id = d.event_id where e.type = 'alarm.opened' order by 1`,
    );
    expect(subscribers.rows.map((r) => r.subscriber)).toEqual(['alarm.live']);

    // Now a live one: a level-1 fault of a demo device that is not open (the history ended it, or
    // never raised it; which faults a day of history raises depends on the hours it covers).
    const [past] = await t.ctx.db
      .select({ deviceId: device.id, code: productEvent.identifier })
      .from(device)
      .innerJoin(productEvent, eq(productEvent.productId, device.productId))
      .where(and(eq(productEvent.level, 1), sql`not exists (select 1 from alarm o where o.device_id = ${device.id} and o.code = ${productEvent.identifier} and o.status = 'active')`))
      .orderBy(device.id, productEvent.id)
      .limit(1);
    expect(past).toBeDefined();
    const registry = deviceRegistryOf(t.ctx);
    await registry.refresh();
    const engine = alarmEngineOf(t.ctx)!;
    engine.event(registry.byId.get(past!.deviceId)!, past!.code, true, 'live', Date.now());
    await engine.flush();
    await t.ctx.outbox.drain();
    const [live] = await t.ctx.db.select({ id: domainEvent.id, history: domainEvent.history }).from(domainEvent).where(eq(domainEvent.type, 'alarm.opened')).orderBy(sql`${domainEvent.id} desc`).limit(1);
    expect(live!.history).toBe(false);
    const hooks = await t.ctx.db.select({ eventId: hookDelivery.eventId }).from(hookDelivery);
    expect(hooks.map((d) => d.eventId)).toEqual([live!.id]);
    const messages = await t.ctx.db.select({ eventId: messageDelivery.eventId, channel: messageDelivery.channel }).from(messageDelivery).where(inArray(messageDelivery.channel, ['console', 'mail', 'sms']));
    expect(messages.length).toBeGreaterThan(0);
    expect(new Set(messages.map((m) => m.eventId))).toEqual(new Set([live!.id]));
    expect(new Set(messages.map((m) => m.channel))).toContain('console');
  }, 300_000);
});
