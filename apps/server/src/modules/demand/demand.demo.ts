import { and, desc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import { DEMAND_DEFAULT_ALARM_LEVEL, DEMAND_WINDOW_MS } from '@ess/contract/demand';
import { device } from '../../db/schema/device.ts';
import { demandSetting, demandWindow } from '../../db/schema/demand.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import { alarmEngineOf } from '../alarm/index.ts';
import { deviceRegistryOf } from '../telemetry/index.ts';
import { LINE_TOLERANCE_KW } from './demand.compute.ts';
import { demandSinkOf } from './demand.runtime.ts';
import { preAlarmCode, PRE_ALARM_CLEARED } from './demand.sink.ts';

/** At most this many pre-alarmed windows per station in the demo's history: "a few". */
const DEMO_PRE_ALARMS = 4;

/** A demo station's standing target (the simulator's `demoDemandTarget`, from its load profile). */
export interface DemoDemandTarget {
  code: string;
  targetKw: number;
  marginKw: number;
}

/**
 * The demand demo's targets, once (skipped when any target exists): a standing target per demo
 * station, set before the demo's history is played (decision 0040), so that the strategy the
 * stations are synchronised with carries it and the history's EMS keeps the import under it.
 */
export async function seedDemandTargets(ctx: AppContext, targets: readonly DemoDemandTarget[]): Promise<number> {
  const [any] = await ctx.db.select({ id: demandSetting.id }).from(demandSetting).limit(1);
  if (any || targets.length === 0) return 0;
  const sites = await ctx.db.select({ id: site.id, code: site.code }).from(site).where(inArray(site.code, targets.map((t) => t.code)));
  const rows = sites.map((s) => {
    const t = targets.find((x) => x.code === s.code)!;
    return { siteId: s.id, month: null, targetKw: t.targetKw, marginKw: t.marginKw, allowDischarge: true, alarmLevel: DEMAND_DEFAULT_ALARM_LEVEL, version: 1 };
  });
  if (rows.length) await ctx.db.insert(demandSetting).values(rows);
  await demandSinkOf(ctx)?.reload();
  return rows.length;
}

/**
 * The demand demo's pre-alarms over the history's windows (the history replays the meters through
 * the sink, which gives each window the target in force and whether it was exceeded): the windows
 * of the last 31 days whose demand passed the pre-alarm line — the days the storage ran short —
 * at most a few per station, the highest, are marked pre-alarmed and their pre-alarms raised and
 * ended through the alarm engine, as the live guard would have. Idempotent: a window already
 * pre-alarmed is left as it is.
 */
export async function seedDemandDemo(ctx: AppContext): Promise<void> {
  const sink = demandSinkOf(ctx);
  await sink?.flush();
  const since = new Date(Date.now() - 31 * 86_400_000);
  const settings = await ctx.db
    .select({ siteId: demandSetting.siteId, targetKw: demandSetting.targetKw, marginKw: demandSetting.marginKw, alarmLevel: demandSetting.alarmLevel })
    .from(demandSetting)
    .where(and(isNull(demandSetting.month), isNull(demandSetting.replacedAt)));
  if (!settings.length) return;
  const mains = await ctx.db
    .select({ id: device.id, siteId: device.siteId })
    .from(device)
    .where(and(eq(device.type, 'meter'), eq(device.meterPurpose, 'main'), inArray(device.siteId, settings.map((s) => s.siteId))))
    .orderBy(device.id);
  const registry = deviceRegistryOf(ctx);
  await registry.refresh();
  const engine = alarmEngineOf(ctx);
  for (const s of settings) {
    const threshold = Math.round((s.targetKw - s.marginKw) * 100) / 100;
    // Windows of an older history (played before the target existed) get it now.
    await ctx.db
      .update(demandWindow)
      .set({ targetKw: s.targetKw, exceeded: sql`${demandWindow.demandKw} > ${s.targetKw}` })
      .where(and(eq(demandWindow.siteId, s.siteId), gte(demandWindow.ts, since), isNull(demandWindow.targetKw)));
    const top = await ctx.db
      .select({ id: demandWindow.id, ts: demandWindow.ts, demandKw: demandWindow.demandKw, preAlarmed: demandWindow.preAlarmed })
      .from(demandWindow)
      .where(and(eq(demandWindow.siteId, s.siteId), gte(demandWindow.ts, since), sql`${demandWindow.demandKw} > ${threshold + LINE_TOLERANCE_KW}`))
      .orderBy(desc(demandWindow.demandKw), demandWindow.ts)
      .limit(DEMO_PRE_ALARMS);
    const main = mains.find((m) => m.siteId === s.siteId);
    const dev = main ? registry.byId.get(main.id) : undefined;
    const code = preAlarmCode(s.alarmLevel);
    for (const w of top.filter((x) => !x.preAlarmed)) {
      const at = w.ts.getTime() + 10 * 60_000;
      await ctx.db.update(demandWindow).set({ preAlarmed: true, projectedKw: w.demandKw, preAlarmAt: new Date(at) }).where(eq(demandWindow.id, w.id));
      if (!engine || !dev) continue;
      // The history's pre-alarms: written as history (not sent by hooks or messages).
      engine.event(dev, code, true, `预计需量${w.demandKw}kW超过预警值${threshold}kW（目标${s.targetKw}kW）`, at, true);
      engine.event(dev, code, false, PRE_ALARM_CLEARED, w.ts.getTime() + DEMAND_WINDOW_MS, true);
      await engine.flush();
    }
  }
  if (engine) for (let i = 0; engine.pendingTransitions > 0 && i < 100; i++) await engine.flush();
  await sink?.reload();
}
