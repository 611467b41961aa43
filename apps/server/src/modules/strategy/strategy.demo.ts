import { eq, inArray } from 'drizzle-orm';
import { defaultSocLimits, strategyHash, type StrategySchedule, type StrategyWindow } from '@ess/contract/strategy';
import type { PricePeriod } from '@ess/contract';
import { site } from '../../db/schema/site.ts';
import { strategy } from '../../db/schema/strategy.ts';
import type { AppContext } from '../../platform/context.ts';
import { addStrategy, limitsOf } from './strategy.service.ts';
import { emsStrategyOf } from './strategy.sync.ts';

/** A demo station as the demo knows it: its code and its time-of-use partition. */
export interface DemoStrategyStation {
  code: string;
  touSchedule: readonly { start: string; period: PricePeriod }[];
}

const ALL_MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/** Windows from the price partition: charge in (deep) valley, discharge in peak and tip (only tip with `tipOnly`), idle otherwise. */
export function windowsFromTou(tou: DemoStrategyStation['touSchedule'], powerKw: number, tipOnly = false): StrategyWindow[] {
  const modeOf = (p: PricePeriod): StrategyWindow['mode'] =>
    p === 'valley' || p === 'deepValley' ? 'charge' : p === 'tip' || (p === 'peak' && !tipOnly) ? 'discharge' : 'idle';
  const out: StrategyWindow[] = [];
  tou.forEach((seg, i) => {
    const end = tou[i + 1]?.start ?? '24:00';
    const mode = modeOf(seg.period);
    const last = out[out.length - 1];
    if (last && last.mode === mode) last.end = end;
    else out.push({ start: seg.start, end, mode, powerKw: mode === 'idle' ? 0 : powerKw, targetSoc: null });
  });
  return out;
}

/**
 * The demo's strategies (issue 19): every demo station without one gets a sensible strategy at
 * the first start — weekdays follow the prices (charge in the valleys, discharge at peak and tip
 * at the PCS rating), weekends discharge at tip only — and is marked for synchronisation; the
 * sweep sends it once the station's EMS is online (nothing here waits for a device).
 */
export async function seedStrategyDemo(ctx: AppContext, stations: readonly DemoStrategyStation[]): Promise<number> {
  if (stations.length === 0) return 0;
  const sites = await ctx.db.select({ id: site.id, code: site.code, timeZone: site.timeZone }).from(site).where(inArray(site.code, stations.map((s) => s.code)));
  let made = 0;
  for (const s of sites) {
    const [has] = await ctx.db.select({ id: strategy.id }).from(strategy).where(eq(strategy.siteId, s.id));
    if (has) continue;
    const tou = stations.find((d) => d.code === s.code)!.touSchedule;
    const limits = await limitsOf(ctx.db, s.id);
    const power = limits.pcsRatedKw ?? 100;
    // The simulator's EMS works between 5 % and 95 % by default: 90 % of depth of discharge.
    const dod = limits.depthOfDischarge ?? 90;
    const soc = dod >= 90 ? { socMin: 5, socMax: 95 } : defaultSocLimits(dod);
    const schedules: StrategySchedule[] = [
      { name: '工作日', priority: 1, months: ALL_MONTHS, weekdays: [1, 2, 3, 4, 5], windows: windowsFromTou(tou, power) },
      { name: '周末', priority: 1, months: ALL_MONTHS, weekdays: [6, 7], windows: windowsFromTou(tou, power, true) },
    ];
    try {
      const { id } = await addStrategy(ctx, null, {
        siteId: s.id, schedules, ...soc, transformerProtectionKw: limits.transformerProtectionPower, antiBackflow: true, demandTargetKw: null,
      });
      const [row] = await ctx.db.select().from(strategy).where(eq(strategy.id, id));
      const payload = await emsStrategyOf(ctx.db, row!, s);
      await ctx.db
        .update(strategy)
        .set({ syncedHash: strategyHash(payload), syncedPayload: payload, syncState: 'pending', attempts: 0 })
        .where(eq(strategy.id, id));
      made++;
    } catch (err) {
      ctx.log.warn({ err, site: s.code }, 'demo strategy not made');
    }
  }
  return made;
}
