import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REMETER_ACCEPTED, REMETER_OCCUPIED, periodReadingDetail, periodReadingRecord, reMeterTask, timingReadingRecord, zeroReadingRecord,
  type PeriodReadingDetail, type PeriodReadingRecord, type ReMeterTask, type TimingReadingRecord, type ZeroReadingRecord,
} from '@ess/contract';
import type { Page } from '@ess/contract';
import { meterPeriodReading, meterReMeterTask, meterZeroReading } from '../../db/schema/meter-reading.ts';
import { priceCycle, priceTemplate, sitePriceCycle } from '../../db/schema/pricing.ts';
import { readXlsxSheet } from '../../platform/xlsx/xlsx.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, newUser, okData, seededCompanies, type FactoryUser } from '../../../test/factory.ts';
import { MONTH_SWEEP_AT, local, meterMonth, writeMeterReports, type Report } from '../../../test/meter-month.ts';
import { periodEnergy } from './period-energy.ts';
import { runReMeterTask } from './period-reading.service.ts';
import { sweepReadings } from './reading.jobs.ts';

/** The month of apps/server/test/meter-month.ts (by hand there): a replacement, a spike and a missing midnight. */
const NOW = MONTH_SWEEP_AT;

describe.each(dbTargets(import.meta.url))('meter readings on %s', (target) => {
  let t: TestApp;
  let siteId: number;
  let foreignSiteId: number;
  let meterId: number;
  let pvMeterId: number;
  let viewer: FactoryUser;
  let slots: (number | null)[];

  const writeReports = (deviceId: number, list: Report[]) => writeMeterReports(t, deviceId, slots, list);

  beforeAll(async () => {
    t = await startTestApp(target, { ROLES: 'api' });
    const { east, south } = await seededCompanies(t);
    siteId = (await newSite(t, east.id)).id;
    foreignSiteId = (await newSite(t, south.id)).id;
    const month = await meterMonth(t, siteId);
    meterId = month.meter.id;
    slots = month.slots;
    pvMeterId = (await newDevice(t, siteId, { type: 'meter', meterPurpose: 'pv' })).id;
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
    // October, and November to date (Nov 1: the new meter's register stands still, the reading of Nov 2 is missing).
    expect(page.records.map((r) => [r.periodStart, r.periodEnd])).toEqual([['2026-11-01', '2026-11-01'], ['2026-10-01', '2026-10-31']]);
    const rec = periodReadingRecord.parse(page.records[1]);
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
    const file = await t.api.post('/operation/energy/meter/export', viewer.token, { siteId, startDate: '2026-10-01', endDate: '2026-10-31' });
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

  it('the zero and timing exports say what their pages say', async () => {
    const zero = await t.api.post('/meter/zero/data/export', viewer.token, { siteId, deviceId: meterId, startDate: '2026-10-01', endDate: '2026-11-01' });
    expect(zero.status).toBe(200);
    const zs = (await readXlsxSheet(zero.raw))!;
    expect(zs.rows).toHaveLength(32);
    const total = zs.headers.find((h) => h.startsWith('正向有功电能（总）'))!;
    const quality = zs.headers.find((h) => h === '数据质量')!;
    const byValue = zs.rows.map((r) => [Number(r.cells[total]), r.cells[quality]]);
    expect(byValue).toContainEqual([1000, '实测']);
    expect(byValue).toContainEqual([6650.5, '实测']);
    expect(zs.rows.filter((r) => r.cells[quality] === '缺失')).toHaveLength(1);
    const timing = await t.api.post('/meter/timing/reading/export', viewer.token, { siteId, deviceId: meterId });
    expect(timing.status).toBe(200);
    const ts = (await readXlsxSheet(timing.raw))!;
    const tt = ts.headers.find((h) => h.startsWith('正向有功电能（总）'))!;
    expect(ts.rows.map((r) => Number(r.cells[tt])).sort((a, b) => a - b)).toEqual([1000, 6650.5]);
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
    // None of the refused re-meters left a task behind.
    const [{ tasks }] = (await t.ctx.db.select({ tasks: count() }).from(meterReMeterTask).where(inArray(meterReMeterTask.deviceId, [meterId, foreignMeter.id]))) as [{ tasks: number }];
    expect(tasks).toBe(0);
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
    const before = await t.ctx.db.select().from(meterPeriodReading).where(and(eq(meterPeriodReading.deviceId, meterId), eq(meterPeriodReading.periodStart, '2026-10-01')));
    await runReMeterTask(t.ctx, task.id);
    const page = await okData(post<Page<PeriodReadingRecord>>('/operation/energy/meter/query/page', { siteId, startDate: '2026-10-01', endDate: '2026-10-31' }));
    const done = page.records[0]!.task!;
    expect([done.state, done.progress, done.changed]).toEqual(['done', 100, false]);
    const after = await t.ctx.db.select().from(meterPeriodReading).where(and(eq(meterPeriodReading.deviceId, meterId), eq(meterPeriodReading.periodStart, '2026-10-01')));
    expect(after.map((r) => [r.differences, r.startRegisters, r.endRegisters, r.flags])).toEqual(before.map((r) => [r.differences, r.startRegisters, r.endRegisters, r.flags]));
    // Free again once done.
    const again = await post<ReMeterTask>('/operation/energy/meter/reMeter', body);
    expect(again.status).toBe(200);
  });

  it('the running month to date gives way to the longer one as days pass', async () => {
    expect((await sweepReadings(t.ctx, NOW + 86_400_000)).periods).toBe(1);
    const page = await okData(post<Page<PeriodReadingRecord>>('/operation/energy/meter/query/page', { siteId }));
    expect(page.records.map((r) => [r.periodStart, r.periodEnd])).toEqual([['2026-11-01', '2026-11-02'], ['2026-10-01', '2026-10-31']]);
  });

  it('a late report fills a missing midnight, and the period readings it touches are read again', async () => {
    await writeReports(meterId, [{ ts: local('2026-10-25T23:58:00'), f: 50.5 + 100 * 10 + 5000, r: 45.2 + 90 * 10 }]);
    const made = await sweepReadings(t.ctx, NOW + 86_400_000);
    expect(made.refilled).toBe(1);
    const [oct26] = await t.ctx.db.select().from(meterZeroReading).where(and(eq(meterZeroReading.deviceId, meterId), eq(meterZeroReading.readingDate, '2026-10-26')));
    expect(oct26!.quality).toBe('measured');
    const page = await okData(post<Page<PeriodReadingRecord>>('/operation/energy/meter/query/page', { siteId, startDate: '2026-10-01', endDate: '2026-10-31' }));
    const rec = page.records[0]!;
    expect(rec.difference.forwardActiveEnergy).toBe(5880);
    expect(rec.flags.forwardActiveEnergy).toEqual(['spike_clamped', 'meter_replaced']);
    expect(rec.quality).toBe('meter_replaced');
  });

  it('the detail prices each day at the tariff in force: a new template from Oct 15, to the cent', async () => {
    const { east } = await seededCompanies(t);
    const template = async (valley: string, peak: string) => {
      const [tp] = await t.ctx.db.insert(priceTemplate).values({ companyId: east.id, name: `T${valley}-${Date.now()}`, type: 'generalCommercial', billingSystem: 'singlePart', voltageLevel: '10kV', currency: 'CNY' }).returning({ id: priceTemplate.id });
      await t.ctx.db.insert(priceCycle).values({
        templateId: tp!.id, name: 'autumn', months: [10, 11],
        periods: [{ start: '00:00', end: '08:00', period: 'valley' }, { start: '08:00', end: '18:00', period: 'flat' }, { start: '18:00', end: '24:00', period: 'peak' }],
        valleyPrice: valley, flatPrice: '0.7', peakPrice: peak,
      });
      return tp!.id;
    };
    await t.ctx.db.insert(sitePriceCycle).values([
      { siteId, templateId: await template('0.3123', '1.1057'), startDate: '2026-10-01', endDate: '2026-10-14' },
      { siteId, templateId: await template('0.35', '1.2'), startDate: '2026-10-15' },
    ]);
    const page = await okData(post<Page<PeriodReadingRecord>>('/operation/energy/meter/query/page', { siteId, startDate: '2026-10-01', endDate: '2026-10-31' }));
    const one = periodReadingDetail.parse(await okData(post<PeriodReadingDetail>('/operation/energy/meter/query/one', { id: page.records[0]!.id })));
    const line = (r: string) => one.lines.find((l) => l.register === r)!;
    // Charge in the valley: 1400 kWh × 0.3123 = 437.22, 4480 kWh × 0.35 = 1568.00 → 2005.22 (average 2005.22 / 5880 = 0.3410238…, to 6 decimals 0.341024).
    expect([line('forwardActiveEnergyValley').amount, line('forwardActiveEnergyValley').price, line('forwardActiveEnergyValley').priceChanged]).toEqual(['2005.22', '0.341024', true]);
    // Discharge at the peak: 1260 × 1.1057 = 1393.182, 1530 × 1.2 = 1836.000 → 3229.182 → 3229.18.
    expect(line('reverseActiveEnergyPeak').amount).toBe('3229.18');
    expect([line('forwardActiveEnergy').price, line('forwardActiveEnergy').amount]).toEqual([null, null]);
    // Storage: discharge − charge, summed exactly and rounded once: 3229.182 − 2005.22 = 1223.962 → 1223.96.
    expect([one.amount, one.currency]).toEqual(['1223.96', 'CNY']);
  });

  it('the PV and charging-pile meters have their own page, detail, export and re-meter', async () => {
    const pileMeterId = (await newDevice(t, siteId, { type: 'meter', meterPurpose: 'pile' })).id;
    const rising = (perDay: number): Report[] => Array.from({ length: 33 }, (_, i) => ({
      ts: local(`${new Date(Date.UTC(2026, 8, 30 + i)).toISOString().slice(0, 10)}T23:58:00`), f: 100 + perDay * i, r: 10 + i,
    }));
    await writeReports(pvMeterId, rising(40));
    await writeReports(pileMeterId, rising(25));
    await sweepReadings(t.ctx, NOW);
    const admin = <T>(path: string, body: unknown) => t.api.post<T>(path, t.adminToken, body);
    for (const [base, id, perDay] of [['/operation/pv/meter', pvMeterId, 40], ['/operation/charging/pile/meter', pileMeterId, 25]] as const) {
      const page = await okData(admin<Page<PeriodReadingRecord>>(`${base}/query/page`, { siteId, startDate: '2026-10-01', endDate: '2026-10-31' }));
      expect(page.records.map((r) => [r.deviceId, r.periodStart, r.periodEnd, r.difference.forwardActiveEnergy, r.difference.reverseActiveEnergy]), base).toEqual([[id, '2026-10-01', '2026-10-31', 31 * perDay, 31]]);
      const one = periodReadingDetail.parse(await okData(admin<PeriodReadingDetail>(`${base}/query/one`, { id: page.records[0]!.id })));
      expect(one.days).toHaveLength(31);
      const file = await admin(`${base}/export`, { siteId, startDate: '2026-10-01', endDate: '2026-10-31' });
      const col = (await readXlsxSheet(file.raw))!;
      expect(col.rows.map((r) => Number(r.cells[col.headers.find((h) => h.startsWith('正向有功电能（总）（差值）'))!]))).toEqual([31 * perDay]);
      const task = await admin<ReMeterTask>(`${base}/reMeter`, { deviceId: id, periodStart: '2026-10-01', periodEnd: '2026-10-31' });
      expect([task.status, task.body.data.message]).toEqual([200, REMETER_ACCEPTED]);
      // A storage meter is not one of theirs.
      expect((await admin(`${base}/reMeter`, { deviceId: meterId, periodStart: '2026-10-01', periodEnd: '2026-10-31' })).status).toBe(404);
    }
  });
});
