import type { AppContext } from '../../platform/context.ts';
import { REMETER_JOB, failStaleTasks, runReMeterTask, sweepPeriodReadings } from './period-reading.service.ts';
import { sweepTimingReadings } from './timing-reading.service.ts';
import { sweepZeroReadings } from './zero-reading.service.ts';

/**
 * How often the readings sweep runs (and once at start, which catches up after downtime): the
 * zero readings of every past midnight not yet read, the timing readings due, the monthly period
 * readings, and stale re-meter tasks failed. Every write is once per meter and instant (unique
 * indexes, inserts that skip existing rows), so instances may sweep side by side.
 */
export const READING_SWEEP_MS = 5 * 60_000;

let running = false;

/** One sweep (exported for tests and the demo). */
export async function sweepReadings(ctx: AppContext, now = Date.now()): Promise<{ zero: number; timing: number; periods: number }> {
  const zero = await sweepZeroReadings(ctx, now);
  const timing = await sweepTimingReadings(ctx, now);
  const periods = await sweepPeriodReadings(ctx, now);
  await failStaleTasks(ctx, now);
  return { zero, timing, periods };
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
