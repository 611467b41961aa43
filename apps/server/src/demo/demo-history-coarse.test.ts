import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { commissionedState, demoFleet, step, type SimState } from '@ess/simulator';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { device } from '../db/schema/device.ts';
import { meterZeroReading } from '../db/schema/meter-reading.ts';
import { sweepReadings } from '../modules/meter/index.ts';
import { registerSlots } from '../modules/meter/reading.read.ts';
import { demoHistoryDefaultDays, seedDemoHistory } from './demo-history.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** 3 days up to this instant, the last one in 5-minute steps and the two before in 30-minute steps. */
const NOW = Date.UTC(2026, 10, 25, 9, 0);
const START = Date.UTC(2026, 10, 22, 9, 0);
const FINE_FROM = Date.UTC(2026, 10, 24, 9, 0);

const registersOf = (s: SimState) =>
  s.stations.flatMap((st) => Object.entries(st.dyn.meters).map(([code, m]) => [code, { ...m.forward }, { ...m.reverse }] as const));

describe('demo history: the coarse stretch', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { SEED_DEMO: 'true' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('by default starts at the first local midnight of the month before the previous one among the demo zones', () => {
    // 2026-11-27 12:00 UTC: September 1st 00:00 in Shanghai (UTC+8) is 2026-08-31 16:00 UTC, the earliest of SH, BE, LA.
    const now = Date.UTC(2026, 10, 27, 12, 0);
    expect(demoHistoryDefaultDays(demoFleet(), now)).toBeCloseTo((now - Date.UTC(2026, 7, 31, 16, 0)) / DAY, 9);
    // Shanghai already on December 1st, Berlin and Los Angeles still in November: September is still the month before
    // the previous one there, from Berlin's September 1st 00:00 (CEST, UTC+2) = 2026-08-31 22:00 UTC.
    const dec = Date.UTC(2026, 10, 30, 18, 0);
    expect(demoHistoryDefaultDays(demoFleet(), dec)).toBeCloseTo((dec - Date.UTC(2026, 7, 31, 22, 0)) / DAY, 9);
  });

  it('the simulator integrates the same energy in 30-minute as in 5-minute steps (1-minute sub-steps either way)', () => {
    const fleet = demoFleet();
    const run = (dt: number) => {
      let s = commissionedState(fleet, START, { randomFaultsPerDevicePerDay: 0.1 });
      for (let x = START + dt; x <= FINE_FROM; x += dt) s = step(s, dt, x);
      return s;
    };
    const fine = registersOf(run(300_000));
    const coarse = registersOf(run(1_800_000));
    expect(coarse.length).toBe(8);
    for (const [i, [code, fwd, rev]] of fine.entries()) {
      const [c2, f2, r2] = coarse[i]!;
      expect(c2).toBe(code);
      for (const k of Object.keys(fwd) as (keyof typeof fwd)[]) {
        expect(f2[k], `${code} ${k}`).toBeCloseTo(fwd[k], 6);
        expect(r2[k], `${code} ${k}`).toBeCloseTo(rev[k], 6);
      }
    }
    // Two days of Shanghai's grid import: plausible for a station of its size (hand-checked run: 9 907.6 kWh).
    const main = fine.find(([c]) => c === 'SH01-MT-MAIN')!;
    const total = Object.values(main[1]).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(5000);
    expect(total).toBeLessThan(15000);
  });

  it('gives continuous registers in every hour and a measured midnight reading each day', async () => {
    const fleet = demoFleet();
    const h = await seedDemoHistory(t.ctx, fleet, 3, '', NOW, 0.1, 1);
    // Coarse: 2 days × 48 half hours + 5 minutes before each local midnight of SH (16:00 UTC), BE (23:00) and
    // LA (08:00) in (start, fineFrom]: 2 each = 6. Fine: 1 day × 288.
    expect(h.steps).toBe(2 * 48 + 6 + 288);
    await sweepReadings(t.ctx, NOW + HOUR);

    const meters = await t.ctx.db.select({ id: device.id, code: device.code, productId: device.productId }).from(device)
      .where(eq(device.type, 'meter')).orderBy(asc(device.id));
    expect(meters.length).toBe(8);
    for (const m of meters) {
      // Every hour of the 3 days has the meter's reports, and the first register never falls from hour to hour.
      const slot = (await registerSlots(t.ctx.db, m.productId))[0]!;
      const { rows } = await t.ctx.database.sql.query<{ b: number; f: string | null; l: string | null }>(
        `select (extract(epoch from bucket) * 1000)::float8 as b, first[${slot}]::text as f, last[${slot}]::text as l
           from telemetry_1h where device_id = $1 order by bucket`, [m.id]);
      expect(rows.length, m.code).toBe(3 * 24 + 1);
      let prev = 0;
      for (const r of rows) {
        expect(Number(r.f), `${m.code} ${new Date(Number(r.b)).toISOString()}`).toBeGreaterThanOrEqual(prev - 1e-9);
        expect(Number(r.l)).toBeGreaterThanOrEqual(Number(r.f));
        prev = Number(r.l);
      }
      // A zero reading each day after commissioning, measured 5 minutes before the midnight, registers never falling.
      const zero = await t.ctx.db.select().from(meterZeroReading).where(eq(meterZeroReading.deviceId, m.id)).orderBy(asc(meterZeroReading.readingDate));
      const read = zero.filter((z) => z.readAt.getTime() > START);
      expect(read.map((z) => z.readingDate), m.code).toHaveLength(3);
      let last: number[] | null = null;
      for (const z of read) {
        expect(z.quality, `${m.code} ${z.readingDate}`).toBe('measured');
        expect(z.sourceTs!.getTime()).toBe(z.readAt.getTime() - 300_000);
        const vals = z.registers.map((v) => (v === null ? 0 : Number(v)));
        if (last) for (const [i, v] of vals.entries()) expect(v, `${m.code} ${z.readingDate} ${i}`).toBeGreaterThanOrEqual(last[i]!);
        last = vals;
      }
    }
  }, 600_000);
});
