import type { DevicePresenceChange } from '../device/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { subscriber } from '../../platform/events/outbox.ts';
import { sweepStrategies } from './strategy.sync.ts';

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

export function registerStrategyJobs(ctx: AppContext): void {
  ctx.jobs.every(SWEEP_MS, async () => {
    await sweepStrategies(ctx);
  });
}
