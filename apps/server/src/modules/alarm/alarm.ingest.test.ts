import { eq } from 'drizzle-orm';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmDictRecord, AlarmRecord, DeviceRecord } from '@ess/contract';
import { site } from '../../db/schema/site.ts';
import { DB_TARGETS, dbTargets, freshPostgres, startTestApp, type TestApp } from '../../../test/harness.ts';
import { eventually, newUser, seededCompanies, until } from '../../../test/factory.ts';
import { SseStream } from '../../../test/sse-client.ts';
import { ingestOf } from '../telemetry/index.ts';
import { alarmEngines } from './alarm.runtime.ts';

/** Publishes device messages straight to a server's embedded broker and waits until they are handled and written. */
class Device {
  private seq = 0;
  constructor(private readonly t: TestApp, private readonly mqtt: MqttClient, readonly site: string, readonly code: string) {}

  private async settle(before: number, counter: 'telemetry' | 'events') {
    const ingest = ingestOf(this.t.ctx)!;
    await until(`the ${counter} message`, () => ingest.counters[counter] > before);
    await ingest.flush();
  }

  async report(values: Record<string, number>, ts = Date.now()) {
    const before = ingestOf(this.t.ctx)!.counters.telemetry;
    await this.mqtt.publishAsync(`ess/${this.site}/${this.code}/telemetry`, JSON.stringify({ ts, seq: ++this.seq, values }), { qos: 1 });
    await this.settle(before, 'telemetry');
  }

  async event(code: string, active: boolean, ts = Date.now()) {
    const before = ingestOf(this.t.ctx)!.counters.events;
    await this.mqtt.publishAsync(`ess/${this.site}/${this.code}/event`, JSON.stringify({ ts, code, active, message: active ? code : `${code}恢复` }), { qos: 1 });
    await this.settle(before, 'events');
  }
}

/**
 * Alarm rules through the real ingest: device messages published to the server's embedded MQTT
 * broker, alarms read back through the monitor calls, live events on real event streams.
 */
describe.each(dbTargets(import.meta.url))('alarms raised on ingest on %s', (target) => {
  let t: TestApp;
  let mqtt: MqttClient;
  let pcs: Device;
  let transformer: Device;
  let bms: Device;
  const streams: SseStream[] = [];
  const ids = new Map<string, number>();
  const post = <T>(path: string, body: unknown) => t.api.post<T>(path, t.adminToken, body);
  const alarmsOf = async (deviceCode: string, extra: object = {}) =>
    (await post<AlarmRecord[]>('/alarm/monitor/query/list', { deviceId: ids.get(deviceCode), ...extra })).body.data;
  const dictOf = async (deviceType: string, key: { eventCode?: string; identifier?: string }) =>
    (await post<AlarmDictRecord[]>('/alarm/dict/query/list', { deviceType })).body.data.find(
      (d) => d.deviceType === deviceType && (key.eventCode ? d.eventCode === key.eventCode : d.identifier === key.identifier),
    )!;

  beforeAll(async () => {
    t = await startTestApp(target, { SEED_DEMO: 'true', INGEST_BATCH_MS: '50', LATEST_FLUSH_MS: '100', ALARM_SYNC_MS: '200', SSE_HEARTBEAT_MS: '500' });
    const all = await post<DeviceRecord[]>('/configure/device/query/list', {});
    for (const d of all.body.data) ids.set(d.code, d.id);
    mqtt = await connectAsync(t.ctx.mqtt.url, { clientId: `alarm-test-${target}` });
    pcs = new Device(t, mqtt, 'SH01', 'SH01-PCS-01');
    transformer = new Device(t, mqtt, 'SH01', 'SH01-TR-01');
    bms = new Device(t, mqtt, 'BE01', 'BE01-BMS-01');
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await mqtt?.endAsync();
    await t?.stop();
  });

  it('seeds the dictionary from the thing-model faults and the default thresholds', async () => {
    const igbt = await dictOf('pcs', { eventCode: 'PCS_IGBT_FAULT' });
    expect(igbt).toMatchObject({ kind: 'event', level: 1, alarmType: 'deviceFault', description: 'IGBT故障', targetName: 'IGBT故障', enabled: true });
    expect(await dictOf('ems', { eventCode: 'EMS_COMM_LOST' })).toMatchObject({ level: 2, alarmType: 'communication' });
    expect(await dictOf('transformer', { identifier: 'loadRate' })).toMatchObject({
      kind: 'threshold', operator: '>', threshold: 90, clearValue: 85, level: 3, alarmType: 'overLimit', unit: '%', targetName: '负载率',
    });
  });

  it('opens an alarm when a fault appears, once while it stays, and ends it when it clears', async () => {
    const t0 = Date.now() - 5000;
    await pcs.event('PCS_IGBT_FAULT', true, t0);
    const [open] = await alarmsOf('SH01-PCS-01', { status: 'active' });
    expect(open).toMatchObject({
      status: 'active', level: 1, alarmType: 'deviceFault', description: 'IGBT故障', kind: 'event', code: 'PCS_IGBT_FAULT', siteCode: 'SH01',
      deviceCode: 'SH01-PCS-01', startedAt: new Date(t0).toISOString(), endedAt: null, shield: null,
    });
    // ALM + the station-local date (Shanghai) of the start + the id.
    const local = new Date(t0 + 8 * 3_600_000).toISOString().slice(0, 10).replace(/-/g, '');
    expect(open!.no).toMatch(new RegExp(`^ALM${local}\\d{6,}$`));
    // The same fault reported again while active raises nothing new.
    await pcs.event('PCS_IGBT_FAULT', true, t0 + 1000);
    expect(await alarmsOf('SH01-PCS-01')).toHaveLength(1);
    await pcs.event('PCS_IGBT_FAULT', false, t0 + 3000);
    const [ended] = await alarmsOf('SH01-PCS-01');
    expect(ended).toMatchObject({ id: open!.id, status: 'ended', endedAt: new Date(t0 + 3000).toISOString(), durationMs: 3000 });
    // A code without a dictionary entry is stored as an event and raises nothing.
    await pcs.event('PCS_UNKNOWN_FAULT', true);
    expect(await alarmsOf('SH01-PCS-01')).toHaveLength(1);
  });

  it('raises a threshold alarm above the limit and ends it only back below the clear value', async () => {
    await transformer.report({ loadRate: 80 });
    expect(await alarmsOf('SH01-TR-01')).toHaveLength(0);
    await transformer.report({ loadRate: 92.5 });
    const [open] = await alarmsOf('SH01-TR-01');
    expect(open).toMatchObject({ status: 'active', kind: 'threshold', code: 'loadRate', triggerValue: 92.5, unit: '%', level: 3, description: '变压器负载率过高' });
    // Between the clear value (85) and the threshold (90) it stays open; above again adds nothing.
    await transformer.report({ loadRate: 88 });
    await transformer.report({ loadRate: 91 });
    expect(await alarmsOf('SH01-TR-01', { status: 'active' })).toHaveLength(1);
    await transformer.report({ loadRate: 84.9 });
    const [ended] = await alarmsOf('SH01-TR-01');
    expect(ended).toMatchObject({ id: open!.id, status: 'ended', clearValue: 84.9 });
    // Back up to 89 is no new alarm (below the threshold); over it again is a new one.
    await transformer.report({ loadRate: 89 });
    expect(await alarmsOf('SH01-TR-01')).toHaveLength(1);
    await transformer.report({ loadRate: 95 });
    const after = await alarmsOf('SH01-TR-01');
    expect(after.map((a) => a.status)).toEqual(['active', 'ended']);
    await transformer.report({ loadRate: 50 });
    // A late report (older than the newest) is not judged: it must not reopen what a newer one cleared.
    await transformer.report({ loadRate: 99 }, Date.now() - 60_000);
    expect(await alarmsOf('SH01-TR-01', { status: 'active' })).toHaveLength(0);
  });

  it('a shield keeps its source from raising within its validity, and not after; an open alarm still ends', async () => {
    const dict = await dictOf('bms', { eventCode: 'BMS_COMM_LOST' });
    await bms.event('BMS_COMM_LOST', true);
    const [open] = await alarmsOf('BE01-BMS-01');
    // Shielding the open alarm's source: it stays open and ends when the fault clears.
    const end = Date.now() + 2500;
    const shield = await post<{ id: number }>('/alarm/monitor/create/shield', { alarmId: open!.id, end, remark: '检修中' });
    expect(shield.body.errorCode).toBe('00000');
    const [shielded] = await alarmsOf('BE01-BMS-01');
    expect(shielded).toMatchObject({ status: 'active', shield: { id: shield.body.data.id, endAt: new Date(end).toISOString(), remark: '检修中', createdBy: '系统管理员' } });
    await bms.event('BMS_COMM_LOST', false);
    expect((await alarmsOf('BE01-BMS-01'))[0]!.status).toBe('ended');
    // Within the validity the fault comes and goes without an alarm.
    await bms.event('BMS_COMM_LOST', true);
    await bms.event('BMS_COMM_LOST', false);
    await bms.event('BMS_COMM_LOST', true);
    expect(await alarmsOf('BE01-BMS-01')).toHaveLength(1);
    await bms.event('BMS_COMM_LOST', false);
    // After it, the next fault raises again.
    await until('the shield to expire', () => Date.now() > end + 50);
    await bms.event('BMS_COMM_LOST', true);
    const after = await alarmsOf('BE01-BMS-01');
    expect(after).toHaveLength(2);
    expect(after[0]).toMatchObject({ status: 'active', dictId: dict.id, shield: null });
    await bms.event('BMS_COMM_LOST', false);
  });

  it('cancelling a shield lets the source raise again at once', async () => {
    const dict = await dictOf('bms', { eventCode: 'BMS_CELL_OVERVOLTAGE' });
    const created = await post<{ id: number }>('/alarm/monitor/create/shield', { deviceId: ids.get('BE01-BMS-01'), dictId: dict.id, end: Date.now() + 3_600_000 });
    expect(created.body.errorCode).toBe('00000');
    await bms.event('BMS_CELL_OVERVOLTAGE', true);
    expect(await alarmsOf('BE01-BMS-01', { dictId: dict.id })).toHaveLength(0);
    await bms.event('BMS_CELL_OVERVOLTAGE', false);
    expect((await post('/alarm/monitor/cancel/shield', { id: created.body.data.id })).body.errorCode).toBe('00000');
    await bms.event('BMS_CELL_OVERVOLTAGE', true);
    expect(await alarmsOf('BE01-BMS-01', { dictId: dict.id, status: 'active' })).toHaveLength(1);
    await bms.event('BMS_CELL_OVERVOLTAGE', false);
  });

  it('reloads the rules when the dictionary changes, and ends the alarms of a rule switched off', async () => {
    const add = await post<{ id: number }>('/alarm/dict/add', {
      productId: null, deviceType: 'transformer', kind: 'threshold', identifier: 'oilTemperature', operator: '>=', threshold: 70, clearValue: 65,
      level: 2, alarmType: 'overLimit', description: '油温偏高',
    });
    expect(add.body.errorCode).toBe('00000');
    await transformer.report({ oilTemperature: 71 });
    const [open] = await alarmsOf('SH01-TR-01', { dictId: add.body.data.id });
    expect(open).toMatchObject({ status: 'active', description: '油温偏高', level: 2 });
    // Edited while open: a new threshold applies to the next report; the alarm stays.
    const entry = (await post<AlarmDictRecord[]>('/alarm/dict/query/list', { keyword: '油温偏高' })).body.data[0]!;
    await post('/alarm/dict/edit', { ...entry, threshold: 80, clearValue: 75, enabled: true });
    await transformer.report({ oilTemperature: 76 });
    expect((await alarmsOf('SH01-TR-01', { dictId: entry.id }))[0]!.status).toBe('active');
    await transformer.report({ oilTemperature: 74 });
    expect((await alarmsOf('SH01-TR-01', { dictId: entry.id }))[0]!.status).toBe('ended');
    await transformer.report({ oilTemperature: 85 });
    expect(await alarmsOf('SH01-TR-01', { dictId: entry.id, status: 'active' })).toHaveLength(1);
    // Switched off: the open alarm ends (nothing watches it any more) and no new one opens.
    await post('/alarm/dict/edit', { ...entry, threshold: 80, clearValue: 75, enabled: false });
    expect(await alarmsOf('SH01-TR-01', { dictId: entry.id, status: 'active' })).toHaveLength(0);
    await transformer.report({ oilTemperature: 90 });
    expect(await alarmsOf('SH01-TR-01', { dictId: entry.id, status: 'active' })).toHaveLength(0);
  });

  it('sends RefreshAlarmKanban and a popup to a user who may see the station, and nothing to one who may not', async () => {
    const { east, south } = await seededCompanies(t);
    const { db } = t.ctx;
    const [sh01] = await db.select().from(site).where(eq(site.code, 'SH01'));
    const [la01] = await db.select().from(site).where(eq(site.code, 'LA01'));
    const seer = await newUser(t, east.id, { menus: ['/alarm/alarmKanban'], siteIds: [sh01!.id] });
    const other = await newUser(t, south.id, { menus: ['/alarm/alarmKanban'], siteIds: [la01!.id] });
    const open = async (token: string) => {
      const s = await SseStream.open(t.url, token);
      streams.push(s);
      await s.nextEvent('heartbeat');
      return s;
    };
    const mine = await open(seer.token);
    const theirs = await open(other.token);

    await pcs.event('PCS_DC_OVERCURRENT', true);
    const [raised] = await alarmsOf('SH01-PCS-01', { status: 'active' });
    const refresh = await mine.nextEvent<{ siteId: number }>('RefreshAlarmKanban');
    expect(refresh.data).toEqual({ siteId: sh01!.id });
    const popup = await mine.nextEvent<{ id: number; kind: string; title: string; content: string }>('PopupWindow');
    expect(popup.data).toMatchObject({ id: raised!.id, kind: 'alarm', title: '一级告警' });
    expect(popup.data.content).toContain('直流过流');
    expect(popup.data.content).toContain(raised!.no);
    // A level-3 alarm refreshes the kanban but does not pop up (ALARM_POPUP_LEVEL 2).
    await pcs.event('PCS_FAN_FAULT', true);
    await mine.nextEvent('RefreshAlarmKanban');
    await pcs.event('PCS_DC_OVERCURRENT', false);
    await mine.nextEvent('RefreshAlarmKanban');
    await pcs.event('PCS_FAN_FAULT', false);
    await mine.nextEvent('RefreshAlarmKanban');
    // The other user keeps getting heartbeats and nothing of SH01.
    await theirs.nextEvent('heartbeat');
    await theirs.nextEvent('heartbeat');
    expect(theirs.events.filter((e) => e.event !== 'heartbeat')).toEqual([]);
    expect(mine.events.filter((e) => e.event === 'PopupWindow')).toHaveLength(1);
    // A shield change refreshes the kanban too.
    await post('/alarm/monitor/create/shield', { alarmId: raised!.id, end: Date.now() + 60_000 });
    await mine.nextEvent('RefreshAlarmKanban');
  });

  it('ignores reports of a disabled device and ends its open alarms', async () => {
    const { sql } = t.ctx.database;
    const loadRate = await dictOf('transformer', { identifier: 'loadRate' });
    const activeLoad = () => alarmsOf('SH01-TR-01', { status: 'active', dictId: loadRate.id });
    await transformer.report({ loadRate: 97 });
    expect(await activeLoad()).toHaveLength(1);
    await sql.query(`update device set disabled = true where code = 'SH01-TR-01'`);
    await ingestOf(t.ctx)!.registry.refresh();
    await alarmEngines.require(t.ctx).reload();
    expect(await activeLoad()).toHaveLength(0);
    await transformer.report({ loadRate: 99 });
    expect(await activeLoad()).toHaveLength(0);
    await sql.query(`update device set disabled = false where code = 'SH01-TR-01'`);
    await ingestOf(t.ctx)!.registry.refresh();
    await transformer.report({ loadRate: 99.5 });
    expect(await activeLoad()).toHaveLength(1);
  });
});

/**
 * Two ingest instances on one PostgreSQL database, each handed a share of one device's messages
 * (as a shared MQTT subscription splits them): the database keeps one open alarm per source, and
 * an alarm opened by one instance is ended by the other.
 */
describe.skipIf(!DB_TARGETS.includes('postgres'))('alarms with two ingest instances on one database', () => {
  let a: TestApp;
  let b: TestApp;
  let drop: () => Promise<void>;
  let seq = 0;
  const code = 'SH01-TR-01';

  beforeAll(async () => {
    const db = await freshPostgres();
    drop = db.drop;
    const env = { SEED_DEMO: 'true', INGEST_BATCH_MS: '50', LATEST_FLUSH_MS: '100', ALARM_SYNC_MS: '300' } as const;
    a = await startTestApp('postgres', env, { databaseUrl: db.url });
    b = await startTestApp('postgres', env, { databaseUrl: db.url });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await drop?.();
  });

  const deliver = async (to: TestApp[], kind: 'telemetry' | 'event', body: object) => {
    for (const x of to) ingestOf(x.ctx)!.handle(`ess/SH01/${code}/${kind}`, Buffer.from(JSON.stringify(body)), false);
    await Promise.all(to.map((x) => ingestOf(x.ctx)!.flush()));
  };
  const report = (to: TestApp[], loadRate: number) => deliver(to, 'telemetry', { ts: Date.now(), seq: ++seq, values: { loadRate } });
  const rows = async (where = '') =>
    (await a.ctx.database.sql.query<{ status: string; code: string }>(`select status, code from alarm a where device_id = (select id from device where code = '${code}') ${where} order by id`)).rows;

  it('both instances seeing the condition open one alarm', async () => {
    await report([a, b], 95);
    await report([a, b], 96);
    expect(await rows()).toEqual([{ status: 'active', code: 'loadRate' }]);
  });

  it('the instance that did not open it ends it once it has read the open alarms back', async () => {
    // Only B sees the clearing reports; B learns of A's alarm within ALARM_SYNC_MS.
    await a.ctx.database.sql.query(`update alarm set status = 'ended', ended_at = now()`);
    await alarmEngines.require(a.ctx).reload();
    await alarmEngines.require(b.ctx).reload();
    await report([a], 97);
    expect(await rows(`and status = 'active'`)).toHaveLength(1);
    await eventually(async () => {
      await report([b], 50);
      return (await rows(`and status = 'active'`)).length === 0 ? true : undefined;
    }, 5000, 100);
  });

  it('a fault raised through one instance and cleared through the other ends, whichever order they land in', async () => {
    const t0 = Date.now();
    await deliver([a], 'event', { ts: t0, code: 'TRANSFORMER_OVERLOAD', active: true, message: '变压器过载' });
    await deliver([b], 'event', { ts: t0 + 10, code: 'TRANSFORMER_OVERLOAD', active: false, message: '变压器过载恢复' });
    expect(await rows(`and code = 'TRANSFORMER_OVERLOAD' and status = 'active'`)).toHaveLength(0);
    // The clearing event lands first (on B), the raising one later (on A): the read-back ends it.
    await deliver([b], 'event', { ts: t0 + 1010, code: 'TRANSFORMER_OVERLOAD', active: false, message: '变压器过载恢复' });
    await deliver([a], 'event', { ts: t0 + 1000, code: 'TRANSFORMER_OVERLOAD', active: true, message: '变压器过载' });
    await eventually(async () => {
      await ingestOf(a.ctx)!.flush();
      return (await rows(`and code = 'TRANSFORMER_OVERLOAD' and status = 'active'`)).length === 0 ? true : undefined;
    }, 5000, 100);
    expect(await rows(`and code = 'TRANSFORMER_OVERLOAD'`)).toHaveLength(2);
  });
});
