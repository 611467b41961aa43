import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deviceTopic, todayIn,
  type ChargingInfo, type ChargingStatusList, type DeviceRecord, type DeviceStatusOverview, type DiagramValues, type GenerationChart,
  type LiveSite, type MainMeterView, type Page, type PowerCurves, type SiteHandleResult, type SiteInfo, type SiteOption, type SiteOverview,
  type SitePerformance, type SiteSolar, type SiteTopology, type SolarSummary, type TelemetryValue,
} from '@ess/contract';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newUser, seededCompanies } from '../../../test/factory.ts';
import { siteHandle } from '../../db/schema/comprehensive.ts';
import { distributionDiagram, site, siteKeyValue } from '../../db/schema/site.ts';
import { localDayStart } from '../../platform/time/local-time.ts';
import { ingestOf } from '../telemetry/index.ts';

const MIN = 60_000;
const FIVE = 5 * MIN;

/**
 * Site monitoring on known telemetry: reports go through the real ingest (handle → batch →
 * latest values and rollups), the calls answer from what it stored. The demo stations are
 * registered (with their key values) but the simulator does not run, so every figure is known.
 */
describe.each(dbTargets(import.meta.url))('site monitoring on %s', (target) => {
  let t: TestApp;
  const ids = new Map<string, number>();
  const siteIds = new Map<string, number>();
  let seq = 0;
  const now = Date.now();

  const ingest = () => ingestOf(t.ctx)!;
  /** One report of a device, as its station's gateway would publish it. */
  const report = (code: string, ts: number, values: Record<string, TelemetryValue>) => {
    const siteCode = code.slice(0, 4);
    ingest().handle(deviceTopic(siteCode, code, 'telemetry'), Buffer.from(JSON.stringify({ ts: Math.round(ts), seq: ++seq, values })), false);
  };
  const get = <T>(path: string, query: Record<string, string | number>, token = t.adminToken) => t.api.get<T>(path, token, query);
  const ok = async <T>(path: string, query: Record<string, string | number>, token = t.adminToken): Promise<T> => {
    const r = await get<T>(path, query, token);
    expect(r.body.tipMsg, `${path} ${JSON.stringify(query)}`).toBe('');
    expect(r.status).toBe(200);
    return r.body.data;
  };
  const id = (code: string) => ids.get(code)!;

  beforeAll(async () => {
    t = await startTestApp(target, {
      SEED_DEMO: 'true', DEVICE_OFFLINE_TIMEOUT_MS: '600000', INGEST_BATCH_MS: '50', LATEST_FLUSH_MS: '100', ROLLUP_FLUSH_MS: '200',
    });
    const all = await t.api.post<DeviceRecord[]>('/configure/device/query/list', t.adminToken, {});
    for (const d of all.body.data) ids.set(d.code, d.id);
    for (const s of await t.ctx.db.select({ id: site.id, code: site.code }).from(site)) siteIds.set(s.code, s.id);
  });
  afterAll(async () => t?.stop());

  // ── Los Angeles (AC-coupled PV, piles): today, live ─────────────────────────────────
  describe('today at a station with storage, AC-coupled PV and charging piles', () => {
    const tz = 'America/Los_Angeles';
    let dayStart: number;

    beforeAll(async () => {
      dayStart = localDayStart(tz, todayIn(tz, new Date(now)));
      const at = (k: number) => dayStart + ((now - dayStart) * k) / 4;
      // Yesterday's last readings, then three readings today (k = 1…3), the last one with the live power.
      const main = (k: number, power: number) => ({
        activePower: power, reactivePower: 5, powerFactor: 0.99, voltageA: 277, voltageB: 278, voltageC: 276, currentA: 120, currentB: 121, currentC: 119,
        frequency: 60, demand: 95, maxDemand: 130, maxDemandTime: Date.UTC(2025, 10, 3, 18),
        forwardActiveEnergy: 1000 + 40 * k, forwardActiveEnergyValley: 600 + 30 * k, forwardActiveEnergyPeak: 400 + 10 * k,
        forwardActiveEnergyTip: 0, forwardActiveEnergyFlat: 0, forwardActiveEnergyDeepValley: 0,
        reverseActiveEnergy: 50 + 2 * k, reverseActiveEnergyTip: 50 + 2 * k, reverseActiveEnergyPeak: 0, reverseActiveEnergyFlat: 0,
        reverseActiveEnergyValley: 0, reverseActiveEnergyDeepValley: 0,
      });
      for (const k of [0, 1, 2, 3]) {
        const ts = k === 0 ? dayStart - 10 * MIN : at(k);
        const live = k === 3;
        report('LA01-MT-MAIN', ts, main(k, live ? 100 : 70));
        report('LA01-MT-ESS', ts, { activePower: live ? 50 : 0, forwardActiveEnergy: 500 + 20 * k, reverseActiveEnergy: 400 + 5 * k });
        report('LA01-MT-PV', ts, { activePower: live ? 40 : 0, forwardActiveEnergy: 300 + 8 * k });
        report('LA01-MT-PILE', ts, { activePower: live ? 22 : 0, forwardActiveEnergy: 200 + 4 * k });
        for (const pv of ['LA01-PV-01', 'LA01-PV-02']) {
          report(pv, ts, { state: live ? 2 : 1, activePower: live ? 20 : 0, dcPower: live ? 21 : 0, irradiance: live ? 500 : 0, totalEnergy: 150 + 4 * k, todayEnergy: 4 * k });
        }
        report('LA01-CP-01', ts, { state: 2, power: live ? 11 : 0, totalEnergy: 90 + 1.8 * k, todaySessions: 2, todayEnergy: 1.8 * k });
        report('LA01-CP-02', ts, { state: 2, power: live ? 11 : 0, totalEnergy: 90 + 1.8 * k, todaySessions: 1, todayEnergy: 1.8 * k });
        report('LA01-EMS-01', ts, { soc: live ? 55 : 40, loadPower: 999 });
        report('LA01-TR-01', ts, { loadRate: 16.5 });
      }
      const last = at(3);
      report('LA01-CG-01-1', last, { state: 2, power: 10, vehicleSoc: 61 });
      report('LA01-CG-01-2', last, { state: 0, power: 0 });
      report('LA01-CG-02-1', last, { state: 2, power: 10, vehicleSoc: 35 });
      report('LA01-CG-02-2', last, { state: 4, power: 0 });
      await ingest().flush();
    });

    it('lists the stations with live status, power and SOC; a station that never reported has no data', async () => {
      const page = await ok<Page<LiveSite>>('/comprehensive/site/list', { current: 1, pageSize: 10 });
      expect(page.total).toBe(3);
      const la = page.records.find((s) => s.code === 'LA01')!;
      expect(la.power).toEqual({ grid: 100, storage: -50, pv: 40, load: 68, piles: 22 });
      expect(la.soc).toBe(55);
      expect(la.status).toBe('online');
      expect(la.devices.online).toBe(14);
      expect(la.devices.inactive).toBe(la.devices.total - 14);
      expect(la.subsystems).toEqual({ storage: true, pv: true, pvCoupling: 'ac', charging: true, transformer: true, mainMeter: true });
      const sh = page.records.find((s) => s.code === 'SH01')!;
      expect(sh.status).toBe('noData');
      expect(sh.power).toEqual({ grid: null, storage: null, pv: null, load: null, piles: null });
      const second = await ok<Page<LiveSite>>('/comprehensive/site/list', { current: 2, pageSize: 2 });
      expect(second.records.map((s) => s.code)).toEqual(['LA01']);
      const one = await ok<Page<LiveSite>>('/comprehensive/site/list', { id: siteIds.get('LA01')! });
      expect(one.records.map((s) => s.code)).toEqual(['LA01']);
    });

    it('answers today’s energy from register growth (the end reading is the latest value) and the lifetime totals', async () => {
      const o = await ok<SiteOverview>('/comprehensive/site/overview', { siteId: siteIds.get('LA01')! });
      expect(o.date).toBe(todayIn(tz, new Date(now)));
      // load = import − export + discharge − charge + PV − piles
      expect(o.day).toEqual({ charge: 60, discharge: 15, pv: 24, load: 81, gridImport: 120, gridExport: 6, piles: 12 });
      expect(o.total).toEqual({ charge: 560, discharge: 415, pv: 324, load: 1031, gridImport: 1120, gridExport: 56, piles: 212 });
      expect(o.power).toEqual({ grid: 100, storage: -50, pv: 40, load: 68, piles: 22 });
      expect(o.soc).toBe(55);
    });

    it('draws the power flow with directions from the measured signs and the load from the balance', async () => {
      const topo = await ok<SiteTopology>('/comprehensive/site/topology', { siteId: siteIds.get('LA01')! });
      const edge = (from: string, to: string) => topo.edges.find((e) => e.from === from && e.to === to);
      expect(edge('grid', 'transformer')).toEqual({ from: 'grid', to: 'transformer', power: 100, direction: 'forward' });
      expect(edge('storage', 'bus')).toEqual({ from: 'storage', to: 'bus', power: 50, direction: 'reverse' });
      expect(edge('pv', 'bus')).toMatchObject({ power: 40, direction: 'forward' });
      expect(edge('bus', 'load')).toMatchObject({ power: 68, direction: 'forward' });
      expect(edge('bus', 'piles')).toMatchObject({ power: 22, direction: 'forward' });
      expect(topo.nodes.find((n) => n.key === 'storage')).toMatchObject({ power: -50, percent: 55 });
      expect(topo.nodes.find((n) => n.key === 'transformer')).toMatchObject({ percent: 16.5 });
    });

    it('shows the main meter’s registers now and their growth today, per period', async () => {
      const m = await ok<MainMeterView>('/comprehensive/site/mainMeter', { siteId: siteIds.get('LA01')! });
      expect(m.device?.code).toBe('LA01-MT-MAIN');
      expect(m.activePower).toBe(100);
      expect(m.voltage).toEqual([277, 278, 276]);
      expect(m.maxDemandTime).toBe(new Date(Date.UTC(2025, 10, 3, 18)).toISOString());
      const reg = (p: string) => m.registers.find((r) => r.period === p)!;
      expect(reg('total')).toMatchObject({ label: '总', forward: 1120, reverse: 56, dayForward: 120, dayReverse: 6 });
      expect(reg('valley')).toMatchObject({ forward: 690, dayForward: 90 });
      expect(reg('peak')).toMatchObject({ dayForward: 30 });
      expect(reg('tip')).toMatchObject({ dayReverse: 6 });
    });

    it('computes cycle count and efficiency from the key values and the same charge and discharge', async () => {
      const p = await ok<SitePerformance>('/comprehensive/site/performance', { siteId: siteIds.get('LA01')! });
      expect(p).toMatchObject({ charge: 60, discharge: 15, installedCapacity: 430.1, depthOfDischarge: 90, missing: [] });
      expect(p.cycleCount).toBeCloseTo(75 / (0.9 * 2 * 430.1), 4);
      expect(p.totalCycleCount).toBeCloseTo(975 / (0.9 * 2 * 430.1), 4);
      expect(p.efficiency).toBe(25);
      expect(p.totalEfficiency).toBeCloseTo((415 / 560) * 100, 2);
    });

    it('answers the PV subsystem: power, yield today and since commissioning, inverters by state', async () => {
      const s = await ok<SolarSummary>('/comprehensive/solar/summary', { siteId: siteIds.get('LA01')! });
      expect(s).toMatchObject({ present: true, coupling: 'ac', power: 40, todayEnergy: 24, totalEnergy: 324, monthEnergy: 24, yearEnergy: 24, irradiance: 500 });
      expect(s.ratedPower).toBe(118);
      expect(s.equivalentHours).toBeCloseTo(24 / 118, 2);
      expect(s.states.find((x) => x.label === '运行')!.count).toBe(2);
      const list = await ok<{ inverters: { code: string; power: number; totalEnergy: number; stateLabel: string }[] }>('/comprehensive/solar/inverter-status', { siteId: siteIds.get('LA01')! });
      expect(list.inverters.map((i) => [i.code, i.power, i.totalEnergy, i.stateLabel])).toEqual([['LA01-PV-01', 20, 162, '运行'], ['LA01-PV-02', 20, 162, '运行']]);
      const gen = await ok<GenerationChart>('/comprehensive/solar/total-generation', { siteId: siteIds.get('LA01')!, type: 'day' });
      expect(gen.points.length).toBeGreaterThanOrEqual(23);
      expect(gen.total).toBe(24);
      const year = await ok<GenerationChart>('/comprehensive/solar/total-generation', { siteId: siteIds.get('LA01')!, type: 'year' });
      expect(year.points).toHaveLength(12);
      expect(year.labels[0]).toMatch(/^\d{4}-01$/);
      expect(year.total).toBe(24);
    });

    it('answers the charging subsystem: delivered energy from the piles’ registers, guns by state, utilisation', async () => {
      const c = await ok<ChargingInfo>('/comprehensive/site/charging-pile-info', { siteId: siteIds.get('LA01')! });
      expect(c).toMatchObject({ present: true, pileCount: 2, gunCount: 4, ratedPower: 240, power: 22, todayEnergy: 10.8, totalEnergy: 190.8, todaySessions: 3, utilisation: 50 });
      const count = (label: string) => c.gunStates.find((g) => g.label === label)!.count;
      expect([count('空闲'), count('充电中'), count('故障')]).toEqual([1, 2, 1]);
      const status = await ok<ChargingStatusList>('/comprehensive/charging/inverter/status', { siteId: siteIds.get('LA01')! });
      expect(status.piles.map((p) => [p.code, p.guns.map((g) => g.stateLabel)])).toEqual([
        ['LA01-CP-01', ['充电中', '空闲']], ['LA01-CP-02', ['充电中', '故障']],
      ]);
      const gen = await ok<GenerationChart>('/comprehensive/charging/total/generation', { siteId: siteIds.get('LA01')!, type: 'month' });
      expect(gen.total).toBe(10.8);
      expect(gen.labels[0]).toMatch(/-01$/);
    });

    it('counts devices by type and status, with the faulted ones', async () => {
      const d = await ok<DeviceStatusOverview>('/comprehensive/site/device-status', { siteId: siteIds.get('LA01')! });
      const guns = d.types.find((x) => x.type === 'chargingGun')!;
      expect(guns).toMatchObject({ total: 4, online: 4, fault: 1, label: '充电枪' });
      expect(d.total.total).toBe(d.types.reduce((a, x) => a + x.total, 0));
      const pcsOnly = await ok<DeviceStatusOverview>('/comprehensive/site/device-status', { siteId: siteIds.get('LA01')!, type: 'pcs' });
      expect(pcsOnly.types.map((x) => x.type)).toEqual(['pcs']);
      const bad = await get('/comprehensive/site/device-status', { type: 'toaster' });
      expect(bad.status).toBe(400);
      expect(bad.body.tipMsg).toMatch(/^type/);
    });

    it('gives each bound element of the distribution diagram its device’s latest value', async () => {
      const [d] = await t.ctx.db
        .insert(distributionDiagram)
        .values({
          siteId: siteIds.get('LA01')!, fileName: 'la.svg', svg: '<svg xmlns="http://www.w3.org/2000/svg"><text id="p1"/><text id="g1"/></svg>',
          bindings: [{ elementId: 'p1', deviceId: id('LA01-MT-MAIN'), identifier: 'activePower' }, { elementId: 'g1', deviceId: id('LA01-CG-01-1'), identifier: 'state' }],
        })
        .returning();
      const v = await ok<DiagramValues>('/comprehensive/site/values', { diagramId: d!.id });
      expect(v.values).toEqual([
        expect.objectContaining({ elementId: 'p1', deviceCode: 'LA01-MT-MAIN', value: 100, unit: 'kW', status: 'online' }),
        expect.objectContaining({ elementId: 'g1', value: 2, valueLabel: '充电中', colour: '#52c41a' }),
      ]);
      expect((await get('/comprehensive/site/values', { diagramId: d!.id + 1000 })).status).toBe(404);
    });
  });

  // ── Berlin (DC-coupled PV): past days with a DST change ─────────────────────────────
  describe('a DST change day at a station with DC-coupled PV', () => {
    const tz = 'Europe/Berlin';
    const spring = '2025-03-30';
    const autumn = '2025-10-26';

    beforeAll(async () => {
      const start = localDayStart(tz, spring);
      const before = start - 4 * MIN;
      report('BE01-MT-MAIN', before, { activePower: 50, forwardActiveEnergy: 2000, reverseActiveEnergy: 10 });
      report('BE01-MT-ESS', before, { activePower: 0, forwardActiveEnergy: 500, reverseActiveEnergy: 300 });
      report('BE01-DCDC-01', before, { outputPower: 0, totalEnergy: 100 });
      report('BE01-BMS-01', before, { totalChargeEnergy: 800, totalDischargeEnergy: 700 });
      report('BE01-PCS-01', before, { state: 2 });
      for (let i = 0; i < 276; i++) {
        const ts = start + i * FIVE + MIN;
        const charging = i < 138;
        report('BE01-MT-MAIN', ts, { activePower: 50 + (i % 12), forwardActiveEnergy: 2000 + (i + 1), reverseActiveEnergy: 10 });
        report('BE01-MT-ESS', ts, {
          activePower: charging ? 20 : -30,
          forwardActiveEnergy: 500 + (Math.min(i + 1, 138) * 20) / 12,
          reverseActiveEnergy: 300 + (Math.max(0, i - 137) * 30) / 12,
        });
        report('BE01-DCDC-01', ts, { outputPower: 10, totalEnergy: 100 + ((i + 1) * 10) / 12 });
        report('BE01-BMS-01', ts, { totalChargeEnergy: 800 + (Math.min(i + 1, 138) * 60) / 138, totalDischargeEnergy: 700 + (Math.max(0, i - 137) * 50) / 138 });
        report('BE01-EMS-01', ts, { soc: 50 + i / 10 });
        // The converter: a fault for 5 intervals, silent for 10.
        if (i < 200 || i >= 210) report('BE01-PCS-01', ts, { state: i >= 100 && i < 105 ? 3 : 2 });
      }
      const fall = localDayStart(tz, autumn);
      report('BE01-MT-MAIN', fall - 4 * MIN, { activePower: 40, forwardActiveEnergy: 3000, reverseActiveEnergy: 10 });
      report('BE01-DCDC-01', fall - 4 * MIN, { outputPower: 0, totalEnergy: 1000 });
      for (let i = 0; i < 300; i++) {
        const ts = fall + i * FIVE + MIN;
        report('BE01-MT-MAIN', ts, { activePower: 40, forwardActiveEnergy: 3000 + (i + 1), reverseActiveEnergy: 10 });
        report('BE01-DCDC-01', ts, { outputPower: 12, totalEnergy: 1000 + (i + 1) });
      }
      await ingest().flush();
    });

    it('draws the 5-minute curves of the 23-hour local day, each bucket combined like the live picture', async () => {
      const c = await ok<PowerCurves>('/comprehensive/site/powerData', { siteId: siteIds.get('BE01')!, date: spring });
      expect(c.start).toBe('2025-03-29T23:00:00.000Z');
      expect(c.end).toBe('2025-03-30T22:00:00.000Z');
      expect(c.series.map((s) => s.key)).toEqual(['grid', 'storage', 'pv', 'load', 'soc']);
      const s = (key: string) => c.series.find((x) => x.key === key)!.points;
      expect(s('grid')).toHaveLength(276);
      expect(s('grid')[0]).toEqual([Date.parse('2025-03-29T23:00:00Z'), 50]);
      expect(s('grid')[13]![1]).toBe(51);
      // Charging 20 kW at the storage meter while the DC/DC adds 10 kW of PV: the battery takes 30.
      expect(s('storage')[0]![1]).toBe(-30);
      expect(s('pv')[0]![1]).toBe(10);
      expect(s('load')[0]![1]).toBe(30);
      expect(s('storage')[200]![1]).toBe(20);
      expect(s('load')[200]![1]).toBe(50 + (200 % 12) + 30);
      expect(s('soc')[100]![1]).toBe(60);
    });

    it('splits the DST day into its 23 local hours and the autumn day into 25', async () => {
      const gen = await ok<GenerationChart>('/comprehensive/solar/total-generation', { siteId: siteIds.get('BE01')!, type: 'day', date: spring });
      expect(gen.points).toHaveLength(23);
      expect(gen.labels.slice(0, 4)).toEqual(['00:00', '01:00', '03:00', '04:00']);
      expect(gen.points.map(([, v]) => v)).toEqual(Array(23).fill(10));
      expect(gen.total).toBe(230);
      const fall = await ok<GenerationChart>('/comprehensive/solar/total-generation', { siteId: siteIds.get('BE01')!, type: 'day', date: autumn });
      expect(fall.points).toHaveLength(25);
      expect(fall.labels.slice(0, 5)).toEqual(['00:00', '01:00', '02:00', '02:00', '03:00']);
      expect(fall.total).toBe(300);
      const curves = await ok<PowerCurves>('/comprehensive/site/powerData', { siteId: siteIds.get('BE01')!, date: autumn });
      expect(curves.series[0]!.points).toHaveLength(300);
      const month = await ok<GenerationChart>('/comprehensive/solar/total-generation', { siteId: siteIds.get('BE01')!, type: 'month', date: spring });
      expect(month.points).toHaveLength(31);
      expect(month.points[29]![1]).toBe(230);
      const year = await ok<GenerationChart>('/comprehensive/solar/total-generation', { siteId: siteIds.get('BE01')!, type: 'year', date: spring });
      expect(year.points.map(([, v]) => v)).toEqual([null, null, 230, null, null, null, null, null, null, 970, null, null]);
    });

    it('takes charge and discharge from the battery where PV is DC-coupled, and counts cycles and availability', async () => {
      const o = await ok<SiteOverview>('/comprehensive/site/overview', { siteId: siteIds.get('BE01')!, date: spring });
      expect(o.day).toEqual({ charge: 60, discharge: 50, pv: 230, load: 276 + 345 - 230, gridImport: 276, gridExport: 0, piles: null });
      const p = await ok<SitePerformance>('/comprehensive/site/performance', { siteId: siteIds.get('BE01')!, date: spring });
      expect(p.cycleCount).toBeCloseTo(110 / (0.9 * 2 * 215), 4);
      expect(p.efficiency).toBeCloseTo((50 / 60) * 100, 2);
      // 276 intervals: 5 in fault, 10 without a report.
      expect(p.availability).toBeCloseTo((261 / 276) * 100, 2);
    });

    it('refuses a bad type or date with 400 naming the field, a future date with 406', async () => {
      const q = { siteId: siteIds.get('BE01')! };
      const type = await get('/comprehensive/solar/total-generation', { ...q, type: 'week' });
      expect(type.status).toBe(400);
      expect(type.body.tipMsg).toMatch(/^type/);
      const missing = await get('/comprehensive/charging/total/generation', q);
      expect(missing.status).toBe(400);
      expect(missing.body.tipMsg).toMatch(/^type/);
      const date = await get('/comprehensive/site/powerData', { ...q, date: '2025-13-01' });
      expect(date.status).toBe(400);
      expect(date.body.tipMsg).toMatch(/^date/);
      const future = await get('/comprehensive/site/overview', { ...q, date: '2999-01-01' });
      expect(future.status).toBe(406);
      const noSite = await get('/comprehensive/site/overview', {});
      expect(noSite.status).toBe(400);
      expect(noSite.body.tipMsg).toMatch(/^siteId/);
    });
  });

  // ── Shanghai (storage only): missing subsystems and key values ──────────────────────
  describe('a station with storage only', () => {
    it('says there is no PV and no piles instead of showing zeros', async () => {
      const q = { siteId: siteIds.get('SH01')! };
      const solar = await ok<SiteSolar>('/comprehensive/site/solar', q);
      expect(solar).toMatchObject({ present: false, coupling: null, power: null, todayEnergy: null, totalEnergy: null });
      const piles = await ok<ChargingInfo>('/comprehensive/charging/summary', q);
      expect(piles).toMatchObject({ present: false, pileCount: 0, power: null, todayEnergy: null, utilisation: null });
      const topo = await ok<SiteTopology>('/comprehensive/site/topology', q);
      expect(topo.nodes.map((n) => n.key)).toEqual(['grid', 'transformer', 'bus', 'storage', 'load']);
      expect(topo.edges.every((e) => e.direction === 'unknown')).toBe(true);
      const curves = await ok<PowerCurves>('/comprehensive/site/powerData', q);
      expect(curves.series.map((s) => s.key)).toEqual(['grid', 'storage', 'load', 'soc']);
      expect(curves.series.every((s) => s.points.every(([, v]) => v === null))).toBe(true);
      const pvCurve = await ok<PowerCurves>('/comprehensive/solar/power', q);
      expect(pvCurve.series).toEqual([]);
    });

    it('names the key values a figure needs instead of dividing by zero', async () => {
      const siteId = siteIds.get('SH01')!;
      const info = await ok<SiteInfo>('/comprehensive/site/info', { siteId });
      expect(info.keyValues).toMatchObject({ installedCapacity: 430.1, installedPower: 200, depthOfDischarge: 90, voltageLevel: 10, transformerProtectionPower: 500 });
      expect(info.missing).toEqual([]);
      await t.ctx.db.update(siteKeyValue).set({ installedCapacity: null, depthOfDischarge: null }).where(eq(siteKeyValue.siteId, siteId));
      const p = await ok<SitePerformance>('/comprehensive/site/performance', { siteId });
      expect(p.cycleCount).toBeNull();
      expect(p.totalCycleCount).toBeNull();
      expect(p.missing).toEqual(['installedCapacity', 'depthOfDischarge']);
      const again = await ok<SiteInfo>('/comprehensive/site/info', { siteId });
      expect(again.missing).toEqual(['installedCapacity', 'depthOfDischarge']);
    });
  });

  // ── Handling and data scope ─────────────────────────────────────────────────────────
  describe('handling a station and data scope', () => {
    let operator: string;
    let operatorId: number;

    beforeAll(async () => {
      const { east } = await seededCompanies(t);
      const u = await newUser(t, east.id, {
        username: `watcher-${target}`, name: '值班员', menus: ['/synthesis/realTime', '/overview/station', '/overview/kanban'], siteIds: [siteIds.get('SH01')!],
      });
      operatorId = u.id;
      operator = u.token;
    });

    it('starts and ends maintenance with a note, refuses doing either twice, and journals who did it', async () => {
      const siteId = siteIds.get('SH01')!;
      const post = (body: object) => t.api.post<SiteHandleResult>('/comprehensive/site/handle', operator, body);
      const noNote = await post({ siteId, action: 'maintenanceStart' });
      expect(noNote.status).toBe(400);
      expect(noNote.body.tipMsg).toMatch(/^note/);
      const badAction = await post({ siteId, action: 'explode' });
      expect(badAction.status).toBe(400);
      const start = await post({ siteId, action: 'maintenanceStart', note: '更换2#簇接触器' });
      expect(start.status).toBe(200);
      expect(start.body.data.maintenance).toMatchObject({ note: '更换2#簇接触器', username: `watcher-${target}` });
      const again = await post({ siteId, action: 'maintenanceStart', note: '再来一次' });
      expect([again.status, again.body.tipMsg]).toEqual([406, '站点已在检修中']);
      const listed = await ok<Page<LiveSite>>('/comprehensive/site/list', {}, operator);
      expect(listed.records[0]!.maintenance?.note).toBe('更换2#簇接触器');
      expect((await post({ siteId, action: 'acknowledge' })).status).toBe(200);
      const end = await post({ siteId, action: 'maintenanceEnd', note: '已完成' });
      expect(end.body.data.maintenance).toBeNull();
      const notIn = await post({ siteId, action: 'maintenanceEnd' });
      expect([notIn.status, notIn.body.tipMsg]).toEqual([406, '站点不在检修中']);
      const journal = await t.ctx.db.select().from(siteHandle).where(eq(siteHandle.siteId, siteId)).orderBy(siteHandle.id);
      expect(journal.map((j) => [j.action, j.userId])).toEqual([['maintenanceStart', operatorId], ['acknowledge', operatorId], ['maintenanceEnd', operatorId]]);
      const info = await ok<SiteInfo>('/comprehensive/site/info', { siteId }, operator);
      expect(info.handles.map((h) => h.action)).toEqual(['maintenanceEnd', 'acknowledge', 'maintenanceStart']);
      // Each handling wrote its state.changed event with it (the state-machine helper); refusals none.
      const { rows: events } = await t.ctx.database.sql.query<{ payload: { action: string; from: string; to: string; userId: number } }>(
        "select payload from domain_event where type = 'state.changed' and payload->>'machine' = 'site.handle' and (payload->>'entityId')::int = $1 order by id",
        [siteId],
      );
      expect(events.map((e) => [e.payload.action, e.payload.from, e.payload.to, e.payload.userId])).toEqual([
        ['maintenanceStart', 'normal', 'maintenance', operatorId],
        ['acknowledge', 'maintenance', 'maintenance', operatorId],
        ['maintenanceEnd', 'maintenance', 'normal', operatorId],
      ]);
    });

    it('two maintenance starts at once: the station row is locked, one starts and the other is refused naming the state', async () => {
      const siteId = siteIds.get('SH01')!;
      const post = (body: object) => t.api.post<SiteHandleResult>('/comprehensive/site/handle', operator, body);
      const both = await Promise.all([post({ siteId, action: 'maintenanceStart', note: 'A' }), post({ siteId, action: 'maintenanceStart', note: 'B' })]);
      expect(both.map((r) => r.status).sort()).toEqual([200, 406]);
      expect(both.find((r) => r.status === 406)!.body.tipMsg).toBe('站点已在检修中');
      expect((await post({ siteId, action: 'maintenanceEnd', note: '结束' })).status).toBe(200);
    });

    it('lets a role with only the operations board read the live station list and alarm counts, and nothing else of the site calls', async () => {
      const { east } = await seededCompanies(t);
      const { token: wall } = await newUser(t, east.id, { username: `board-${target}`, name: '看板', menus: ['/overview/kanban'], siteIds: [siteIds.get('SH01')!] });
      const page = await ok<Page<LiveSite>>('/comprehensive/site/list', { current: 1, pageSize: 500 }, wall);
      expect(page.records.map((s) => s.code)).toEqual(['SH01']);
      expect((await get('/alarm/kanban/site', {}, wall)).status).toBe(200);
      for (const path of ['/comprehensive/site/overview', '/comprehensive/site/info', '/comprehensive/site/down']) {
        expect((await get(path, { siteId: siteIds.get('SH01')! }, wall)).status, path).toBe(403);
      }
    });

    it('shows a user only the stations granted to them and refuses another company’s', async () => {
      const la = siteIds.get('LA01')!;
      const page = await ok<Page<LiveSite>>('/comprehensive/site/list', {}, operator);
      expect(page.records.map((s) => s.code)).toEqual(['SH01']);
      const down = await ok<SiteOption[]>('/comprehensive/site/down', {}, operator);
      expect(down.map((s) => s.code)).toEqual(['SH01']);
      const { south } = await seededCompanies(t);
      expect((await get('/comprehensive/site/list', { companyId: south.id }, operator)).status).toBe(403);
      for (const path of ['/comprehensive/site/overview', '/comprehensive/site/topology', '/comprehensive/site/powerData', '/comprehensive/solar/summary', '/comprehensive/charging/inverter/status', '/comprehensive/site/device-status']) {
        expect((await get(path, { siteId: la }, operator)).status, path).toBe(404);
      }
      expect((await get('/comprehensive/site/list', { id: la }, operator)).status).toBe(404);
      expect((await get('/comprehensive/solar/total-generation', { siteId: la, type: 'day' }, operator)).status).toBe(404);
      expect((await t.api.post('/comprehensive/site/handle', operator, { siteId: la, action: 'acknowledge' })).status).toBe(404);
      const [diagram] = await t.ctx.db.select().from(distributionDiagram).where(eq(distributionDiagram.siteId, la));
      expect((await get('/comprehensive/site/values', { diagramId: diagram!.id }, operator)).status).toBe(404);
      const counts = await ok<DeviceStatusOverview>('/comprehensive/site/device-status', {}, operator);
      expect(counts.total.total).toBe(40);
      expect((await get('/comprehensive/site/overview', { siteId: la }, '')).status).toBe(401);
    });
  });
});
