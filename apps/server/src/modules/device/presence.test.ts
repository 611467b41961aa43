import { and, eq, gt, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { device, devicePresence } from '../../db/schema/device.ts';
import { domainEvent } from '../../db/schema/events.ts';
import { deviceLatest } from '../../db/schema/telemetry.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, seededCompanies } from '../../../test/factory.ts';
import { sweepPresence } from './index.ts';

/** Issue 13, item 4: a device going online or offline is a written transition with its domain event. */
describe.each(dbTargets(import.meta.url))('device presence transitions on %s', (target) => {
  let t: TestApp;
  let ids: { a: number; b: number; silent: number; disabled: number };
  let siteId: number;
  let lastEvent = 0;

  /** The device.online / device.offline events written since the last look, as "type deviceId". */
  async function newEvents(): Promise<string[]> {
    const rows = await t.ctx.db
      .select()
      .from(domainEvent)
      .where(and(gt(domainEvent.id, lastEvent), inArray(domainEvent.type, ['device.online', 'device.offline'])))
      .orderBy(domainEvent.id);
    lastEvent = Math.max(lastEvent, ...rows.map((r) => r.id));
    return rows.map((r) => `${r.type} ${(r.payload as { deviceId: number }).deviceId}`);
  }
  const seen = (deviceId: number, agoMs: number, offlineAgoMs: number | null = null) =>
    t.ctx.db
      .insert(deviceLatest)
      .values({ deviceId, lastSeenAt: new Date(Date.now() - agoMs), offlineAt: offlineAgoMs === null ? null : new Date(Date.now() - offlineAgoMs) })
      .onConflictDoUpdate({
        target: deviceLatest.deviceId,
        set: { lastSeenAt: new Date(Date.now() - agoMs), offlineAt: offlineAgoMs === null ? null : new Date(Date.now() - offlineAgoMs) },
      });

  beforeAll(async () => {
    // The periodic sweep stays out of the way: the test runs it itself.
    t = await startTestApp(target, { PRESENCE_SWEEP_MS: '3600000', DEVICE_OFFLINE_TIMEOUT_MS: '15000' });
    const { east } = await seededCompanies(t);
    siteId = (await newSite(t, east.id)).id;
    ids = {
      a: (await newDevice(t, siteId)).id,
      b: (await newDevice(t, siteId)).id,
      silent: (await newDevice(t, siteId)).id,
      disabled: (await newDevice(t, siteId)).id,
    };
    await t.ctx.db.update(device).set({ disabled: true }).where(eq(device.id, ids.disabled));
    lastEvent = Math.max(0, ...(await t.ctx.db.select({ id: domainEvent.id }).from(domainEvent)).map((r) => r.id));
  });
  afterAll(async () => t?.stop());

  it('records the first judgement of every reporting device; never-seen and disabled devices are not judged', async () => {
    await seen(ids.a, 1_000);
    await seen(ids.b, 60_000);
    await seen(ids.disabled, 1_000);
    expect(await sweepPresence(t.ctx)).toEqual({ online: 1, offline: 1 });
    expect(await newEvents()).toEqual([`device.online ${ids.a}`, `device.offline ${ids.b}`]);
    const rows = await t.ctx.db.select().from(devicePresence).where(inArray(devicePresence.deviceId, Object.values(ids)));
    expect(Object.fromEntries(rows.map((r) => [r.deviceId, r.online]))).toEqual({ [ids.a]: true, [ids.b]: false });
    const [e] = await t.ctx.db.select().from(domainEvent).where(eq(domainEvent.type, 'device.online')).orderBy(domainEvent.id);
    expect(e!.payload).toMatchObject({ deviceId: ids.a, siteId, code: expect.any(String) as string, at: expect.any(String) as string });
  });

  it('emits nothing while nothing changes', async () => {
    expect(await sweepPresence(t.ctx)).toEqual({ online: 0, offline: 0 });
    expect(await newEvents()).toEqual([]);
  });

  it('turns a silent device offline after its timeout and a reporting one online again', async () => {
    await seen(ids.a, 20_000);
    await seen(ids.b, 500);
    expect(await sweepPresence(t.ctx)).toEqual({ online: 1, offline: 1 });
    expect((await newEvents()).sort()).toEqual([`device.offline ${ids.a}`, `device.online ${ids.b}`].sort());
  });

  it("turns a device offline at its gateway's last will, before any timeout", async () => {
    await seen(ids.b, 2_000, 1_000);
    expect(await sweepPresence(t.ctx)).toEqual({ online: 0, offline: 1 });
    expect(await newEvents()).toEqual([`device.offline ${ids.b}`]);
  });

  it('records one change once when two sweeps run at the same time', async () => {
    await seen(ids.a, 100);
    const both = await Promise.all([sweepPresence(t.ctx), sweepPresence(t.ctx)]);
    expect(both.map((n) => n.online).reduce((x, y) => x + y, 0)).toBe(1);
    expect(await newEvents()).toEqual([`device.online ${ids.a}`]);
  });
});
