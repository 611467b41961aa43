import { Writable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@ess/contract';
import type { IotSyncDetail, IotUnmappedRecord } from '@ess/contract/iot';
import { createLogger } from '../../platform/logging.ts';
import { alarm } from '../../db/schema/alarm.ts';
import { deviceOperation } from '../../db/schema/monitor.ts';
import { deviceLatest } from '../../db/schema/telemetry.ts';
import { iotCommand, iotDevice, iotEvent, iotParam, iotProduct, iotProperty, iotUnmapped } from '../../db/schema/iot.ts';
import { startJetLinksPeer, startThingsBoardPeer, type PlatformPeer } from '../../../test/iot-peers.ts';
import { ADMIN_PASSWORD, dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, newUser, okData, seededCompanies, until } from '../../../test/factory.ts';
import { ingestOf, loadProductSlots, valuesOf } from '../telemetry/index.ts';
import { liveOf } from './live/live.service.ts';

/**
 * IoT stage 2 end to end (decision 0051): applications on the local ThingsBoard and JetLinks peers
 * → sync approved → a property (with scale and offset) and a fault event related → the peers push
 * telemetry, an event and connectivity over their WebSockets → the ingest's latest values, an
 * alarm, the device's status → a remote-control command reaches the peer (RPC two-way, function
 * invoke with the parameter relation) and its answer comes back; the subscriber reconnects after
 * the peer drops the socket; keys no relation maps are listed.
 */
describe.each(dbTargets(import.meta.url))('IoT live data and commands on %s', (target) => {
  let t: TestApp;
  let tb: PlatformPeer;
  let jl: PlatformPeer;
  let eastId: number;
  let tbDev: { id: number; code: string; productId: number };
  let jlDev: { id: number; code: string; productId: number };
  let foreignToken: string;
  const token = () => t.adminToken;
  /** Every line the server logs, at debug level (credentials must never be among them). */
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });

  const latest = async (deviceId: number): Promise<Record<string, unknown>> => {
    const [row] = await t.ctx.db.select().from(deviceLatest).where(eq(deviceLatest.deviceId, deviceId));
    if (!row) return {};
    const slots = (await loadProductSlots(t.ctx.db)).get(tbDev.productId);
    return { ...valuesOf(slots, row.v, row.text), offline: row.offlineAt !== null && (row.lastSeenAt === null || row.offlineAt >= row.lastSeenAt) };
  };
  const flushed = async () => {
    await new Promise((r) => setTimeout(r, 250));
    await ingestOf(t.ctx)!.flush();
  };
  const connectAndSync = async (body: Record<string, unknown>) => {
    const { id } = await okData(t.api.post<{ id: number }>('/iot/config/add', token(), { companyId: eastId, requireApproval: true, ...body }));
    const plan = await okData(t.api.get<IotSyncDetail>('/iot/sync/full', token(), { configId: id }));
    expect((await okData(t.api.post<IotSyncDetail>('/iot/sync/approve', token(), { id: plan.id }))).state).toBe('applied');
    return id;
  };

  beforeAll(async () => {
    t = await startTestApp(target, { INGEST_BATCH_MS: '50', LATEST_FLUSH_MS: '100', ALARM_SYNC_MS: '200', COMMAND_TIMEOUT_MS: '1500' }, undefined, undefined, createLogger('debug', sink));
    const { east, south } = await seededCompanies(t);
    eastId = east.id;
    foreignToken = (await newUser(t, south.id, { menus: ['/iot/appConfig'] })).token;
    const siteId = (await newSite(t, eastId)).id;
    tbDev = await newDevice(t, siteId, { type: 'pcs' });
    jlDev = await newDevice(t, siteId, { type: 'pcs' });
    // The ingest learns of devices made behind its back on its next registry load (a message from an
    // unknown device is dropped and asks for one): loaded now, so the first pushed values land.
    await ingestOf(t.ctx)!.registry.load();
    tb = await startThingsBoardPeer({
      username: 'tenant@example.com', password: 'Tb-Live-Secret-1',
      products: [{ id: 'prof-pcs', name: 'PCS', properties: [{ id: 'power_w' }, { id: 'cabinet_humidity' }], events: [{ id: 'IGBT over temperature', level: 'CRITICAL' }] }],
      devices: [{ id: 'tb-1', name: tbDev.code, productId: 'prof-pcs', online: true }],
    });
    jl = await startJetLinksPeer({
      username: 'admin', password: 'Jl-Live-Secret-2',
      products: [{
        id: 'jl-pcs', name: 'JL PCS', properties: [{ id: 'igbtTemp', type: 'float', unit: '℃' }],
        events: [{ id: 'igbtFault', level: 'urgent', fields: [{ id: 'state', type: 'string' }] }],
        functions: [{ id: 'powerSwitch', inputs: [{ id: 'onOff', type: 'int' }], output: 'boolean' }],
      }],
      devices: [{ id: 'jl-1', name: jlDev.code, productId: 'jl-pcs', online: true }],
    });
  });
  afterAll(async () => {
    await t?.stop();
    await tb?.close();
    await jl?.close();
  });

  it('ThingsBoard: telemetry through the relation (scale, offset) into the latest values, status following `active`, unmapped keys listed', async () => {
    const configId = await connectAndSync({ name: 'TB live', platform: 'thingsboard', baseUrl: tb.url, username: tb.world.username, password: tb.world.password });
    const [p] = await t.ctx.db.select().from(iotProduct).where(eq(iotProduct.configId, configId));
    const [power] = await t.ctx.db.select().from(iotProperty).where(and(eq(iotProperty.iotProductId, p!.id), eq(iotProperty.identifier, 'power_w')));
    await okData(t.api.post('/iot/relate/property/add', token(), {
      iotProductId: p!.id, iotDeviceId: null, productId: tbDev.productId, iotPropertyId: power!.id, identifier: 'activePower', scale: 0.001, offset: 0, valueMap: [], active: true,
    }));
    await until('the ThingsBoard subscription', () => tb.live.subscribed() > 0);
    tb.live.push('tb-1', { power_w: 125000, cabinet_humidity: 41.5 });
    await until('the mapped value', async () => {
      await flushed();
      return (await latest(tbDev.id)).activePower === 125;
    });
    // The connectivity attribute: offline, then online again.
    tb.live.connectivity('tb-1', false);
    await until('offline', async () => {
      await flushed();
      return (await latest(tbDev.id)).offline === true;
    });
    expect((await t.ctx.db.select({ s: iotDevice.state }).from(iotDevice).where(eq(iotDevice.externalId, 'tb-1')))[0]!.s).toBe('offline');
    tb.live.connectivity('tb-1', true);
    await until('online', async () => {
      await flushed();
      return (await latest(tbDev.id)).offline === false;
    });
    // The key no relation maps is in the inbox, with its sample and its device.
    await liveOf(t.ctx)!.flushUnmapped();
    const [u] = await t.ctx.db.select().from(iotUnmapped).where(eq(iotUnmapped.configId, configId));
    expect(u).toMatchObject({ key: 'cabinet_humidity', samples: ['41.5'], devices: [{ externalId: 'tb-1', name: tbDev.code }], count: 1, dismissed: false });
  });

  it('lists the unmapped key, relates it in one step (refusals change nothing), and dismisses another', async () => {
    const page = await okData(t.api.post<Page<IotUnmappedRecord>>('/iot/unmapped/query/page', token(), { current: 1, pageSize: 10 }));
    expect(page.records.map((r) => [r.key, r.samples, r.count])).toEqual([['cabinet_humidity', ['41.5'], 1]]);
    const id = page.records[0]!.id;
    // Another company's user does not see it and cannot relate or dismiss it.
    expect((await okData(t.api.post<Page<IotUnmappedRecord>>('/iot/unmapped/query/page', foreignToken, { current: 1, pageSize: 10 }))).total).toBe(0);
    expect((await t.api.get('/iot/unmapped/dismiss', foreignToken, { id })).status).toBe(404);
    expect((await t.api.post('/iot/unmapped/relate', foreignToken, { id, productId: tbDev.productId, identifier: 'ambientTemperature' })).status).toBe(404);
    // An identifier the console product does not have: 406, no platform property left behind.
    const props = async () => (await t.ctx.db.select({ id: iotProperty.id }).from(iotProperty).where(eq(iotProperty.identifier, 'cabinet_humidity'))).length;
    const before = await props();
    const bad = await t.api.post('/iot/unmapped/relate', token(), { id, productId: tbDev.productId, identifier: 'noSuchProperty' });
    expect(bad.status).toBe(406);
    expect(bad.body.tipMsg).toBe('产品没有标识为 noSuchProperty 的属性');
    expect(await props()).toBe(before);
    expect((await t.api.post('/iot/unmapped/relate', token(), { id, productId: tbDev.productId, identifier: 'Bad-Id' })).status).toBe(400);
    await okData(t.api.post('/iot/unmapped/relate', token(), { id, productId: tbDev.productId, identifier: 'ambientTemperature' }));
    expect((await okData(t.api.post<Page<IotUnmappedRecord>>('/iot/unmapped/query/page', token(), { current: 1, pageSize: 10 }))).total).toBe(0);
    tb.live.push('tb-1', { cabinet_humidity: 43 });
    await until('the newly related key', async () => {
      await flushed();
      return (await latest(tbDev.id)).ambientTemperature === 43;
    });
    // Another unmapped key, dismissed: listed only with the dismissed filter.
    tb.live.push('tb-1', { fan_rpm: '1200' });
    await until('the second key', async () => {
      await liveOf(t.ctx)!.flushUnmapped();
      return (await t.ctx.db.select().from(iotUnmapped)).length === 1;
    });
    const [fan] = await t.ctx.db.select().from(iotUnmapped);
    await okData(t.api.get('/iot/unmapped/dismiss', token(), { id: fan!.id }));
    expect((await okData(t.api.post<Page<IotUnmappedRecord>>('/iot/unmapped/query/page', token(), { current: 1, pageSize: 10 }))).total).toBe(0);
    expect((await okData(t.api.post<Page<IotUnmappedRecord>>('/iot/unmapped/query/page', token(), { current: 1, pageSize: 10, dismissed: true }))).records.map((r) => r.key)).toEqual(['fan_rpm']);
  });

  it('ThingsBoard: reconnects with backoff after the platform drops the socket, without storing the replayed value twice', async () => {
    const sub = [...liveOf(t.ctx)!.subscribers.values()][0]!.sub;
    const opened = tb.live.opened();
    tb.live.drop();
    await until('the new socket', () => tb.live.opened() > opened && tb.live.subscribed() > 0, 10_000);
    expect(sub.stats.failures).toBeGreaterThanOrEqual(1);
    const before = ingestOf(t.ctx)!.counters.telemetry;
    tb.live.push('tb-1', { power_w: 90000 });
    await until('the value after the reconnect', async () => {
      await flushed();
      return (await latest(tbDev.id)).activePower === 90;
    });
    // The subscription's first update replays the latest values: only the new point became a report.
    expect(ingestOf(t.ctx)!.counters.telemetry - before).toBe(1);
  });

  it('ThingsBoard: a remote-control command is a two-way RPC and the device answer comes back; no answer is a timeout', async () => {
    tb.live.answer = (_d, method, params) => ({ status: 200, body: { accepted: true, method, params } });
    const r = await t.api.post<{ ok: boolean; result: Record<string, unknown> }>('/monitor/device/one/switch', token(), { deviceId: tbDev.id, on: true, password: ADMIN_PASSWORD });
    expect(r.status).toBe(200);
    expect(r.body.data.result).toMatchObject({ accepted: true, method: 'switch', params: { on: true } });
    expect(tb.live.invocations.at(-1)).toMatchObject({ deviceId: 'tb-1', method: 'switch', params: { on: true } });
    tb.live.answer = () => ({ status: 504, body: { status: 504, message: 'Request timeout', errorCode: 33 } });
    const late = await t.api.post('/monitor/device/one/switch', token(), { deviceId: tbDev.id, on: false, password: ADMIN_PASSWORD });
    expect(late.status).toBeGreaterThanOrEqual(400);
    const ops = await t.ctx.db.select({ result: deviceOperation.result }).from(deviceOperation).where(and(eq(deviceOperation.deviceId, tbDev.id), eq(deviceOperation.command, 'switch')));
    expect(ops.map((o) => o.result)).toEqual(['ok', 'timeout']);
  });

  it('ThingsBoard: an alarm of a related type opens the console alarm, its clearing ends it; an unrelated type is ignored', async () => {
    const [p] = await t.ctx.db.select().from(iotProduct).where(eq(iotProduct.externalId, 'prof-pcs'));
    const [ev] = await t.ctx.db.select().from(iotEvent).where(eq(iotEvent.iotProductId, p!.id));
    expect(ev).toMatchObject({ identifier: 'IGBT over temperature', level: 'CRITICAL' });
    await okData(t.api.post('/iot/relate/event/add', token(), {
      iotProductId: p!.id, iotDeviceId: null, productId: tbDev.productId, active: true, iotEventId: ev!.id, identifier: 'PCS_IGBT_FAULT',
      valueMap: [{ platformValue: 'ACTIVE', status: 1, label: 'IGBT过温' }, { platformValue: 'CLEARED', status: 0, label: '已恢复' }],
    }));
    const alarms = async (status: string) => (await t.ctx.db.select().from(alarm).where(and(eq(alarm.deviceId, tbDev.id), eq(alarm.status, status)))).length;
    // The stream subscribed the device's alarms when it opened; the route applied the relation before answering.
    await until('the stream', () => tb.live.subscribed() > 0);
    tb.live.event('tb-1', 'Unrelated alarm', {});
    tb.live.event('tb-1', 'IGBT over temperature', { severity: 'CRITICAL' });
    await until('the alarm', async () => {
      await flushed();
      return (await alarms('active')) === 1;
    });
    tb.live.event('tb-1', 'IGBT over temperature', { cleared: true });
    await until('the alarm ended', async () => {
      await flushed();
      return (await alarms('ended')) === 1;
    });
    expect(await alarms('active')).toBe(0);
  });

  it('JetLinks: a related fault event opens an alarm, property reports arrive, a command is a function invoke through the parameter relation', async () => {
    const configId = await connectAndSync({ name: 'JL live', platform: 'jetlinks', baseUrl: jl.url, username: 'admin', password: 'Jl-Live-Secret-2' });
    const [p] = await t.ctx.db.select().from(iotProduct).where(eq(iotProduct.configId, configId));
    const [temp] = await t.ctx.db.select().from(iotProperty).where(eq(iotProperty.iotProductId, p!.id));
    const [ev] = await t.ctx.db.select().from(iotEvent).where(eq(iotEvent.iotProductId, p!.id));
    const [cmd] = await t.ctx.db.select().from(iotCommand).where(eq(iotCommand.iotProductId, p!.id));
    const [input] = await t.ctx.db.select().from(iotParam).where(and(eq(iotParam.commandId, cmd!.id), eq(iotParam.direction, 'input')));
    const level = { iotProductId: p!.id, iotDeviceId: null, productId: jlDev.productId, active: true };
    await okData(t.api.post('/iot/relate/property/add', token(), { ...level, iotPropertyId: temp!.id, identifier: 'igbtTemperature', scale: 1, offset: -273.15, valueMap: [] }));
    await okData(t.api.post('/iot/relate/event/add', token(), {
      ...level, iotEventId: ev!.id, identifier: 'PCS_IGBT_FAULT',
      valueMap: [{ platformValue: 'ACTIVE', status: 1, label: 'IGBT故障' }, { platformValue: 'CLEARED', status: 0, label: '已恢复' }],
    }));
    const rc = await okData(t.api.post<{ id: number }>('/iot/relate/command/add', token(), { ...level, iotCommandId: cmd!.id, identifier: 'switch' }));
    await okData(t.api.post('/iot/relate/param/add', token(), {
      relateCommandId: rc.id, iotParamId: input!.id, identifier: 'on', valueMap: [{ platformValue: '1', status: 1, label: '开' }, { platformValue: '0', status: 0, label: '关' }],
    }));
    await until('the JetLinks subscription', () => jl.live.subscribed() > 0);
    jl.live.push('jl-1', { igbtTemp: 358.15 });
    await until('the converted temperature', async () => {
      await flushed();
      return (await latest(jlDev.id)).igbtTemperature === 85;
    });
    jl.live.event('jl-1', 'igbtFault', { state: 'ACTIVE' });
    await until('the alarm', async () => {
      await flushed();
      return (await t.ctx.db.select().from(alarm).where(and(eq(alarm.deviceId, jlDev.id), eq(alarm.status, 'active')))).length === 1;
    });
    jl.live.event('jl-1', 'igbtFault', { state: 'CLEARED' });
    await until('the alarm ended', async () => {
      await flushed();
      return (await t.ctx.db.select().from(alarm).where(and(eq(alarm.deviceId, jlDev.id), eq(alarm.status, 'ended')))).length === 1;
    });
    jl.live.answer = () => ({ status: 200, body: { message: 'success', result: [true], status: 200, code: 'success' } });
    const r = await t.api.post<{ ok: boolean; result: Record<string, unknown> }>('/monitor/device/one/switch', token(), { deviceId: jlDev.id, on: true, password: ADMIN_PASSWORD });
    expect(r.status).toBe(200);
    expect(r.body.data.result).toEqual({ output: [true] });
    expect(jl.live.invocations.at(-1)).toEqual({ deviceId: 'jl-1', method: 'powerSwitch', params: { onOff: '1' } });
    // JetLinks' offline message: the device is offline.
    jl.live.connectivity('jl-1', false);
    await until('offline', async () => {
      await flushed();
      return (await latest(jlDev.id)).offline === true;
    });
  });

  it('never logs a credential: no password or session token in any line of connect, sync, live and commands', async () => {
    // A refused sign-in and a stream that cannot sign in are logged too.
    expect((await t.api.post('/iot/config/add', token(), { companyId: eastId, name: 'wrong', platform: 'jetlinks', baseUrl: jl.url, username: 'admin', password: 'Wrong-Secret-9' })).status).toBe(406);
    const all = logLines.join('');
    expect(all).toContain('iot live stream open');
    expect(all).toContain('iot live stream down');
    for (const secret of ['Tb-Live-Secret-1', 'Jl-Live-Secret-2', 'Wrong-Secret-9', ...tb.issued(), ...jl.issued()]) expect(all).not.toContain(secret);
  });

  it('stops the stream when the application is disabled or deleted', async () => {
    const jlConfig = [...liveOf(t.ctx)!.subscribers.keys()];
    expect(jlConfig).toHaveLength(2);
    for (const id of jlConfig) expect((await t.api.get('/iot/config/delete', token(), { id })).status).toBe(200);
    expect(liveOf(t.ctx)!.subscribers.size).toBe(0);
    await until('the sockets closed', () => tb.live.subscribed() === 0 && jl.live.subscribed() === 0);
  });
});
