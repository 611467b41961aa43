import { eq, inArray } from 'drizzle-orm';
import { defaultSocLimits, strategyHash, type EmsStrategy, type StrategySchedule, type StrategyWindow } from '@ess/contract/strategy';
import type { PricePeriod } from '@ess/contract';
import { site } from '../../db/schema/site.ts';
import { strategy } from '../../db/schema/strategy.ts';
import type { AppContext } from '../../platform/context.ts';
import { addStrategy, limitsOf } from './strategy.service.ts';
import { demandTargetNow, emsStrategyOf } from './strategy.sync.ts';

/** A demo station as the demo knows it: its code and its time-of-use partition. */
export interface DemoStrategyStation {
  code: string;
  touSchedule: readonly { start: string; period: PricePeriod }[];
}

const ALL_MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/**
 * The SOC (%) the demo's discharge windows stop at when the station has a demand target: the
 * energy below it (down to the SOC lower limit) is kept for shaving the demand peaks, which the
 * EMS discharges whenever the import would pass the target's line (decision 0040).
 */
export const DEMO_SHAVING_RESERVE_SOC = 60;

/**
 * Windows from the price partition: charge in (deep) valley, discharge in peak and tip (only tip
 * with `tipOnly`) down to `dischargeTargetSoc` (null: the SOC lower limit), idle otherwise.
 */
export function windowsFromTou(tou: DemoStrategyStation['touSchedule'], powerKw: number, tipOnly = false, dischargeTargetSoc: number | null = null): StrategyWindow[] {
  const modeOf = (p: PricePeriod): StrategyWindow['mode'] =>
    p === 'valley' || p === 'deepValley' ? 'charge' : p === 'tip' || (p === 'peak' && !tipOnly) ? 'discharge' : 'idle';
  const out: StrategyWindow[] = [];
  tou.forEach((seg, i) => {
    const end = tou[i + 1]?.start ?? '24:00';
    const mode = modeOf(seg.period);
    const last = out[out.length - 1];
    if (last && last.mode === mode) last.end = end;
    else out.push({ start: seg.start, end, mode, powerKw: mode === 'idle' ? 0 : powerKw, targetSoc: mode === 'discharge' ? dischargeTargetSoc : null });
  });
  return out;
}

/**
 * The demo's strategies (issue 19): every demo station without one gets a sensible strategy at
 * the first start — weekdays follow the prices (charge in the valleys, discharge at peak and tip
 * at the PCS rating), weekends discharge at tip only — and is marked for synchronisation; the
 * sweep sends it once the station's EMS is online (nothing here waits for a device). Its payload
 * carries the station's demand target; the demo history runs the stations under it
 * (`syncedStrategies`), so the history's EMS is the live one.
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
    // With a demand target (the demo sets one per station first), the price windows leave a reserve for shaving.
    const reserve = (await demandTargetNow(ctx.db, s)) ? DEMO_SHAVING_RESERVE_SOC : null;
    const schedules: StrategySchedule[] = [
      { name: '工作日', priority: 1, months: ALL_MONTHS, weekdays: [1, 2, 3, 4, 5], windows: windowsFromTou(tou, power, false, reserve) },
      { name: '周末', priority: 1, months: ALL_MONTHS, weekdays: [6, 7], windows: windowsFromTou(tou, power, true, reserve) },
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

/** The synchronised payloads and hashes of the given stations' strategies, by station code (the demo history applies them to its EMS). */
export async function syncedStrategies(ctx: AppContext, codes: readonly string[]): Promise<Map<string, { strategy: EmsStrategy; hash: string }>> {
  const out = new Map<string, { strategy: EmsStrategy; hash: string }>();
  if (!codes.length) return out;
  const rows = await ctx.db
    .select({ code: site.code, hash: strategy.syncedHash, payload: strategy.syncedPayload })
    .from(strategy)
    .innerJoin(site, eq(site.id, strategy.siteId))
    .where(inArray(site.code, [...codes]));
  for (const r of rows) if (r.hash && r.payload) out.set(r.code, { strategy: r.payload as unknown as EmsStrategy, hash: r.hash });
  return out;
}
