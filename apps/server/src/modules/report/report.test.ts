import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  todayIn, type AlarmRecord, type ArbitrageQuantityCurve, type ArbitrageSummary, type OverviewStatistic, type Page, type PowerCurves, type ServiceRecord,
  type SiteEarningsChart, type SiteOverview, type SitePerformance,
} from '@ess/contract';
import type { DemandAnalysisInfo, DemandMonthBrief } from '@ess/contract/demand';
import type { ReportExportRecord, ReportPreview, ReportTemplate } from '@ess/contract/report';
import type { StatementRecord } from '@ess/contract/statement';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newSite, newUser, seededCompanies } from '../../../test/factory.ts';
import { demoFleet } from '@ess/simulator';
import { site } from '../../db/schema/site.ts';
import { seedDemoHistory } from '../../demo/demo-history.ts';
import { refreshRevenue } from '../dashboard/index.ts';
import { seedDemandDemo } from '../demand/index.ts';
import { seedMaintenanceDemo } from '../maintenance/index.ts';
import { sweepReadings } from '../meter/index.ts';
import { seedStatementDemo } from '../statement/index.ts';
import { alarmRange, combineDays, datesOf, mttOf, monthsOf, type StationDay } from './report.templates.ts';

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const cents = (xs: number[]) => Math.round(sum(xs.map((x) => Math.round(x * 100)))) / 100;

/**
 * The report centre on the demo world: each template's figures equal the answers of the screen
 * calls it summarises for the same stations and period; a foreign station is refused; exports
 * run as background jobs and their files hold the preview's figures.
 */
describe.each(dbTargets(import.meta.url))('reports on %s', (target) => {
  let t: TestApp;
  let stations: { id: number; name: string; timeZone: string }[] = [];
  let ids: number[] = [];
  let end = '';
  let start = '';

  /** The data of a call that must succeed (its tipMsg shown otherwise). */
  async function post<T>(path: string, body: unknown, token = t.adminToken): Promise<T> {
    const { status, body: envelope } = await t.api.post<T>(path, token, body);
    expect([status, envelope.errorCode, envelope.tipMsg], path).toEqual([200, '00000', '']);
    return envelope.data;
  }
  const params = (template: ReportTemplate, more: Record<string, unknown> = {}) => ({ template, siteIds: ids, start, end, granularity: 'day', ...more });
  const preview = (template: ReportTemplate, more: Record<string, unknown> = {}) =>
    post<ReportPreview>('/report/preview', { ...params(template, more), current: 1, pageSize: 500 });
  const figure = (p: ReportPreview, key: string) => p.figures.find((f) => f.key === key)?.value;
  const table = (p: ReportPreview, key: string) => p.tables.find((x) => x.key === key)!;

  beforeAll(async () => {
    t = await startTestApp(target, { SEED_DEMO: 'true', DEVICE_OFFLINE_TIMEOUT_MS: '600000' });
    // The demo's past as `npm start` writes it (demo/index.ts playDemo), a few days of it.
    await seedDemoHistory(t.ctx, demoFleet(), 4, '', Date.now(), 0.2);
    await refreshRevenue(t.ctx);
    await sweepReadings(t.ctx);
    await seedMaintenanceDemo(t.ctx);
    await seedStatementDemo(t.ctx);
    await seedDemandDemo(t.ctx);
    stations = (await t.ctx.db.select({ id: site.id, name: site.name, timeZone: site.timeZone }).from(site)).sort((a, b) => a.id - b.id);
    ids = stations.map((s) => s.id);
    end = todayIn('Asia/Shanghai');
    start = addDays(end, -60);
  }, 240_000);
  afterAll(async () => t?.stop());

  it('lists the shipped templates with their parameters', async () => {
    const list = await post<{ template: string; params: string[] }[]>('/report/template/query/list', {});
    expect(list.map((x) => x.template)).toEqual(['operations', 'revenue', 'alarm', 'maintenance', 'demand', 'statement']);
    expect(list.find((x) => x.template === 'revenue')!.params).toEqual(['granularity', 'currency']);
  });

  it('operations: energy, efficiency and cycles equal the energy-arbitrage overview', async () => {
    const p = await preview('operations');
    const f = { siteIds: ids, start, end };
    const summary = await post<ArbitrageSummary>('/overview/energy/arbitrage/summary', f);
    const curve = await post<ArbitrageQuantityCurve>('/overview/energy/arbitrage/curve/quantity', { ...f, bucket: 'day' });
    expect(summary.charge).toBeGreaterThan(0);
    expect(figure(p, 'charge')).toBe(summary.charge);
    expect(figure(p, 'discharge')).toBe(summary.discharge);
    expect(figure(p, 'efficiency')).toBe(summary.efficiency);
    expect(figure(p, 'cycles')).toBe(summary.cycles);
    const byPeriod = table(p, 'byPeriod');
    expect(byPeriod.total).toBe(curve.labels.length);
    expect(byPeriod.rows.map((r) => r.charge)).toEqual(curve.charge);
    expect(byPeriod.rows.map((r) => r.discharge)).toEqual(curve.discharge);
    // Per station: each row is the overview asked for that one station; the totals add up.
    for (const s of stations) {
      const one = await post<ArbitrageSummary>('/overview/energy/arbitrage/summary', { ...f, siteIds: [s.id] });
      const row = table(p, 'byStation').rows.find((r) => r.station === s.name)!;
      expect([row.charge, row.discharge]).toEqual([one.charge, one.discharge]);
    }
    expect(table(p, 'byStation').totals.charge).toBeCloseTo(summary.charge, 3);
    expect(p.charts[0]!.series[0]!.data).toEqual(curve.charge);
  });

  /**
   * PV, piles, load and grid energy, availability and the SOC range: each date of each station as
   * the station overview, the storage performance and the station's curves answer it. Completed
   * dates only (up to yesterday in every station's zone), so today's still-running figures
   * cannot move between the report and the screen calls.
   */
  it('operations: PV, piles, load, grid, availability and SOC range equal the station screens per date', async () => {
    const opsEnd = addDays(stations.map((s) => todayIn(s.timeZone)).sort()[0]!, -1);
    const opsStart = addDays(opsEnd, -9);
    const screen = new Map<number, StationDay[]>();
    for (const s of stations) {
      const days: StationDay[] = [];
      for (const date of datesOf(s, { start: opsStart, end: opsEnd })) {
        const q = { siteId: s.id, date };
        const ov = (await t.api.get<SiteOverview>('/comprehensive/site/overview', t.adminToken, q)).body.data;
        const perf = (await t.api.get<SitePerformance>('/comprehensive/site/performance', t.adminToken, q)).body.data;
        const curves = (await t.api.get<PowerCurves>('/comprehensive/site/powerData', t.adminToken, q)).body.data;
        const soc = curves.series.find((x) => x.key === 'soc')!.points.map(([, v]) => v).filter((v): v is number => v !== null);
        days.push({
          date, pv: ov.day.pv, piles: ov.day.piles, load: ov.day.load, gridImport: ov.day.gridImport, gridExport: ov.day.gridExport,
          availability: perf.availability, socMin: soc.length ? Math.min(...soc) : null, socMax: soc.length ? Math.max(...soc) : null,
        });
      }
      screen.set(s.id, days);
    }
    const all = [...screen.values()].flat();
    // The demo world has each of them: a test of nulls would prove nothing.
    for (const k of ['pv', 'piles', 'load', 'gridImport', 'availability', 'socMin', 'socMax'] as const) expect(all.some((d) => (d[k] ?? 0) > 0), k).toBe(true);

    const p = await preview('operations', { start: opsStart, end: opsEnd });
    const keys = ['pv', 'piles', 'load', 'gridImport', 'gridExport', 'availability', 'socMin', 'socMax'] as const;
    const pick = (r: Record<string, unknown>) => Object.fromEntries(keys.map((k) => [k, r[k]]));
    // Per date: the stations' screen figures of that date combined.
    expect(table(p, 'byPeriod').rows.map(pick)).toEqual(table(p, 'byPeriod').rows.map((r) => combineDays(all.filter((d) => d.date === r.period))));
    // Per station, and in total to the kWh.
    for (const s of stations) expect(pick(table(p, 'byStation').rows.find((r) => r.station === s.name)!), s.name).toEqual(combineDays(screen.get(s.id)!));
    const pv = all.filter((d) => d.pv !== null).map((d) => d.pv!);
    expect(figure(p, 'pv')).toBe(Math.round(sum(pv) * 1000) / 1000);
    expect(table(p, 'byPeriod').totals.pv).toBeCloseTo(sum(pv), 3);
    expect(figure(p, 'socMin')).toBe(Math.min(...all.filter((d) => d.socMin !== null).map((d) => d.socMin!)));
    expect(figure(p, 'socMax')).toBe(Math.max(...all.filter((d) => d.socMax !== null).map((d) => d.socMax!)));
    const av = all.filter((d) => d.availability !== null).map((d) => d.availability!);
    expect(figure(p, 'availability')).toBe(Math.round((sum(av) / av.length) * 100) / 100);
    // By month: the same dates' figures combined per month.
    const monthly = await preview('operations', { start: opsStart, end: opsEnd, granularity: 'month' });
    expect(table(monthly, 'byPeriod').rows.map(pick)).toEqual(table(monthly, 'byPeriod').rows.map((r) => combineDays(all.filter((d) => d.date.startsWith(String(r.period))))));
  }, 120_000);

  it('revenue: money per currency and per station equals the overview to the cent', async () => {
    const p = await preview('revenue');
    const summary = await post<ArbitrageSummary>('/overview/energy/arbitrage/summary', { siteIds: ids, start, end });
    expect(summary.money.length).toBeGreaterThan(0);
    for (const m of summary.money) expect(figure(p, `arbitrage.${m.currency}`)).toBe(m.arbitrage);
    expect(table(p, 'byCurrency').rows.map((r) => ({ currency: r.currency, chargeCost: r.chargeCost, dischargeIncome: r.dischargeIncome, arbitrage: r.arbitrage })))
      .toEqual(summary.money.map((m) => ({ currency: m.currency, chargeCost: m.chargeCost, dischargeIncome: m.dischargeIncome, arbitrage: m.arbitrage })));
    // PV and charging revenue: each station's earnings chart (per day of each month), the report's dates added up to the cent.
    const perCurrency = new Map<string, { pv: number[]; charging: number[] }>();
    for (const s of stations) {
      const pv: number[] = [];
      const charging: number[] = [];
      let currency = '';
      for (const month of monthsOf(start, end).filter((m) => m <= todayIn(s.timeZone).slice(0, 7))) {
        const c = (await t.api.get<SiteEarningsChart>('/comprehensive/site/overview/earnings/chart', t.adminToken, { siteId: s.id, type: 'month', date: `${month}-01` })).body.data;
        currency = c.currency;
        c.labels.forEach((l, i) => {
          const date = `${month.slice(0, 4)}-${l}`;
          if (date >= start && date <= end) { pv.push(c.pvRevenue[i]!); charging.push(c.chargingRevenue[i]!); }
        });
      }
      const row = table(p, 'byStation').rows.find((r) => r.station === s.name && r.currency === currency)!;
      expect([row.pvRevenue, row.chargingRevenue], s.name).toEqual([cents(pv), cents(charging)]);
      expect(row.totalRevenue).toBe(Math.round(((row.arbitrage as number) + cents(pv) + cents(charging)) * 100) / 100);
      const acc = perCurrency.get(currency) ?? { pv: [], charging: [] };
      perCurrency.set(currency, { pv: [...acc.pv, cents(pv)], charging: [...acc.charging, cents(charging)] });
    }
    expect([...perCurrency.values()].some((v) => sum(v.pv) > 0), 'PV revenue').toBe(true);
    expect([...perCurrency.values()].some((v) => sum(v.charging) > 0), 'charging revenue').toBe(true);
    for (const [c, v] of perCurrency) {
      expect(figure(p, `pvRevenue.${c}`), c).toBe(cents(v.pv));
      expect(figure(p, `chargingRevenue.${c}`), c).toBe(cents(v.charging));
    }
    const currency = summary.money[0]!.currency;
    const only = await preview('revenue', { currency });
    expect(table(only, 'byStation').rows.every((r) => r.currency === currency)).toBe(true);
    expect(only.figures.filter((x) => x.key.startsWith('arbitrage.')).map((x) => x.key)).toEqual([`arbitrage.${currency}`]);
  });

  it('alarms: counts equal the alarm monitor for the same stations and dates', async () => {
    const p = await preview('alarm');
    let total = 0;
    const levels = new Map<number, number>();
    for (const s of stations) {
      const range = alarmRange(s, { start, end });
      const all: AlarmRecord[] = [];
      for (let current = 1; ; current++) {
        const page = await post<Page<AlarmRecord>>('/alarm/monitor/query/page', { siteId: s.id, start: range.start.toISOString(), end: range.end.toISOString(), current, pageSize: 500 });
        all.push(...page.records);
        if (all.length >= page.total) break;
      }
      total += all.length;
      for (const a of all) levels.set(a.level, (levels.get(a.level) ?? 0) + 1);
      expect(table(p, 'byStation').rows.find((r) => r.station === s.name)!.count).toBe(all.length);
    }
    expect(total).toBeGreaterThan(0);
    expect(figure(p, 'alarms')).toBe(total);
    expect(table(p, 'byLevel').totals.count).toBe(total);
    expect(table(p, 'byType').totals.count).toBe(total);
    expect(table(p, 'byLevel').rows.map((r) => r.count)).toEqual([...levels].sort((a, b) => a[0] - b[0]).map(([, n]) => n));
    // MTTA beside MTTR: the alarms' repair orders as the work-order overview answers them per station and month.
    const per = await Promise.all(stations.map((s) => post<OverviewStatistic>('/inspection/overview/statistic', { siteId: s.id, from: start, to: end, bucket: 'month' })));
    const mtt = per.flatMap((x) => x.mtt);
    expect(mtt.some((m) => m.mttaMinutes !== null)).toBe(true);
    expect(table(p, 'mtt').rows).toEqual(mtt.map((m) => ({ station: m.siteName, month: m.month, orders: m.orders, mtta: m.mttaMinutes, mttr: m.mttrMinutes })));
    expect([figure(p, 'mtta'), figure(p, 'mttr')]).toEqual([mttOf(mtt).mtta, mttOf(mtt).mttr]);
    expect(figure(p, 'mtta')).not.toBeNull();
  });

  it('maintenance: orders and defects equal the work-order overview per station', async () => {
    const p = await preview('maintenance');
    const per = await Promise.all(stations.map((s) => post<OverviewStatistic>('/inspection/overview/statistic', { siteId: s.id, from: start, to: end, bucket: 'day' })));
    for (const k of ['inspectionCreated', 'inspectionCompleted', 'repairCreated', 'repairCompleted', 'defectsFound'] as const) {
      expect(figure(p, k), k).toBe(sum(per.flatMap((x) => x.points.map((pt) => pt[k]))));
    }
    expect(sum(per.flatMap((x) => x.points.map((pt) => pt.inspectionCreated + pt.repairCreated)))).toBeGreaterThan(0);
    expect(table(p, 'mtt').rows).toHaveLength(sum(per.map((x) => x.mtt.length)));
    // On-time rate: the overview's service per assignee of each station, added up.
    let completed = 0;
    let onTime = 0;
    for (const s of stations) {
      const list = await post<ServiceRecord[]>('/inspection/overview/service', { siteId: s.id, from: start, to: end });
      const row = table(p, 'byStation').rows.find((r) => r.station === s.name)!;
      expect([row.completed, row.onTime], s.name).toEqual([sum(list.map((x) => x.completed)), sum(list.map((x) => x.onTime))]);
      completed += sum(list.map((x) => x.completed));
      onTime += sum(list.map((x) => x.onTime));
    }
    expect(completed).toBeGreaterThan(0);
    expect(figure(p, 'onTimeRate')).toBe(Math.round((onTime / completed) * 1000) / 10);
    expect(table(p, 'byStation').totals.completed).toBe(completed);
  });

  it('demand: month maxima and charges equal demand tracking', async () => {
    const p = await preview('demand');
    const rows = table(p, 'byMonth').rows;
    const savings = new Map<string, number>();
    for (const s of stations) {
      for (const month of monthsOf(start, end)) {
        const b = await post<DemandMonthBrief>('/demand/track/monthly/brief', { siteId: s.id, month });
        const row = rows.find((r) => r.station === s.name && r.month === month)!;
        expect([row.maxDemand, row.target, row.demandCharge]).toEqual([b.maxDemandKw, b.targetKw, b.demandCharge === null ? null : Number(b.demandCharge)]);
        const a = await post<DemandAnalysisInfo>('/demand/analysis/info', { siteId: s.id, month });
        expect([row.shaved, row.saving], `${s.name} ${month}`).toEqual([a.shavedKw, a.saving === null ? null : Number(a.saving)]);
        if (a.saving !== null) savings.set(a.currency, (savings.get(a.currency) ?? 0) + Math.round(Number(a.saving) * 100));
      }
    }
    expect(savings.size).toBeGreaterThan(0);
    for (const [c, v] of savings) expect(Math.round(figure(p, `saving.${c}`)! * 100), c).toBe(v);
  });

  it('statement summary: the statements of the stations and months, totals per currency to the cent', async () => {
    const p = await preview('statement');
    const list: StatementRecord[] = [];
    for (const s of stations) {
      list.push(...(await post<Page<StatementRecord>>('/operation/statement/query/page', { siteId: s.id, monthFrom: start.slice(0, 7), monthTo: end.slice(0, 7), current: 1, pageSize: 500 })).records);
    }
    expect(list.length).toBeGreaterThan(0);
    expect(figure(p, 'statements')).toBe(list.length);
    expect(table(p, 'statements').rows.map((r) => r.code).sort()).toEqual(list.map((r) => r.code).sort());
    const cents = new Map<string, number>();
    for (const r of list) cents.set(r.currency, (cents.get(r.currency) ?? 0) + Math.round(Number(r.totalRevenue) * 100));
    for (const [c, v] of cents) expect(Math.round(figure(p, `total.${c}`)! * 100)).toBe(v);
  });

  it('pages its tables', async () => {
    const r = await post<ReportPreview>('/report/preview', { ...params('operations'), current: 2, pageSize: 10 });
    const byPeriod = table(r, 'byPeriod');
    expect(byPeriod.total).toBe(61);
    expect(byPeriod.rows).toHaveLength(10);
    expect(byPeriod.rows[0]!.period).toBe(addDays(start, 10));
  });

  it('refuses bad parameters with a clear message and a foreign station with 403', async () => {
    const bad = async (body: unknown, tip: string | RegExp) => {
      const r = await t.api.post('/report/preview', t.adminToken, body);
      expect(r.status).toBe(400);
      expect(r.body.tipMsg).toMatch(tip);
    };
    await bad({ ...params('operations'), start: end, end: start }, '开始日期不能晚于结束日期');
    await bad({ ...params('operations'), siteIds: [] }, '请选择至少一个站点');
    await bad({ ...params('operations'), start: '2020-01-01' }, '报表时间范围过长');
    await bad({ ...params('nope' as ReportTemplate) }, '报表模板不存在');
    await bad({ ...params('revenue'), currency: 'yuan' }, '币种应为三位大写字母代码');
    // The operations and alarm reports read the station screens date by date: a year at most, by month too.
    await bad({ ...params('operations'), granularity: 'month', start: addDays(end, -400) }, '运行报表的时间范围不能超过366天');
    await bad({ ...params('alarm'), granularity: 'month', start: addDays(end, -400) }, '告警报表的时间范围不能超过366天');
    expect((await t.api.post('/report/preview', t.adminToken, { ...params('revenue'), granularity: 'month', start: addDays(end, -400), current: 1, pageSize: 10 })).status).toBe(200);

    const { east } = await seededCompanies(t);
    const mine = await newSite(t, east.id);
    const user = await newUser(t, east.id, { menus: ['/report/jimu'], siteIds: [mine.id] });
    const own = await t.api.post<ReportPreview>('/report/preview', user.token, { ...params('operations'), siteIds: [mine.id] });
    expect(own.status).toBe(200);
    for (const path of ['/report/preview', '/report/export/add']) {
      const body = path === '/report/preview' ? { ...params('operations'), siteIds: [mine.id, ids[0]] } : { params: { ...params('operations'), siteIds: [ids[0]] }, format: 'xlsx' };
      const r = await t.api.post(path, user.token, body);
      expect(r.status, path).toBe(403);
    }
    const noMenu = await newUser(t, east.id, { menus: [], siteIds: [mine.id] });
    expect((await t.api.post('/report/preview', noMenu.token, { ...params('operations'), siteIds: [mine.id] })).status).toBe(403);
  });

  const exported = async (format: 'xlsx' | 'pdf', template: ReportTemplate, token = t.adminToken) => {
    const { id } = await post<{ id: string }>('/report/export/add', { params: params(template), format }, token);
    let rec: ReportExportRecord | null = null;
    const seen = new Set<number>();
    for (let i = 0; i < 600; i++) {
      rec = await post<ReportExportRecord>('/report/export/query/one', { id }, token);
      seen.add(rec.progress);
      if (rec.state === 'done' || rec.state === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(rec!.state, rec!.error ?? '').toBe('done');
    expect(rec!.progress).toBe(100);
    const file = await t.api.get('/report/export/download', token, { id });
    expect(file.status).toBe(200);
    return { rec: rec!, file: file.raw, id };
  };

  it('exports xlsx in a background job: the sheets hold the preview, totals as SUM formulas, frozen headers, units', async () => {
    const p = await preview('operations');
    const { file, rec } = await exported('xlsx', 'operations');
    expect(rec.fileName).toMatch(/\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['报表参数', '按时间统计', '按站点统计', '按电价时段统计']);
    const ws = wb.getWorksheet('按站点统计')!;
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.getRow(1).getCell(2).value).toBe('充电量 (kWh)');
    const totalRow = ws.getRow(stations.length + 2);
    expect(totalRow.getCell(1).value).toBe('合计');
    const charge = totalRow.getCell(2).value as { formula: string; result: number };
    expect(charge.formula).toBe(`SUM(B2:B${stations.length + 1})`);
    expect(charge.result).toBe(table(p, 'byStation').totals.charge);
    const cells: number[] = [];
    for (let r = 2; r <= stations.length + 1; r++) cells.push(ws.getRow(r).getCell(2).value as number);
    expect(Math.round(sum(cells) * 1000) / 1000).toBe(table(p, 'byStation').totals.charge);
    // The new columns with their units, and their total rows equal the preview's.
    const headers = (ws.getRow(1).values as unknown[]).slice(1);
    expect(headers).toEqual(expect.arrayContaining(['光伏发电量 (kWh)', '充电桩用电量 (kWh)', '负荷用电量 (kWh)', '购电量 (kWh)', '上网电量 (kWh)', '可用率 (%)', 'SOC 最低 (%)', 'SOC 最高 (%)']));
    for (const [header, key] of [['光伏发电量 (kWh)', 'pv'], ['负荷用电量 (kWh)', 'load'], ['购电量 (kWh)', 'gridImport'], ['充电桩用电量 (kWh)', 'piles']] as const) {
      const cell = totalRow.getCell(headers.indexOf(header) + 1).value as { formula: string; result: number };
      expect(cell.formula, header).toMatch(/^SUM\(/);
      expect(cell.result, header).toBe(table(p, 'byStation').totals[key]);
    }
    expect(table(p, 'byStation').totals.pv).toBeGreaterThan(0);
  });

  it('exports the revenue xlsx with PV and charging revenue columns whose totals equal the preview', async () => {
    // The currency of the station with piles and PV: both totals are not zero.
    const currency = (await preview('revenue')).figures.find((f) => f.key.startsWith('chargingRevenue.') && (f.value ?? 0) > 0)!.unit!;
    const p = await preview('revenue', { currency });
    expect(table(p, 'byStation').totals.pvRevenue).toBeGreaterThan(0);
    const { id } = await post<{ id: string }>('/report/export/add', { params: params('revenue', { currency }), format: 'xlsx' });
    await expect.poll(async () => (await post<ReportExportRecord>('/report/export/query/one', { id })).state, { timeout: 60_000, interval: 200 }).toBe('done');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await t.api.get('/report/export/download', t.adminToken, { id })).raw as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('按站点统计')!;
    const headers = (ws.getRow(1).values as unknown[]).slice(1);
    const rows = table(p, 'byStation').rows.length;
    for (const [header, key] of [['光伏收益', 'pvRevenue'], ['充电收益', 'chargingRevenue'], ['总收益', 'totalRevenue']] as const) {
      expect(headers, header).toContain(header);
      const cell = ws.getRow(rows + 2).getCell(headers.indexOf(header) + 1).value as { formula: string; result: number };
      expect(cell.formula, header).toMatch(/^SUM\(/);
      expect(cell.result, header).toBe(table(p, 'byStation').totals[key]);
    }
  });

  it('exports PDF: title page, parameters, the tables, page numbers; parsed back', async () => {
    const { file } = await exported('pdf', 'alarm');
    expect(file.subarray(0, 5).toString()).toBe('%PDF-');
    const { extractText, getDocumentProxy } = await import('unpdf');
    const doc = await getDocumentProxy(new Uint8Array(file));
    const { text, totalPages } = await extractText(doc, { mergePages: false });
    expect(totalPages).toBeGreaterThan(2);
    expect(text[0]).toContain('告警报表');
    expect(text[0]).toContain(`${start} ~ ${end}`);
    expect(text[0]).toContain(`第 1 / ${totalPages} 页`);
    const all = text.join('\n');
    for (const title of ['按站点统计', '按等级统计', '按类型统计', '按设备统计', '高发故障', '告警工单响应与修复', '平均响应时长', '平均修复时长']) expect(all).toContain(title);
    for (const s of stations) expect(all).toContain(s.name);
  });

  it("keeps exports to their user: another's is not found", async () => {
    const { id } = await exported('xlsx', 'revenue');
    const { east } = await seededCompanies(t);
    const other = await newUser(t, east.id, { menus: ['/report/jimu'] });
    expect((await t.api.post('/report/export/query/one', other.token, { id })).status).toBe(404);
    expect((await t.api.get('/report/export/download', other.token, { id })).status).toBe(404);
    expect((await t.api.post('/report/export/query/one', other.token, { id: 'x' })).status).toBe(400);
    const page = await post<Page<ReportExportRecord>>('/report/export/query/page', { current: 1, pageSize: 10 });
    expect(page.records.map((r) => r.id)).toContain(id);
  });
});
