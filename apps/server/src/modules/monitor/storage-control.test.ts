import { and, eq, gt } from 'drizzle-orm';
import { connect } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceTopic, type ControlResult, type DeviceRecord, type MonitorDetail } from '@ess/contract';
import { capacityOf, createState, demoFleet, manualClock, runSimulator, type ManualClock, type SimulatorHandle } from '@ess/simulator';
import { ADMIN_PASSWORD, dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { until } from '../../../test/factory.ts';
import { deviceOperation } from '../../db/schema/monitor.ts';
import { ingestOf } from '../telemetry/index.ts';
import { STORAGE_FAULT_TIP, STORAGE_OFFLINE_TIP, STORAGE_RATING_TIP } from './storage.service.ts';

const FLEET = demoFleet();
const DEVICES = FLEET.stations.reduce((a, s) => a + s.devices.length, 0);
/** The report interval of this test: every tick is one minute of simulated time. */
const INTERVAL_MS = 60_000;
const PATH = '/monitor/storage/one/control';

/**
 * Storage control (issue 19 item 11) through real parts: the simulator plays the demo fleet on
 * the server's embedded broker, the call goes through the common control flow (secondary
 * password, journal) over MQTT to the simulated PCS/EMS, and what the PCS then reports is read back
 * from the stored latest values.
 *
 * Hand-worked figures: SH01's PCS is rated 200 kW (its EMS drives that one PCS, so 200 kW too).
 * The station starts half full (SOC 50 %, far from the 5–95 % limits) with anti-backflow off, so
 * that a manual set-point is not capped by the site load: a manual discharge of 100 kW then shows
 * as PCS activePower = 100 kW (AC side; the battery gives 100 / 0.98 = 102.04 kW DC). Standby: 0 kW.
 */
describe.each(dbTargets(import.meta.url))('storage control on %s', (target) => {
  let t: TestApp;
  let sim: SimulatorHandle;
  let clock: ManualClock;
  const ids = new Map<string, number>();
  const silenced = new Set<string>();
  const id = (code: string) => ids.get(code)!;
  const ingest = () => ingestOf(t.ctx)!;
  const tick = async () => {
    const before = ingest().counters.storedReports;
    clock.advance(INTERVAL_MS);
    await sim.tick();
    await until('the reports to be stored', () => ingest().counters.storedReports >= before + DEVICES - silenced.size);
    await ingest().flush();
  };
  const post = <T>(body: unknown) => t.api.post<T>(PATH, t.adminToken, body);
  const latest = async (path: string, code: string) => {
    const r = await t.api.get<MonitorDetail>(path, t.adminToken, { deviceId: id(code) });
    return Object.fromEntries(r.body.data.properties.map((p) => [p.identifier, p.value]));
  };
  const pcsPower = async () => (await latest('/monitor/pcs/one', 'SH01-PCS-01')).activePower as number;
  const journal = async (sinceId: number) =>
    t.ctx.db.select().from(deviceOperation).where(and(gt(deviceOperation.id, sinceId), eq(deviceOperation.command, 'storageMode'))).orderBy(deviceOperation.id);
  const lastJournalId = async () => (await t.ctx.db.select({ id: deviceOperation.id }).from(deviceOperation)).reduce((a, r) => Math.max(a, r.id), 0);

  beforeAll(async () => {
    t = await startTestApp(target, {
      SEED_DEMO: 'true', DEVICE_OFFLINE_TIMEOUT_MS: '600000', INGEST_BATCH_MS: '50', LATEST_FLUSH_MS: '100', ROLLUP_FLUSH_MS: '200',
      COMMAND_TIMEOUT_MS: '4000',
    });
    const all = await t.api.post<DeviceRecord[]>('/configure/device/query/list', t.adminToken, {});
    for (const d of all.body.data) ids.set(d.code, d.id);
    // An hour back: the ~35 one-minute reports of this file stay in the past.
    const start = Date.now() - 60 * 60_000;
    clock = manualClock(start);
    const state = createState(FLEET, start);
    const sh01 = state.stations.find((s) => s.def.code === 'SH01')!;
    sh01.dyn.energy = capacityOf(sh01.def, sh01.dyn) * 0.5;
    sh01.dyn.socError = 0;
    sh01.dyn.controls.antiBackflow = false;
    sim = await runSimulator({ mqttUrl: t.ctx.mqtt.url, fleet: FLEET, intervalMs: 0, clock, state });
    for (let i = 0; i < 3; i++) await tick();
  });
  afterAll(async () => {
    await sim?.stop();
    await t?.stop();
  });

  it('discharges 100 kW by hand for 15 minutes: the PCS reports it within two intervals, then the EMS returns to auto by itself', async () => {
    const since = await lastJournalId();
    const noPassword = await post({ deviceId: id('SH01-PCS-01'), mode: 'manual', powerKw: 100, durationMin: 15 });
    expect(noPassword.status).toBe(406);
    expect(noPassword.body).toMatchObject({ errorCode: 'A0106', tipMsg: '请输入二级密码' });

    const sentAt = sim.state.timeMs;
    const r = await post<ControlResult>({ deviceId: id('SH01-PCS-01'), mode: 'manual', powerKw: 100, durationMin: 15, password: ADMIN_PASSWORD });
    expect(r.body.errorCode).toBe('00000');
    // The device's reply: 15 min = 900 000 ms after the simulated time it received the command.
    expect(r.body.data).toMatchObject({ command: 'storageMode', ok: true, result: { mode: 'manual', powerKw: 100, durationMin: 15, until: sentAt + 900_000 } });

    let reported: number | null = null;
    for (let i = 0; i < 2 && !(reported !== null && Math.abs(reported - 100) < 1); i++) {
      await tick();
      reported = await pcsPower();
    }
    expect(reported).toBeCloseTo(100, 0);
    expect(await latest('/monitor/ems/one', 'SH01-EMS-01')).toMatchObject({ runMode: 1, manualPowerSetpoint: 100, manualEndTime: sentAt + 900_000, strategyState: 2 });

    // 15 one-minute reports after the command the manual period is over: auto again, reported by the EMS.
    while (sim.state.timeMs < sentAt + 900_000) await tick();
    expect(await latest('/monitor/ems/one', 'SH01-EMS-01')).toMatchObject({ runMode: 0, manualEndTime: 0 });

    const rows = await journal(since);
    expect(rows.map((x) => [x.result, x.passwordOk])).toEqual([['refused', null], ['ok', true]]);
    expect(rows[1]).toMatchObject({
      username: 'admin', deviceCode: 'SH01-PCS-01', path: PATH, params: { mode: 'manual', powerKw: 100, durationMin: 15 },
      response: { mode: 'manual', powerKw: 100, durationMin: 15, until: sentAt + 900_000 },
    });
  });

  it('holds the battery at 0 kW in standby, then goes back to auto, through the EMS', async () => {
    const since = await lastJournalId();
    // Start from a manual charge, so that standby visibly stops something.
    const charge = await post<ControlResult>({ deviceId: id('SH01-EMS-01'), mode: 'manual', powerKw: -60, durationMin: 30, password: ADMIN_PASSWORD });
    expect(charge.body.errorCode).toBe('00000');
    await tick();
    await tick();
    expect(await pcsPower()).toBeCloseTo(-60, 0);

    const standby = await post<ControlResult>({ deviceId: id('SH01-EMS-01'), mode: 'standby', password: ADMIN_PASSWORD });
    expect(standby.body.data).toMatchObject({ ok: true, result: { mode: 'standby', powerKw: 0, durationMin: null, until: null } });
    await tick();
    await tick();
    expect(Math.abs(await pcsPower())).toBeLessThan(0.5);
    expect(await latest('/monitor/ems/one', 'SH01-EMS-01')).toMatchObject({ runMode: 2, strategyState: 0 });

    const auto = await post<ControlResult>({ deviceId: id('SH01-EMS-01'), mode: 'auto', password: ADMIN_PASSWORD });
    expect(auto.body.data).toMatchObject({ ok: true, result: { mode: 'auto' } });
    await tick();
    expect((await latest('/monitor/ems/one', 'SH01-EMS-01')).runMode).toBe(0);
    expect((await journal(since)).map((x) => [x.deviceCode, x.result, (x.params as { mode: string }).mode])).toEqual([
      ['SH01-EMS-01', 'ok', 'manual'], ['SH01-EMS-01', 'ok', 'standby'], ['SH01-EMS-01', 'ok', 'auto'],
    ]);
  });

  it('refuses a set-point above the rating without sending anything, and what is not a storage call', async () => {
    const since = await lastJournalId();
    const over = await post({ deviceId: id('SH01-PCS-01'), mode: 'manual', powerKw: 200.5, durationMin: 15, password: ADMIN_PASSWORD });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ errorCode: 'A0400', tipMsg: STORAGE_RATING_TIP });
    const overCharge = await post({ deviceId: id('SH01-EMS-01'), mode: 'manual', powerKw: -250, durationMin: 15, password: ADMIN_PASSWORD });
    expect(overCharge.status).toBe(400);
    const rows = await journal(since);
    // Journaled as refused, never sent: no requestId, no device answer.
    expect(rows.map((x) => [x.deviceCode, x.result, x.requestId, x.response])).toEqual([
      ['SH01-PCS-01', 'refused', null, null], ['SH01-EMS-01', 'refused', null, null],
    ]);
    expect(rows[0]!.error).toBe(STORAGE_RATING_TIP);

    const noDuration = await post({ deviceId: id('SH01-PCS-01'), mode: 'manual', powerKw: 50, password: ADMIN_PASSWORD });
    expect(noDuration.status).toBe(400);
    expect(noDuration.body.tipMsg).toMatch(/^durationMin/);
    const standbyWithPower = await post({ deviceId: id('SH01-PCS-01'), mode: 'standby', powerKw: 50, password: ADMIN_PASSWORD });
    expect(standbyWithPower.status).toBe(400);
    const bms = await post({ deviceId: id('SH01-BMS-01'), mode: 'auto', password: ADMIN_PASSWORD });
    expect(bms.status).toBe(400);
    expect(bms.body.tipMsg).toContain('deviceId');
    expect(await journal(since)).toHaveLength(2);
  });

  it('refuses a faulted PCS (directly or through its EMS) before sending, with a clear message', async () => {
    const since = await lastJournalId();
    await sim.injectFault('SH01-PCS-01', 'PCS_IGBT_FAULT');
    await tick();
    await until('the fault to be stored', async () => {
      const r = await t.api.get<{ active: unknown[] }>('/monitor/device/one/faultWarning', t.adminToken, { deviceId: id('SH01-PCS-01') });
      return r.body.data.active.length > 0;
    });
    for (const code of ['SH01-PCS-01', 'SH01-EMS-01']) {
      const r = await post({ deviceId: id(code), mode: 'manual', powerKw: 50, durationMin: 10, password: ADMIN_PASSWORD });
      expect(r.status, code).toBe(406);
      expect(r.body).toMatchObject({ errorCode: 'A0406', tipMsg: STORAGE_FAULT_TIP });
    }
    expect((await journal(since)).map((x) => [x.result, x.requestId, x.error])).toEqual([
      ['refused', null, STORAGE_FAULT_TIP], ['refused', null, STORAGE_FAULT_TIP],
    ]);
    await sim.clearFault('SH01-PCS-01');
    await tick();
    await until('the fault to clear', async () => {
      const r = await t.api.get<{ active: unknown[] }>('/monitor/device/one/faultWarning', t.adminToken, { deviceId: id('SH01-PCS-01') });
      return r.body.data.active.length === 0;
    });
    const ok = await post<ControlResult>({ deviceId: id('SH01-PCS-01'), mode: 'auto', password: ADMIN_PASSWORD });
    expect(ok.body.errorCode).toBe('00000');
  });

  it('refuses an offline PCS before sending, with a clear message', async () => {
    const since = await lastJournalId();
    // The PCS drops off: it stops publishing and its status goes offline (as a rebooting device's does).
    sim.silence('SH01-PCS-01');
    silenced.add('SH01-PCS-01');
    const client = connect(t.ctx.mqtt.url, { clientId: `storage-test-${process.pid}` });
    await new Promise<void>((resolve) => client.once('connect', () => resolve()));
    await client.publishAsync(deviceTopic('SH01', 'SH01-PCS-01', 'status'), JSON.stringify({ ts: Date.now(), online: false }), { qos: 1, retain: true });
    await client.endAsync();
    await until('the PCS to be offline', async () => {
      const r = await t.api.get<MonitorDetail>('/monitor/pcs/one', t.adminToken, { deviceId: id('SH01-PCS-01') });
      return r.body.data.device.status === 'offline';
    });
    for (const code of ['SH01-PCS-01', 'SH01-EMS-01']) {
      const r = await post({ deviceId: id(code), mode: 'standby', password: ADMIN_PASSWORD });
      expect(r.status, code).toBe(406);
      expect(r.body).toMatchObject({ errorCode: 'A0406', tipMsg: STORAGE_OFFLINE_TIP });
    }
    const rows = await journal(since);
    expect(rows.map((x) => [x.deviceCode, x.result, x.requestId])).toEqual([['SH01-PCS-01', 'refused', null], ['SH01-EMS-01', 'refused', null]]);
    sim.unsilence('SH01-PCS-01');
    silenced.delete('SH01-PCS-01');
  });
});
