import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localTime } from '@ess/contract';
import type { FirmwarePreviewResult, FirmwareTaskDetail } from '@ess/contract/firmware';
import { ADMIN_PASSWORD, dbTargets } from '../../../test/harness.ts';
import { okData, until } from '../../../test/factory.ts';
import { alarm } from '../../db/schema/alarm.ts';
import { firmwareRollout, firmwareSetting, firmwareTask } from '../../db/schema/firmware.ts';
import { strategy } from '../../db/schema/strategy.ts';
import { deviceLatest } from '../../db/schema/telemetry.ts';
import { commandTap, storedPackage } from './firmware.fixtures.ts';
import { rolloutBench, type RolloutBench } from './rollout.test-helpers.ts';

/**
 * The rollout's controls and holds over real MQTT with the simulator (issue 22 items 2–4): pause
 * holds the next groups and resume carries on; stop cancels the devices not yet started (a staged
 * download included); a start time in the future holds everything; maintenance windows judged in
 * each station's own zone (the download happens outside, the flash only inside); each reason of the
 * safe gate in turn, the task waiting and saying why, then flashed when the gate opens. The
 * broker's record of every command published (commandTap) shows what the devices were told.
 */
describe.each(dbTargets(import.meta.url))('firmware rollout controls with the simulator on %s', (target) => {
  let b: RolloutBench;
  let tap: Awaited<ReturnType<typeof commandTap>>;
  const post = <T = unknown>(path: string, body: object) => okData(b.t.api.post<T>(path, b.t.adminToken, body));
  const add = (body: object) => post<{ id: number }>('/firmware/rollout/add', { safeGate: false, ...body });
  const taskIds = async (rid: number) => (await b.t.ctx.db.select({ id: firmwareTask.id, groupId: firmwareTask.groupId }).from(firmwareTask).where(eq(firmwareTask.rolloutId, rid)));
  const sent = (command: string, ids: readonly number[]) => ids.reduce((n, id) => n + tap.count(command, id), 0);

  beforeAll(async () => {
    b = await rolloutBench(target);
    tap = await commandTap(b.t.ctx.mqtt.url);
  }, 120_000);
  afterAll(async () => {
    await tap?.close();
    await b?.stop();
  });

  it('pause holds the next groups (nothing sent to them), resume carries on to the end, every device flashed once', async () => {
    const pkg = await storedPackage(b.t.ctx, { siteCode: 'SH01', deviceType: 'airConditioner', name: 'hvac', version: '5.0.4' });
    const grouping = { canarySize: 1, groupSize: null, groupPercent: 50 };
    const target = { packageId: pkg.id };
    const preview = await post<FirmwarePreviewResult>('/firmware/rollout/preview', { target, grouping });
    expect(preview.groups.length).toBe(3);
    const { id: rid } = await add({ name: '暂停继续', target, grouping });
    await post('/firmware/rollout/start', { id: rid });
    await post('/firmware/rollout/pause', { id: rid, reason: '观察金丝雀' });
    expect(await b.one(rid)).toMatchObject({ state: 'paused', pauseReason: '观察金丝雀' });
    // Long enough for the canary to have finished and the next group to have started, were it running.
    await new Promise((r) => setTimeout(r, 3000));
    const held = await b.one(rid);
    expect(held.state).toBe('paused');
    expect(held.groups.slice(1).map((g) => g.state)).toEqual(['waiting', 'waiting']);
    const rows = await taskIds(rid);
    const later = rows.filter((r) => r.groupId !== held.groups[0]!.id).map((r) => r.id);
    expect(sent('otaDownload', later)).toBe(0);
    expect((await b.tasks(rid)).filter((x) => later.includes(x.id)).every((x) => x.state === 'pendingStart')).toBe(true);

    await post('/firmware/rollout/resume', { id: rid });
    const done = await b.waitFor('the resumed rollout to finish', rid, (r) => r.state === 'finished');
    expect(done.counts.success).toBe(preview.targeted);
    for (const r of rows) expect(tap.count('otaFlash', r.id), `otaFlash of task ${r.id}`).toBe(1);
  }, 120_000);

  it('stop cancels the devices not yet started and a download staged but not flashed; nothing is sent to them after', async () => {
    const pkg = await storedPackage(b.t.ctx, { siteCode: 'SH01', deviceType: 'airConditioner', name: 'hvac', version: '5.0.5' });
    // A one-minute window 12 hours away from SH01's now: the canary downloads and waits.
    const sh = localTime(Date.now(), 'Asia/Shanghai');
    const far = (Math.floor(sh.minuteOfDay) + 12 * 60) % 1440;
    const hhmm = (m: number) => `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    const { id: rid } = await add({
      name: '停止', target: { packageId: pkg.id, siteIds: [b.sites.get('SH01')!] }, grouping: { canarySize: 1, groupSize: 1, groupPercent: null },
      windows: [{ days: [], start: hhmm(far), end: hhmm(far + 1) }],
    });
    const rows = await taskIds(rid);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    await post('/firmware/rollout/start', { id: rid });
    // The canary downloads outside the window and waits there.
    await until('the canary to wait for its window', async () => (await b.tasks(rid)).some((x) => x.state === 'downloaded' && x.waitReason === 'outsideWindow'), 30_000, 200);
    const canary = (await b.tasks(rid)).find((x) => x.state === 'downloaded')!;
    await post('/firmware/rollout/stop', { id: rid });
    const stopped = await b.one(rid);
    expect(stopped.state).toBe('stopped');
    expect(stopped.groups.slice(1).every((g) => g.state === 'cancelled')).toBe(true);
    const after = await b.tasks(rid);
    expect(after.every((x) => x.state === 'cancelled'), JSON.stringify(after.map((x) => [x.deviceCode, x.state]))).toBe(true);
    await until('the canary told to drop its download', () => tap.count('otaCancel', canary.id) === 1, 10_000);
    const downloads = sent('otaDownload', rows.map((r) => r.id));
    await new Promise((r) => setTimeout(r, 2500));
    expect(sent('otaDownload', rows.map((r) => r.id))).toBe(downloads);
    expect(downloads).toBe(1);
    expect(sent('otaFlash', rows.map((r) => r.id))).toBe(0);
    expect(b.sim.firmware(canary.deviceCode).version).toBe('5.0.4');
    // Stopped is final: no resume, and the refusal says so (4xx).
    const again = await b.t.api.post('/firmware/rollout/resume', b.t.adminToken, { id: rid });
    expect(again.status).toBe(406);
  }, 90_000);

  it('a start time in the future holds the rollout: no group starts, nothing is sent, until the time has come', async () => {
    const pkg = await storedPackage(b.t.ctx, { siteCode: 'SH01', deviceType: 'meter', name: 'meter', version: '2.1.1' });
    const { id: rid } = await add({
      name: '定时', target: { packageId: pkg.id, siteIds: [b.sites.get('SH01')!] }, grouping: { canarySize: 1, groupSize: 5, groupPercent: null },
      startAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await post('/firmware/rollout/start', { id: rid });
    await new Promise((r) => setTimeout(r, 3000));
    const held = await b.one(rid);
    expect(held.state).toBe('running');
    expect(held.groups.every((g) => g.state === 'waiting' && g.startedAt === null)).toBe(true);
    const rows = await taskIds(rid);
    expect(sent('otaDownload', rows.map((r) => r.id))).toBe(0);
    // The hour has passed.
    await b.t.ctx.db.update(firmwareRollout).set({ startAt: new Date(Date.now() - 1000) }).where(eq(firmwareRollout.id, rid));
    const done = await b.waitFor('the rollout to finish once its time came', rid, (r) => r.state === 'finished');
    expect(done.counts.success).toBe(rows.length);
  }, 90_000);

  it('maintenance windows are judged in each station\'s zone: downloads happen outside, flashing only inside', async () => {
    const pkg = await storedPackage(b.t.ctx, { siteCode: 'SH01', deviceType: 'airConditioner', name: 'hvac', version: '5.0.6' });
    // 20 minutes either side of Shanghai's now: inside for SH01 (UTC+8), outside for every other demo station (Tokyo is an hour ahead).
    const sh = Math.floor(localTime(Date.now(), 'Asia/Shanghai').minuteOfDay);
    const hhmm = (m: number) => `${String(Math.floor(((m + 1440) % 1440) / 60)).padStart(2, '0')}:${String(((m + 1440) % 1440) % 60).padStart(2, '0')}`;
    const windows = [{ days: [], start: hhmm(sh - 20), end: hhmm(sh + 20) }];
    const { id: rid } = await add({ name: '维护时段', target: { packageId: pkg.id }, grouping: { canarySize: 0, groupSize: 1000, groupPercent: null }, windows });
    await post('/firmware/rollout/start', { id: rid });
    const all = await b.tasks(rid);
    const isSh = (code: string) => code.startsWith('SH01-');
    expect(all.some((x) => isSh(x.deviceCode)) && all.some((x) => !isSh(x.deviceCode))).toBe(true);
    await until('SH01 flashed, the others downloaded and waiting for their window', async () => {
      const ts = await b.tasks(rid);
      return ts.every((x) => (isSh(x.deviceCode) ? x.state === 'success' : x.state === 'downloaded' && x.waitReason === 'outsideWindow'));
    }, 60_000, 250);
    await new Promise((r) => setTimeout(r, 2000));
    const waiting = (await b.tasks(rid)).filter((x) => !isSh(x.deviceCode));
    expect(waiting.every((x) => x.state === 'downloaded' && x.waitReason === 'outsideWindow')).toBe(true);
    expect(sent('otaFlash', waiting.map((x) => x.id))).toBe(0);
    expect(sent('otaDownload', waiting.map((x) => x.id))).toBe(waiting.length);
    for (const x of waiting) expect(b.sim.firmware(x.deviceCode).version).not.toBe('5.0.6');
    // Their window opens (any time now): they are flashed.
    await b.t.ctx.db.update(firmwareRollout).set({ windows: [{ days: [], start: '00:00', end: '23:59' }, { days: [], start: '23:59', end: '00:00' }] }).where(eq(firmwareRollout.id, rid));
    const done = await b.waitFor('the rollout to finish', rid, (r) => r.state === 'finished');
    expect(done.counts.success).toBe(all.length);
  }, 120_000);

  it('the safe gate holds a BMS for each reason in turn (alarm, discharge window, SOC band, offline), says why, and flashes it when the gate opens', async () => {
    const sh01 = b.sites.get('SH01')!;
    const bms = 'SH01-BMS-01';
    const control = (mode: string, extra: object = {}) => post('/monitor/storage/one/control', { deviceId: b.id('SH01-EMS-01'), mode, password: ADMIN_PASSWORD, ...extra });
    // Storage in standby (idle): only the reasons under test close the gate.
    await control('standby');
    await b.t.ctx.db.update(alarm).set({ status: 'ended', endedAt: new Date() }).where(and(eq(alarm.siteId, sh01), eq(alarm.status, 'active')));
    await b.sim.injectFault('SH01-PCS-01', 'PCS_OVER_TEMPERATURE');
    await b.tick();
    await until('the level 2 alarm open', async () => (await b.t.ctx.db.select({ id: alarm.id }).from(alarm).where(and(eq(alarm.siteId, sh01), eq(alarm.status, 'active'), eq(alarm.code, 'PCS_OVER_TEMPERATURE')))).length === 1, 15_000, 100);

    const pkg = await storedPackage(b.t.ctx, { siteCode: 'SH01', deviceType: 'bms', name: 'bms-master', version: '1.9.5' });
    const { id: rid } = await add({ name: '安全闸', target: { packageId: pkg.id, deviceIds: [b.id(bms)] }, grouping: { canarySize: 1, groupSize: 1, groupPercent: null }, safeGate: true });
    await post('/firmware/rollout/start', { id: rid });
    const waitsFor = (reason: string) => until(`the BMS to wait: ${reason}`, async () => {
      const [x] = await b.tasks(rid);
      return x?.state === 'downloaded' && x.waitReason === reason;
    }, 30_000, 200);
    await waitsFor('alarmOpen');

    // Each next reason is set before the previous one goes, so the gate never opens in between.
    // The strategy synchronised to the EMS discharges all day; the alarm ends.
    const [st] = await b.t.ctx.db.select().from(strategy).where(eq(strategy.siteId, sh01));
    const allDay = { name: '全天放电', priority: 1, months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], weekdays: [1, 2, 3, 4, 5, 6, 7], windows: [{ start: '00:00', end: '24:00', mode: 'discharge', powerKw: 50, targetSoc: null }] };
    const payload = { ...(st?.syncedPayload ?? {}), timeZone: 'Asia/Shanghai', schedules: [allDay] };
    if (st) await b.t.ctx.db.update(strategy).set({ syncedPayload: payload }).where(eq(strategy.siteId, sh01));
    else await b.t.ctx.db.insert(strategy).values({ siteId: sh01, schedules: [allDay] as never, socMin: 10, socMax: 95, antiBackflow: false, syncState: 'applied', syncedPayload: payload });
    await b.sim.clearFault('SH01-PCS-01');
    await b.tick();
    await waitsFor('dischargeWindow');

    // The SOC band excludes the station's 50 %; no strategy.
    await b.t.ctx.db.update(firmwareSetting).set({ socMin: 80, socMax: 95 }).where(eq(firmwareSetting.id, 1));
    await b.t.ctx.db.delete(strategy).where(eq(strategy.siteId, sh01));
    await waitsFor('socOutOfBand');

    // The BMS goes silent and offline; the band is back.
    b.sim.silence(bms);
    await b.t.ctx.db.update(deviceLatest).set({ offlineAt: new Date() }).where(eq(deviceLatest.deviceId, b.id(bms)));
    await waitsFor('deviceOffline');
    await b.t.ctx.db.update(firmwareSetting).set({ socMin: 20, socMax: 90 }).where(eq(firmwareSetting.id, 1));
    await new Promise((r) => setTimeout(r, 1500));
    expect(b.sim.firmware(bms).version).not.toBe('1.9.5');
    expect(tap.count('otaFlash', (await b.tasks(rid))[0]!.id)).toBe(0);

    // Back online: the gate opens, the BMS is flashed and reports the version.
    b.sim.unsilence(bms);
    await b.tick();
    await b.waitFor('the BMS to be flashed', rid, (r) => r.state === 'finished');
    const [task] = await b.tasks(rid);
    expect(task).toMatchObject({ state: 'success', reportedVersion: '1.9.5' });
    const detail = await post<FirmwareTaskDetail>('/firmware/task/query/one', { id: task!.id });
    expect(detail.steps.filter((s) => s.waitReason).map((s) => s.waitReason)).toEqual(['alarmOpen', 'dischargeWindow', 'socOutOfBand', 'deviceOffline']);
    expect(tap.count('otaFlash', task!.id)).toBe(1);
    await control('auto');
  }, 150_000);
});
