import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strategyHash, type StrategyAdd, type StrategySimulation, type StrategySync, type StrategyView } from '@ess/contract/strategy';
import { todayIn } from '@ess/contract';
import type { DeviceRecord } from '@ess/contract';
import { deviceValues, demoFleet, manualClock, runSimulator, type ManualClock, type SimulatorHandle } from '@ess/simulator';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newSite, newUser, seededCompanies, until } from '../../../test/factory.ts';
import { alarm } from '../../db/schema/alarm.ts';
import { domainEvent } from '../../db/schema/events.ts';
import { strategy } from '../../db/schema/strategy.ts';
import { commandChannel } from '../monitor/index.ts';
import { ingestOf } from '../telemetry/index.ts';
import { sweepStrategies } from './index.ts';

const FLEET = demoFleet();
const DEVICES = FLEET.stations.reduce((a, s) => a + s.devices.length, 0);
const ALL_MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const ALL_DAYS = [1, 2, 3, 4, 5, 6, 7];
const SYNC = '/configure/operation/strategy/synchronization';
/** Long enough for an EMS's reply on a loaded machine (1.5 s failed under a full suite's load). */
const COMMAND_TIMEOUT_MS = 4000;

/** A whole day of one mode at one set-point, for every day of the year. */
const flat = (siteId: number, mode: 'charge' | 'discharge' | 'idle', powerKw: number, extra: Partial<StrategyAdd> = {}): StrategyAdd => ({
  siteId, socMin: 5, socMax: 95, antiBackflow: true, transformerProtectionKw: 500,
  schedules: [{ name: '全年', priority: 1, months: ALL_MONTHS, weekdays: ALL_DAYS, windows: [{ start: '00:00', end: '24:00', mode, powerKw }] }],
  ...extra,
});

/**
 * Synchronisation through real parts (issue 19 items 9–10): the simulator plays the demo fleet
 * on the server's embedded broker; the strategy goes to SH01's EMS as `applyStrategy`, the EMS
 * confirms the hash, runs the schedule (its power follows within two reports), reports the hash
 * it runs, and a strategy changed behind the console's back is drift with an alarm.
 */
describe.each(dbTargets(import.meta.url))('strategy synchronisation on %s', (target) => {
  let t: TestApp;
  let sim: SimulatorHandle;
  let clock: ManualClock;
  const silenced = new Set<string>();
  const ids = new Map<string, number>();
  let siteId = 0;
  let strategyId = 0;

  const ingest = () => ingestOf(t.ctx)!;
  /** One report interval of the simulator (1 simulated minute), stored by the server. */
  const tick = async () => {
    const before = ingest().counters.storedReports;
    clock.advance(60_000);
    await sim.tick();
    await until('the reports to be stored', () => ingest().counters.storedReports >= before + DEVICES - silenced.size);
    await ingest().flush();
    await ingest().flushLatest();
  };
  const post = <T>(path: string, body: unknown, token = t.adminToken) => t.api.post<T>(path, token, body);
  const sync = (id: number, token = t.adminToken) => t.api.get<StrategySync>(SYNC, token, { id });
  const emsPower = () => deviceValues(sim.state, 'SH01-EMS-01').activePower as number;
  const openDriftAlarms = () =>
    t.ctx.db.select().from(alarm).where(and(eq(alarm.deviceId, ids.get('SH01-EMS-01')!), eq(alarm.code, 'EMS_STRATEGY_DRIFT'), eq(alarm.status, 'active')));

  beforeAll(async () => {
    t = await startTestApp(target, {
      SEED_DEMO: 'true', DEVICE_OFFLINE_TIMEOUT_MS: '600000', INGEST_BATCH_MS: '50', LATEST_FLUSH_MS: '100', ROLLUP_FLUSH_MS: '200', COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
    });
    const all = await post<DeviceRecord[]>('/configure/device/query/list', {});
    for (const d of all.body.data) ids.set(d.code, d.id);
    siteId = all.body.data.find((d) => d.code === 'SH01-EMS-01')!.siteId;
    clock = manualClock(Date.now());
    sim = await runSimulator({ mqttUrl: t.ctx.mqtt.url, fleet: FLEET, intervalMs: 0, clock, rebootMs: 50 });
    for (let i = 0; i < 3; i++) await tick();
  });
  afterAll(async () => {
    await sim?.stop();
    await t?.stop();
  });

  it('answers the station with its limits and no strategy yet', async () => {
    const r = await post<StrategyView>('/configure/operation/strategy/query/unique', { siteId });
    expect(r.body.errorCode).toBe('00000');
    expect(r.body.data).toMatchObject({ siteId, siteCode: 'SH01', timeZone: 'Asia/Shanghai', strategy: null });
    expect(r.body.data.limits).toMatchObject({ pcsRatedKw: 200, pcsCount: 1, depthOfDischarge: 90 });
  });

  it('refuses bad strategies with a 4xx naming the window, and changes nothing', async () => {
    const overlap = flat(siteId, 'idle', 0);
    overlap.schedules[0]!.windows = [
      { start: '00:00', end: '12:00', mode: 'charge', powerKw: 100 },
      { start: '11:00', end: '24:00', mode: 'discharge', powerKw: 100 },
    ];
    const cases: [StrategyAdd, string][] = [
      [overlap, '方案「全年」时段2（11:00–24:00）与时段1（00:00–12:00）重叠'],
      [flat(siteId, 'discharge', 500), '方案「全年」时段1（00:00–24:00）功率 500 kW 超过PCS额定功率 200 kW'],
      [flat(siteId, 'discharge', 100, { schedules: [{ name: '全年', priority: 1, months: ALL_MONTHS, weekdays: ALL_DAYS, windows: [{ start: '00:00', end: '24:00', mode: 'discharge', powerKw: 100, targetSoc: 120 }] }] }),
        '方案「全年」时段1（00:00–24:00）目标SOC 120% 超出SOC上下限 5%–95%'],
    ];
    for (const [body, tip] of cases) {
      const r = await post('/configure/operation/strategy/add', body);
      expect(r.status, tip).toBe(400);
      expect(r.body.tipMsg).toBe(tip);
    }
    // A foreign station: a user of another company does not see it.
    const { south } = await seededCompanies(t);
    const other = await newSite(t, south.id);
    const east = (await seededCompanies(t)).east;
    const outsider = await newUser(t, east.id, { menus: 'all' });
    const foreign = await post('/configure/operation/strategy/add', flat(other.id, 'idle', 0), outsider.token);
    expect(foreign.status).toBeGreaterThanOrEqual(400);
    expect(foreign.status).toBeLessThan(500);
    expect(await t.ctx.db.select().from(strategy)).toHaveLength(0);
  });

  it('synchronises: the EMS confirms the hash and its power follows within two reports', async () => {
    const before = emsPower();
    const add = await post<{ id: number }>('/configure/operation/strategy/add', flat(siteId, 'discharge', 60));
    expect(add.body.errorCode).toBe('00000');
    strategyId = add.body.data.id;
    const view = await post<StrategyView>('/configure/operation/strategy/query/unique', { siteId });
    expect(view.body.data.strategy!.sync.state).toBe('unsynced');
    const hash = view.body.data.strategy!.sync.hash;

    const r = await sync(strategyId);
    expect(r.body.errorCode).toBe('00000');
    expect(r.body.data).toMatchObject({ state: 'applied', hash, syncedHash: hash, appliedHash: hash, deviceCode: 'SH01-EMS-01', deviceOnline: true, attempts: 1, lastError: null });
    // Idempotent: applied and running, nothing is sent again.
    expect((await sync(strategyId)).body.data).toMatchObject({ state: 'applied', attempts: 1 });

    await tick();
    await tick();
    expect(emsPower()).toBeCloseTo(60, 0);
    expect(before).not.toBeCloseTo(60, 0);
    const emsDetail = await t.api.get<{ summary: { identifier: string; value: unknown }[] }>('/monitor/ems/one', t.adminToken, { deviceId: ids.get('SH01-EMS-01')! });
    expect(emsDetail.body.data.summary.find((f) => f.identifier === 'activePower')?.value).toBeCloseTo(60, 0);
    expect(deviceValues(sim.state, 'SH01-EMS-01').strategyHash).toBe(hash);

    await sweepStrategies(t.ctx);
    const [row] = await t.ctx.db.select().from(strategy).where(eq(strategy.id, strategyId));
    expect(row).toMatchObject({ syncState: 'applied', reportedHash: hash });
    const events = await t.ctx.db.select().from(domainEvent).where(eq(domainEvent.type, 'strategy.synchronised'));
    expect(events.map((e) => (e.payload as { hash: string }).hash)).toEqual([hash]);
  });

  it('simulates the day so far against the measured load, beside what happened', async () => {
    const date = todayIn('Asia/Shanghai', new Date(sim.state.timeMs));
    const saved = await post<StrategySimulation>('/configure/operation/strategy/simulate', { siteId, date });
    expect(saved.body.errorCode).toBe('00000');
    expect(saved.body.data).toMatchObject({ siteId, date, timeZone: 'Asia/Shanghai', stepMinutes: 5 });
    expect(saved.body.data.steps.length).toBeGreaterThan(0);
    // The saved strategy discharges 60 kW all day (the load is far above it): every step plans 60 kW.
    for (const st of saved.body.data.steps) expect(st.batteryKw).toBe(60);
    expect(saved.body.data.steps.some((st) => st.actualBatteryKw !== null)).toBe(true);
    // An unsaved strategy (as the editor holds it) is checked like a saved one.
    const bad = await post('/configure/operation/strategy/simulate', { siteId, date, strategy: { ...flat(siteId, 'discharge', 500), siteId: undefined } });
    expect(bad.status).toBe(400);
    expect(bad.body.tipMsg).toContain('超过PCS额定功率');
    const idle = await post<StrategySimulation>('/configure/operation/strategy/simulate', { siteId, date, strategy: { ...flat(siteId, 'idle', 0), siteId: undefined } });
    expect(idle.body.data.expected).toMatchObject({ revenue: '0.00', chargeKwh: 0, dischargeKwh: 0, cycles: 0 });
  });

  it('detects drift when the EMS is told something else directly, raises the alarm, and ends it after a new synchronisation', async () => {
    const channel = commandChannel(t.ctx)!;
    const sent = await channel.send('SH01', 'SH01-EMS-01', 'setProperty', { values: { socLowerLimit: 20 } }, COMMAND_TIMEOUT_MS);
    expect(sent.outcome.kind).toBe('reply');
    await tick();
    const { drifted } = await sweepStrategies(t.ctx);
    expect(drifted).toBe(1);
    const [row] = await t.ctx.db.select().from(strategy).where(eq(strategy.id, strategyId));
    expect(row!.syncState).toBe('drifted');
    expect(row!.reportedHash).not.toBe(row!.syncedHash);
    await until('the drift alarm', async () => (await openDriftAlarms()).length === 1);
    expect((await post<StrategyView>('/configure/operation/strategy/query/unique', { siteId })).body.data.strategy!.sync.state).toBe('drifted');

    // Another strategy sent directly (not through the console) is drift too; synchronising again repairs it.
    const other = { ...flat(siteId, 'idle', 0), timeZone: 'Asia/Shanghai', pcsRatedKw: 200, transformerProtectionKw: 500, demandTargetKw: null };
    const { siteId: _s, ...otherStrategy } = other;
    const direct = await channel.send('SH01', 'SH01-EMS-01', 'applyStrategy', { strategy: otherStrategy as never, hash: strategyHash(otherStrategy as never) }, COMMAND_TIMEOUT_MS);
    expect(direct.outcome.kind).toBe('reply');
    const again = await sync(strategyId);
    expect(again.body.data).toMatchObject({ state: 'applied', attempts: 2 });
    await tick();
    await sweepStrategies(t.ctx);
    await until('the drift alarm to end', async () => (await openDriftAlarms()).length === 0);
    await tick();
    expect(emsPower()).toBeCloseTo(60, 0);
  });

  it('leaves a strategy pending while the EMS is away and sends it again when it is back', async () => {
    const edit = await post('/configure/operation/strategy/edit', { ...flat(siteId, 'discharge', 40), id: strategyId, siteId: undefined });
    expect(edit.body.errorCode).toBe('00000');
    expect((await post<StrategyView>('/configure/operation/strategy/query/unique', { siteId })).body.data.strategy!.sync.state).toBe('unsynced');
    sim.silence('SH01-EMS-01');
    silenced.add('SH01-EMS-01');
    const r = await sync(strategyId);
    expect(r.body.data.state).toBe('pending');
    expect(r.body.data.lastError).toMatch(/未在.*秒内应答/);
    await tick();
    expect(emsPower()).toBeCloseTo(60, 0);

    sim.unsilence('SH01-EMS-01');
    silenced.delete('SH01-EMS-01');
    await tick();
    await sweepStrategies(t.ctx, [siteId]);
    const [row] = await t.ctx.db.select().from(strategy).where(eq(strategy.id, strategyId));
    expect(row).toMatchObject({ syncState: 'applied', lastError: null });
    await tick();
    expect(emsPower()).toBeCloseTo(40, 0);
  });

  it('the EMS obeys a demand guard over MQTT: at least the granted discharge until it ends', async () => {
    const channel = commandChannel(t.ctx)!;
    // 60 kW over the strategy's 40: within what the station takes at any hour (anti-backflow caps
    // the discharge at the load, which at SH01 falls under 100 kW around midnight).
    const sent = await channel.send('SH01', 'SH01-EMS-01', 'demandGuard', { dischargeKw: 60, until: clock.now() + 90_000 }, COMMAND_TIMEOUT_MS);
    expect(sent.outcome.kind === 'reply' && sent.outcome.reply).toMatchObject({ ok: true, result: { dischargeKw: 60 } });
    await tick();
    expect(emsPower()).toBeGreaterThan(59);
    await tick();
    await tick();
    expect(emsPower()).toBeCloseTo(40, 0);
  });

  it('sends the strategy again to an EMS that restarted without it', async () => {
    const [before] = await t.ctx.db.select().from(strategy).where(eq(strategy.id, strategyId));
    // A restart that lost it: the EMS runs (and reports) its built-in behaviour again.
    sim.state.stations.find((s) => s.def.code === 'SH01')!.dyn.controls.ems = { strategy: null, hash: '', guard: null };
    await new Promise((r) => setTimeout(r, COMMAND_TIMEOUT_MS + 100));
    await tick();
    expect(deviceValues(sim.state, 'SH01-EMS-01').strategyHash).toBe('');
    const { resent } = await sweepStrategies(t.ctx);
    expect(resent).toBe(1);
    const [row] = await t.ctx.db.select().from(strategy).where(eq(strategy.id, strategyId));
    expect(row).toMatchObject({ syncState: 'applied', attempts: before!.attempts + 1 });
    await tick();
    expect(deviceValues(sim.state, 'SH01-EMS-01').strategyHash).toBe(before!.syncedHash);
    await until('the drift alarm to end', async () => (await openDriftAlarms()).length === 0);
  });

  it('one demand target (decision 0040): a target set goes to the EMS with the synchronised strategy; the strategy cannot set another', async () => {
    const [before] = await t.ctx.db.select().from(strategy).where(eq(strategy.id, strategyId));
    expect(before!.syncState).toBe('applied');
    // The demand setting is the source: a standing target 300 kW, margin 15 → the EMS's line 285 kW.
    const set = await post('/demand/setting/add', { siteId, targetKw: 300, marginKw: 15, allowDischarge: true });
    expect(set.body.errorCode).toBe('00000');
    t.ctx.outbox.nudge();
    await until('the strategy re-sent with the target', async () => {
      const [r] = await t.ctx.db.select().from(strategy).where(eq(strategy.id, strategyId));
      return r!.syncedHash !== before!.syncedHash && r!.syncState === 'applied';
    });
    const [row] = await t.ctx.db.select().from(strategy).where(eq(strategy.id, strategyId));
    // Only the target changed in what was synchronised (schedules and limits as sent before).
    expect(row!.syncedPayload).toEqual({ ...(before!.syncedPayload as object), demandTargetKw: 300, demandMarginKw: 15 });
    const ems = deviceValues(sim.state, 'SH01-EMS-01');
    expect(ems.demandLimit).toBe(300);
    expect(ems.strategyHash).toBe(row!.syncedHash);
    expect(sim.state.stations.find((x) => x.def.code === 'SH01')!.dyn.controls.demandMargin).toBe(15);
    // The strategy as read shows the target in force; its state is applied (content and target both as synchronised).
    const view = (await post<StrategyView>('/configure/operation/strategy/query/unique', { siteId })).body.data.strategy!;
    expect(view.demandTargetKw).toBe(300);
    expect(view.sync).toMatchObject({ state: 'applied', hash: row!.syncedHash });
    // A target sent with the strategy is not a second source: ignored (the stored and sent target stays the demand setting's).
    const edit = await post('/configure/operation/strategy/edit', { ...flat(siteId, 'discharge', 40), id: strategyId, siteId: undefined, demandTargetKw: 999 });
    expect(edit.body.errorCode).toBe('00000');
    const after = (await post<StrategyView>('/configure/operation/strategy/query/unique', { siteId })).body.data.strategy!;
    expect(after.demandTargetKw).toBe(300);
    expect(after.sync.state).toBe('applied');
    // Nothing to re-send on the next sweep: the target in force is the synchronised one.
    const { resent } = await sweepStrategies(t.ctx);
    expect(resent).toBe(0);
  });
});
