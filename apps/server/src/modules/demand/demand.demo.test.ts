import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like, sql } from 'drizzle-orm';
import { demoDemandTarget, demoFleet } from '@ess/simulator';
import type { DemandAnalysisInfo, DemandMonthBrief } from '@ess/contract/demand';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { okData } from '../../../test/factory.ts';
import { alarm } from '../../db/schema/alarm.ts';
import { demandSetting, demandWindow } from '../../db/schema/demand.ts';
import { site } from '../../db/schema/site.ts';
import { seedDemoHistory } from '../../demo/demo-history.ts';
import { seedStrategyDemo } from '../strategy/index.ts';
import { LINE_TOLERANCE_KW } from './demand.compute.ts';
import { demandSinkOf, seedDemandDemo, seedDemandTargets } from './index.ts';

const NOW = Date.UTC(2026, 10, 25, 9, 0);
/** Two days of 5-minute history and a day of 30-minute steps before them. */
const DAYS = 3;

/**
 * The demo (decision 0040): every demo station gets a standing target and a strategy carrying it;
 * the history runs the stations' EMS under them and replays the meters through the demand sink
 * (windows as live): the storage shaves, and the few windows it could not hold are pre-alarmed. The sink's own time on the history is measured
 * (the demo must not add more than ~10 s to the first start).
 */
describe('demand demo', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { SEED_DEMO: 'true' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('computes the history windows of every demo station, estimated in the coarse stretch, cheaply', async () => {
    // As `npm start` does: the targets and the strategies carrying them first, then the history under them.
    const fleet = demoFleet();
    expect(await seedDemandTargets(t.ctx, fleet.stations.map((st) => ({ code: st.code, ...demoDemandTarget(st) })))).toBe(fleet.stations.length);
    expect(await seedStrategyDemo(t.ctx, fleet.stations)).toBe(fleet.stations.length);
    await seedDemoHistory(t.ctx, fleet, DAYS, '', NOW, 0, 2);
    const c = demandSinkOf(t.ctx)!.counters;
    const rows = await t.ctx.db
      .select({
        code: site.code, n: sql<number>`count(*)::int`, estimated: sql<number>`(count(*) filter (where ${demandWindow.importEstimated}))::int`,
        storage: sql<number>`(count(*) filter (where ${demandWindow.dischargeKwh} is not null))::int`, max: sql<number>`max(${demandWindow.demandKw})`,
      })
      .from(demandWindow)
      .innerJoin(site, eq(site.id, demandWindow.siteId))
      .groupBy(site.code);
    expect(rows.length).toBe(demoFleet().stations.length);
    for (const r of rows) {
      // About 3 days of windows; the first (coarse) day's are interpolated from 30-minute readings.
      expect(r.n, r.code).toBeGreaterThan(250);
      expect(r.estimated, r.code).toBeGreaterThan(50);
      expect(r.estimated, r.code).toBeLessThan(r.n - 150);
      expect(r.storage, r.code).toBeGreaterThan(200);
      expect(Number(r.max), r.code).toBeGreaterThan(0);
    }
    // The sink's cost over the whole history (in memory and writes): well under the 10 s budget.
    console.log(`demand sink on ${DAYS} days of demo history: eval ${Math.round(c.evalMs)} ms, writes ${Math.round(c.writeMs)} ms, ${c.windows} windows`);
    expect(c.evalMs + c.writeMs).toBeLessThan(10_000);
  }, 600_000);

  it('shaves: every storage station\'s history shows a positive shaved demand and saving, the import held at its line', async () => {
    const month = new Date(NOW).toISOString().slice(0, 7);
    const settings = await t.ctx.db.select().from(demandSetting);
    expect(settings.length).toBe(demoFleet().stations.length);
    let priced = 0;
    for (const s of settings) {
      expect(s.month).toBeNull();
      expect(s.marginKw).toBeCloseTo(s.targetKw * 0.05, 0);
      const a = await okData(t.api.post<DemandAnalysisInfo>('/demand/analysis/info', t.adminToken, { siteId: s.siteId, month }));
      console.log(`${a.siteName}: target ${s.targetKw} kW (line ${s.targetKw - s.marginKw}), measured max ${a.measuredMaxKw}, without storage ${a.counterfactualMaxKw}, shaved ${a.shavedKw} kW, saving ${a.saving} ${a.currency}`);
      expect(a.hasStorageMeter, a.siteName).toBe(true);
      expect(a.shavedKw!, a.siteName).toBeGreaterThan(0);
      // A saving wherever the tariff has a demand price (Berlin's single-part tariff has none: no demand charge, no saving).
      if (a.demandPrice !== null) expect(Number(a.saving), a.siteName).toBeGreaterThan(0);
      else expect(a.saving, a.siteName).toBeNull();
      // The strategy's charging never lifted the import over the line (the measured maximum is the line, or a day the storage ran short).
      expect(a.measuredMaxKw!, a.siteName).toBeLessThan(a.counterfactualMaxKw!);
      if (a.demandPrice !== null) priced++;
    }
    expect(priced).toBe(2);
  }, 600_000);

  it('pre-alarms the few windows above the line (the storage ran short) through the alarm engine, once', async () => {
    const t0 = performance.now();
    await seedDemandDemo(t.ctx);
    console.log(`demand demo seed: ${Math.round(performance.now() - t0)} ms`);
    const settings = await t.ctx.db.select().from(demandSetting);
    let total = 0;
    for (const s of settings) {
      const pre = await t.ctx.db.select().from(demandWindow).where(and(eq(demandWindow.siteId, s.siteId), eq(demandWindow.preAlarmed, true)));
      expect(pre.length).toBeLessThanOrEqual(4);
      for (const w of pre) expect(w.demandKw!).toBeGreaterThan(s.targetKw - s.marginKw + LINE_TOLERANCE_KW);
      const [{ over } = { over: 0 }] = await t.ctx.db
        .select({ over: sql<number>`count(*)::int` })
        .from(demandWindow)
        .where(and(eq(demandWindow.siteId, s.siteId), sql`${demandWindow.demandKw} > ${s.targetKw - s.marginKw + LINE_TOLERANCE_KW}`));
      expect(pre.length).toBe(Math.min(4, over));
      total += pre.length;
    }
    const alarms = await t.ctx.db.select().from(alarm).where(like(alarm.code, 'DEMAND_PRE_ALARM_%'));
    expect(alarms.length).toBe(total);
    expect(alarms.every((a) => a.status === 'ended' && a.level === 2)).toBe(true);
    // Once: a second run changes nothing.
    await seedDemandDemo(t.ctx);
    expect((await t.ctx.db.select().from(alarm).where(like(alarm.code, 'DEMAND_PRE_ALARM_%'))).length).toBe(total);
    expect(await seedDemandTargets(t.ctx, [{ code: 'SH01', targetKw: 1, marginKw: 0 }])).toBe(0);
    // The calls answer on the demo.
    const [first] = await t.ctx.db.select({ id: site.id, tz: site.timeZone }).from(site).limit(1);
    const month = new Date(NOW).toISOString().slice(0, 7);
    const b = await okData(t.api.post<DemandMonthBrief>('/demand/track/monthly/brief', t.adminToken, { siteId: first!.id, month }));
    expect(b.maxDemandKw).toBeGreaterThan(0);
    expect(b.target).not.toBeNull();
  }, 600_000);
});
