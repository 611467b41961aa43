import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FirmwareLogDetail, FirmwarePreviewResult, FirmwareRolloutDetail, FirmwareTaskDetail } from '@ess/contract/firmware';
import { FIRMWARE_ERRORS } from '@ess/contract/firmware';
import type { ManualClock, SimulatorHandle } from '@ess/simulator';
import { ADMIN_PASSWORD, dbTargets, type TestApp } from '../../../test/harness.ts';
import { newCompany, newSite, newUser, okData, until } from '../../../test/factory.ts';
import { alarm } from '../../db/schema/alarm.ts';
import { device } from '../../db/schema/device.ts';
import { firmwareLogDevice } from '../../db/schema/firmware.ts';
import { site } from '../../db/schema/site.ts';
import { strategy } from '../../db/schema/strategy.ts';
import { commandTap, storedPackage } from './firmware.fixtures.ts';
import { rolloutBench, type RolloutBench } from './rollout.test-helpers.ts';

/**
 * Rollouts over real MQTT with the simulator (issue 22): the demo fleet on the server's embedded
 * broker; the server sends otaDownload / otaFlash, the simulated devices download the package over
 * HTTP with the token, verify it, flash (offline a moment), reboot and report; the engine moves
 * groups on by their thresholds, the safe gate holds a BMS while its station discharges.
 */
describe.each(dbTargets(import.meta.url))('firmware rollouts with the simulator on %s', (target) => {
  let b: RolloutBench;
  let t: TestApp;
  let sim: SimulatorHandle;
  let clock: ManualClock;
  let sites: Map<string, number>;
  let ids: Map<string, number>;
  const id = (code: string) => ids.get(code)!;
  const tick = () => b.tick();
  const one = (rid: number) => b.one(rid);
  const tasks = (rid: number) => b.tasks(rid);
  const waitFor = (what: string, rid: number, cond: (r: FirmwareRolloutDetail) => boolean, ms?: number) => b.waitFor(what, rid, cond, ms);

  beforeAll(async () => {
    b = await rolloutBench(target);
    ({ t, sim, clock, sites, ids } = b);
  }, 120_000);
  afterAll(async () => {
    await b?.stop();
  });

  it('rolls out to the air conditioners of the demo stations in 3 groups: the canary succeeds, the next groups start, every device runs the version', async () => {
    const pkg = await storedPackage(t.ctx, { siteCode: 'SH01', deviceType: 'airConditioner', name: 'hvac', version: '5.1.0' });
    const target = { packageId: pkg.id, siteIds: [] as number[] };
    const grouping = { canarySize: 1, groupSize: null, groupPercent: 50 };
    const preview = await okData(t.api.post<FirmwarePreviewResult>('/firmware/rollout/preview', t.adminToken, { target, grouping }));
    expect(preview.targeted).toBeGreaterThanOrEqual(3);
    expect(preview.groups.length).toBe(3);
    const { id: rid } = await okData(t.api.post<{ id: number }>('/firmware/rollout/add', t.adminToken, { name: '空调固件 5.1.0', target, grouping, safeGate: false }));
    expect((await one(rid)).state).toBe('ready');
    await okData(t.api.post('/firmware/rollout/start', t.adminToken, { id: rid }));
    const done = await waitFor('the rollout to finish', rid, (r) => r.state === 'finished');
    expect(done.groups.map((g) => g.state)).toEqual(['finished', 'finished', 'finished']);
    expect(done.counts.success).toBe(preview.targeted);
    // The groups started one after another: each after the previous one's start.
    const starts = done.groups.map((g) => Date.parse(g.startedAt!));
    expect(starts[1]!).toBeGreaterThanOrEqual(starts[0]!);
    expect(starts[2]!).toBeGreaterThanOrEqual(starts[1]!);
    const first = (await tasks(rid))[0]!;
    const detail = await okData(t.api.post<FirmwareTaskDetail>('/firmware/task/query/one', t.adminToken, { id: first.id }));
    expect(detail.steps.map((s) => s.state)).toEqual(expect.arrayContaining(['issuedSuccess', 'downloading', 'downloaded', 'flashing', 'success']));
    const [d] = await t.ctx.db.select({ v: device.firmwareVersion, n: device.firmwareName }).from(device).where(eq(device.id, first.deviceId));
    expect(d).toEqual({ v: '5.1.0', n: 'hvac' });
  }, 120_000);

  it('pauses when failures pass the error threshold; retrying the failed devices ends in success', async () => {
    const pkg = await storedPackage(t.ctx, { siteCode: 'SH01', deviceType: 'meter', name: 'meter', version: '2.2.0' });
    const target = { packageId: pkg.id, siteIds: [sites.get('SH01')!] };
    const meters = [...ids.keys()].filter((c) => c.startsWith('SH01-MT-'));
    // The canary fails at verify: 100 % of its group.
    const order = (await okData(t.api.post<FirmwarePreviewResult>('/firmware/rollout/preview', t.adminToken, { target, grouping: { canarySize: 1, groupSize: 5, groupPercent: null } }))).devices;
    const canary = order.find((d) => d.group === 1)!.code;
    expect(meters).toContain(canary);
    sim.setOtaFault(canary, 'verify');
    const { id: rid } = await okData(t.api.post<{ id: number }>('/firmware/rollout/add', t.adminToken, { name: '电表固件', target, grouping: { canarySize: 1, groupSize: 5, groupPercent: null }, safeGate: false }));
    await okData(t.api.post('/firmware/rollout/start', t.adminToken, { id: rid }));
    const paused = await waitFor('the rollout to pause', rid, (r) => r.state === 'paused');
    expect(paused.pauseReason).toContain('第1组失败率 100%');
    expect(paused.groups.map((g) => g.state)).toEqual(['errorThreshold', 'waiting']);
    expect((await tasks(rid)).find((x) => x.deviceCode === canary)).toMatchObject({ state: 'verifyFailed' });

    sim.setOtaFault(canary, null);
    await okData(t.api.post('/firmware/rollout/retry', t.adminToken, { id: rid }));
    const done = await waitFor('the retried rollout to finish', rid, (r) => r.state === 'finished');
    expect(done.counts.success).toBe(done.counts.total);
    expect(sim.firmware(canary).version).toBe('2.2.0');
  }, 120_000);

  it('a device already on the version ends as success', async () => {
    const pkg = await storedPackage(t.ctx, { siteCode: 'SH01', deviceType: 'transformer', name: 'tr-monitor', version: '1.0.6' });
    // The server believes it is older (a stale record): the device answers alreadyCurrent.
    await t.ctx.db.update(device).set({ firmwareVersion: '1.0.5' }).where(eq(device.id, id('SH01-TR-01')));
    const { id: rid } = await okData(t.api.post<{ id: number }>('/firmware/rollout/add', t.adminToken, {
      name: '变压器', target: { packageId: pkg.id, deviceIds: [id('SH01-TR-01')] }, grouping: { canarySize: 1, groupSize: 1, groupPercent: null },
    }));
    await okData(t.api.post('/firmware/rollout/start', t.adminToken, { id: rid }));
    await waitFor('the rollout to finish', rid, (r) => r.state === 'finished');
    expect((await tasks(rid))[0]).toMatchObject({ state: 'success', reason: '设备已是目标版本', reportedVersion: '1.0.6' });
  }, 60_000);

  it('a flash lost with the station\'s connection goes again as the same command once the device is back: flashed once, success', async () => {
    const code = 'LA01-TR-01';
    const pkg = await storedPackage(t.ctx, { siteCode: 'LA01', deviceType: 'transformer', name: 'tr-monitor', version: '1.0.7' });
    const tap = await commandTap(t.ctx.mqtt.url);
    try {
      sim.setOtaFault(code, 'cut');
      const { id: rid } = await okData(t.api.post<{ id: number }>('/firmware/rollout/add', t.adminToken, {
        name: '断线', target: { packageId: pkg.id, deviceIds: [id(code)] }, grouping: { canarySize: 1, groupSize: 1, groupPercent: null }, safeGate: false,
      }));
      await okData(t.api.post('/firmware/rollout/start', t.adminToken, { id: rid }));
      // Without the watch, the task waited for its 2-minute flash deadline and failed.
      await waitFor('the rollout to finish', rid, (r) => r.state === 'finished', 60_000);
      const [task] = await tasks(rid);
      expect(task).toMatchObject({ state: 'success', reportedVersion: '1.0.7' });
      expect(b.simLog().some((l) => l.includes(`${code} otaFlash`) && l.includes('lost'))).toBe(true);
      // One command (one requestId), published twice: the first lost with the connection.
      expect(tap.count('otaFlash', task!.id)).toBe(1);
      expect(tap.seen.filter((c) => c.command === 'otaFlash' && c.params.taskId === task!.id).length).toBe(2);
      expect(sim.firmware(code).version).toBe('1.0.7');
    } finally {
      sim.setOtaFault(code, null);
      await tap.close();
    }
  }, 90_000);

  it('the safe gate holds a BMS flash while its station discharges and lets it through in standby', async () => {
    const sh01 = sites.get('SH01')!;
    await t.ctx.db.delete(strategy).where(eq(strategy.siteId, sh01));
    await t.ctx.db.update(alarm).set({ status: 'ended', endedAt: new Date() }).where(and(eq(alarm.siteId, sh01), eq(alarm.status, 'active')));
    const control = (mode: string, extra: object = {}) =>
      okData(t.api.post('/monitor/storage/one/control', t.adminToken, { deviceId: id('SH01-EMS-01'), mode, password: ADMIN_PASSWORD, ...extra }));
    await control('manual', { powerKw: 100, durationMin: 120 });
    await tick();
    await tick();
    const pkg = await storedPackage(t.ctx, { siteCode: 'SH01', deviceType: 'bms', name: 'bms-master', version: '1.9.1' });
    const { id: rid } = await okData(t.api.post<{ id: number }>('/firmware/rollout/add', t.adminToken, {
      name: 'BMS', target: { packageId: pkg.id, deviceIds: [id('SH01-BMS-01')] }, grouping: { canarySize: 1, groupSize: 1, groupPercent: null }, safeGate: true,
    }));
    await okData(t.api.post('/firmware/rollout/start', t.adminToken, { id: rid }));
    await until('the BMS to wait at the gate', async () => (await tasks(rid))[0]?.waitReason === 'storageActive', 30_000, 200);
    // Held: still downloaded, not flashed, over several passes and reports.
    await tick();
    await new Promise((r) => setTimeout(r, 1500));
    expect((await tasks(rid))[0]).toMatchObject({ state: 'downloaded', waitReason: 'storageActive' });
    expect(sim.firmware('SH01-BMS-01').version).toBe('1.9.0');

    await control('standby');
    await tick();
    await tick();
    await waitFor('the BMS to be flashed', rid, (r) => r.state === 'finished');
    expect((await tasks(rid))[0]).toMatchObject({ state: 'success', reportedVersion: '1.9.1' });
    const detail = await okData(t.api.post<FirmwareTaskDetail>('/firmware/task/query/one', t.adminToken, { id: (await tasks(rid))[0]!.id }));
    expect(detail.steps.filter((s) => s.waitReason).map((s) => s.waitReason)).toContain('storageActive');
    await control('auto');
  }, 90_000);

  it('refuses: the creator approving, a user without the menu, a target with a foreign station (naming it), changing nothing', async () => {
    const pkg = await storedPackage(t.ctx, { siteCode: 'SH01', deviceType: 'pcs', name: 'pcs-dsp', version: '2.9.0' });
    const { id: rid } = await okData(t.api.post<{ id: number }>('/firmware/rollout/add', t.adminToken, {
      name: '审批', target: { packageId: pkg.id, siteIds: [sites.get('SH01')!] }, grouping: { canarySize: 1, groupSize: 1, groupPercent: null }, requireApproval: true,
    }));
    expect((await one(rid)).state).toBe('pendingApproval');
    expect((await one(rid)).actions).not.toContain('approve');
    const self = await t.api.post('/firmware/rollout/approve', t.adminToken, { id: rid });
    expect(self.status).toBe(406);
    expect(self.body.tipMsg).toBe(FIRMWARE_ERRORS.approvalSelf);
    const early = await t.api.post('/firmware/rollout/start', t.adminToken, { id: rid });
    expect(early.status).toBe(406);

    const [{ companyId } = { companyId: 1 }] = await t.ctx.db.select({ companyId: site.companyId }).from(site).where(eq(site.code, 'SH01'));
    const noMenu = await newUser(t, companyId, { menus: ['/firmware/log'] });
    expect((await t.api.post('/firmware/rollout/approve', noMenu.token, { id: rid })).status).toBe(403);
    const second = await newUser(t, companyId, { menus: ['/firmware/upgrade'], siteIds: [...sites.values()] });
    await okData(t.api.post('/firmware/rollout/approve', second.token, { id: rid, note: '同意' }));
    expect(await one(rid)).toMatchObject({ state: 'ready', approvedByName: second.name, approvalNote: '同意' });

    const other = await newCompany(t, 1);
    const foreign = await newSite(t, other.id, { name: '外部站点' });
    const limited = await newUser(t, companyId, { menus: ['/firmware/upgrade'], siteIds: [sites.get('SH01')!] });
    const before = await t.api.post<{ total: number }>('/firmware/rollout/query/page', t.adminToken, {});
    for (const siteIds of [[foreign.id], [sites.get('SH01')!, sites.get('BE01')!]]) {
      const r = await t.api.post('/firmware/rollout/add', limited.token, { name: '越权', target: { packageId: pkg.id, siteIds }, grouping: { canarySize: 1, groupSize: 1, groupPercent: null } });
      expect(r.status).toBe(403);
      expect(r.body.tipMsg).toContain(FIRMWARE_ERRORS.foreignSite);
    }
    const named = await t.api.post('/firmware/rollout/add', limited.token, { name: '越权', target: { packageId: pkg.id, siteIds: [sites.get('BE01')!] }, grouping: { canarySize: 1, groupSize: 1, groupPercent: null } });
    const [be] = await t.ctx.db.select({ name: site.name }).from(site).where(eq(site.code, 'BE01'));
    expect(named.body.tipMsg).toContain(be!.name);
    expect((await t.api.post<{ total: number }>('/firmware/rollout/query/page', t.adminToken, {})).body.data.total).toBe(before.body.data.total);
    // Edit only before the start; delete only a rollout never started.
    await okData(t.api.post('/firmware/rollout/stop', t.adminToken, { id: rid }));
    expect((await t.api.post('/firmware/rollout/edit', t.adminToken, { id: rid, name: 'x', target: { packageId: pkg.id }, grouping: { canarySize: 1, groupSize: 1, groupPercent: null } })).status).toBe(406);
    await okData(t.api.get('/firmware/rollout/delete', t.adminToken, { id: rid }));
  }, 60_000);

  it('captures logs: uploads complete and download; a device that fails, and one that never answers times out', async () => {
    const [{ companyId } = { companyId: 1 }] = await t.ctx.db.select({ companyId: site.companyId }).from(site).where(eq(site.code, 'SH01'));
    const from = new Date(clock.now() - 30 * 60_000).toISOString();
    const to = new Date(clock.now()).toISOString();
    sim.setOtaFault('SH01-MT-ESS', 'log');
    sim.silence('SH01-MT-MAIN');
    const { id: cid } = await okData(t.api.post<{ id: number }>('/firmware/log/add', t.adminToken, {
      companyId, name: '日志', deviceIds: [id('SH01-EMS-01'), id('SH01-PCS-01'), id('SH01-MT-ESS'), id('SH01-MT-MAIN')], from, to, timeoutMinutes: 1,
    }));
    await until('the uploads', async () => {
      const d = await okData(t.api.post<FirmwareLogDetail>('/firmware/log/query/one', t.adminToken, { id: cid }));
      return d.counts.uploaded === 2 && d.counts.failed === 1;
    }, 30_000, 200);
    const d = await okData(t.api.post<FirmwareLogDetail>('/firmware/log/query/one', t.adminToken, { id: cid }));
    const ems = d.devices.find((x) => x.deviceCode === 'SH01-EMS-01')!;
    expect(ems).toMatchObject({ state: 'uploaded', hasFile: true });
    const file = await t.api.get('/firmware/log/download', t.adminToken, { id: ems.id });
    expect(file.status).toBe(200);
    expect(file.raw.length).toBe(ems.bytes);
    expect(file.raw.toString('utf8')).toContain('SH01-EMS-01');
    // A user without the station may not download it.
    const other = await newUser(t, companyId, { menus: ['/firmware/log'], siteIds: [sites.get('BE01')!] });
    expect((await t.api.get('/firmware/log/download', other.token, { id: ems.id })).status).toBe(404);
    // The silent meter: past the capture's deadline it is "upload timeout".
    await t.ctx.db.update(firmwareLogDevice).set({ deadlineAt: new Date(Date.now() - 1000) }).where(and(eq(firmwareLogDevice.captureId, cid), eq(firmwareLogDevice.deviceId, id('SH01-MT-MAIN'))));
    await until('the timeout', async () => (await okData(t.api.post<FirmwareLogDetail>('/firmware/log/query/one', t.adminToken, { id: cid }))).state === 'finished', 10_000, 200);
    const end = await okData(t.api.post<FirmwareLogDetail>('/firmware/log/query/one', t.adminToken, { id: cid }));
    expect(end.devices.find((x) => x.deviceCode === 'SH01-MT-MAIN')).toMatchObject({ state: 'timeout', hasFile: false });
    expect(end.devices.find((x) => x.deviceCode === 'SH01-MT-ESS')).toMatchObject({ state: 'failed' });
    sim.unsilence('SH01-MT-MAIN');
    sim.setOtaFault('SH01-MT-ESS', null);
    // A bad token is refused.
    const put = await fetch(`${t.url}/api/manager/firmware/device/log?token=v1.bad.token`, { method: 'PUT', body: 'x', headers: { 'content-type': 'text/plain' } });
    expect(put.status).toBe(401);
  }, 60_000);

});
