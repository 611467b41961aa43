import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceHistory } from '@ess/contract';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { reporter } from '../../../test/report.ts';
import { device } from '../../db/schema/device.ts';
import { ingestOf } from './index.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/**
 * Automatic resolution of a device's history: the finest level that has data for the whole range.
 * Reports go through the real ingest (raw rows and rollups); then the raw rows (or 5-minute
 * rollups) older than some point are removed, as the retention or a server that started late
 * leaves them, and the same range is asked for again.
 */
describe.each(dbTargets(import.meta.url))('automatic history resolution on %s', (target) => {
  let t: TestApp;
  let deviceId: number;
  const now = Date.now();

  const report = reporter(() => t.ctx);
  const history = async (start: number, end: number) => {
    const r = await t.api.post<DeviceHistory>('/monitor/device/one/history', t.adminToken, {
      deviceId, identifiers: ['activePower'], start: new Date(start).toISOString(), end: new Date(end).toISOString(), interval: 'auto',
    });
    expect(r.body.tipMsg).toBe('');
    return r.body.data;
  };

  beforeAll(async () => {
    t = await startTestApp(target, {
      SEED_DEMO: 'true', DEVICE_OFFLINE_TIMEOUT_MS: '600000', INGEST_BATCH_MS: '50', LATEST_FLUSH_MS: '100', ROLLUP_FLUSH_MS: '200',
    });
    const [d] = await t.ctx.db.select({ id: device.id }).from(device).where(eq(device.code, 'SH01-MT-ESS'));
    deviceId = d!.id;
    // A report every 5 minutes over the last 8 days, the power its age in hours.
    for (let ts = now - 8 * DAY; ts < now; ts += 5 * MIN) report('SH01-MT-ESS', ts, { activePower: Math.round((now - ts) / HOUR) });
    await ingestOf(t.ctx)!.flush();
  });
  afterAll(async () => t?.stop());

  it('takes raw reports for the last 24 hours while they cover them, the 5-minute rollup once they cover only the last hour', async () => {
    const start = now - DAY;
    const full = await history(start, now);
    expect(full.interval).toBe('raw');
    expect(full.series[0]!.points[0]![0]).toBeLessThan(start + 5 * MIN);

    // Raw rows only since an hour ago (the server started then; or retention took the rest).
    await t.ctx.database.sql.query('delete from telemetry where device_id = $1 and ts < $2', [deviceId, new Date(now - HOUR)]);
    const partial = await history(start, now);
    expect(partial.interval).toBe('5m');
    const points = partial.series[0]!.points;
    // The whole day is drawn: from its first 5 minutes to its last, not only the last hour.
    expect(points[0]![0]).toBeLessThan(start + 5 * MIN);
    expect(points.length).toBeGreaterThanOrEqual(287);
    expect(points[0]![1]).toBeCloseTo(24, 0);
  });

  it('takes hourly rollups for a week once the 5-minute ones are purged beyond two days', async () => {
    const start = now - 7 * DAY;
    expect((await history(start, now)).interval).toBe('5m');
    await t.ctx.database.sql.query('delete from telemetry_5m where device_id = $1 and bucket < $2', [deviceId, new Date(now - 2 * DAY)]);
    const week = await history(start, now);
    expect(week.interval).toBe('1h');
    expect(week.series[0]!.points[0]![0]).toBeLessThan(start + HOUR);
    expect(week.series[0]!.points.length).toBeGreaterThanOrEqual(7 * 24);
  });

  it('takes hourly rollups for 14 days (the longest range 5-minute values may answer is 7 days)', async () => {
    const h = await history(now - 14 * DAY, now);
    expect(h.interval).toBe('1h');
    expect(h.series[0]!.points.length).toBeGreaterThanOrEqual(8 * 24 - 1);
  });

  it('keeps raw reports for a device that began reporting within the range', async () => {
    const [d] = await t.ctx.db.select({ id: device.id }).from(device).where(eq(device.code, 'SH01-MT-MAIN'));
    for (let ts = now - 40 * MIN; ts < now; ts += 10_000) report('SH01-MT-MAIN', ts, { activePower: 1 });
    await ingestOf(t.ctx)!.flush();
    const r = await t.api.post<DeviceHistory>('/monitor/device/one/history', t.adminToken, {
      deviceId: d!.id, identifiers: ['activePower'], start: new Date(now - DAY).toISOString(), end: new Date(now).toISOString(), interval: 'auto',
    });
    expect(r.body.data.interval).toBe('raw');
  });
});
