import type { AppContext } from '../../platform/context.ts';
import { dispatchSubscriber } from './dispatch.plan.ts';
import { DISPATCH, dispatcherOf, startDispatcher, stopDispatcher } from './dispatch.send.ts';
import { recordRoutes } from './records.routes.ts';
import { pruneRecords } from './records.service.ts';

/**
 * The dispatch half of the hooks module (issue 21, items 4–5), for its index.ts: the outbox
 * subscriber that plans deliveries, the dispatcher (every instance has one for test sends and
 * replays; only the jobs role polls and claims), the pruning job, and the record routes.
 */
const PRUNE_MS = 3_600_000;

export const dispatchRoutes = recordRoutes;
export const dispatchSubscribers = [dispatchSubscriber];

export function registerDispatchJobs(ctx: AppContext): void {
  // The safety net: retries that came due, other instances' plans, leases of a dead instance.
  ctx.jobs.every(DISPATCH.pollMs, () => {
    dispatcherOf(ctx)?.wake();
    return Promise.resolve();
  });
  ctx.jobs.every(PRUNE_MS, async () => {
    const n = await pruneRecords(ctx);
    if (n.byAge + n.byCount + n.deliveries > 0) ctx.log.info(n, 'hook execution records pruned');
  });
}

export function startDispatch(ctx: AppContext): Promise<void> {
  startDispatcher(ctx);
  return Promise.resolve();
}

export const stopDispatch = stopDispatcher;
