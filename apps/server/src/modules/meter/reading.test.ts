import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  READING_REGISTERS, REMETER_ACCEPTED, REMETER_OCCUPIED, periodReadingDetail, periodReadingRecord, reMeterTask, timingReadingRecord, zeroReadingRecord,
  type PeriodReadingDetail, type PeriodReadingRecord, type ReMeterTask, type TimingReadingRecord, type ZeroReadingRecord,
} from '@ess/contract';
import type { Page } from '@ess/contract';
import { device } from '../../db/schema/device.ts';
import { deviceChange } from '../../db/schema/device-registry.ts';
import { meterPeriodReading, meterZeroReading } from '../../db/schema/meter-reading.ts';
import { site } from '../../db/schema/site.ts';
import { readXlsxSheet } from '../../platform/xlsx/xlsx.ts';
import { DB_TARGETS, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, newUser, okData, seededCompanies, type FactoryUser } from '../../../test/factory.ts';
import { ROLLUP_TABLES, RollupAccumulator, copyDriver, writeAggregates, type Granularity } from '../telemetry/index.ts';
import { periodEnergy } from './period-energy.ts';
import { runReMeterTask } from './period-reading.service.ts';
import { sweepReadings } from './reading.jobs.ts';
import { registerSlots } from './reading.read.ts';

/**
 * One storage meter's October 2026 at a station in Asia/Shanghai (UTC+8), by hand. The meter
 * reports once a day at 23:58 local (so each midnight reads measured), charging 100 kWh a day
 * (forward, all in the valley register) and discharging 90 kWh (reverse, all in the peak
 * register); the converter is rated 100 kW, so a day may count at most 100 × 24 × 1.2 = 2880 kWh.
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
const TZ = 'Asia/Shanghai';
/** Local wall-clock time in Shanghai → instant. */
const local = (iso: string) => Date.parse(`${iso}+08:00`);
const CHANGE_AT = local('2026-10-15T12:00:00');
/** Readings after the sweep's "now": 2 Nov 12:00 local. */
const NOW = local('2026-11-02T12:00:00');

interface Report { ts: number; f: number; r: number }
function reports(): Report[] {
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

describe.each(DB_TARGETS)('meter readings on %s', (target) => {
  let t: TestApp;
  let siteId: number;
  let foreignSiteId: number;
  let meterId: number;
  let pvMeterId: number;
  let viewer: FactoryUser;
  let slots: (number | null)[];

  async function writeReports(deviceId: number, list: Report[]) {
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
      acc.add(deviceId, TZ, rep.ts, v);
      // The raw reports too (the change is read from them).
      await t.ctx.database.sql.query('insert into telemetry (device_id, ts, v) values ($1, $2, $3)', [deviceId, new Date(rep.ts), Array.from(v, (x) => (Number.isNaN(x) ? null : x))]);
    }
    const due = acc.take(Date.now(), true);
    const { session } = copyDriver(t.ctx.database);
    for (const g of Object.keys(due) as Granularity[]) if (due[g].length) await session((s) => writeAggregates(s, ROLLUP_TABLES[g], due[g]));
  }

  beforeAll(async () => {
    t = await startTestApp(target, { ROLES: 'api' });
    const { east, south } = await seededCompanies(t);
    siteId = (await newSite(t, east.id)).id;
    foreignSiteId = (await newSite(t, south.id)).id;
    await t.ctx.db.update(site).set({ timeZone: TZ }).where(eq(site.id, siteId));
    const meter = await newDevice(t, siteId, { type: 'meter', meterPurpose: 'storage', code: `MT-ESS-${Date.now()}` });
    meterId = meter.id;
    pvMeterId = (await newDevice(t, siteId, { type: 'meter', meterPurpose: 'pv' })).id;
    const pcs = await newDevice(t, siteId, { type: 'pcs' });
    await t.ctx.db.update(device).set({ ratedPower: 100 }).where(eq(device.id, pcs.id));
    slots = await registerSlots(t.ctx.db, meter.productId);
    await writeReports(meterId, reports());
    await t.ctx.db.insert(deviceChange).values({
      deviceId: meterId, siteId, productId: meter.productId, oldCode: meter.code, newCode: `${meter.code}-N`, oldName: '储能电表', newName: '储能电表',
      userId: 1, username: 'test', changedAt: new Date(CHANGE_AT),
    });
    await t.ctx.db.update(device).set({ code: `${meter.code}-N` }).where(eq(device.id, meterId));
    viewer = await newUser(t, east.id, { menus: ['/operation/meter', '/operation/solar', '/meter/time', '/meter/reading'], siteIds: [siteId] });
  });
  afterAll(async () => t?.stop());

  const post = <T>(path: string, body: unknown, token = viewer.token) => t.api.post<T>(path, token, body);

  it('the sweep reads every midnight once, also when two run side by side', async () => {
    const [a, b] = await Promise.all([sweepReadings(t.ctx, NOW), sweepReadings(t.ctx, NOW)]);
    // Oct 1 .. Nov 2: 33 midnights (Sep 30 is before the first report), and the replacement's readings.
    expect(a.zero + b.zero).toBe(34);
    const again = await sweepReadings(t.ctx, NOW);
    expect(again.zero).toBe(0);
    const [{ n }] = (await t.ctx.db.select({ n: count() }).from(meterZeroReading).where(eq(meterZeroReading.deviceId, meterId))) as [{ n: number }];
    expect(n).toBe(33);
  });

  it('zero readings: values at 00:00 local, quality, filters', async () => {
    const page = await okData(post<Page<ZeroReadingRecord>>('/meter/zero/data/query/page', { siteId, deviceId: meterId, pageSize: 50, sortField: 'readingDate', sortOrder: 'asc' }));
    expect(page.total).toBe(33);
    const rows = page.records.map((r) => zeroReadingRecord.parse(r));
    const oct1 = rows[0]!;
    expect(oct1.readingDate).toBe('2026-10-01');
    expect(oct1.readAt).toBe('2026-09-30T16:00:00.000Z');
    expect(oct1.sourceTime).toBe('2026-09-30T15:58:00.000Z');
    expect(oct1.quality).toBe('measured');
    expect(oct1.registers.forwardActiveEnergy).toBe(1000);
    expect(oct1.registers.reverseActiveEnergyPeak).toBe(500);
    const oct16 = rows.find((r) => r.readingDate === '2026-10-16')!;
    expect([oct16.registers.forwardActiveEnergy, oct16.registers.reverseActiveEnergy]).toEqual([50.5, 45.2]);
    const missing = await okData(post<Page<ZeroReadingRecord>>('/meter/zero/data/query/page', { siteId, quality: 'missing' }));
    expect(missing.records.map((r) => r.readingDate).sort()).toEqual(['2026-10-26', '2026-11-02']);
    const nov1 = rows.find((r) => r.readingDate === '2026-11-01')!;
    expect(nov1.registers.forwardActiveEnergy).toBe(6650.5);
  });

  it('the period of October: every register difference, the replacement split, the spike and the missing midnight', async () => {
    const [e] = await periodEnergy(t.ctx, { siteId, meterKind: 'storage', from: '2026-10-01', to: '2026-10-31' });
    expect(e!.byRegister.forwardActiveEnergy!.difference).toBe(5880);
    expect(e!.byRegister.forwardActiveEnergyValley!.difference).toBe(5880);
    expect(e!.byRegister.reverseActiveEnergy!.difference).toBe(2790);
    expect(e!.byRegister.reverseActiveEnergyPeak!.difference).toBe(2790);
    for (const r of ['forwardActiveEnergyTip', 'forwardActiveEnergyPeak', 'forwardActiveEnergyFlat', 'forwardActiveEnergyDeepValley', 'reverseActiveEnergyTip', 'reverseActiveEnergyValley']) {
      expect(e!.byRegister[r]!.difference).toBe(0);
    }
    expect(e!.byRegister.forwardActiveEnergy!.flags).toEqual(['spike_clamped', 'meter_replaced', 'missing']);
    expect(e!.byRegister.reverseActiveEnergy!.flags).toEqual(['meter_replaced', 'missing']);
    expect([e!.byRegister.forwardActiveEnergy!.start, e!.byRegister.forwardActiveEnergy!.end]).toEqual([1000, 6650.5]);
    expect(e!.quality).toBe('missing');
    const day = (d: string) => e!.days.find((x) => x.date === d)!;
    expect(day('2026-10-15').difference.forwardActiveEnergy).toBe(100);
    expect(day('2026-10-15').difference.reverseActiveEnergy).toBe(90);
    expect(day('2026-10-15').flags.forwardActiveEnergy).toEqual(['meter_replaced']);
    expect(day('2026-10-20').difference.forwardActiveEnergy).toBe(2880);
    expect(day('2026-10-20').flags.forwardActiveEnergy).toEqual(['spike_clamped']);
    expect(day('2026-10-20').difference.reverseActiveEnergy).toBe(90);
    expect([day('2026-10-25').difference.forwardActiveEnergy, day('2026-10-26').difference.forwardActiveEnergy]).toEqual([100, 100]);
    expect(day('2026-10-26').flags.reverseActiveEnergy).toEqual(['missing']);
    expect(day('2026-10-03').quality).toBe('measured');
    // Old meter 1000 → 2450, new 0.5 → 6650.5.
    expect(e!.segments.map((s) => [s.code.endsWith('-N'), s.start.forwardActiveEnergy, s.end.forwardActiveEnergy, s.difference.forwardActiveEnergy, s.difference.reverseActiveEnergy]))
      .toEqual([[false, 1000, 2450, 1450, 1305], [true, 0.5, 6650.5, 4430, 1485]]);
    // Additive: the two halves make the month.
    const [h1] = await periodEnergy(t.ctx, { siteId, meterKind: 'storage', from: '2026-10-01', to: '2026-10-14' });
    const [h2] = await periodEnergy(t.ctx, { siteId, meterKind: 'storage', from: '2026-10-15', to: '2026-10-31' });
    expect([h1!.byRegister.forwardActiveEnergy!.difference, h2!.byRegister.forwardActiveEnergy!.difference]).toEqual([1400, 4480]);
    expect([h1!.byRegister.reverseActiveEnergy!.difference, h2!.byRegister.reverseActiveEnergy!.difference]).toEqual([1260, 1530]);
  });

  it('the storage page, detail and export show the same month', async () => {
    const page = await okData(post<Page<PeriodReadingRecord>>('/operation/energy/meter/query/page', { siteId }));
    expect(page.total).toBe(1);
    const rec = periodReadingRecord.parse(page.records[0]);
    expect([rec.periodStart, rec.periodEnd, rec.quality]).toEqual(['2026-10-01', '2026-10-31', 'missing']);
    expect(rec.difference.forwardActiveEnergy).toBe(5880);
    expect(rec.difference.reverseActiveEnergyPeak).toBe(2790);
    expect(rec.start.forwardActiveEnergy).toBe(1000);
    expect(rec.end.reverseActiveEnergy).toBe(1485.2);
    const one = periodReadingDetail.parse(await okData(post<PeriodReadingDetail>('/operation/energy/meter/query/one', { id: rec.id })));
    expect(one.lines.find((l) => l.register === 'forwardActiveEnergyValley')!.difference).toBe(5880);
    expect(one.segments).toHaveLength(2);
    expect(one.days).toHaveLength(31);
    // The PV screen does not show storage meters.
    expect((await okData(post<Page<PeriodReadingRecord>>('/operation/pv/meter/query/page', { siteId }))).total).toBe(0);
    const file = await t.api.post('/operation/energy/meter/export', viewer.token, { siteId });
    expect(file.status).toBe(200);
    const sheet = await readXlsxSheet(file.raw);
    const col = sheet!.headers.find((h) => h.startsWith('正向有功电能（总）（差值）'))!;
    expect(col).toBeDefined();
    expect(sheet!.rows).toHaveLength(1);
    expect(Number(sheet!.rows[0]!.cells[col])).toBe(5880);
    expect(sheet!.rows[0]!.cells['数据质量']).toBe('缺失');
  });

  it('timing readings: month end 24:00 by default', async () => {
    const page = await okData(post<Page<TimingReadingRecord>>('/meter/timing/reading/query/page', { siteId, deviceId: meterId, sortField: 'readAt', sortOrder: 'asc' }));
    const rows = page.records.map((r) => timingReadingRecord.parse(r));
    expect(rows.map((r) => [r.localTime, r.quality, r.registers.forwardActiveEnergy])).toEqual([
      ['2026-09-30 24:00', 'measured', 1000],
      ['2026-10-31 24:00', 'measured', 6650.5],
    ]);
  });

  it('refuses a foreign station, a period ending before it starts, and a meter that is not of the subsystem', async () => {
    const foreign = await post('/meter/zero/data/query/page', { siteId: foreignSiteId });
    expect(foreign.status).toBe(403);
    const backwards = await post('/operation/energy/meter/reMeter', { deviceId: meterId, periodStart: '2026-10-31', periodEnd: '2026-10-01' });
    expect(backwards.status).toBe(400);
    expect(backwards.body.tipMsg).toContain('结束日期不能早于开始日期');
    const pvOnStorage = await post('/operation/energy/meter/reMeter', { deviceId: pvMeterId, periodStart: '2026-10-01', periodEnd: '2026-10-31' });
    expect(pvOnStorage.status).toBe(404);
    const unknown = await post('/operation/energy/meter/reMeter', { deviceId: 999_999, periodStart: '2026-10-01', periodEnd: '2026-10-31' });
    expect(unknown.status).toBe(404);
    const foreignMeter = await newDevice(t, foreignSiteId, { type: 'meter', meterPurpose: 'storage' });
    const other = await post('/operation/energy/meter/reMeter', { deviceId: foreignMeter.id, periodStart: '2026-10-01', periodEnd: '2026-10-31' });
    expect(other.status).toBe(404);
    const [{ n }] = (await t.ctx.db.select({ n: count() }).from(meterPeriodReading).where(eq(meterPeriodReading.deviceId, foreignMeter.id))) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('re-meter: answers at once, refuses a second request while one runs, and reads the same figures again', async () => {
    const body = { deviceId: meterId, periodStart: '2026-10-01', periodEnd: '2026-10-31' };
    const [a, b] = await Promise.all([post<ReMeterTask>('/operation/energy/meter/reMeter', body), post<ReMeterTask>('/operation/energy/meter/reMeter', body)]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 406]);
    const ok = a.status === 200 ? a : b;
    const busy = a.status === 200 ? b : a;
    expect(busy.body.tipMsg).toBe(REMETER_OCCUPIED);
    const task = reMeterTask.parse(ok.body.data);
    expect([task.state, task.progress, task.message]).toEqual(['queued', 0, REMETER_ACCEPTED]);
    const before = await t.ctx.db.select().from(meterPeriodReading).where(eq(meterPeriodReading.deviceId, meterId));
    await runReMeterTask(t.ctx, task.id);
    const page = await okData(post<Page<PeriodReadingRecord>>('/operation/energy/meter/query/page', { siteId }));
    const done = page.records[0]!.task!;
    expect([done.state, done.progress, done.changed]).toEqual(['done', 100, false]);
    const after = await t.ctx.db.select().from(meterPeriodReading).where(and(eq(meterPeriodReading.deviceId, meterId)));
    expect(after.map((r) => [r.differences, r.startRegisters, r.endRegisters, r.flags])).toEqual(before.map((r) => [r.differences, r.startRegisters, r.endRegisters, r.flags]));
    // Free again once done.
    const again = await post<ReMeterTask>('/operation/energy/meter/reMeter', body);
    expect(again.status).toBe(200);
  });
});
