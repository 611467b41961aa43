import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoFleet } from '@ess/simulator';
import type { SiteEarnings } from '@ess/contract';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { site } from '../db/schema/site.ts';
import { refreshAll } from '../modules/dashboard/revenue.jobs.ts';
import { demoHistoryWanted, seedDemoHistory } from './demo-history.ts';

/** The demo's past: the simulator's readings of the last day into the rollups, and the revenue the engine computes from them. */
describe('demo history', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { SEED_DEMO: 'true' });
  });
  afterAll(async () => t?.stop());

  it('writes rollups once, from which every demo station earns money at its own prices', async () => {
    const fleet = demoFleet();
    expect(await demoHistoryWanted(t.ctx, fleet, '')).toBe(true);
    const r = await seedDemoHistory(t.ctx, fleet, 1, '');
    expect(r.steps).toBe(288);
    expect(r.rows).toBeGreaterThan(1000);
    expect(await demoHistoryWanted(t.ctx, fleet, '')).toBe(false);
    expect(await refreshAll(t.ctx)).toBeGreaterThanOrEqual(3);
    for (const s of await t.ctx.db.select({ id: site.id, code: site.code }).from(site)) {
      const e = await t.api.get<SiteEarnings>('/comprehensive/site/overview/earnings', t.adminToken, { siteId: s.id });
      expect(e.status, s.code).toBe(200);
      const total = e.body.data.total;
      expect(total.charge + total.discharge, s.code).toBeGreaterThan(0);
      expect(e.body.data.pricesComplete, s.code).toBe(true);
      expect(total.total, s.code).not.toBe(0);
    }
  });
});
