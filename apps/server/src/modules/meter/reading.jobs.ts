import type { AppContext } from '../../platform/context.ts';
import { REMETER_JOB, failStaleTasks, refreshPeriodReadings, runReMeterTask, sweepPeriodReadings } from './period-reading.service.ts';
import { sweepTimingReadings } from './timing-reading.service.ts';
import { sweepZeroReadings } from './zero-reading.service.ts';

/**
 * How often the readings sweep runs (and once at start, which catches up after downtime): the
 * zero readings of every past midnight not yet read (and missing ones late reports now fill, with
 * the period readings they touch), the timing readings due, the monthly period readings, and
 * stale re-meter tasks failed. Every write is once per meter and instant (unique
 * indexes, inserts that skip existing rows), so instances may sweep side by side.
 */
export const READING_SWEEP_MS = 5 * 60_000;

let running = false;

/** One sweep (exported for tests and the demo). */
export async function sweepReadings(ctx: AppContext, now = Date.now()): Promise<{ zero: number; refilled: number; timing: number; periods: number }> {
  const { written: zero, refilled } = await sweepZeroReadings(ctx, now);
  const timing = await sweepTimingReadings(ctx, now);
  const periods = (await refreshPeriodReadings(ctx, refilled, now)) + (await sweepPeriodReadings(ctx, now));
  await failStaleTasks(ctx, now);
  return { zero, refilled: [...refilled.values()].reduce((a, d) => a + d.length, 0), timing, periods };
}

export function registerReadingJobs(ctx: AppContext): void {
  ctx.jobs.handle<{ taskId: number }>(REMETER_JOB, (data) => runReMeterTask(ctx, data.taskId));
  ctx.jobs.every(READING_SWEEP_MS, async () => {
    // One sweep at a time in this process (a slow catch-up must not overlap the next tick).
    if (running) return;
    running = true;
    try {
      const made = await sweepReadings(ctx);
      if (made.zero || made.timing || made.periods) ctx.log.info(made, 'meter readings');
    } finally {
      running = false;
    }
  });
}
