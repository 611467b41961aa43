import { and, eq, like } from 'drizzle-orm';
import { connect, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DemandAnalysisInfo, DemandDayInfo, DemandMeasureDetail, DemandMeasureRecord, DemandMonthBrief, DemandMonthInfo, DemandReconcileHeader,
  DemandReconcileRecord, DemandSettingRecord,
} from '@ess/contract/demand';
import type { Page } from '@ess/contract';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, newUser, okData, seededCompanies, until, type FactoryUser } from '../../../test/factory.ts';
import { alarm } from '../../db/schema/alarm.ts';
import { demandSetting, demandWindow } from '../../db/schema/demand.ts';
import { domainEvent } from '../../db/schema/events.ts';
import { site } from '../../db/schema/site.ts';
import { alarmEngineOf } from '../alarm/index.ts';
import { deviceRegistryOf, type RegisteredDevice } from '../telemetry/index.ts';
import { demandSinkOf } from './index.ts';

/**
 * The hand-worked hour of demand.compute.test.ts through the whole module (Asia/Shanghai, UTC+8):
 * on 2026-03-10, 10:00–11:00 local, the main meter imports 21, 25, 24, 15 kWh in the four windows
 * (84, 100, 96, 60 kW); the storage meter discharges 24 kWh in the third (10:30) and charges
 * 7.5 kWh in the fourth. Two-part tariff, demand price 40.5 per kW per month.
 *
 *   month's maximum             100 kW at 10:15 local (02:15Z)           charge 100 × 40.5 = 4050.00
 *   counterfactual maximum      (24 + 24) × 4 = 192 kW at 10:30 local    charge 192 × 40.5 = 7776.00
 *   shaved 92 kW, saving 7776.00 − 4050.00 = 3726.00; one measure (the 10:30 window, 96 kW shaved)
 *   the meter's register reports 101 kW: 1 kW off, within max(0.5 kW, 2 % of 100) = 2 kW;
 *   a bill of 110 kW is 10 kW off: flagged.
 *
 * The live guard (April, standing target 110 kW, margin 5, discharge allowed): at 10:20 the window
 * holds 10 kWh and the meter shows 120 kW → (10 + 120 × 10/60) × 4 = 120 kW > 105 → pre-alarm,
 * demandGuard { dischargeKw: (120 − 105) / 4 / (1/6) = 22.5, until: 10:30 }; the window ends at
 * 27 kWh = 108 kW: pre-alarmed, not exceeded.
 */
const T10 = Date.parse('2026-03-10T02:00:00Z');
const MIN = 60_000;
const IMPORT = [7, 7, 7, 10, 10, 5, 8, 8, 8, 5, 5, 5];
const DISCHARGE = [0, 0, 0, 0, 0, 0, 8, 8, 8, 0, 0, 0];
const CHARGE = [0, 0, 0, 0, 0, 0, 0, 0, 0, 2.5, 2.5, 2.5];
const BANDS = [
  { start: '00:00', end: '08:00', period: 'valley' },
  { start: '08:00', end: '24:00', period: 'peak' },
];

describe.each(dbTargets(import.meta.url))('demand management on %s', (target) => {
  let t: TestApp;
  let siteId: number;
  let siteCode: string;
  let foreignSiteId: number;
  let foreign: FactoryUser;
  let main: RegisteredDevice;
  let storage: RegisteredDevice;
  let ems: MqttClient | null = null;
  const post = <T>(path: string, body: unknown, token = t.adminToken) => t.api.post<T>(path, token, body);
  const sink = () => demandSinkOf(t.ctx)!;
  const valuesOf = (dev: RegisteredDevice, v: Record<string, number>) => {
    const layout = deviceRegistryOf(t.ctx).products.get(dev.productId)!;
    const a = new Float64Array(layout.identifiers.length).fill(Number.NaN);
    for (const [k, x] of Object.entries(v)) a[layout.indexOf.get(k)!] = x;
    return a;
  };

  beforeAll(async () => {
    t = await startTestApp(target);
    const { east, south } = await seededCompanies(t);
    const s = await newSite(t, east.id, { code: 'XL01', name: '需量测试站' });
    siteId = s.id;
    siteCode = s.code;
    await t.ctx.db.update(site).set({ timeZone: 'Asia/Shanghai', currency: 'CNY' }).where(eq(site.id, siteId));
    foreignSiteId = (await newSite(t, south.id, { code: 'XL02' })).id;
    foreign = await newUser(t, east.id, { menus: 'all', siteIds: [siteId] });
    const m = await newDevice(t, siteId, { type: 'meter', meterPurpose: 'main', code: 'XL01-MTR-01' });
    const st = await newDevice(t, siteId, { type: 'meter', meterPurpose: 'storage', code: 'XL01-MTR-02' });
    await newDevice(t, siteId, { type: 'ems', code: 'XL01-EMS-01' });
    const registry = deviceRegistryOf(t.ctx);
    await registry.refresh();
    main = registry.byId.get(m.id)!;
    storage = registry.byId.get(st.id)!;
    await sink().reload();

    // Two-part tariff with a demand price, in force from March.
    const tpl = (await okData(post<{ id: number }>('/operation/price/template/add', {
      name: '两部制', type: 'largeIndustrial', billingSystem: 'twoPart', voltageLevel: '10kV', companyId: east.id, currency: 'CNY',
    }))).id;
    await okData(post('/operation/price/cycle/add/batch', {
      templateId: tpl, cycles: [{ name: '全年', months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], periods: BANDS, peakPrice: 1.1, valleyPrice: 0.3, demandPrice: 40.5 }],
    }));
    await okData(post('/configure/price/cycle/add', { siteId, templateId: tpl, startDate: '2026-03-01' }));

    // The hand-worked hour, as past reports (no guard): every 5 minutes.
    const reg = { fwd: 1000, cf: 500, cr: 400 };
    const feed = (k: number) => {
      const ts = T10 + k * 5 * MIN;
      sink().replay(main, ts, valuesOf(main, { forwardActiveEnergy: reg.fwd, activePower: 80, maxDemand: 101, maxDemandTime: T10 + 15 * MIN }));
      sink().replay(storage, ts, valuesOf(storage, { forwardActiveEnergy: reg.cf, reverseActiveEnergy: reg.cr }));
    };
    feed(0);
    for (let k = 0; k < 12; k++) {
      reg.fwd += IMPORT[k]!;
      reg.cr += DISCHARGE[k]!;
      reg.cf += CHARGE[k]!;
      feed(k + 1);
    }
    await sink().flush();
  });

  afterAll(async () => {
    await ems?.endAsync(true);
    await t?.stop();
  });

  it('stores the four windows with their demand, storage energy and the meter register', async () => {
    const rows = await t.ctx.db.select().from(demandWindow).where(eq(demandWindow.siteId, siteId)).orderBy(demandWindow.ts);
    expect(rows.map((r) => [r.ts.toISOString(), r.importKwh, r.demandKw, r.chargeKwh, r.dischargeKwh, r.importEstimated])).toEqual([
      ['2026-03-10T02:00:00.000Z', 21, 84, 0, 0, false],
      ['2026-03-10T02:15:00.000Z', 25, 100, 0, 0, false],
      ['2026-03-10T02:30:00.000Z', 24, 96, 0, 24, false],
      ['2026-03-10T02:45:00.000Z', 15, 60, 7.5, 0, false],
    ]);
    expect(rows[0]!.meterMaxKw).toBe(101);
  });

  it('tracks the month: maximum 100 kW at 10:15 local, demand charge 4050.00 at 40.5 per kW', async () => {
    const b = await okData(post<DemandMonthBrief>('/demand/track/monthly/brief', { siteId, month: '2026-03' }));
    expect(b).toMatchObject({
      maxDemandKw: 100, maxDemandTime: '2026-03-10T02:15:00.000Z', maxDemandLocalTime: '2026-03-10 10:15', demandPrice: '40.5', demandCharge: '4050.00',
      windows: 4, estimatedWindows: 0, target: null, targetKw: null, headroomKw: null, exceeded: false, timeZone: 'Asia/Shanghai',
    });
    expect(b.price).toMatchObject({ kind: 'demand', price: '40.5', templateName: '两部制' });
    const info = await okData(post<DemandMonthInfo>('/demand/track/monthly/info', { siteId, month: '2026-03' }));
    expect(info.curve.map((p) => p.demandKw)).toEqual([84, 100, 96, 60]);
    expect(info.days).toHaveLength(31);
    expect(info.days.find((d) => d.date === '2026-03-10')).toMatchObject({ maxDemandKw: 100, maxDemandLocalTime: '2026-03-10 10:15', windows: 4 });
    expect(info.days.find((d) => d.date === '2026-03-11')).toMatchObject({ maxDemandKw: null, windows: 0 });
    expect(info.months.map((m) => m.month)).toEqual(['2025-04', '2025-05', '2025-06', '2025-07', '2025-08', '2025-09', '2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03']);
    expect(info.months.at(-1)).toMatchObject({ maxDemandKw: 100, demandCharge: '4050.00' });
    expect(info.months[0]).toMatchObject({ maxDemandKw: null, demandCharge: null });
  });

  it('tracks the day: the 15-minute curve and each window with its outcome', async () => {
    const d = await okData(post<DemandDayInfo>('/demand/track/daily/info', { siteId, date: '2026-03-10' }));
    expect(d.curve.map((p) => [p.ts, p.demandKw])).toEqual([
      ['2026-03-10T02:00:00.000Z', 84], ['2026-03-10T02:15:00.000Z', 100], ['2026-03-10T02:30:00.000Z', 96], ['2026-03-10T02:45:00.000Z', 60],
    ]);
    expect(d.windows.map((w) => [w.localTime, w.counterfactualKw, w.outcome])).toEqual([['10:00', 84, 'normal'], ['10:15', 100, 'normal'], ['10:30', 192, 'normal'], ['10:45', 30, 'normal']]);
    expect(d).toMatchObject({ maxDemandKw: 100, monthMaxDemandKw: 100, live: null });
  });

  it('analyses the shaving: 192 kW without storage, 92 kW shaved, saving 3726.00; one measure with its detail', async () => {
    const a = await okData(post<DemandAnalysisInfo>('/demand/analysis/info', { siteId, month: '2026-03' }));
    expect(a).toMatchObject({
      measuredMaxKw: 100, measuredMaxTime: '2026-03-10T02:15:00.000Z', counterfactualMaxKw: 192, counterfactualMaxTime: '2026-03-10T02:30:00.000Z',
      shavedKw: 92, demandPrice: '40.5', measuredCharge: '4050.00', counterfactualCharge: '7776.00', saving: '3726.00', measures: 1, hasStorageMeter: true,
    });
    expect(a.curve.map((p) => [p.demandKw, p.counterfactualKw, p.shavedKw])).toEqual([[84, 84, 0], [100, 100, 0], [96, 192, 96], [60, 30, -30]]);
    const page = await okData(post<Page<DemandMeasureRecord>>('/demand/analysis/measure', { siteId, month: '2026-03' }));
    expect(page.total).toBe(1);
    expect(page.records[0]).toMatchObject({ localTime: '2026-03-10 10:30', demandKw: 96, counterfactualKw: 192, shavedKw: 96, dischargeKwh: 24, chargeKwh: 0, isMonthMax: false });
    // Every window storage acted in (the charging one too), sorted by time.
    const all = await okData(post<Page<DemandMeasureRecord>>('/demand/analysis/measure', { siteId, month: '2026-03', shavedOnly: false, sortField: 'ts', sortOrder: 'asc' }));
    expect(all.records.map((r) => [r.localTime, r.shavedKw])).toEqual([['2026-03-10 10:30', 96], ['2026-03-10 10:45', -30]]);
    const one = await okData(post<DemandMeasureDetail>('/demand/analysis/measure/query/one', { id: page.records[0]!.id }));
    expect(one).toMatchObject({ importKwh: 24, startRegisterKwh: 1046, endRegisterKwh: 1070, guard: null, alarmId: null });
    expect(one.around.map((p) => p.demandKw)).toEqual([84, 100, 96, 60]);
  });

  it('refuses bad input with a clear 4xx and writes nothing', async () => {
    const before = (await t.ctx.db.select().from(demandSetting)).length;
    const cases: [string, unknown, number, RegExp][] = [
      ['/demand/track/monthly/brief', { siteId, month: '2026-13' }, 400, /月份格式不正确/],
      ['/demand/track/daily/info', { siteId, date: '2026-02-30' }, 400, /日期格式不正确/],
      ['/demand/track/daily/brief', { siteId, date: '9999-12-31' }, 400, /日期格式不正确/],
      ['/demand/analysis/info', { siteId, month: '0000-01' }, 400, /月份格式不正确/],
      ['/demand/setting/add', { siteId, month: '2026-03', targetKw: -5, marginKw: 0 }, 400, /目标需量须大于0/],
      ['/demand/setting/add', { siteId, month: '2026-03', targetKw: 0, marginKw: 0 }, 400, /目标需量须大于0/],
      ['/demand/setting/add', { siteId, month: '2026-03', targetKw: 100, marginKw: 120 }, 400, /预警裕量应在0到目标需量之间/],
      ['/demand/setting/add', { siteId, month: '2026-03', targetKw: 100, marginKw: 100 }, 400, /预警裕量应在0到目标需量之间/],
      ['/demand/setting/add', { siteId, month: '2026-03', targetKw: 100, marginKw: -1 }, 400, /预警裕量应在0到目标需量之间/],
      ['/demand/setting/add', { siteId, month: '3/2026', targetKw: 100, marginKw: 1 }, 400, /月份格式不正确/],
      ['/demand/setting/add', { siteId, month: '2026-03', targetKw: 100, marginKw: 1, alarmLevel: 9 }, 400, /告警等级应为1-5/],
      ['/demand/reconciliation/edit', { siteId, month: '2026-03', billMaxKw: -1 }, 400, /账单需量不能为负数/],
      ['/demand/reconciliation/edit', { siteId, month: '2099-01', billMaxKw: 100 }, 406, /尚未开始的月份/],
    ];
    for (const [path, body, status, tip] of cases) {
      const r = await post(path, body);
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(status);
      expect(r.body.tipMsg).toMatch(tip);
    }
    // Another company's station: refused by scope, for the user who only sees XL01.
    for (const [path, body] of [
      ['/demand/setting/add', { siteId: foreignSiteId, month: '2026-03', targetKw: 100, marginKw: 5 }],
      ['/demand/track/monthly/brief', { siteId: foreignSiteId, month: '2026-03' }],
      ['/demand/reconciliation/edit', { siteId: foreignSiteId, month: '2026-03', billMaxKw: 100 }],
    ] as const) {
      const r = await post(path, body, foreign.token);
      expect(r.status, path).toBe(403);
    }
    expect((await t.ctx.db.select().from(demandSetting)).length).toBe(before);
  });

  it('sets targets per month and standing; a second target for the month replaces the first (version 2, history kept)', async () => {
    await okData(post('/demand/setting/add', { siteId, month: '2026-03', targetKw: 95, marginKw: 5 }));
    const { id } = await okData(post<{ id: number }>('/demand/setting/add', { siteId, month: '2026-03', targetKw: 110, marginKw: 5, allowDischarge: true }));
    await okData(post('/demand/setting/add', { siteId, targetKw: 110, marginKw: 5, allowDischarge: true, alarmLevel: 2 }));
    const current = await okData(post<Page<DemandSettingRecord>>('/demand/setting/query/page', { siteId }));
    expect(current.records.map((r) => [r.month, r.targetKw, r.preAlarmKw, r.version, r.current])).toEqual([['2026-03', 110, 105, 2, true], [null, 110, 105, 1, true]]);
    expect(current.records[0]!.id).toBe(id);
    const history = await okData(post<Page<DemandSettingRecord>>('/demand/setting/query/page', { siteId, month: '2026-03', history: true }));
    expect(history.records.map((r) => [r.month, r.targetKw, r.version, r.current])).toEqual([['2026-03', 110, 2, true], ['2026-03', 95, 1, false], [null, 110, 1, true]]);
    // Each target set is a domain event (the strategy's synchronisation may act on it).
    const events = await t.ctx.db.select().from(domainEvent).where(eq(domainEvent.type, 'demand.targetSet')).orderBy(domainEvent.id);
    expect(events.map((e) => e.payload)).toMatchObject([
      { siteId, month: '2026-03', targetKw: 95, version: 1 }, { siteId, month: '2026-03', targetKw: 110, version: 2, allowDischarge: true }, { siteId, month: null, version: 1 },
    ]);
    const b = await okData(post<DemandMonthBrief>('/demand/track/monthly/brief', { siteId, month: '2026-03' }));
    expect(b).toMatchObject({ targetKw: 110, headroomKw: 10, exceeded: false, target: { targetKw: 110, marginKw: 5, preAlarmKw: 105, allowDischarge: true, alarmLevel: 2 } });
  });

  it('reconciles the console with the meter register (1 kW off: fine) and the bill (10 kW off: flagged)', async () => {
    let rows = await okData(post<Page<DemandReconcileRecord>>('/demand/reconciliation/query/page', { siteId, monthFrom: '2026-01', monthTo: '2026-03' }));
    expect(rows.records).toHaveLength(1);
    expect(rows.records[0]).toMatchObject({ month: '2026-03', consoleMaxKw: 100, meterMaxKw: 101, meterDiffKw: 1, meterFlagged: false, billMaxKw: null, state: 'incomplete' });
    await okData(post('/demand/reconciliation/edit', { siteId, month: '2026-03', billMaxKw: 110, note: '3月电费单' }));
    rows = await okData(post<Page<DemandReconcileRecord>>('/demand/reconciliation/query/page', { siteId, monthFrom: '2026-01', monthTo: '2026-03' }));
    expect(rows.records[0]).toMatchObject({ billMaxKw: 110, billDiffKw: 10, billFlagged: true, state: 'mismatched', consoleCharge: '4050.00', billCharge: '4455.00', billNote: '3月电费单' });
    const h = await okData(post<DemandReconcileHeader>('/demand/reconciliation/query/header', { siteId, monthFrom: '2026-01', monthTo: '2026-03' }));
    expect(h).toMatchObject({ total: 1, mismatched: 1, matched: 0, incomplete: 0, tolerancePercent: 2, consoleCharge: '4050.00', billCharge: '4455.00', currency: 'CNY' });
    expect(h.charges).toEqual([{ currency: 'CNY', consoleCharge: '4050.00', billCharge: '4455.00' }]);
    await okData(post('/demand/reconciliation/edit', { siteId, month: '2026-03', billMaxKw: 101.5 }));
    rows = await okData(post<Page<DemandReconcileRecord>>('/demand/reconciliation/query/page', { siteId, monthFrom: '2026-03', monthTo: '2026-03' }));
    expect(rows.records[0]).toMatchObject({ state: 'matched', billFlagged: false });
  });

  it('sums the reconciliation header per currency, never across (a CNY and a EUR station)', async () => {
    const { east } = await seededCompanies(t);
    const eur = await newSite(t, east.id, { code: 'XL03', name: '需量测试站EUR' });
    await t.ctx.db.update(site).set({ timeZone: 'Asia/Shanghai', currency: 'EUR' }).where(eq(site.id, eur.id));
    const m = await newDevice(t, eur.id, { type: 'meter', meterPurpose: 'main', code: 'XL03-MTR-01' });
    const tpl = (await okData(post<{ id: number }>('/operation/price/template/add', {
      name: '两部制EUR', type: 'largeIndustrial', billingSystem: 'twoPart', voltageLevel: '10kV', companyId: east.id, currency: 'EUR',
    }))).id;
    await okData(post('/operation/price/cycle/add/batch', {
      templateId: tpl, cycles: [{ name: '全年', months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], periods: BANDS, peakPrice: 0.3, valleyPrice: 0.1, demandPrice: 10 }],
    }));
    await okData(post('/configure/price/cycle/add', { siteId: eur.id, templateId: tpl, startDate: '2026-03-01' }));
    const registry = deviceRegistryOf(t.ctx);
    await registry.refresh();
    await sink().reload();
    const meter = registry.byId.get(m.id)!;
    // One window on 2026-03-11, 10:00 local: 10 kWh → 40 kW, charge 40 × 10 = 400.00 EUR; the bill says 42 kW → 420.00 EUR.
    const w = T10 + 86_400_000;
    [0, 5, 8, 10].forEach((fwd, k) => sink().replay(meter, w + k * 5 * MIN, valuesOf(meter, { forwardActiveEnergy: 2000 + fwd, activePower: 40 })));
    await sink().flush();
    await okData(post('/demand/reconciliation/edit', { siteId: eur.id, month: '2026-03', billMaxKw: 42 }));
    const body = { monthFrom: '2026-03', monthTo: '2026-03' };
    const rows = await okData(post<Page<DemandReconcileRecord>>('/demand/reconciliation/query/page', body));
    expect(rows.records.map((r) => [r.siteName, r.currency, r.consoleMaxKw, r.consoleCharge, r.billCharge]).sort()).toEqual([
      ['需量测试站', 'CNY', 100, '4050.00', '4110.75'], ['需量测试站EUR', 'EUR', 40, '400.00', '420.00'],
    ]);
    const h = await okData(post<DemandReconcileHeader>('/demand/reconciliation/query/header', body));
    // Not 4450.00 (CNY + EUR): one sum per currency, and no single figure.
    expect(h).toMatchObject({ total: 2, consoleCharge: null, billCharge: null, currency: null });
    expect(h.charges).toEqual([
      { currency: 'CNY', consoleCharge: '4050.00', billCharge: '4110.75' }, { currency: 'EUR', consoleCharge: '400.00', billCharge: '420.00' },
    ]);
    // One station: its currency and its sums.
    const one = await okData(post<DemandReconcileHeader>('/demand/reconciliation/query/header', { ...body, siteId: eur.id }));
    expect(one).toMatchObject({ total: 1, consoleCharge: '400.00', billCharge: '420.00', currency: 'EUR', charges: [{ currency: 'EUR', consoleCharge: '400.00', billCharge: '420.00' }] });
    // The foreign user (only XL01) sees only its CNY station's sums.
    const scoped = await okData(post<DemandReconcileHeader>('/demand/reconciliation/query/header', body, foreign.token));
    expect(scoped).toMatchObject({ total: 1, currency: 'CNY', charges: [{ currency: 'CNY', consoleCharge: '4050.00' }] });
  });

  it('guards a live window: pre-alarm through the alarm engine, demandGuard 22.5 kW to the EMS, its reply recorded, the outcome at the close', async () => {
    // A stand-in EMS answering demandGuard with 20 kW granted.
    const sent: unknown[] = [];
    ems = connect(t.ctx.mqtt.url, { clientId: `ems-${siteCode}`, protocolVersion: 4 });
    await new Promise<void>((resolve) => ems!.once('connect', () => resolve()));
    await ems.subscribeAsync(`ess/${siteCode}/${siteCode}-EMS-01/command`, { qos: 1 });
    ems.on('message', (_topic, payload) => {
      const cmd = JSON.parse(payload.toString()) as { requestId: string; command: string; params: unknown };
      sent.push(cmd);
      void ems!.publishAsync(`ess/${siteCode}/${siteCode}-EMS-01/command/reply`, JSON.stringify({ requestId: cmd.requestId, ok: true, result: { dischargeKw: 20 } }), { qos: 1 });
    });
    const w = Date.parse('2026-04-07T02:15:00Z'); // 10:15 local, April: the standing target 110 / 5
    const report = (ts: number, fwd: number, kw: number) => sink().report(main, ts, valuesOf(main, { forwardActiveEnergy: fwd, activePower: kw }));
    report(w, 3000, 100);
    report(w + 5 * MIN, 3010, 120);
    expect(sink().counters.preAlarms).toBe(1);
    await until('the EMS got demandGuard', () => sent.length === 1);
    expect(sent[0]).toMatchObject({ command: 'demandGuard', params: { dischargeKw: 22.5, until: w + 15 * MIN } });
    const engine = alarmEngineOf(t.ctx)!;
    await engine.flush();
    const open = await t.ctx.db.select().from(alarm).where(and(eq(alarm.deviceId, main.id), like(alarm.code, 'DEMAND_PRE_ALARM_%')));
    expect(open.map((a) => [a.code, a.level, a.status, a.description])).toEqual([['DEMAND_PRE_ALARM_2', 2, 'active', '需量预警']]);
    expect(open[0]!.message).toBe('预计需量120kW超过预警值105kW（目标110kW）');
    // Once more above the line in the same window: no second pre-alarm.
    report(w + 7 * MIN, 3014, 130);
    expect(sink().counters.preAlarms).toBe(1);
    report(w + 15 * MIN, 3027, 90);
    await engine.flush();
    await until('the reply is recorded', async () => {
      await sink().flush();
      const [r] = await t.ctx.db.select().from(demandWindow).where(and(eq(demandWindow.siteId, siteId), eq(demandWindow.ts, new Date(w))));
      return r?.guardStatus === 'ok';
    });
    const [row] = await t.ctx.db.select().from(demandWindow).where(and(eq(demandWindow.siteId, siteId), eq(demandWindow.ts, new Date(w))));
    expect(row).toMatchObject({ demandKw: 108, targetKw: 110, exceeded: false, preAlarmed: true, projectedKw: 120, guardRequested: true, guardKw: 22.5, guardGrantedKw: 20, guardStatus: 'ok' });
    const [ended] = await t.ctx.db.select().from(alarm).where(eq(alarm.id, open[0]!.id));
    expect(ended!.status).toBe('ended');
    const d = await okData(post<DemandDayInfo>('/demand/track/daily/info', { siteId, date: '2026-04-07' }));
    expect(d.windows.map((x) => [x.localTime, x.demandKw, x.outcome, x.guardGrantedKw])).toEqual([['10:15', 108, 'guarded', 20]]);
    const one = await okData(post<DemandMeasureDetail>('/demand/analysis/measure/query/one', { id: d.windows[0]!.id }));
    expect(one.guard).toMatchObject({ deviceCode: 'XL01-EMS-01', dischargeKw: 22.5, grantedKw: 20, status: 'ok', until: new Date(w + 15 * MIN).toISOString() });
    expect(one.alarmId).toBe(open[0]!.id);
  });
});
