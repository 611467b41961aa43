import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { modules } from '../../modules/index.ts';
import { defineModule } from '../module.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { until } from '../../../test/factory.ts';

/**
 * Stopping the server while background work is in hand: a job handler and a periodic run that
 * are still querying when the app is asked to stop finish their statements before the database
 * closes — no "Cannot use a pool after calling end on the pool" (PostgreSQL) or closed-PGlite
 * error, no unhandled rejection, no "periodic job failed".
 */

const SLOW_JOB = 'test.slowJob';
const state = { jobStarted: false, jobDone: false, periodicStarted: false, periodicDone: false, errors: [] as string[] };
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

const slowModule = defineModule({
  name: 'slowWork',
  jobs: (ctx) => {
    ctx.jobs.handle(SLOW_JOB, async () => {
      state.jobStarted = true;
      await delay(400);
      await ctx.db.execute(sql`select pg_sleep(0.05)`);
      state.jobDone = true;
    });
    ctx.jobs.every(3_600_000, async () => {
      state.periodicStarted = true;
      await delay(300);
      try {
        await ctx.db.execute(sql`select 1`);
        state.periodicDone = true;
      } catch (e) {
        state.errors.push(String(e));
        throw e;
      }
    });
  },
});

describe.each(dbTargets(import.meta.url))('stopping with background work in hand on %s', (target) => {
  let t: TestApp | undefined;
  const rejections: unknown[] = [];
  const onRejection = (e: unknown) => void rejections.push(e);
  afterEach(async () => {
    await t?.stop().catch(() => undefined);
    process.off('unhandledRejection', onRejection);
  });

  it('a running job handler and a periodic run finish their statements; nothing queries a closed database', async () => {
    Object.assign(state, { jobStarted: false, jobDone: false, periodicStarted: false, periodicDone: false, errors: [] });
    process.on('unhandledRejection', onRejection);
    t = await startTestApp(target, {}, undefined, [...modules, slowModule]);
    const lines: string[] = [];
    const error = t.ctx.log.error.bind(t.ctx.log);
    t.ctx.log.error = ((...args: Parameters<typeof error>) => {
      lines.push(JSON.stringify(args, (_k, v: unknown) => (v instanceof Error ? v.message : v)));
      return error(...args);
    });
    // The periodic run started with the queue; the job is picked up within a second's poll.
    expect(state.periodicStarted).toBe(true);
    await t.ctx.jobs.send(SLOW_JOB, {});
    await until('the job to start', () => state.jobStarted, 10_000);
    const app = t;
    t = undefined;
    await app.stop();
    expect(state).toMatchObject({ jobDone: true, periodicDone: true, errors: [] });
    await delay(300);
    expect(lines.filter((l) => /periodic job failed|job queue error|pool after calling end|closed/i.test(l))).toEqual([]);
    expect(rejections.map(String)).toEqual([]);
  });
});
