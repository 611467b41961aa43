import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THING_MODEL, type Page } from '@ess/contract';
import type { IotConfigRecord, IotDeviceRecord, IotProductRecord } from '@ess/contract/iot';
import { DEMO_PLATFORM_STATION, demoFleet, deviceValues, findStation, runSimulator, startThingsBoardPlatform, type SimulatorHandle, type ThingsBoardPlatform } from '@ess/simulator';
import { alarm } from '../../db/schema/alarm.ts';
import { device } from '../../db/schema/device.ts';
import { deviceLatest } from '../../db/schema/telemetry.ts';
import { iotConfig, iotDevice, iotRelateEvent, iotRelateProperty, iotSync } from '../../db/schema/iot.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newUser, okData, seededCompanies, until } from '../../../test/factory.ts';
import { ingestOf, loadProductSlots, valuesOf } from '../telemetry/index.ts';
import { DEMO_IOT_NAME, firstDemoSync } from './iot.demo.ts';

/**
 * The IoT demo end to end (decision 0055): the station simulator's ThingsBoard platform playing
 * station BE01 (its telemetry and faults through the platform, the other stations over MQTT), a
 * console seeded with the demo (SEED_DEMO) whose IoT application points at it → the demo's first
 * sync (refused while the platform does not answer, nothing written) → products and devices
 * synced, bound to BE01's devices and related → a live value and an alarm arrive through the
 * platform → a storage command goes out as an RPC, changes the simulated EMS and is answered.
 */
describe('the IoT demo: the simulator plays ThingsBoard for BE01', () => {
  let t: TestApp;
  let platform: ThingsBoardPlatform;
  let sim: SimulatorHandle;
  const fleet = demoFleet();
  const be01 = fleet.stations.find((s) => s.code === DEMO_PLATFORM_STATION)!;
  const token = () => t.adminToken;
  const savedUrl = process.env.IOT_DEMO_PLATFORM_URL;

  const consoleId = async (code: string) => (await t.ctx.db.select({ id: device.id, productId: device.productId }).from(device).where(eq(device.code, code)))[0]!;
  const latest = async (code: string): Promise<Record<string, unknown>> => {
    const d = await consoleId(code);
    const [row] = await t.ctx.db.select().from(deviceLatest).where(eq(deviceLatest.deviceId, d.id));
    if (!row) return {};
    return valuesOf((await loadProductSlots(t.ctx.db)).get(d.productId), row.v, row.text);
  };
  const flushed = async () => {
    await new Promise((r) => setTimeout(r, 250));
    await ingestOf(t.ctx)!.flush();
  };

  beforeAll(async () => {
    platform = await startThingsBoardPlatform({ port: 0, rpcTimeoutMs: 3000, source: { station: be01, command: (d, c, p) => sim.command(d, c, p) } });
    process.env.IOT_DEMO_PLATFORM_URL = platform.url;
    t = await startTestApp('pglite', { SEED_DEMO: 'true', INGEST_BATCH_MS: '50', LATEST_FLUSH_MS: '100', ALARM_SYNC_MS: '200', COMMAND_TIMEOUT_MS: '5000' });
    sim = await runSimulator({ mqttUrl: t.ctx.mqtt.url, fleet, intervalMs: 0, platform: { station: DEMO_PLATFORM_STATION, outlet: platform } });
  }, 120_000);
  afterAll(async () => {
    if (savedUrl === undefined) delete process.env.IOT_DEMO_PLATFORM_URL;
    else process.env.IOT_DEMO_PLATFORM_URL = savedUrl;
    await sim?.stop();
    await t?.stop();
    await platform?.close();
  });

  it('seeds one ThingsBoard application with the demo tenant, its password sealed and never answered', async () => {
    const page = await okData(t.api.post<Page<IotConfigRecord>>('/iot/config/query/page', token(), { current: 1, pageSize: 10 }));
    expect(page.records.map((r) => [r.name, r.platform, r.baseUrl, r.username, r.passwordSet, r.requireApproval])).toEqual([[DEMO_IOT_NAME, 'thingsboard', platform.url, 'tenant@thingsboard.org', true, true]]);
    expect(JSON.stringify(page)).not.toContain('"tenant"');
    const [row] = await t.ctx.db.select({ enc: iotConfig.passwordEnc }).from(iotConfig);
    expect(row!.enc).not.toContain('tenant');
  });

  it('does not sync while the platform does not answer (nothing written, not even a failed run), then syncs, binds and relates', async () => {
    const [c] = await t.ctx.db.select().from(iotConfig);
    await t.ctx.db.update(iotConfig).set({ baseUrl: 'http://127.0.0.1:9' }).where(eq(iotConfig.id, c!.id));
    await expect(firstDemoSync(t.ctx)).rejects.toThrow();
    expect(await t.ctx.db.select({ state: iotSync.state }).from(iotSync)).toEqual([]);
    expect((await okData(t.api.post<Page<IotProductRecord>>('/iot/product/query/page', token(), { current: 1, pageSize: 10 }))).total).toBe(0);
    await t.ctx.db.update(iotConfig).set({ baseUrl: c!.baseUrl }).where(eq(iotConfig.id, c!.id));

    expect(await firstDemoSync(t.ctx)).toBe(true);
    expect((await t.ctx.db.select({ state: iotSync.state }).from(iotSync).orderBy(iotSync.id)).map((r) => r.state)).toEqual(['applied']);
    const products = await okData(t.api.post<Page<IotProductRecord>>('/iot/product/query/page', token(), { current: 1, pageSize: 50 }));
    expect(products.total).toBe(new Set(be01.devices.map((d) => d.type)).size);
    const devices = await okData(t.api.post<Page<IotDeviceRecord>>('/iot/device/query/page', token(), { current: 1, pageSize: 100 }));
    expect(devices.records.map((d) => d.name).sort()).toEqual(be01.devices.map((d) => d.code).sort());
    // Every platform device is bound to the console device of its code.
    const bound = await t.ctx.db.select({ name: iotDevice.name, code: device.code }).from(iotDevice).innerJoin(device, eq(device.id, iotDevice.deviceId)).where(isNotNull(iotDevice.deviceId));
    expect(bound.length).toBe(be01.devices.length);
    expect(bound.every((b) => b.name === b.code)).toBe(true);
    expect((await t.ctx.db.select().from(iotRelateProperty)).length).toBeGreaterThan(50);
    expect((await t.ctx.db.select().from(iotRelateEvent)).length).toBeGreaterThan(5);
    // Done once: a second run changes nothing.
    expect(await firstDemoSync(t.ctx)).toBe(true);
    expect((await t.ctx.db.select().from(iotSync)).length).toBe(1);
  }, 120_000);

  it('takes BE01\'s live values and faults through the platform into the latest values and an alarm', async () => {
    // The stream subscribes once the live reconciliation has run: a later tick's values arrive through it.
    await until('a live value of BE01\'s EMS', async () => {
      await sim.tick();
      await flushed();
      const soc = (await latest('BE01-EMS-01')).soc;
      return typeof soc === 'number' && Math.abs(soc - Number(deviceValues(sim.state, 'BE01-EMS-01').soc)) < 0.05;
    }, 30_000, 500);
    const fault = THING_MODEL.ems.events[0]!.code;
    const ems = await consoleId('BE01-EMS-01');
    await sim.injectFault('BE01-EMS-01', fault);
    await until('the alarm through the platform', async () => {
      await flushed();
      return (await t.ctx.db.select().from(alarm).where(and(eq(alarm.deviceId, ems.id), eq(alarm.status, 'active')))).length >= 1;
    }, 30_000);
    await sim.clearFault('BE01-EMS-01', fault);
    await until('the alarm ended', async () => {
      await flushed();
      return (await t.ctx.db.select().from(alarm).where(and(eq(alarm.deviceId, ems.id), eq(alarm.status, 'active')))).length === 0;
    }, 30_000);
  }, 90_000);

  it('sends a storage command to BE01 as a two-way RPC: the simulated EMS takes the set point and answers', async () => {
    const ems = await consoleId('BE01-EMS-01');
    const r = await t.api.post<{ ok: boolean }>('/monitor/storage/one/control', token(), { deviceId: ems.id, mode: 'manual', powerKw: -30, durationMin: 30, password: ADMIN_PASSWORD });
    expect([r.status, r.body.tipMsg, r.body.data.ok]).toEqual([200, expect.any(String), true]);
    const controls = findStation(sim.state, 'BE01-EMS-01')!.station.dyn.controls;
    expect([controls.runMode, controls.manualPowerSetpoint]).toEqual([1, -30]);
    // Through the platform, not the broker.
    expect(platform.rpcs.at(-1)).toEqual({ deviceCode: 'BE01-EMS-01', method: 'storageMode' });
  });

  it('refuses the IoT calls to a user without the IoT menus (403, the envelope), and shows another company nothing', async () => {
    const { south } = await seededCompanies(t);
    const noMenus = await newUser(t, south.id, { menus: ['/monitor/overview'] });
    for (const [method, path, body] of [
      ['post', '/iot/config/query/page', { current: 1, pageSize: 10 }], ['post', '/iot/device/query/page', { current: 1, pageSize: 10 }],
      ['post', '/iot/product/query/page', { current: 1, pageSize: 10 }], ['get', '/iot/sync/full', { configId: 1 }],
    ] as const) {
      const res = method === 'post' ? await t.api.post(path, noMenus.token, body) : await t.api.get(path, noMenus.token, body);
      expect([path, res.status, res.body.errorCode !== '00000', typeof res.body.tipMsg]).toEqual([path, 403, true, 'string']);
    }
    const foreign = await newUser(t, south.id, { menus: ['/iot/appConfig', '/iot/device'] });
    expect((await okData(t.api.post<Page<IotConfigRecord>>('/iot/config/query/page', foreign.token, { current: 1, pageSize: 10 }))).total).toBe(0);
    expect((await okData(t.api.post<Page<IotDeviceRecord>>('/iot/device/query/page', foreign.token, { current: 1, pageSize: 10 }))).total).toBe(0);
  });
});
