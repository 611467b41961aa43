import { eq, inArray } from 'drizzle-orm';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceHistory, DeviceLatestRecord, DeviceProperties, DeviceRecord, DeviceTreeNode, Page, DeviceFaultWarning } from '@ess/contract';
import { deviceValues, demoFleet, manualClock, runSimulator, type ManualClock, type SimulatorHandle } from '@ess/simulator';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { purgeTelemetry } from './telemetry.jobs.ts';
import { site, userSite } from '../../db/schema/site.ts';
import { appUser, company, menu, role, roleMenu, userRole } from '../../db/schema/system.ts';
import { hashPassword } from '../../platform/password.ts';
import { ingestOf } from './index.ts';

const until = async (what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 15_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

const FLEET = demoFleet();
const DEVICES = FLEET.stations.reduce((a, s) => a + s.devices.length, 0);
const SH01 = FLEET.stations.find((s) => s.code === 'SH01')!;

/**
 * The whole device path through real parts: the server starts its embedded broker, the
 * simulator publishes the demo fleet to it, and the device calls answer with what was published.
 */
describe.each(dbTargets(import.meta.url))('telemetry ingest on %s', (target) => {
  let t: TestApp;
  let sim: SimulatorHandle;
  let clock: ManualClock;
  let raw: MqttClient;
  const start = Date.now() - 60_000;
  const ids = new Map<string, number>();

  const ingest = () => ingestOf(t.ctx)!;
  const tick = async () => {
    const before = ingest().counters.storedReports;
    const expected = sim.state.stations.reduce((a, s) => a + s.def.devices.length, 0) - silenced.size;
    clock.advance(5000);
    await sim.tick();
    await until('the reports to be stored', () => ingest().counters.storedReports >= before + expected);
    await ingest().flush();
  };
  const silenced = new Set<string>();
  const post = <T>(path: string, body: unknown) => t.api.post<T>(path, t.adminToken, body);

  beforeAll(async () => {
    t = await startTestApp(target, {
      SEED_DEMO: 'true', DEVICE_OFFLINE_TIMEOUT_MS: '2000', INGEST_BATCH_MS: '50', LATEST_FLUSH_MS: '100', ROLLUP_FLUSH_MS: '200',
    });
    const all = await post<DeviceRecord[]>('/configure/device/query/list', {});
    for (const d of all.body.data) ids.set(d.code, d.id);
    clock = manualClock(start);
    raw = await connectAsync(t.ctx.mqtt.url, { clientId: `test-raw-${target}` });
  });
  afterAll(async () => {
    await sim?.stop();
    await raw?.endAsync();
    await t?.stop();
  });

  it('registers the demo fleet: every device inactive before it reports', async () => {
    expect(ids.size).toBe(DEVICES);
    const page = await post<Page<DeviceRecord>>('/configure/device/query/page', { pageSize: 500 });
    expect(page.body.data.total).toBe(DEVICES);
    expect(new Set(page.body.data.records.map((r) => r.status))).toEqual(new Set(['inactive']));
    const pcs = page.body.data.records.find((r) => r.code === 'SH01-PCS-01')!;
    expect(pcs).toMatchObject({ type: 'pcs', siteCode: 'SH01', parentName: 'EMS能量管理系统', ratedPower: 200, firmwareName: 'pcs-dsp' });
  });

  it('stores what the simulator publishes and serves it as latest values with online status', async () => {
    sim = await runSimulator({ mqttUrl: t.ctx.mqtt.url, fleet: FLEET, intervalMs: 0, clock });
    for (let i = 0; i < 3; i++) await tick();
    expect(ingest().counters).toMatchObject({ telemetry: 3 * DEVICES, storedReports: 3 * DEVICES, invalid: 0, unknownDevice: 0, duplicates: 0 });
    const rows = await t.ctx.database.sql.query<{ n: number }>('select count(*)::int as n from telemetry');
    expect(rows.rows[0]!.n).toBe(3 * DEVICES);

    const siteId = (await post<DeviceRecord>('/configure/device/query/one', { id: ids.get('SH01-PCS-01') })).body.data.siteId;
    const latest = await post<Page<DeviceLatestRecord>>('/configure/device/data/latest/page', { siteId, pageSize: 100 });
    expect(latest.body.data.total).toBe(SH01.devices.length);
    expect(new Set(latest.body.data.records.map((r) => r.status))).toEqual(new Set(['online']));
    const pcs = latest.body.data.records.find((r) => r.code === 'SH01-PCS-01')!;
    const published = deviceValues(sim.state, 'SH01-PCS-01');
    expect(pcs.values).toEqual(published);
    expect(pcs.ts).toBe(new Date(sim.state.timeMs).toISOString());

    const some = await post<DeviceLatestRecord[]>('/configure/device/data/latest/list', { types: ['bms'], identifiers: ['soc', 'soh'] });
    expect(some.body.data).toHaveLength(3);
    for (const r of some.body.data) expect(Object.keys(r.values).sort()).toEqual(['soc', 'soh']);
    const one = await post<DeviceLatestRecord>('/template/product/data/query/latest/one', { deviceCode: 'SH01-BMS-01' });
    expect(one.body.data.values).toEqual(deviceValues(sim.state, 'SH01-BMS-01'));
  });

  it('labels the latest values from the thing model', async () => {
    const r = await t.api.get<DeviceProperties>('/monitor/device/properties', t.adminToken, { deviceId: ids.get('SH01-BMS-01')! });
    expect(r.body.errorCode).toBe('00000');
    const soc = r.body.data.properties.find((p) => p.identifier === 'soc')!;
    expect(soc).toMatchObject({ name: 'SOC', unit: '%', dataType: 'float', value: deviceValues(sim.state, 'SH01-BMS-01').soc });
    const state = r.body.data.properties.find((p) => p.identifier === 'state')!;
    expect(['静置', '充电', '放电', '故障']).toContain(state.valueLabel);
    const position = r.body.data.properties.find((p) => p.identifier === 'maxCellVoltagePosition')!;
    expect(position.value).toMatch(/^\d+-\d+-\d+$/);
    expect(r.body.data.properties).toHaveLength(30);
  });

  it('answers history from raw reports within 24 hours and from rollups beyond, refusing ranges over the limits', async () => {
    const deviceId = ids.get('SH01-PCS-01')!;
    const end = new Date(clock.now() + 1000).toISOString();
    const rawHist = await post<DeviceHistory>('/monitor/device/one/history', { deviceId, identifiers: ['activePower', 'totalChargeEnergy'], start: new Date(start).toISOString(), end });
    expect(rawHist.body.errorCode).toBe('00000');
    expect(rawHist.body.data.interval).toBe('raw');
    const [power, energy] = rawHist.body.data.series;
    expect(power!.points.map((p) => p[0])).toEqual([start + 5000, start + 10_000, start + 15_000]);
    expect(power!.points[2]![1]).toBe(deviceValues(sim.state, 'SH01-PCS-01').activePower);
    expect(energy!.cumulative).toBe(true);
    expect(energy!.delta![0]![1]).toBeNull();
    expect(energy!.delta![2]![1]).toBeCloseTo((energy!.points[2]![1] as number) - (energy!.points[1]![1] as number), 6);

    // The 5-minute rollup: per bucket, the average of the reports in it.
    const fiveMin = await post<DeviceHistory>('/monitor/device/one/history', { deviceId, identifiers: ['activePower'], start: new Date(start).toISOString(), end, interval: '5m' });
    const byBucket = new Map<number, number[]>();
    for (const [ts, v] of power!.points) {
      const b = Math.floor(ts / 300_000) * 300_000;
      byBucket.set(b, [...(byBucket.get(b) ?? []), v!]);
    }
    expect(fiveMin.body.data.series[0]!.points.map(([b]) => b)).toEqual([...byBucket.keys()]);
    fiveMin.body.data.series[0]!.points.forEach(([b, avg]) => {
      const vs = byBucket.get(b)!;
      expect(avg).toBeCloseTo(vs.reduce((a, x) => a + x, 0) / vs.length, 6);
    });
    // Days in the station's zone (Shanghai, UTC+8 without DST).
    const day = await post<DeviceHistory>('/monitor/device/one/history', { deviceId, identifiers: ['activePower'], start: new Date(start).toISOString(), end, interval: '1d' });
    const local = new Date(start + 8 * 3_600_000).toISOString().slice(0, 10);
    const dayStart = Date.parse(`${local}T00:00:00+08:00`);
    const startsToday = dayStart <= start && start + 20_000 < dayStart + 86_400_000;
    if (startsToday) expect(day.body.data.series[0]!.points.map(([b]) => b)).toEqual([dayStart]);

    const tooLong = await post('/monitor/device/one/history', {
      deviceId, identifiers: ['activePower'], start: new Date(start - 25 * 3_600_000).toISOString(), end, interval: 'raw',
    });
    expect(tooLong.status).toBe(406);
    expect(tooLong.body.tipMsg).toBe('查询时间范围不能超过24小时');
    const auto = await post<DeviceHistory>('/monitor/device/one/history', { deviceId, identifiers: ['activePower'], start: new Date(start - 25 * 3_600_000).toISOString(), end });
    expect(auto.body.data.interval).toBe('5m');
    const text = await post('/monitor/device/one/history', { deviceId: ids.get('SH01-BMS-01'), identifiers: ['maxCellVoltagePosition'], start: new Date(start).toISOString(), end });
    expect(text.status).toBe(400);
  });

  it('builds the site → device tree by parent', async () => {
    const siteId = (await post<DeviceRecord>('/configure/device/query/one', { id: ids.get('SH01-EMS-01') })).body.data.siteId;
    const tree = await post<DeviceTreeNode[]>('/configure/device/query/tree', { siteId });
    expect(tree.body.data).toHaveLength(1);
    const [root] = tree.body.data;
    expect(root).toMatchObject({ kind: 'site', code: 'SH01' });
    expect(root!.children.map((c) => c.code)).toEqual(['SH01-EMS-01', 'SH01-TR-01']);
    const ems = root!.children[0]!;
    expect(ems.children.map((c) => c.code)).toEqual(['SH01-PCS-01', 'SH01-AC-01', 'SH01-AC-02']);
    const bms = ems.children[0]!.children[0]!;
    expect(bms.code).toBe('SH01-BMS-01');
    expect(bms.children.map((c) => c.children.length)).toEqual([15, 15]);
    const meters = await post<DeviceTreeNode[]>('/configure/device/query/tree', { siteId, types: ['meter'] });
    expect(meters.body.data[0]!.children.map((c) => c.code)).toEqual(['SH01-TR-01']);
  });

  it('records fault events and lists the active ones with their labels', async () => {
    await sim.injectFault('SH01-BMS-01', 'BMS_INSULATION_LOW');
    await until('the event', () => ingest().counters.events >= 1);
    await ingest().flush();
    const r = await t.api.get<DeviceFaultWarning>('/monitor/device/one/faultWarning', t.adminToken, { deviceId: ids.get('SH01-BMS-01')! });
    expect(r.body.data.active).toEqual([expect.objectContaining({ code: 'BMS_INSULATION_LOW', name: '绝缘电阻过低', level: 1 })]);
    await sim.clearFault('SH01-BMS-01', 'BMS_INSULATION_LOW');
    await until('the clearing event', () => ingest().counters.events >= 2);
    await ingest().flush();
    const after = await t.api.get<DeviceFaultWarning>('/monitor/device/one/faultWarning', t.adminToken, { deviceId: ids.get('SH01-BMS-01')! });
    expect(after.body.data.active).toEqual([]);
    expect(after.body.data.recent.map((e) => e.active)).toEqual([false, true]);
  });

  it('counts malformed messages and unknown devices while the rest still lands', async () => {
    const c0 = { ...ingest().counters };
    await raw.publishAsync('ess/SH01/SH01-BMS-01/telemetry', '{not json', { qos: 1 });
    await raw.publishAsync('ess/SH01/SH01-BMS-01/telemetry', JSON.stringify({ ts: 'yesterday', seq: 1, values: {} }), { qos: 1 });
    await raw.publishAsync('ess/SH01/SH01-NOPE-01/telemetry', JSON.stringify({ ts: Date.now(), seq: 1, values: { soc: 1 } }), { qos: 1 });
    await raw.publishAsync('not/ours', 'x', { qos: 1 });
    // Firmware reports (kinds ota and log) go to the firmware module's sink (no such task or capture: nothing changes): never invalid, the rest unharmed.
    await raw.publishAsync('ess/SH01/SH01-PCS-01/ota', JSON.stringify({ ts: Date.now(), taskId: 1, step: 'downloading', progress: 10 }), { qos: 1 });
    await raw.publishAsync('ess/SH01/SH01-PCS-01/log', JSON.stringify({ ts: Date.now(), captureId: 1, state: 'uploaded', bytes: 10 }), { qos: 1 });
    await tick();
    const c = ingest().counters;
    expect(c.invalid - c0.invalid).toBe(2);
    expect(c.unknownDevice - c0.unknownDevice).toBe(1);
    expect(c.ignored - c0.ignored).toBe(0);
    expect(c.storedReports - c0.storedReports).toBe(DEVICES);
    const rows = await t.ctx.database.sql.query<{ n: number }>('select count(*)::int as n from telemetry');
    expect(rows.rows[0]!.n).toBe(4 * DEVICES);
  });

  it('turns a device that stops publishing offline after the timeout, and a station whose gateway goes offline', async () => {
    const status = async (code: string) => (await post<DeviceRecord>('/configure/device/query/one', { id: ids.get(code) })).body.data.status;
    await tick();
    sim.silence('SH01-PCS-01');
    silenced.add('SH01-PCS-01');
    const silencedAt = Date.now();
    const before = (await post<DeviceRecord>('/configure/device/query/one', { id: ids.get('SH01-PCS-01') })).body.data;
    expect(before.status).toBe('online');
    const lastSeen = Date.parse(before.lastSeenAt!);
    // The others keep reporting; the silent one turns offline once its timeout (2 s here, or
    // 3 observed report intervals if longer) has passed. On a loaded machine a round of reports
    // takes seconds, and so do 3 intervals: the wait is bounded well above that.
    while ((await status('SH01-PCS-01')) === 'online' && Date.now() - silencedAt < 45_000) {
      await new Promise((r) => setTimeout(r, 300));
      await tick();
    }
    expect(Date.now() - lastSeen).toBeGreaterThanOrEqual(2000);
    expect(await status('SH01-PCS-01')).toBe('offline');
    expect(await status('SH01-BMS-01')).toBe('online');
    const offline = await post<Page<DeviceRecord>>('/configure/device/query/page', { status: 'offline' });
    expect(offline.body.data.records.map((r) => r.code)).toEqual(['SH01-PCS-01']);

    // The station gateway's last will (here sent by hand): the whole station is unreachable.
    // A fresh round first, so the other station's devices are well inside their timeout.
    await tick();
    await raw.publishAsync('ess/BE01/BE01-EMS-01/status', JSON.stringify({ ts: Date.now(), online: false }), { qos: 1 });
    await until('the status', async () => {
      await ingest().flush();
      return (await status('BE01-DCDC-01')) === 'offline';
    });
    expect(await status('BE01-BP-01-07')).toBe('offline');
    // The will takes only its own station down. (On a machine so loaded that the wait above
    // outlasted the 2 s timeout, the other station's devices have timed out by themselves:
    // then their last report must be that old.)
    const bms = (await post<DeviceRecord>('/configure/device/query/one', { id: ids.get('SH01-BMS-01') })).body.data;
    expect(bms.status === 'online' || Date.now() - Date.parse(bms.lastSeenAt!) >= 2000).toBe(true);
    // The next reports bring it back.
    await tick();
    expect(await status('BE01-BP-01-07')).toBe('online');
  }, 120_000);

  it('purges raw telemetry and 5-minute rollups past their retention, keeping the rest', async () => {
    const id = ids.get('SH01-EMS-01')!;
    const old = new Date(Date.now() - 4 * 86_400_000);
    await t.ctx.database.sql.query('insert into telemetry (device_id, ts, seq, v) values ($1, $2, 1, $3)', [id, old, [1, 2]]);
    const before = await t.ctx.database.sql.query<{ n: number }>('select count(*)::int as n from telemetry');
    const r = await purgeTelemetry(t.ctx);
    expect(r.raw).toBe(1);
    const after = await t.ctx.database.sql.query<{ n: number }>('select count(*)::int as n from telemetry');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n - 1);
  });

  it("shows a user only the devices of the stations granted to them", async () => {
    const { db } = t.ctx;
    const [east] = await db.select().from(company).where(eq(company.code, 'EAST'));
    const [sh01] = await db.select().from(site).where(eq(site.code, 'SH01'));
    const menus = await db.select({ id: menu.id }).from(menu).where(inArray(menu.path, ['/monitor/device', '/product/equipment']));
    const [r] = await db.insert(role).values({ name: `monitor-${target}`, companyId: east!.id }).returning();
    await db.insert(roleMenu).values(menus.map((m) => ({ roleId: r!.id, menuId: m.id })));
    const [u] = await db.insert(appUser).values({ username: `watcher-${target}`, name: 'watcher', companyId: east!.id, passwordHash: await hashPassword('Passw0rd1') }).returning();
    await db.insert(userRole).values({ userId: u!.id, roleId: r!.id });
    await db.insert(userSite).values({ userId: u!.id, siteId: sh01!.id });
    const token = await t.api.login(`watcher-${target}`, 'Passw0rd1');

    const page = await t.api.post<Page<DeviceLatestRecord>>('/configure/device/data/latest/page', token, { pageSize: 500 });
    expect(page.body.data.total).toBe(SH01.devices.length);
    expect(new Set(page.body.data.records.map((d) => d.siteCode))).toEqual(new Set(['SH01']));
    const other = await t.api.post('/configure/device/query/one', token, { id: ids.get('LA01-PCS-01') });
    expect(other.status).toBe(404);
    const la01 = (await post<DeviceRecord>('/configure/device/query/one', { id: ids.get('LA01-PCS-01') })).body.data.siteId;
    const refused = await t.api.post('/configure/device/query/tree', token, { siteId: la01 });
    expect(refused.status).toBe(403);
    const props = await t.api.get('/monitor/device/properties', token, { deviceId: ids.get('LA01-PCS-01')! });
    expect(props.status).toBe(404);
  });
});
