import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { device } from '../../db/schema/device.ts';
import { firmwareLogCapture, firmwarePackage, firmwareRollout } from '../../db/schema/firmware.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import { logAdd } from './log-capture.service.ts';
import { rolloutAdd, rolloutStart } from './rollout.service.ts';
import { serviceUser } from '../system/index.ts';

/**
 * The demo's rollouts and log capture (SEED_DEMO, once: no rollout yet), made through the same
 * calls a user makes, by the administrator, once the simulator plays the stations: a BMS rollout
 * across BE01 and LA01 (no gate: it runs to the end within a minute, the simulated BMS really
 * download, flash and reboot), a PCS rollout at SH01 behind the safe gate (it waits, and says why,
 * while the station charges or discharges), and a log capture of SH01's EMS and PCS. Needs the
 * package side's demo packages (bms-master 2.0.0, pcs-dsp 2.9.0); without them it does nothing.
 */
export async function playFirmwareDemo(ctx: AppContext): Promise<void> {
  const [has] = await ctx.db.select({ n: count() }).from(firmwareRollout);
  if ((has?.n ?? 0) > 0) return;
  const user = await serviceUser(ctx, { username: 'admin' });
  if (!user) return;
  const pkg = async (name: string, version: string) =>
    (await ctx.db.select({ id: firmwarePackage.id }).from(firmwarePackage).where(and(eq(firmwarePackage.name, name), eq(firmwarePackage.version, version), eq(firmwarePackage.state, 'released'))))[0]?.id;
  const sites = new Map((await ctx.db.select({ id: site.id, code: site.code }).from(site).where(inArray(site.code, ['SH01', 'BE01', 'LA01']))).map((s) => [s.code, s.id]));
  const grouping = { canarySize: 1, groupSize: 1, groupPercent: null };
  const bms = await pkg('bms-master', '2.0.0');
  if (bms && sites.has('BE01') && sites.has('LA01')) {
    const { id } = await rolloutAdd(ctx, user, {
      name: 'BMS 主控 2.0.0（柏林、洛杉矶）', target: { packageId: bms, siteIds: [sites.get('BE01')!, sites.get('LA01')!], productIds: [], versions: [], deviceIds: [] },
      grouping, startAt: null, windows: [], safeGate: false, remark: '演示：金丝雀一台，之后逐台', successThreshold: 50, errorThreshold: 50, requireApproval: false,
    });
    await rolloutStart(ctx, user, id);
  }
  const pcs = await pkg('pcs-dsp', '2.9.0');
  if (pcs && sites.has('SH01')) {
    const { id } = await rolloutAdd(ctx, user, {
      name: 'PCS 2.9.0（上海，安全闸门）', target: { packageId: pcs, siteIds: [sites.get('SH01')!], productIds: [], versions: [], deviceIds: [] },
      grouping, startAt: null, windows: [], safeGate: true, remark: '演示：储能空闲或待机、SOC 合适、无一二级告警、不在放电时段时才刷写', successThreshold: 50, errorThreshold: 50, requireApproval: false,
    });
    await rolloutStart(ctx, user, id);
  }
  const [capture] = await ctx.db.select({ n: count() }).from(firmwareLogCapture);
  const devices = await ctx.db.select({ id: device.id, companyId: site.companyId }).from(device).innerJoin(site, eq(site.id, device.siteId))
    .where(inArray(device.code, ['SH01-EMS-01', 'SH01-PCS-01'])).orderBy(asc(device.id));
  if ((capture?.n ?? 0) === 0 && devices.length) {
    const now = Date.now();
    await logAdd(ctx, user, {
      companyId: devices[0]!.companyId, name: '上海站 EMS/PCS 近一小时日志', deviceIds: devices.map((d) => d.id),
      from: new Date(now - 3_600_000).toISOString(), to: new Date(now).toISOString(), remark: null,
    });
  }
}
