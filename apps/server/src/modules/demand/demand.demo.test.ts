import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like, sql } from 'drizzle-orm';
import { demoFleet } from '@ess/simulator';
import type { DemandMonthBrief } from '@ess/contract/demand';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { okData } from '../../../test/factory.ts';
import { alarm } from '../../db/schema/alarm.ts';
import { demandSetting, demandWindow } from '../../db/schema/demand.ts';
import { site } from '../../db/schema/site.ts';
import { seedDemoHistory } from '../../demo/demo-history.ts';
import { demandSinkOf, seedDemandDemo } from './index.ts';

const NOW = Date.UTC(2026, 10, 25, 9, 0);
/** Two days of 5-minute history and a day of 30-minute steps before them. */
const DAYS = 3;

/**
 * The demo: the history replays the meters through the demand sink (windows as live), then every
 * demo station gets a target and a few pre-alarms. The sink's own time on the history is measured
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
    await seedDemoHistory(t.ctx, demoFleet(), DAYS, '', NOW, 0, 2);
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

  it('sets a target per station with a few pre-alarms raised through the alarm engine, once', async () => {
    const t0 = performance.now();
    await seedDemandDemo(t.ctx);
    const seedMs = performance.now() - t0;
    console.log(`demand demo seed: ${Math.round(seedMs)} ms`);
    const settings = await t.ctx.db.select().from(demandSetting);
    expect(settings.length).toBe(demoFleet().stations.length);
    for (const s of settings) {
      expect(s.month).toBeNull();
      expect(s.marginKw).toBeCloseTo(s.targetKw * 0.05, 0);
      const pre = await t.ctx.db.select().from(demandWindow).where(and(eq(demandWindow.siteId, s.siteId), eq(demandWindow.preAlarmed, true)));
      expect(pre.length).toBeGreaterThanOrEqual(1);
      expect(pre.length).toBeLessThanOrEqual(4);
      for (const w of pre) expect(w.demandKw!).toBeGreaterThan(s.targetKw - s.marginKw);
    }
    const alarms = await t.ctx.db.select().from(alarm).where(like(alarm.code, 'DEMAND_PRE_ALARM_%'));
    expect(alarms.length).toBeGreaterThanOrEqual(settings.length);
    expect(alarms.every((a) => a.status === 'ended' && a.level === 2)).toBe(true);
    // Once: a second run changes nothing.
    await seedDemandDemo(t.ctx);
    expect((await t.ctx.db.select().from(demandSetting)).length).toBe(settings.length);
    // The calls answer on the demo.
    const [first] = await t.ctx.db.select({ id: site.id, tz: site.timeZone }).from(site).limit(1);
    const month = new Date(NOW).toISOString().slice(0, 7);
    const b = await okData(t.api.post<DemandMonthBrief>('/demand/track/monthly/brief', t.adminToken, { siteId: first!.id, month }));
    expect(b.maxDemandKw).toBeGreaterThan(0);
    expect(b.target).not.toBeNull();
    expect(b.preAlarms).toBeGreaterThanOrEqual(1);
  }, 600_000);
});
