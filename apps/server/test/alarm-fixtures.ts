import { and, eq, sql } from 'drizzle-orm';
import { alarm } from '../src/db/schema/alarm.ts';
import { alarmEngineOf } from '../src/modules/alarm/index.ts';
import { deviceRegistryOf } from '../src/modules/telemetry/index.ts';
import type { TestApp } from './harness.ts';

/**
 * Raises (or clears) a device fault through the alarm engine, as a device event on ingest would,
 * lets the outbox deliver what it emitted, and returns the id of the device's latest alarm of
 * that code.
 */
export async function fault(t: TestApp, deviceId: number, code: string, active = true): Promise<number> {
  const registry = deviceRegistryOf(t.ctx);
  await registry.refresh();
  const engine = alarmEngineOf(t.ctx)!;
  engine.event(registry.byId.get(deviceId)!, code, active, code, Date.now());
  await engine.flush();
  await t.ctx.outbox.drain();
  const [a] = await t.ctx.db
    .select({ id: alarm.id })
    .from(alarm)
    .where(and(eq(alarm.deviceId, deviceId), eq(alarm.code, code)))
    .orderBy(sql`${alarm.id} desc`)
    .limit(1);
  return a!.id;
}
