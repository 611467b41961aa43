import type { DevicePresenceChange } from '../device/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { subscriber } from '../../platform/events/outbox.ts';
import { inArray } from 'drizzle-orm';
import type { DemandTargetSetPayload } from '../demand/index.ts';
import { strategy } from '../../db/schema/strategy.ts';
import { retarget, sweepStrategies } from './strategy.sync.ts';

/** How often the reported hashes are compared and pending strategies re-sent. */
export const SWEEP_MS = 15_000;

/** An EMS back online gets its pending strategy again at once (issue 19 item 9: re-send on reconnect). */
export const strategyReconnectSubscriber = subscriber({
  name: 'strategy.resend',
  events: ['device.online'],
  transactional: false,
  handle: async (events, _tx, ctx) => {
    const siteIds = [...new Set((events as { payload: DevicePresenceChange }[]).map((e) => e.payload.siteId))];
    if (siteIds.length) await sweepStrategies(ctx, siteIds);
  },
});

/**
 * A demand target set (decision 0040): the station's synchronised strategy gets the target now in
 * force and is sent again (pending until the EMS confirms; a station never synchronised has
 * nothing to re-send — its first synchronisation carries the target).
 */
export const strategyRetargetSubscriber = subscriber({
  name: 'strategy.retarget',
  events: ['demand.targetSet'],
  transactional: false,
  handle: async (events, _tx, ctx) => {
    const siteIds = [...new Set((events as { payload: DemandTargetSetPayload }[]).map((e) => e.payload.siteId))];
    if (!siteIds.length) return;
    for (const row of await ctx.db.select().from(strategy).where(inArray(strategy.siteId, siteIds))) {
      try {
        await retarget(ctx, row);
      } catch (err) {
        ctx.log.warn({ err, strategyId: row.id }, 'strategy not re-targeted');
      }
    }
  },
});

export function registerStrategyJobs(ctx: AppContext): void {
  ctx.jobs.every(SWEEP_MS, async () => {
    await sweepStrategies(ctx);
  });
}
