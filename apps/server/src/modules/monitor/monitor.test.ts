import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BatteryPackDetail, BmsDetail, CellDistribution, CellTrend, ChargingPileDetail, ControlResult, DeviceRecord, EssDetail, MeterDetail,
  MeterElectricData, MonitorChart, MonitorChild, MonitorDetail, PasswordCheckResult, QuantityChart, TelemetryValue, WarnMask,
} from '@ess/contract';
import { deviceValues, demoFleet, manualClock, runSimulator, type ManualClock, type SimulatorHandle } from '@ess/simulator';
import { ADMIN_PASSWORD, dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newUser, seededCompanies, until } from '../../../test/factory.ts';
import { deviceOperation } from '../../db/schema/monitor.ts';
import { ingestOf } from '../telemetry/index.ts';

const FLEET = demoFleet();
const DEVICES = FLEET.stations.reduce((a, s) => a + s.devices.length, 0);
const WATCHED = ['SH01-PCS-01', 'SH01-MT-MAIN', 'LA01-PV-01', 'SH01-BP-01-01', 'SH01-BC-01'];

/** Long enough for a simulated device's reply on a machine loaded by a full suite. */
const COMMAND_TIMEOUT_MS = 2000;

/**
 * Device monitoring through real parts: the simulator publishes the demo fleet to the server's
 * embedded broker, the calls answer from the stored latest values and rollups, and control calls
 * travel over MQTT to the simulated devices and back.
 */
describe.each(dbTargets(import.meta.url))('device monitoring on %s', (target) => {
  let t: TestApp;
  let sim: SimulatorHandle;
  let clock: ManualClock;
  const start = Date.now() - 30 * 60_000;
  const ids = new Map<string, number>();
  const silenced = new Set<string>();
  /** What the simulator published for the watched devices, per tick. */
  const published = new Map<string, { ts: number; values: Record<string, TelemetryValue> }[]>();

  const ingest = () => ingestOf(t.ctx)!;
  const tick = async (stepMs = 60_000) => {
    const before = ingest().counters.storedReports;
    const expected = DEVICES - silenced.size;
    clock.advance(stepMs);
    await sim.tick();
    for (const code of WATCHED) published.get(code)!.push({ ts: sim.state.timeMs, values: deviceValues(sim.state, code) });
    await until('the reports to be stored', () => ingest().counters.storedReports >= before + expected);
    await ingest().flush();
  };
  const post = <T>(path: string, body: unknown, token = t.adminToken) => t.api.post<T>(path, token, body);
  const get = <T>(path: string, query: Record<string, string | number>, token = t.adminToken) => t.api.get<T>(path, token, query);
  const id = (code: string) => ids.get(code)!;
  const latest = (code: string) => published.get(code)!.at(-1)!.values;
  const range = () => ({ start: new Date(start).toISOString(), end: new Date(clock.now() + 1000).toISOString() });

  beforeAll(async () => {
    t = await startTestApp(target, {
      SEED_DEMO: 'true', DEVICE_OFFLINE_TIMEOUT_MS: '600000', INGEST_BATCH_MS: '50', LATEST_FLUSH_MS: '100', ROLLUP_FLUSH_MS: '200',
      COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS), LOGIN_MAX_FAILURES: '3',
    });
    const all = await post<DeviceRecord[]>('/configure/device/query/list', {});
    for (const d of all.body.data) ids.set(d.code, d.id);
    for (const code of WATCHED) published.set(code, []);
    clock = manualClock(start);
    sim = await runSimulator({ mqttUrl: t.ctx.mqtt.url, fleet: FLEET, intervalMs: 0, clock, rebootMs: 50 });
    for (let i = 0; i < 6; i++) await tick();
  });
  afterAll(async () => {
    await sim?.stop();
    await t?.stop();
  });

  it('answers each type’s detail with identity, status, latest values and the type’s summary', async () => {
    const pcs = await get<MonitorDetail>('/monitor/pcs/one', { deviceId: id('SH01-PCS-01') });
    expect(pcs.body.errorCode).toBe('00000');
    expect(pcs.body.data.device).toMatchObject({ code: 'SH01-PCS-01', type: 'pcs', siteCode: 'SH01', status: 'online', firmwareName: 'pcs-dsp' });
    expect(pcs.body.data.ts).toBe(new Date(sim.state.timeMs).toISOString());
    const summary = Object.fromEntries(pcs.body.data.summary.map((f) => [f.identifier, f]));
    const v = latest('SH01-PCS-01');
    expect(summary.activePower).toMatchObject({ value: v.activePower, unit: 'kW' });
    expect(summary.todayDischargeEnergy!.value).toBe(v.todayDischargeEnergy);
    expect(summary.voltageA!.value).toBe(v.voltageA);
    expect(summary.state!.valueLabel).toBeTruthy();

    const bms = await get<BmsDetail>('/monitor/bms/one', { deviceId: id('SH01-BMS-01') });
    const bv = deviceValues(sim.state, 'SH01-BMS-01');
    expect(bms.body.data.summary.find((f) => f.identifier === 'maxCellVoltagePosition')!.value).toBe(bv.maxCellVoltagePosition);
    expect(bms.body.data.clusters.map((c) => c.code)).toEqual(['SH01-BC-01', 'SH01-BC-02']);
    const soc = (c: MonitorChild) => c.figures.find((f) => f.identifier === 'soc')!.value;
    expect(soc(bms.body.data.clusters[0]!)).toBe(latest('SH01-BC-01').soc);

    const pack = await get<BatteryPackDetail>('/monitor/battery-pack/one', { deviceId: id('SH01-BP-01-01') });
    const pv = latest('SH01-BP-01-01');
    expect(pack.body.data.cells).toHaveLength(16);
    expect(pack.body.data.cells[6]).toEqual({ no: 7, voltage: pv.cellVoltage7, temperature: pv.cellTemperature7 });

    const meter = await get<MeterDetail>('/monitor/electric-meter/one', { deviceId: id('SH01-MT-MAIN') });
    const mv = latest('SH01-MT-MAIN');
    expect(meter.body.data.meterPurpose).toBe('main');
    expect(meter.body.data.registers.find((r) => r.period === 'valley')).toMatchObject({ label: '谷', forward: mv.forwardActiveEnergyValley, reverse: mv.reverseActiveEnergyValley });
    expect(meter.body.data.registers[0]).toMatchObject({ period: 'total', forward: mv.forwardActiveEnergy });

    const pile = await get<ChargingPileDetail>('/monitor/charging-pile/one', { deviceId: id('LA01-CP-01') });
    expect(pile.body.data.guns.map((g) => g.code)).toEqual(['LA01-CG-01-1', 'LA01-CG-01-2']);
    expect(pile.body.data.guns[0]!.figures.find((f) => f.identifier === 'state')!.value).toBe(deviceValues(sim.state, 'LA01-CG-01-1').state);

    const ess = await get<EssDetail>('/monitor/ess/query/one', { deviceId: id('SH01-EMS-01') });
    expect(ess.body.data.pcs.map((p) => p.code)).toEqual(['SH01-PCS-01']);
    expect(ess.body.data.bms.map((p) => p.code)).toEqual(['SH01-BMS-01']);
    expect(ess.body.data.airConditioners).toHaveLength(2);
    expect(ess.body.data.totals.activePower).toBeCloseTo(v.activePower as number, 6);
    expect(ess.body.data.totals.soc).toBeCloseTo(bv.soc as number, 4);

    for (const [path, code] of [
      ['/monitor/pv/one', 'LA01-PV-01'], ['/monitor/ems/one', 'SH01-EMS-01'], ['/monitor/transformer/one', 'SH01-TR-01'],
      ['/monitor/air-conditioner/one', 'SH01-AC-01'], ['/monitor/battery-cluster/one', 'SH01-BC-01'], ['/monitor/charging-gun/one', 'LA01-CG-01-1'],
      ['/monitor/dcdc/one', 'BE01-DCDC-01'], ['/monitor/normal/one', 'SH01-TR-01'],
    ] as const) {
      const r = await get<MonitorDetail>(path, { deviceId: id(code) });
      expect(r.body.errorCode, path).toBe('00000');
      expect(r.body.data.device.code).toBe(code);
      expect(r.body.data.summary.length, path).toBeGreaterThan(3);
      const values = deviceValues(sim.state, code);
      for (const f of r.body.data.summary) expect(f.value, `${path} ${f.identifier}`).toEqual(values[f.identifier] ?? null);
    }
    const cluster = await get<{ packs: MonitorChild[] }>('/monitor/battery-cluster/one', { deviceId: id('SH01-BC-01') });
    expect(cluster.body.data.packs).toHaveLength(15);

    const wrongType = await get('/monitor/pcs/one', { deviceId: id('SH01-BMS-01') });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.tipMsg).toContain('deviceId');
    const missing = await get('/monitor/pcs/one', {});
    expect(missing.status).toBe(400);
    expect(missing.body.tipMsg).toMatch(/^deviceId/);
    const gone = await get('/monitor/pcs/one', { deviceId: 999_999 });
    expect(gone.status).toBe(404);
  });

  it('reads a charging gun’s warning mask as last reported, bit by bit', async () => {
    const r = await get<WarnMask>('/monitor/charging-gun/one/getWarnMask', { deviceId: id('LA01-CG-01-1') });
    expect(r.body.data.mask).toBe(deviceValues(sim.state, 'LA01-CG-01-1').warnMask);
    expect(r.body.data.bits.map((b) => b.code)).toEqual(['GUN_OVER_TEMPERATURE', 'GUN_LOCK_FAULT', 'GUN_BMS_COMM_LOST']);
  });

  it('draws charts from the 5-minute rollups (bucket averages of what was published) and refuses ranges over 24 hours', async () => {
    const r = await post<MonitorChart>('/monitor/pcs/one/power', { deviceId: id('SH01-PCS-01'), ...range() });
    expect(r.body.errorCode).toBe('00000');
    expect(r.body.data.interval).toBe('5m');
    expect(r.body.data.series.map((s) => s.identifier)).toEqual(['activePower', 'reactivePower', 'dcPower']);
    const byBucket = new Map<number, number[]>();
    for (const p of published.get('SH01-PCS-01')!) {
      const b = Math.floor(p.ts / 300_000) * 300_000;
      byBucket.set(b, [...(byBucket.get(b) ?? []), p.values.activePower as number]);
    }
    const power = r.body.data.series[0]!;
    expect(power.points.map(([b]) => b)).toEqual([...byBucket.keys()]);
    power.points.forEach(([b, avg]) => {
      const vs = byBucket.get(b)!;
      expect(avg).toBeCloseTo(vs.reduce((a, x) => a + x, 0) / vs.length, 6);
    });
    expect(power.max!.map(([b, m]) => [b, m])).toEqual([...byBucket.entries()].map(([b, vs]) => [b, Math.max(...vs)]));

    const hourly = await post<MonitorChart>('/monitor/electric-meter/one/power', { deviceId: id('SH01-MT-MAIN'), ...range(), interval: '1h' });
    expect(hourly.body.data.interval).toBe('1h');
    expect(hourly.body.data.series.map((s) => s.identifier)).toEqual(['activePower', 'reactivePower', 'demand']);

    for (const [path, code] of [
      ['/monitor/pv/one/power', 'LA01-PV-01'], ['/monitor/bms/one/chart', 'SH01-BMS-01'], ['/monitor/ems/one/chat', 'SH01-EMS-01'],
      ['/monitor/ess/one/chat', 'SH01-EMS-01'], ['/monitor/transformer/one/power', 'SH01-TR-01'], ['/monitor/charging-gun/one/power', 'LA01-CG-01-1'],
      ['/monitor/dcdc/one/chat', 'BE01-DCDC-01'],
    ] as const) {
      const c = await post<MonitorChart>(path, { deviceId: id(code), ...range() });
      expect(c.body.errorCode, path).toBe('00000');
      expect(c.body.data.series[0]!.points.length, path).toBeGreaterThan(0);
    }

    const tooLong = await post('/monitor/pcs/one/power', { deviceId: id('SH01-PCS-01'), start: new Date(start - 25 * 3_600_000).toISOString(), end: range().end });
    expect(tooLong.status).toBe(406);
    expect(tooLong.body.tipMsg).toBe('查询时间范围不能超过24小时');
    const backwards = await post('/monitor/pcs/one/power', { deviceId: id('SH01-PCS-01'), start: range().end, end: range().start });
    expect(backwards.status).toBe(400);
    expect(backwards.body.tipMsg).toContain('end');
    const wrongType = await post('/monitor/pcs/one/power', { deviceId: id('SH01-MT-MAIN'), ...range() });
    expect(wrongType.status).toBe(400);
  });

  it('counts energy per day from the daily rollups and refuses daily statistics across months', async () => {
    const r = await post<QuantityChart>('/monitor/pv/one/quantity', { deviceId: id('LA01-PV-01'), type: 'day', ...range() });
    expect(r.body.errorCode).toBe('00000');
    const rows = published.get('LA01-PV-01')!;
    expect(r.body.data).toMatchObject({ identifier: 'totalEnergy', unit: 'kWh' });
    expect(r.body.data.total).toBeCloseTo((rows.at(-1)!.values.totalEnergy as number) - (rows[0]!.values.totalEnergy as number), 5);
    const month = await post<QuantityChart>('/monitor/pv/one/quantity', { deviceId: id('LA01-PV-01'), type: 'month', ...range() });
    expect(month.body.data.points).toHaveLength(1);
    expect(month.body.data.total).toBeCloseTo(r.body.data.total, 6);
    const across = await post('/monitor/pv/one/quantity', {
      deviceId: id('LA01-PV-01'), type: 'day', start: '2026-01-20T00:00:00Z', end: '2026-03-05T00:00:00Z',
    });
    expect(across.status).toBe(406);
    expect(across.body.tipMsg).toBe('日统计不能跨月查询');
    const years = await post('/monitor/pv/one/quantity', { deviceId: id('LA01-PV-01'), type: 'month', start: '2025-06-01T12:00:00Z', end: '2026-02-01T12:00:00Z' });
    expect(years.status).toBe(406);
  });

  it('lists packs and clusters, and distributes and trends cell values', async () => {
    const packs = await t.api.call<MonitorChild[]>('POST', '/monitor/battery-pack/simple-list', { token: t.adminToken, query: { batteryClusterId: id('SH01-BC-01') } });
    expect(packs.body.errorCode).toBe('00000');
    expect(packs.body.data).toHaveLength(15);
    expect(packs.body.data[0]!.code).toBe('SH01-BP-01-01');
    const clusters = await t.api.call<MonitorChild[]>('POST', '/monitor/battery-cluster/simple-list', { token: t.adminToken, query: { bmsId: id('SH01-BMS-01') } });
    expect(clusters.body.data.map((c) => c.code)).toEqual(['SH01-BC-01', 'SH01-BC-02']);
    const noQuery = await t.api.call('POST', '/monitor/battery-cluster/simple-list', { token: t.adminToken });
    expect(noQuery.status).toBe(400);
    expect(noQuery.body.tipMsg).toMatch(/^bmsId/);

    const dist = await post<CellDistribution>('/monitor/battery-pack/one/cells/distribute', { deviceId: id('SH01-BP-01-01') });
    const pv = latest('SH01-BP-01-01');
    const volts = Array.from({ length: 16 }, (_, i) => pv[`cellVoltage${i + 1}`] as number);
    expect(dist.body.data.cells.map((c) => c.voltage)).toEqual(volts);
    expect(dist.body.data.voltage.histogram.reduce((a, b) => a + b.count, 0)).toBe(16);
    expect(dist.body.data.voltage.max).toBe(Math.max(...volts));
    for (const b of dist.body.data.voltage.histogram) {
      expect(b.count).toBe(volts.filter((x) => x >= b.from - 1e-9 && x < b.to - 1e-9).length);
    }
    const clusterDist = await post<CellDistribution>('/monitor/battery-cluster/one/cell/distribute', { deviceId: id('SH01-BC-01'), temperatureStep: 2 });
    expect(clusterDist.body.data.cells).toHaveLength(15 * 16);
    expect(clusterDist.body.data.temperature.histogram.every((b) => Math.abs(b.to - b.from - 2) < 1e-9)).toBe(true);

    const trend = await post<CellTrend>('/monitor/battery-pack/one/cells/trend', { deviceId: id('SH01-BP-01-01'), ...range() });
    expect(trend.body.errorCode).toBe('00000');
    const lastBucket = Math.floor(clock.now() / 300_000) * 300_000;
    const inLast = published.get('SH01-BP-01-01')!.filter((p) => p.ts >= lastBucket);
    const maxV = Math.max(...inLast.flatMap((p) => Array.from({ length: 16 }, (_, i) => p.values[`cellVoltage${i + 1}`] as number)));
    const row = trend.body.data.voltage.find(([b]) => b === lastBucket)!;
    expect(row[1]).toBe(maxV);
    expect(row[2]! <= row[3]! && row[3]! <= row[1]!).toBe(true);
    const wrong = await post('/monitor/battery-pack/one/cells/trend', { deviceId: id('SH01-BC-01'), ...range() });
    expect(wrong.status).toBe(400);
  });

  it('lists meter electric data per bucket from the rollups and exports it as xlsx, within the range rules', async () => {
    const r = await post<MeterElectricData>('/meter/electric/data', { deviceCode: 'SH01-MT-MAIN', ...range(), interval: '5m' });
    expect(r.body.errorCode).toBe('00000');
    const rows = r.body.data.rows;
    expect(rows.length).toBeGreaterThan(0);
    const pubs = published.get('SH01-MT-MAIN')!;
    const last = rows.at(-1)!;
    expect(last.registers.forwardActiveEnergy).toBe(pubs.at(-1)!.values.forwardActiveEnergy);
    expect(last.registers.forwardActiveEnergyPeak).toBe(pubs.at(-1)!.values.forwardActiveEnergyPeak);
    const energies = rows.slice(1).map((x) => x.forwardEnergy!);
    const readings = rows.map((x) => x.registers.forwardActiveEnergy!);
    energies.forEach((e, i) => expect(e).toBeCloseTo(readings[i + 1]! - readings[i]!, 6));

    const day = await post('/meter/electric/data', { deviceCode: 'SH01-MT-MAIN', start: '2026-01-20T00:00:00Z', end: '2026-02-05T00:00:00Z', interval: '1d' });
    expect(day.status).toBe(406);
    expect(day.body.tipMsg).toBe('日统计不能跨月查询');
    const long = await post('/meter/electric/data', { deviceCode: 'SH01-MT-MAIN', start: '2026-01-20T00:00:00Z', end: '2026-01-22T00:00:00Z', interval: '1h' });
    expect(long.status).toBe(406);
    const notMeter = await post('/meter/electric/data', { deviceCode: 'SH01-PCS-01', ...range() });
    expect(notMeter.status).toBe(400);
    const unknown = await post('/meter/electric/data', { deviceCode: 'NOPE-1', ...range() });
    expect(unknown.status).toBe(404);

    const file = await t.api.call('GET', '/meter/electric/data/export', { token: t.adminToken, query: { deviceCode: 'SH01-MT-MAIN', ...range(), interval: '5m' } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.raw as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(rows.length + 1);
    expect(ws.getRow(rows.length + 1).getCell(7).value).toBe(last.registers.forwardActiveEnergy);
  });

  it('switches a device off over MQTT with the secondary password, and the device then reports off', async () => {
    const deviceId = id('SH01-PCS-01');
    const noPassword = await post('/monitor/device/one/switch', { deviceId, on: false });
    expect(noPassword.status).toBe(406);
    expect(noPassword.body).toMatchObject({ errorCode: 'A0106', tipMsg: '请输入二级密码' });
    const wrong = await post('/monitor/device/one/switch', { deviceId, on: false, password: 'not-it' });
    expect(wrong.status).toBe(406);
    expect(wrong.body.tipMsg).toBe('二级密码错误');

    const r = await post<ControlResult>('/monitor/device/one/switch', { deviceId, on: false, password: ADMIN_PASSWORD });
    expect(r.body.errorCode).toBe('00000');
    expect(r.body.data).toMatchObject({ command: 'switch', ok: true, result: { on: false } });
    await tick();
    const pcs = await get<MonitorDetail>('/monitor/pcs/one', { deviceId });
    const fig = (i: string) => pcs.body.data.summary.find((f) => f.identifier === i)!.value;
    expect(fig('onOff')).toBe(false);
    expect(fig('activePower')).toBe(0);
    expect(fig('state')).toBe(0);

    // A password check opens the session's window: no password needed for a while.
    const check = await post<PasswordCheckResult>('/monitor/air-conditioner/one/check/password', { deviceId: id('SH01-AC-01'), password: ADMIN_PASSWORD });
    expect(check.body.errorCode).toBe('00000');
    const on = await post<ControlResult>('/monitor/device/one/switch', { deviceId, on: true });
    expect(on.body.errorCode).toBe('00000');
    const recover = await t.api.call<ControlResult>('POST', '/monitor/device/one/faultRecover', { token: t.adminToken, query: { deviceId } });
    expect(recover.body.errorCode).toBe('00000');
    expect(recover.body.data.result).toEqual({ cleared: [] });

    const rows = await t.ctx.db.select().from(deviceOperation).where(eq(deviceOperation.deviceId, deviceId)).orderBy(deviceOperation.id);
    expect(rows.map((x) => [x.command, x.result, x.passwordOk])).toEqual([
      ['switch', 'refused', null], ['switch', 'refused', false], ['switch', 'ok', true], ['switch', 'ok', null], ['faultRecover', 'ok', null],
    ]);
    const ok = rows[2]!;
    expect(ok).toMatchObject({ username: 'admin', deviceCode: 'SH01-PCS-01', path: '/monitor/device/one/switch', params: { on: false }, response: { on: false } });
    expect(ok.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('sets air-conditioner, pile and gun values; the device refuses what it does not accept', async () => {
    const ac = id('SH01-AC-01');
    const temp = await post<ControlResult>('/monitor/air-conditioner/one/temperature', { deviceId: ac, setpoint: 22 });
    expect(temp.body.data.result).toEqual({ setpoint: 22 });
    const set = await post<ControlResult>('/monitor/air-conditioner/one/remoteSet', { deviceId: ac, mode: 1, fanSpeed: 2, password: ADMIN_PASSWORD });
    expect(set.body.data.result).toMatchObject({ mode: 1, fanSpeed: 2 });
    const limit = await post<ControlResult>('/monitor/charging-pile/one/setProperty1', { deviceId: id('LA01-CP-01'), powerLimit: 50, password: ADMIN_PASSWORD });
    expect(limit.body.errorCode).toBe('00000');
    const mask = await post<ControlResult>('/monitor/charging-gun/one/warnMask', { deviceId: id('LA01-CG-01-1'), mask: 3, password: ADMIN_PASSWORD });
    expect(mask.body.data.result).toEqual({ mask: 3 });
    const gun = await post<ControlResult>('/monitor/charging-gun/one/setProperty', { deviceId: id('LA01-CG-01-2'), values: { maxPower: 40 }, password: ADMIN_PASSWORD });
    expect(gun.body.errorCode).toBe('00000');
    await tick();
    const acNow = deviceValues(sim.state, 'SH01-AC-01');
    const acDetail = await get<MonitorDetail>('/monitor/air-conditioner/one', { deviceId: ac });
    const acFig = (i: string) => acDetail.body.data.summary.find((f) => f.identifier === i)!;
    expect(acFig('setTemperature').value).toBe(22);
    expect(acFig('mode')).toMatchObject({ value: 1, valueLabel: '制冷' });
    expect(acFig('cabinetTemperature').value).toBe(acNow.cabinetTemperature);
    expect((await get<WarnMask>('/monitor/charging-gun/one/getWarnMask', { deviceId: id('LA01-CG-01-1') })).body.data).toMatchObject({ mask: 3 });
    const pile = await get<MonitorDetail>('/monitor/charging-pile/one', { deviceId: id('LA01-CP-01') });
    expect(pile.body.data.summary.find((f) => f.identifier === 'powerLimit')!.value).toBe(50);

    const notWritable = await post('/monitor/charging-pile/one/setProperty2', { deviceId: id('LA01-CP-01'), values: { power: 1 }, password: ADMIN_PASSWORD });
    expect(notWritable.status).toBe(400);
    expect(notWritable.body.tipMsg).toBe('values.power: 不是可写属性');
    const outOfRange = await post('/monitor/charging-gun/one/setProperty', { deviceId: id('LA01-CG-01-2'), values: { maxPower: 900 }, password: ADMIN_PASSWORD });
    expect(outOfRange.status).toBe(400);
    const unsupported = await post('/monitor/device/one/switch', { deviceId: id('SH01-BMS-01'), on: false, password: ADMIN_PASSWORD });
    expect(unsupported.status).toBe(406);
    const wrongType = await post('/monitor/charging-pile/one/reboot', { deviceId: id('SH01-PCS-01'), password: ADMIN_PASSWORD });
    expect(wrongType.status).toBe(400);
    const badSetpoint = await post('/monitor/air-conditioner/one/temperature', { deviceId: ac, setpoint: 60 });
    expect(badSetpoint.status).toBe(400);
    expect(badSetpoint.body.tipMsg).toContain('setpoint');
  });

  it('answers with a timeout when the device does not reply, and reboots one that does', async () => {
    sim.silence('LA01-CP-02');
    silenced.add('LA01-CP-02');
    const t0 = Date.now();
    const r = await post('/monitor/charging-pile/one/reboot', { deviceId: id('LA01-CP-02'), password: ADMIN_PASSWORD });
    expect(r.status).toBe(504);
    expect(r.body.errorCode).toBe('C0002');
    expect(r.body.tipMsg).toContain('LA01-CP-02');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS);
    const [row] = await t.ctx.db.select().from(deviceOperation).where(eq(deviceOperation.deviceId, id('LA01-CP-02')));
    expect(row).toMatchObject({ command: 'reboot', result: 'timeout', passwordOk: true });
    expect(row!.durationMs).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 10);

    const reboot = await post<ControlResult>('/monitor/charging-pile/one/reboot', { deviceId: id('LA01-CP-01'), password: ADMIN_PASSWORD });
    expect(reboot.body.errorCode).toBe('00000');
    await new Promise((res) => setTimeout(res, 120));
  });

  it("refuses another company's devices and locks the secondary password after repeated failures", async () => {
    const { db } = t.ctx;
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id, { username: `operator-${target}`, name: 'operator', menus: ['/monitor/device', '/meter/data'] });
    const token = u.token;
    // EAST has no station granted to this user: every device is out of reach.
    const detail = await get('/monitor/pcs/one', { deviceId: id('SH01-PCS-01') }, token);
    expect(detail.status).toBe(404);
    const chart = await post('/monitor/pcs/one/power', { deviceId: id('SH01-PCS-01'), ...range() }, token);
    expect(chart.status).toBe(404);
    const sw = await post('/monitor/device/one/switch', { deviceId: id('SH01-PCS-01'), on: false, password: 'Passw0rd1' }, token);
    expect(sw.status).toBe(404);
    const meter = await post('/meter/electric/data', { deviceCode: 'SH01-MT-MAIN', ...range() }, token);
    expect(meter.status).toBe(404);
    const journaled = await db.select().from(deviceOperation).where(eq(deviceOperation.userId, u.id));
    expect(journaled).toEqual([]);

    // Three wrong passwords (LOGIN_MAX_FAILURES here) lock the check, even the right one then.
    for (let i = 0; i < 3; i++) {
      const w = await post('/monitor/air-conditioner/one/check/password', { password: 'wrong' }, token);
      expect(w.body.errorCode).toBe('A0106');
    }
    const locked = await post('/monitor/air-conditioner/one/check/password', { password: 'Passw0rd1' }, token);
    expect(locked.status).toBe(406);
    expect(locked.body).toMatchObject({ errorCode: 'A0102', tipMsg: '二级密码错误次数过多，已临时锁定，请稍后再试' });
    const rows = await db.select().from(deviceOperation).where(eq(deviceOperation.userId, u.id)).orderBy(deviceOperation.id);
    expect(rows.map((x) => x.result)).toEqual(['refused', 'refused', 'refused', 'refused']);
    // The administrator is not affected.
    const admin = await post('/monitor/air-conditioner/one/check/password', { password: ADMIN_PASSWORD });
    expect(admin.body.errorCode).toBe('00000');
  });

  it('counts concurrent wrong secondary passwords one after another: no more pass than the limit allows', async () => {
    const { db } = t.ctx;
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id, { username: `burst-${target}`, name: 'burst', menus: ['/monitor/device'] });
    // Eight wrong guesses at once against a limit of three (LOGIN_MAX_FAILURES here).
    const answers = await Promise.all(Array.from({ length: 8 }, () => post('/monitor/air-conditioner/one/check/password', { password: 'wrong' }, u.token)));
    expect(answers.filter((a) => a.body.errorCode === 'A0106')).toHaveLength(3);
    expect(answers.filter((a) => a.body.errorCode === 'A0102')).toHaveLength(5);
    const rows = await db.select().from(deviceOperation).where(eq(deviceOperation.userId, u.id));
    expect(rows.filter((x) => x.passwordOk === false)).toHaveLength(3);
    expect(rows.filter((x) => x.passwordOk === null && x.result === 'refused')).toHaveLength(5);
    // Still locked for the right password, which is not journaled as right (that would end the lock).
    const right = await post('/monitor/air-conditioner/one/check/password', { password: 'Passw0rd1' }, u.token);
    expect(right.body.errorCode).toBe('A0102');
  });

  it.runIf(target === 'postgres')('brings the reply to the instance that sent the command when two instances share the broker', async () => {
    const other = await startTestApp(target, { MQTT_URL: t.ctx.mqtt.url, ROLES: 'api', COMMAND_TIMEOUT_MS: '3000' }, { databaseUrl: t.ctx.config.databaseUrl! });
    try {
      const r = await other.api.post<ControlResult>('/monitor/air-conditioner/one/temperature', other.adminToken, { deviceId: id('SH01-AC-02'), setpoint: 24 });
      expect(r.body.errorCode).toBe('00000');
      expect(r.body.data.result).toEqual({ setpoint: 24 });
      // And this instance's commands still get their own replies meanwhile.
      const mine = await post<ControlResult>('/monitor/air-conditioner/one/temperature', { deviceId: id('SH01-AC-02'), setpoint: 23 });
      expect(mine.body.data.result).toEqual({ setpoint: 23 });
    } finally {
      await other.stop();
    }
  });
});
