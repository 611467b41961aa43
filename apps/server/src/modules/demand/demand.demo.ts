import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { DEMAND_DEFAULT_ALARM_LEVEL, DEMAND_WINDOW_MS } from '@ess/contract/demand';
import { device } from '../../db/schema/device.ts';
import { demandSetting, demandWindow } from '../../db/schema/demand.ts';
import type { AppContext } from '../../platform/context.ts';
import { alarmEngineOf } from '../alarm/index.ts';
import { deviceRegistryOf } from '../telemetry/index.ts';
import { demandSinkOf } from './demand.runtime.ts';
import { preAlarmCode, PRE_ALARM_CLEARED } from './demand.sink.ts';

/** Windows above the demo target's pre-alarm line per station: "a few". */
const DEMO_PRE_ALARMS = 4;
/** The demo margin: 5 % of the target. */
const DEMO_MARGIN = 0.05;

/**
 * The demand demo, once (skipped when any target exists): the history's windows are already
 * computed (the demo history replays the meters' readings through the demand sink); each demo
 * station gets a standing target just above its month's peaks, so that its few highest windows
 * were pre-alarmed — those are marked on the windows and their pre-alarms raised and ended
 * through the alarm engine as the live guard would have.
 */
export async function seedDemandDemo(ctx: AppContext): Promise<void> {
  const sink = demandSinkOf(ctx);
  await sink?.flush();
  const [any] = await ctx.db.select({ id: demandSetting.id }).from(demandSetting).limit(1);
  if (any) return;
  const since = new Date(Date.now() - 31 * 86_400_000);
  const sites = await ctx.db
    .selectDistinct({ siteId: demandWindow.siteId })
    .from(demandWindow)
    .where(and(gte(demandWindow.ts, since), sql`${demandWindow.demandKw} is not null`));
  if (!sites.length) return;
  const mains = await ctx.db
    .select({ id: device.id, siteId: device.siteId })
    .from(device)
    .where(and(eq(device.type, 'meter'), eq(device.meterPurpose, 'main'), inArray(device.siteId, sites.map((s) => s.siteId))))
    .orderBy(device.id);
  const registry = deviceRegistryOf(ctx);
  await registry.refresh();
  const engine = alarmEngineOf(ctx);
  for (const { siteId } of sites) {
    const top = await ctx.db
      .select({ id: demandWindow.id, ts: demandWindow.ts, demandKw: demandWindow.demandKw })
      .from(demandWindow)
      .where(and(eq(demandWindow.siteId, siteId), gte(demandWindow.ts, since), sql`${demandWindow.demandKw} is not null`))
      .orderBy(desc(demandWindow.demandKw), demandWindow.ts)
      .limit(DEMO_PRE_ALARMS + 1);
    const line = top[top.length - 1]!.demandKw!;
    if (line <= 0) continue;
    // The pre-alarm line (target − margin) just above the (n+1)-th highest window.
    const targetKw = Math.ceil(((line + 0.01) / (1 - DEMO_MARGIN)) * 10) / 10;
    const marginKw = Math.round(targetKw * DEMO_MARGIN * 10) / 10;
    const threshold = targetKw - marginKw;
    await ctx.db.insert(demandSetting).values({ siteId, month: null, targetKw, marginKw, allowDischarge: true, alarmLevel: DEMAND_DEFAULT_ALARM_LEVEL, version: 1 });
    await ctx.db
      .update(demandWindow)
      .set({ targetKw, exceeded: sql`${demandWindow.demandKw} > ${targetKw}` })
      .where(and(eq(demandWindow.siteId, siteId), gte(demandWindow.ts, since)));
    const main = mains.find((m) => m.siteId === siteId);
    const dev = main ? registry.byId.get(main.id) : undefined;
    for (const w of top.filter((x) => x.demandKw! > threshold)) {
      const at = w.ts.getTime() + 10 * 60_000;
      await ctx.db.update(demandWindow).set({ preAlarmed: true, projectedKw: w.demandKw, preAlarmAt: new Date(at) }).where(eq(demandWindow.id, w.id));
      if (!engine || !dev) continue;
      const code = preAlarmCode(DEMAND_DEFAULT_ALARM_LEVEL);
      engine.event(dev, code, true, `预计需量${w.demandKw}kW超过预警值${Math.round(threshold * 10) / 10}kW（目标${targetKw}kW）`, at);
      engine.event(dev, code, false, PRE_ALARM_CLEARED, w.ts.getTime() + DEMAND_WINDOW_MS);
      await engine.flush();
    }
  }
  if (engine) for (let i = 0; engine.pendingTransitions > 0 && i < 100; i++) await engine.flush();
  await sink?.reload();
}
