import { eq } from 'drizzle-orm';
import { READING_REGISTERS } from '@ess/contract';
import { device } from '../src/db/schema/device.ts';
import { deviceChange } from '../src/db/schema/device-registry.ts';
import { site } from '../src/db/schema/site.ts';
import { registerSlots } from '../src/modules/meter/reading.read.ts';
import { ROLLUP_TABLES, RollupAccumulator, copyDriver, writeAggregates, type Granularity } from '../src/modules/telemetry/index.ts';
import { newDevice } from './factory.ts';
import type { TestApp } from './harness.ts';

/**
 * One storage meter's October 2026 at a station in Asia/Shanghai (UTC+8), by hand: the month the
 * readings' tests and the statements' tests both count. The meter reports once a day at 23:58
 * local (so each midnight reads measured), charging 100 kWh a day (forward, all in the valley
 * register) and discharging 90 kWh (reverse, all in the peak register); the converter is rated
 * 100 kW, so a day may count at most 100 × 24 × 1.2 = 2880 kWh.
 * - Sep 30 23:58: F 1000, R 500 (the Oct 1 00:00 reading).
 * - Oct 15 12:00: the meter is replaced. The old one reports at 11:59 (F 2450 = 1000 + 14×100 + 50,
 *   R 1805 = 500 + 14×90 + 45), the new one at 12:01 (F 0.5, R 0.2); by Oct 16 00:00 the new one
 *   reads F 50.5, R 45.2. Oct 15 = (2450 − 2400) + (50.5 − 0.5) = 100 forward, (1805 − 1760) + (45.2 − 0.2) = 90 reverse.
 * - Oct 20: the forward registers jump by 5000 (a counter glitch): that day counts 2880, flagged spike_clamped.
 * - Oct 25 23:58: no report, so the Oct 26 00:00 reading is missing; Oct 25 and 26 share the 200 / 180 kWh
 *   between the readings of Oct 25 and Oct 27 in proportion to time: 100 / 90 each, flagged missing.
 * - Oct 31 23:58: the last report; Nov 1 00:00 reads F 50.5 + 16×100 + 5000 = 6650.5, R 45.2 + 16×90 = 1485.2.
 * October forward: 30 × 100 + 2880 = 5880 (old meter 1450, new 4430); reverse 31 × 90 = 2790 (old 1305, new 1485).
 */
export const MONTH_TZ = 'Asia/Shanghai';
/** Local wall-clock time in Shanghai → instant. */
export const local = (iso: string) => Date.parse(`${iso}+08:00`);
export const CHANGE_AT = local('2026-10-15T12:00:00');
/** Readings after the sweep's "now": 2 Nov 12:00 local. */
export const MONTH_SWEEP_AT = local('2026-11-02T12:00:00');

export interface Report { ts: number; f: number; r: number }

export function monthReports(): Report[] {
  const out: Report[] = [{ ts: local('2026-09-30T23:58:00'), f: 1000, r: 500 }];
  for (let d = 1; d <= 31; d++) {
    const day = `2026-10-${String(d).padStart(2, '0')}`;
    if (d === 15) {
      out.push({ ts: local(`${day}T11:59:00`), f: 2450, r: 1805 });
      out.push({ ts: local(`${day}T12:01:00`), f: 0.5, r: 0.2 });
    }
    if (d === 25) continue;
    const f = d < 15 ? 1000 + 100 * d : 50.5 + 100 * (d - 15) + (d >= 20 ? 5000 : 0);
    const r = d < 15 ? 500 + 90 * d : 45.2 + 90 * (d - 15);
    out.push({ ts: local(`${day}T23:58:00`), f, r });
  }
  return out;
}

/** Writes a meter's reports (valley forward, peak reverse, the other registers 0) as raw telemetry and rollups. */
export async function writeMeterReports(t: TestApp, deviceId: number, slots: (number | null)[], list: Report[]) {
  const size = Math.max(...slots.filter((s): s is number => s !== null));
  const acc = new RollupAccumulator(Number.POSITIVE_INFINITY);
  const at = (id: string) => slots[READING_REGISTERS.indexOf(id)]! - 1;
  for (const rep of list) {
    const v = new Float64Array(size).fill(NaN);
    for (const s of slots) if (s !== null) v[s - 1] = 0;
    v[at('forwardActiveEnergy')] = rep.f;
    v[at('forwardActiveEnergyValley')] = rep.f;
    v[at('reverseActiveEnergy')] = rep.r;
    v[at('reverseActiveEnergyPeak')] = rep.r;
    acc.add(deviceId, MONTH_TZ, rep.ts, v);
    // The raw reports too (the change is read from them).
    await t.ctx.database.sql.query('insert into telemetry (device_id, ts, v) values ($1, $2, $3)', [deviceId, new Date(rep.ts), Array.from(v, (x) => (Number.isNaN(x) ? null : x))]);
  }
  const due = acc.take(Date.now(), true);
  const { session } = copyDriver(t.ctx.database);
  for (const g of Object.keys(due) as Granularity[]) if (due[g].length) await session((s) => writeAggregates(s, ROLLUP_TABLES[g], due[g]));
}

/**
 * The month at a station: its zone set to Shanghai, a storage meter with the month's reports, a
 * 100 kW converter, and the meter's replacement on Oct 15 at 12:00 (the device-change flow's record).
 */
export async function meterMonth(t: TestApp, siteId: number) {
  await t.ctx.db.update(site).set({ timeZone: MONTH_TZ }).where(eq(site.id, siteId));
  const meter = await newDevice(t, siteId, { type: 'meter', meterPurpose: 'storage', code: `MT-ESS-${Date.now()}` });
  const pcs = await newDevice(t, siteId, { type: 'pcs' });
  await t.ctx.db.update(device).set({ ratedPower: 100 }).where(eq(device.id, pcs.id));
  const slots = await registerSlots(t.ctx.db, meter.productId);
  await writeMeterReports(t, meter.id, slots, monthReports());
  await t.ctx.db.insert(deviceChange).values({
    deviceId: meter.id, siteId, productId: meter.productId, oldCode: meter.code, newCode: `${meter.code}-N`, oldName: '储能电表', newName: '储能电表',
    userId: 1, username: 'test', changedAt: new Date(CHANGE_AT),
  });
  await t.ctx.db.update(device).set({ code: `${meter.code}-N` }).where(eq(device.id, meter.id));
  return { meter, slots };
}
