import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn, type SiteOverview } from '@ess/contract';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { reporter } from '../../../test/report.ts';
import { site } from '../../db/schema/site.ts';
import { localDayStart } from '../../platform/time/local-time.ts';
import { ingestOf } from '../telemetry/index.ts';

const MIN = 60_000;

/**
 * "Today" on /monitor/energy and on /overview/station is one figure: the station-local day's
 * register growth, computed once (siteOverview). The station is put in a zone far from UTC in
 * which, at the moment the test runs, the local date is not the UTC date (UTC+14 from 10:00 UTC,
 * UTC−11 before 11:00 UTC), and its storage meter's register grows by different amounts since
 * local midnight and since UTC midnight, so a figure of the UTC day cannot pass.
 */
describe.each(dbTargets(import.meta.url))('one today for the energy monitor and the station overview on %s', (target) => {
  let t: TestApp;
  let siteId: number;
  const now = Date.now();
  const zone = new Date(now).getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
  const localDate = todayIn(zone, new Date(now));
  const utcDate = new Date(now).toISOString().slice(0, 10);
  const localStart = localDayStart(zone, localDate);
  const utcStart = Date.parse(`${utcDate}T00:00:00Z`);
  let expected: { local: number; utc: number };

  const report = reporter(() => t.ctx);
  const ok = async <T>(path: string, query: Record<string, string | number>): Promise<T> => {
    const r = await t.api.get<T>(path, t.adminToken, query);
    expect(r.body.tipMsg, `${path} ${JSON.stringify(query)}`).toBe('');
    expect(r.status).toBe(200);
    return r.body.data;
  };

  beforeAll(async () => {
    t = await startTestApp(target, {
      SEED_DEMO: 'true', DEVICE_OFFLINE_TIMEOUT_MS: '600000', INGEST_BATCH_MS: '50', LATEST_FLUSH_MS: '100', ROLLUP_FLUSH_MS: '200',
    });
    const [sh] = await t.ctx.db.select({ id: site.id }).from(site).where(eq(site.code, 'SH01'));
    siteId = sh!.id;
    await t.ctx.db.update(site).set({ timeZone: zone }).where(eq(site.id, siteId));
    // The ingest files day rollups by the station's zone: it reads the new one before any report.
    await ingestOf(t.ctx)!.registry.refresh();
    // Storage meter forward register (charging): 1000 before both midnights, 1010 between them, 1025 now.
    const first = Math.min(localStart, utcStart);
    const second = Math.max(localStart, utcStart);
    const meter = (forward: number, power = 0) => ({ activePower: power, forwardActiveEnergy: forward, reverseActiveEnergy: 500 });
    report('SH01-MT-ESS', first - 30 * MIN, meter(1000));
    report('SH01-MT-ESS', (first + second) / 2, meter(1010));
    report('SH01-MT-ESS', Math.max(second + 1000, now - 30_000), meter(1025, 40));
    await ingestOf(t.ctx)!.flush();
    expected = localStart < utcStart ? { local: 25, utc: 15 } : { local: 15, utc: 25 };
  });
  afterAll(async () => t?.stop());

  it('runs at a moment whose local date is not the UTC date', () => {
    expect(localDate).not.toBe(utcDate);
    expect(expected.local).not.toBe(expected.utc);
  });

  it('answers the same charged-today on both screens, counted from the station’s local midnight', async () => {
    const overview = await ok<SiteOverview>('/comprehensive/site/overview', { siteId });
    const energy = await ok<SiteOverview>('/monitor/energy/overview', { siteId });
    expect(overview.timeZone).toBe(zone);
    expect(overview.date).toBe(localDate);
    expect(energy.date).toBe(localDate);
    expect(overview.day.charge).toBe(expected.local);
    expect(energy.day.charge).toBe(overview.day.charge);
    expect(energy.day).toEqual(overview.day);
    expect(energy.total).toEqual(overview.total);
    expect(energy.total.charge).toBe(1025);
    // The live power is the same reading too (storage meter forward = charging: storage −40 kW).
    expect(energy.power).toEqual(overview.power);
    expect(energy.power.storage).toBe(-40);
  });

  it('refuses a station the caller may not see', async () => {
    const r = await t.api.get('/monitor/energy/overview', t.adminToken, { siteId: 999_999 });
    expect(r.status).toBe(404);
  });
});
