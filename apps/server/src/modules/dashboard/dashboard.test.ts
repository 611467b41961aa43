import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  todayIn,
  type ArbitrageDetail, type ArbitrageFeeCurve, type ArbitrageQuantityCurve, type ArbitrageSummary, type HomeCharge, type HomeEnergy, type HomeError,
  type HomeIncome, type HomeTop, type Page, type SiteEarnings, type SiteOverview, type SiteEarningsChart,
} from '@ess/contract';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { reporter } from '../../../test/report.ts';
import { newUser, seededCompanies } from '../../../test/factory.ts';
import { priceCycle, sitePriceCycle } from '../../db/schema/pricing.ts';
import { site, siteKeyValue } from '../../db/schema/site.ts';
import { company } from '../../db/schema/system.ts';
import { tariffsForSite } from '../pricing/pricing.service.ts';
import { localInstant } from '../pricing/tariff.ts';
import { computeSiteDays } from './revenue.engine.ts';
import { ingestOf } from '../telemetry/index.ts';

const MIN = 60_000;
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * Revenue on known readings: reports go through the real ingest into the rollups, the engine
 * computes the day from them and the day's prices, the calls answer from the stored figures.
 * Every expected figure is worked out by hand in the comments.
 */
describe.each(dbTargets(import.meta.url))('revenue on %s', (target) => {
  let t: TestApp;
  const siteIds = new Map<string, number>();
  const now = Date.now();

  const report = reporter(() => t.ctx);
  const ok = async <T>(path: string, query: Record<string, string | number>, token = t.adminToken): Promise<T> => {
    const r = await t.api.get<T>(path, token, query);
    expect(r.body.tipMsg, `${path} ${JSON.stringify(query)}`).toBe('');
    expect(r.status).toBe(200);
    return r.body.data;
  };
  const post = async <T>(path: string, body: unknown, token = t.adminToken): Promise<T> => {
    const r = await t.api.post<T>(path, token, body);
    expect(r.body.tipMsg, `${path} ${JSON.stringify(body)}`).toBe('');
    expect(r.status).toBe(200);
    return r.body.data;
  };

  beforeAll(async () => {
    t = await startTestApp(target, {
      SEED_DEMO: 'true', DEVICE_OFFLINE_TIMEOUT_MS: '600000', INGEST_BATCH_MS: '50', LATEST_FLUSH_MS: '100', ROLLUP_FLUSH_MS: '200',
    });
    for (const s of await t.ctx.db.select({ id: site.id, code: site.code }).from(site)) siteIds.set(s.code, s.id);
  });
  afterAll(async () => t?.stop());

  // ── Shanghai: storage meter with time-of-use registers ───────────────────────────────
  describe('a known day at a station whose storage meter has per-period registers', () => {
    const tz = 'Asia/Shanghai';
    let day: string;
    let sh: number;

    beforeAll(async () => {
      sh = siteIds.get('SH01')!;
      day = addDays(todayIn(tz, new Date(now)), -1);
      // The rating the cycle count uses: 2000 kWh at 90 % depth of discharge.
      await t.ctx.db.update(siteKeyValue).set({ installedCapacity: 2000, depthOfDischarge: 90 }).where(eq(siteKeyValue.siteId, sh));
      const at = (hhmm: string) => localInstant(tz, day, Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3)));
      // Registers (kWh): forward = charge, reverse = discharge, each per period and in total.
      const regs = (f: Partial<Record<'Valley' | 'DeepValley', number>>, r: Partial<Record<'Peak' | 'Tip' | 'Flat', number>>) => {
        const fwd = { Tip: 0, Peak: 0, Flat: 0, Valley: 0, DeepValley: 0, ...f };
        const rev = { Tip: 0, Peak: 0, Flat: 0, Valley: 0, DeepValley: 0, ...r };
        const out: Record<string, number> = { activePower: 0 };
        for (const [k, v] of Object.entries(fwd)) out[`forwardActiveEnergy${k}`] = 5000 + v;
        for (const [k, v] of Object.entries(rev)) out[`reverseActiveEnergy${k}`] = 3000 + v;
        out.forwardActiveEnergy = Object.values(fwd).reduce((a, x) => a + 5000 + x, 0);
        out.reverseActiveEnergy = Object.values(rev).reduce((a, x) => a + 3000 + x, 0);
        return out;
      };
      report('SH01-MT-ESS', at('00:00') - 10 * MIN, regs({}, {}));
      report('SH01-MT-ESS', at('05:55'), regs({ Valley: 1000.5 }, {}));
      report('SH01-MT-ESS', at('12:55'), regs({ Valley: 1000.5, DeepValley: 400.25 }, {}));
      report('SH01-MT-ESS', at('14:00'), regs({ Valley: 1000.5, DeepValley: 400.25 }, { Flat: 80 }));
      report('SH01-MT-ESS', at('18:55'), regs({ Valley: 1000.5, DeepValley: 400.25 }, { Flat: 80, Peak: 600.125 }));
      report('SH01-MT-ESS', at('23:50'), regs({ Valley: 1000.5, DeepValley: 400.25 }, { Flat: 80, Peak: 600.125, Tip: 350.4 }));
      await ingestOf(t.ctx)!.flush();
      expect(await computeSiteDays(t.ctx, sh, day, day)).toBe(1);
    });

    it('has the known price template for the day', async () => {
      const [d] = await tariffsForSite(t.ctx, sh, day, day);
      expect(d!.prices).toEqual({ tip: 1.3512, peak: 1.1236, flat: 0.6784, valley: 0.3125, deepValley: 0.2487 });
    });

    it('computes revenue, cycle count and efficiency to the cent', async () => {
      const e = await ok<SiteEarnings>('/comprehensive/site/overview/earnings', { siteId: sh, date: day });
      expect(e.currency).toBe('CNY');
      expect(e.day.chargeByPeriod).toEqual({ tip: 0, peak: 0, flat: 0, valley: 1000.5, deepValley: 400.25 });
      expect(e.day.dischargeByPeriod).toEqual({ tip: 350.4, peak: 600.125, flat: 80, valley: 0, deepValley: 0 });
      expect(e.day.charge).toBe(1400.75);
      expect(e.day.discharge).toBe(1030.525);
      // 1000.5 × 0.3125 + 400.25 × 0.2487 = 312.65625 + 99.542175 = 412.198425
      expect(e.day.chargeCost).toBe(412.2);
      // 600.125 × 1.1236 + 350.4 × 1.3512 + 80 × 0.6784 = 674.30045 + 473.46048 + 54.272 = 1202.03293
      expect(e.day.dischargeIncome).toBe(1202.03);
      expect(e.day.arbitrage).toBe(789.83);
      expect(e.day.pvRevenue).toBe(0);
      expect(e.day.chargingRevenue).toBe(0);
      expect(e.day.total).toBe(789.83);
      // (1400.75 + 1030.525) / (0.9 × 2 × 2000) = 2431.275 / 3600 = 0.675354…
      expect(e.day.cycles).toBe(0.6754);
      // 1030.525 / 1400.75 = 0.735695… → 73.57 %
      expect(e.day.efficiency).toBe(73.57);
      expect(e.pricesComplete).toBe(true);
      expect(e.computedAt).not.toBeNull();
      // The month and year of that day hold at least it (today may add to them).
      expect(e.month.arbitrage).toBeGreaterThanOrEqual(789.83);
    });

    it('shows the day in the arbitrage overview: summary, curves, detail page and a real xlsx', async () => {
      const f = { siteIds: [sh], start: day, end: day };
      const s = await post<ArbitrageSummary>('/overview/energy/arbitrage/summary', f);
      expect(s.stationCount).toBe(1);
      expect(s.money).toEqual([{ currency: 'CNY', arbitrage: 789.83, chargeCost: 412.2, dischargeIncome: 1202.03 }]);
      expect(s.efficiency).toBe(73.57);
      expect(s.cycles).toBe(0.6754);
      const fee = await post<ArbitrageFeeCurve>('/overview/energy/arbitrage/curve/fee', f);
      expect(fee.labels).toEqual([day]);
      expect(fee.currencies).toEqual([{ currency: 'CNY', chargeCost: [412.2], dischargeIncome: [1202.03], arbitrage: [789.83] }]);
      const q = await post<ArbitrageQuantityCurve>('/overview/energy/arbitrage/curve/quantity', { ...f, start: addDays(day, -1) });
      expect(q.labels).toEqual([addDays(day, -1), day]);
      expect(q.charge).toEqual([0, 1400.75]);
      expect(q.dischargeByPeriod.tip).toEqual([0, 350.4]);
      const page = await post<Page<ArbitrageDetail>>('/overview/energy/arbitrage/detail/page', { ...f, current: 1, pageSize: 10 });
      expect(page.total).toBe(1);
      expect(page.records[0]!.siteName).toBe('上海临港储能电站');
      expect(page.records[0]).toMatchObject({ siteId: sh, date: day, arbitrage: 789.83, cycles: 0.6754, efficiency: 73.57 });
      const x = await t.api.call('POST', '/overview/energy/arbitrage/detail/export', { token: t.adminToken, body: f });
      expect(x.status).toBe(200);
      expect(x.headers.get('content-type')).toContain('spreadsheetml');
      const ExcelJS = (await import('exceljs')).default;
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(x.raw.buffer.slice(x.raw.byteOffset, x.raw.byteOffset + x.raw.byteLength) as ArrayBuffer);
      const ws = wb.worksheets[0]!;
      expect(ws.rowCount).toBe(2);
      const header = (ws.getRow(1).values as unknown[]).slice(1);
      expect(ws.getRow(2).getCell(header.indexOf('套利收益') + 1).value).toBe(789.83);
    });

    it('recomputes the stored days when a price is edited (a job queued by the pricing change notice)', async () => {
      const [cfg] = await t.ctx.db.select().from(sitePriceCycle).where(eq(sitePriceCycle.siteId, sh));
      const [cycle] = await t.ctx.db.select({ id: priceCycle.id }).from(priceCycle).where(eq(priceCycle.templateId, cfg!.templateId));
      const one = await post<Record<string, unknown>>('/operation/price/cycle/query/one', { id: cycle!.id });
      await post('/operation/price/cycle/edit', { ...one, peakPrice: 1.2 });
      // 600.125 × 1.2 + 473.46048 + 54.272 = 720.15 + 527.73248 = 1247.88248 → 1247.88; − 412.20 = 835.68
      await expect.poll(async () => (await ok<SiteEarnings>('/comprehensive/site/overview/earnings', { siteId: sh, date: day })).day.arbitrage, { timeout: 30_000 })
        .toBe(835.68);
    });
  });

  // ── Berlin: DC-coupled PV, totals split over the price bands ─────────────────────────
  describe('a known day at a station with DC-coupled PV (totals split by the price bands)', () => {
    const tz = 'Europe/Berlin';
    let day: string;
    let be: number;

    beforeAll(async () => {
      be = siteIds.get('BE01')!;
      day = addDays(todayIn(tz, new Date(now)), -1);
      const at = (hhmm: string) => localInstant(tz, day, Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3)));
      const before = at('00:00') - 5 * MIN;
      // The battery's own registers: +200 charged at 04:00 (deep valley), +50 at 06:00 (valley),
      // +200 discharged at 19:00 (tip), +30 at 20:30 (peak).
      report('BE01-BMS-01', before, { totalChargeEnergy: 1000, totalDischargeEnergy: 800 });
      report('BE01-BMS-01', at('04:00'), { totalChargeEnergy: 1200, totalDischargeEnergy: 800 });
      report('BE01-BMS-01', at('06:00'), { totalChargeEnergy: 1250, totalDischargeEnergy: 800 });
      report('BE01-BMS-01', at('19:00'), { totalChargeEnergy: 1250, totalDischargeEnergy: 1000 });
      report('BE01-BMS-01', at('20:30'), { totalChargeEnergy: 1250, totalDischargeEnergy: 1030 });
      // PV through the DC/DC: +60 at 12:00 and +40 at 15:00, both flat.
      report('BE01-DCDC-01', before, { totalEnergy: 500 });
      report('BE01-DCDC-01', at('12:00'), { totalEnergy: 560 });
      report('BE01-DCDC-01', at('15:00'), { totalEnergy: 600 });
      // The main meter exported 30 kWh in the flat period.
      const main = (flat: number) => ({
        reverseActiveEnergy: 10 + flat, reverseActiveEnergyFlat: 10 + flat, reverseActiveEnergyTip: 0, reverseActiveEnergyPeak: 0,
        reverseActiveEnergyValley: 0, reverseActiveEnergyDeepValley: 0,
      });
      report('BE01-MT-MAIN', before, main(0));
      report('BE01-MT-MAIN', at('15:00'), main(30));
      await ingestOf(t.ctx)!.flush();
      expect(await computeSiteDays(t.ctx, be, day, day)).toBe(1);
    });

    it('prices the battery and the PV by period, exported PV at the feed-in price', async () => {
      const e = await ok<SiteEarnings>('/comprehensive/site/overview/earnings', { siteId: be, date: day });
      expect(e.currency).toBe('EUR');
      expect(e.day.chargeByPeriod).toEqual({ tip: 0, peak: 0, flat: 0, valley: 50, deepValley: 200 });
      expect(e.day.dischargeByPeriod).toEqual({ tip: 200, peak: 30, flat: 0, valley: 0, deepValley: 0 });
      // 200 × 0.154 + 50 × 0.192 = 30.8 + 9.6
      expect(e.day.chargeCost).toBe(40.4);
      // 200 × 0.412 + 30 × 0.336 = 82.4 + 10.08
      expect(e.day.dischargeIncome).toBe(92.48);
      expect(e.day.arbitrage).toBe(52.08);
      expect(e.day.pv).toBe(100);
      expect(e.day.pvExported).toBe(30);
      expect(e.day.pvSelfUsed).toBe(70);
      // 70 × 0.268 + 30 × 0.0712 = 18.76 + 2.136 = 20.896
      expect(e.day.pvRevenue).toBe(20.9);
      expect(e.day.total).toBe(72.98);
      // 230 / 250
      expect(e.day.efficiency).toBe(92);
      const chart = await ok<SiteEarningsChart>('/comprehensive/site/overview/earnings/chart', { siteId: be, date: day });
      const i = chart.labels.indexOf(day.slice(5));
      expect(chart.total[i]).toBe(72.98);
      expect(chart.pvRevenue[i]).toBe(20.9);
      const year = await ok<SiteEarningsChart>('/comprehensive/site/overview/earnings/chart', { siteId: be, date: day, type: 'year' });
      expect(year.labels).toHaveLength(12);
      expect(year.total[Number(day.slice(5, 7)) - 1]).toBeGreaterThanOrEqual(72.98);
    });
  });

  // ── Home page and refusals ───────────────────────────────────────────────────────────
  describe('home page and data scope', () => {
    let operator: string;
    let east: number;
    let south: number;

    beforeAll(async () => {
      const c = await seededCompanies(t);
      east = c.east.id;
      south = c.south.id;
      operator = (
        await newUser(t, east, {
          username: `earner-${target}`, name: '收益', menus: ['/home/index', '/overview/station', '/synthesis/businessOverview'], siteIds: [siteIds.get('SH01')!],
        })
      ).token;
    });

    it('adds up the company’s stations on the home page, money per currency', async () => {
      const [root] = await t.ctx.db.select().from(company).orderBy(company.id).limit(1);
      const top = await ok<HomeTop>('/home/page/top', { companyId: root!.id });
      expect(top.stationCount).toBe(3);
      expect(top.totalRevenue.map((a) => a.currency).sort()).toEqual(['CNY', 'EUR']);
      expect(top.totalRevenue.find((a) => a.currency === 'EUR')!.amount).toBe(72.98);
      expect(top.totalRevenue.find((a) => a.currency === 'CNY')!.amount).toBe(835.68);
      // Lifetime energy is the stations' own registers, not the two days with revenue figures
      // (1650.75 kWh charged): Shanghai's storage meter forward 5 × 5000 + 1000.5 + 400.25, Berlin's BMS 1250.
      expect(top.totalCharge).toBe(26_400.75 + 1250);
      const income = await ok<HomeIncome>('/home/page/income', { companyId: root!.id });
      const eur = income.currencies.find((c) => c.currency === 'EUR')!;
      expect(eur.total).toMatchObject({ arbitrage: 52.08, pvRevenue: 20.9, total: 72.98 });
      expect(eur.days).toHaveLength(30);
      expect(eur.months).toHaveLength(12);
      const energy = await ok<HomeEnergy>('/home/page/energy', { companyId: root!.id });
      expect(energy.days).toHaveLength(30);
      expect(energy.days.reduce((a, d) => a + d.charge, 0)).toBeCloseTo(1650.75, 3);
      const charge = await ok<HomeCharge>('/home/page/charge', { companyId: root!.id });
      expect(charge.pileCount).toBeGreaterThan(0);
      expect(charge.gunStates.reduce((a, s) => a + s.count, 0)).toBe(charge.gunCount);
      const err = await ok<HomeError>('/home/page/error', { companyId: root!.id });
      expect(err.open).toBe(Object.values(err.openByLevel).reduce((a, n) => a + n, 0));
      // A user of EAST who was granted Shanghai sees only it.
      const mine = await ok<HomeTop>('/home/page/top', { companyId: east }, operator);
      expect(mine.stationCount).toBe(1);
      expect(mine.totalRevenue).toEqual([{ currency: 'CNY', amount: 835.68 }]);
    });

    it('takes every lifetime total and today of the home page from the stations’ own figures (the station overview’s)', async () => {
      const [root] = await t.ctx.db.select().from(company).orderBy(company.id).limit(1);
      // Readings of today at Berlin: its BMS charged 40 kWh since local midnight.
      const be = siteIds.get('BE01')!;
      const [{ timeZone } = { timeZone: '' }] = await t.ctx.db.select({ timeZone: site.timeZone }).from(site).where(eq(site.id, be));
      const midnight = localInstant(timeZone, todayIn(timeZone, new Date()), 0);
      report('BE01-BMS-01', Math.max(midnight + MIN, Date.now() - 2 * MIN), { totalChargeEnergy: 1290, totalDischargeEnergy: 1030 });
      await ingestOf(t.ctx)!.flush();
      const top = await ok<HomeTop>('/home/page/top', { companyId: root!.id });
      const charge = await ok<HomeCharge>('/home/page/charge', { companyId: root!.id });
      const energy = await ok<HomeEnergy>('/home/page/energy', { companyId: root!.id });
      const sum = { charge: 0, discharge: 0, pv: 0, piles: 0 };
      const today = { charge: 0, piles: 0 };
      for (const siteId of siteIds.values()) {
        const o = await ok<SiteOverview>('/comprehensive/site/overview', { siteId });
        const monitor = await ok<SiteOverview>('/monitor/energy/overview', { siteId });
        expect(monitor.total).toEqual(o.total);
        for (const k of ['charge', 'discharge', 'pv', 'piles'] as const) sum[k] += o.total[k] ?? 0;
        today.charge += o.day.charge ?? 0;
        today.piles += o.day.piles ?? 0;
      }
      expect(today.charge).toBe(40);
      expect(energy.today.charge).toBeCloseTo(today.charge, 3);
      expect(charge.todayEnergy).toBeCloseTo(today.piles, 3);
      expect(energy.month.charge).toBeGreaterThanOrEqual(energy.today.charge);
      expect(sum.charge).toBeGreaterThan(1650.75);
      expect(top.totalCharge).toBeCloseTo(sum.charge, 3);
      expect(top.totalDischarge).toBeCloseTo(sum.discharge, 3);
      expect(top.totalPv).toBeCloseTo(sum.pv, 3);
      expect(top.totalPiles).toBeCloseTo(sum.piles, 3);
      expect(charge.totalEnergy).toBeCloseTo(sum.piles, 3);
    });

    it('lists every currency the stations bill in, the most stations first, and names the stations with days without a price', async () => {
      const [root] = await t.ctx.db.select().from(company).orderBy(company.id).limit(1);
      const be = siteIds.get('BE01')!;
      const [{ currency } = { currency: '' }] = await t.ctx.db.select({ currency: site.currency }).from(site).where(eq(site.id, siteIds.get('LA01')!));
      // One station per currency: then those with revenue, by code; Los Angeles has no figures yet but its currency is listed.
      const before = await ok<HomeIncome>('/home/page/income', { companyId: root!.id });
      expect(before.currencies.map((c) => [c.currency, c.stationCount])).toEqual([['CNY', 1], ['EUR', 1], [currency, 1]]);
      expect(before.currencies.at(-1)!.total.total).toBe(0);
      expect(before.currencies.every((c) => c.missingPrices.length === 0)).toBe(true);
      // A second station billing in euros makes EUR the currency with the most stations.
      await t.ctx.db.update(site).set({ currency: 'EUR' }).where(eq(site.id, siteIds.get('LA01')!));
      await t.ctx.database.sql.query('update revenue_daily set prices_complete = false where site_id = $1', [be]);
      try {
        const after = await ok<HomeIncome>('/home/page/income', { companyId: root!.id });
        expect(after.currencies.map((c) => [c.currency, c.stationCount])).toEqual([['EUR', 2], ['CNY', 1]]);
        const { rows: [stored] } = await t.ctx.database.sql.query<{ n: number }>('select count(*)::int as n from revenue_daily where site_id = $1', [be]);
        expect(stored!.n).toBeGreaterThan(0);
        expect(after.currencies[0]!.missingPrices).toEqual([{ siteId: be, siteName: expect.any(String) as string, days: stored!.n }]);
        expect(after.currencies[1]!.missingPrices).toEqual([]);
      } finally {
        await t.ctx.db.update(site).set({ currency }).where(eq(site.id, siteIds.get('LA01')!));
        await t.ctx.database.sql.query('update revenue_daily set prices_complete = true where site_id = $1', [be]);
      }
    });

    it('refuses stations and companies out of scope, and bad input with 400 naming the field', async () => {
      const be = siteIds.get('BE01')!;
      expect((await t.api.get('/home/page/top', operator, { companyId: south })).status).toBe(403);
      expect((await t.api.get('/home/page/income', operator, { companyId: 999_999 })).status).toBe(404);
      expect((await t.api.get('/comprehensive/site/overview/earnings', operator, { siteId: be })).status).toBe(404);
      expect((await t.api.get('/comprehensive/site/overview/earnings/chart', operator, { siteId: be })).status).toBe(404);
      const refused = await t.api.post('/overview/energy/arbitrage/summary', operator, { siteIds: [be], start: '2026-01-01', end: '2026-01-31' });
      expect(refused.status).toBe(403);
      expect(refused.body.tipMsg).toBeTruthy();
      for (const [path, q] of [
        ['/home/page/top', { companyId: 'abc' }], ['/home/page/energy', {}], ['/comprehensive/site/overview/earnings', { siteId: -1 }],
        ['/comprehensive/site/overview/earnings', { siteId: be, date: '2026-13-01' }], ['/comprehensive/site/overview/earnings/chart', { siteId: be, type: 'week' }],
      ] as const) {
        const r = await t.api.get(path, t.adminToken, q);
        expect(r.status, `${path} ${JSON.stringify(q)}`).toBe(400);
        expect(r.body.tipMsg).toBeTruthy();
      }
      const future = await t.api.get('/comprehensive/site/overview/earnings', t.adminToken, { siteId: be, date: '2999-01-01' });
      expect(future.status).toBe(406);
      for (const body of [
        { start: '2026-02-01', end: '2026-01-01' }, { start: '2026-01-01' }, { start: '2020-01-01', end: '2026-01-01' }, { start: '2026-01-01', end: '2026-01-02', siteIds: 'x' },
      ]) {
        const r = await t.api.post('/overview/energy/arbitrage/curve/fee', t.adminToken, body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.tipMsg).toBeTruthy();
      }
      expect((await t.api.get('/home/page/top', '', { companyId: east })).status).toBe(401);
    });
  });
});
