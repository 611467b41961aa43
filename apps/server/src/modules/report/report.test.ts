import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn, type AlarmRecord, type ArbitrageQuantityCurve, type ArbitrageSummary, type OverviewStatistic, type Page } from '@ess/contract';
import type { DemandMonthBrief } from '@ess/contract/demand';
import type { ReportExportRecord, ReportPreview, ReportTemplate } from '@ess/contract/report';
import type { StatementRecord } from '@ess/contract/statement';
import { DB_TARGETS, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newSite, newUser, seededCompanies } from '../../../test/factory.ts';
import { demoFleet } from '@ess/simulator';
import { site } from '../../db/schema/site.ts';
import { seedDemoHistory } from '../../demo/demo-history.ts';
import { refreshRevenue } from '../dashboard/index.ts';
import { seedDemandDemo } from '../demand/index.ts';
import { seedMaintenanceDemo } from '../maintenance/index.ts';
import { sweepReadings } from '../meter/index.ts';
import { seedStatementDemo } from '../statement/index.ts';
import { alarmRange, monthsOf } from './report.templates.ts';

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * The report centre on the demo world: each template's figures equal the answers of the screen
 * calls it summarises for the same stations and period; a foreign station is refused; exports
 * run as background jobs and their files hold the preview's figures.
 */
describe.each(DB_TARGETS)('reports on %s', (target) => {
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

  it('revenue: money per currency and per station equals the overview to the cent', async () => {
    const p = await preview('revenue');
    const summary = await post<ArbitrageSummary>('/overview/energy/arbitrage/summary', { siteIds: ids, start, end });
    expect(summary.money.length).toBeGreaterThan(0);
    for (const m of summary.money) expect(figure(p, `arbitrage.${m.currency}`)).toBe(m.arbitrage);
    expect(table(p, 'byCurrency').rows).toEqual(summary.money.map((m) => ({ currency: m.currency, chargeCost: m.chargeCost, dischargeIncome: m.dischargeIncome, arbitrage: m.arbitrage })));
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
  });

  it('maintenance: orders and defects equal the work-order overview per station', async () => {
    const p = await preview('maintenance');
    const per = await Promise.all(stations.map((s) => post<OverviewStatistic>('/inspection/overview/statistic', { siteId: s.id, from: start, to: end, bucket: 'day' })));
    for (const k of ['inspectionCreated', 'inspectionCompleted', 'repairCreated', 'repairCompleted', 'defectsFound'] as const) {
      expect(figure(p, k), k).toBe(sum(per.flatMap((x) => x.points.map((pt) => pt[k]))));
    }
    expect(sum(per.flatMap((x) => x.points.map((pt) => pt.inspectionCreated + pt.repairCreated)))).toBeGreaterThan(0);
    expect(table(p, 'mtt').rows).toHaveLength(sum(per.map((x) => x.mtt.length)));
  });

  it('demand: month maxima and charges equal demand tracking', async () => {
    const p = await preview('demand');
    const rows = table(p, 'byMonth').rows;
    for (const s of stations) {
      for (const month of monthsOf(start, end)) {
        const b = await post<DemandMonthBrief>('/demand/track/monthly/brief', { siteId: s.id, month });
        const row = rows.find((r) => r.station === s.name && r.month === month)!;
        expect([row.maxDemand, row.target, row.demandCharge]).toEqual([b.maxDemandKw, b.targetKw, b.demandCharge === null ? null : Number(b.demandCharge)]);
      }
    }
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
    for (const title of ['按站点统计', '按等级统计', '按类型统计', '按设备统计', '高发故障']) expect(all).toContain(title);
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
