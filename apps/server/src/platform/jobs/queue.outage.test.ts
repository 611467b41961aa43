import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modules } from '../../modules/index.ts';
import { defineModule } from '../module.ts';
import { DB_TARGETS, startTestApp, Teardown, type TestApp } from '../../../test/harness.ts';
import { cuttablePostgres, unhandledRejections } from '../../../test/outage-fixtures.ts';
import { until } from '../../../test/factory.ts';
import type { TcpProxy } from '../../../test/ingest-fixtures.ts';

/**
 * A job that finishes while the database is away (PostgreSQL behind a TCP proxy that is cut):
 * pg-boss marks it complete without awaiting that statement, so a failure there was an unhandled
 * rejection — the end of a Node process. The queue retries the completion until the database is
 * back: no unhandled rejection, the job is recorded completed, and it ran once.
 */

const CUT_JOB = 'test.cutAsItEnds';
const FAIL_JOB = 'test.failAsItEnds';
const runs = { cut: 0, fail: 0 };

describe.skipIf(!DB_TARGETS.includes('postgres'))('a job finishing during a database outage', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  const cleanup = new Teardown();
  let rejections: unknown[] = [];
  /** Cuts the database as the handler returns; back 1.5 s later. */
  const cutAndRestore = async () => {
    await proxy.cut();
    setTimeout(() => void proxy.restore(), 1_500);
  };

  const cutModule = defineModule({
    name: 'cutAsItEnds',
    jobs: (ctx) => {
      ctx.jobs.handle(CUT_JOB, async () => {
        runs.cut += 1;
        await cutAndRestore();
      });
      ctx.jobs.handle(FAIL_JOB, async () => {
        runs.fail += 1;
        await cutAndRestore();
        throw new Error('the handler failed');
      });
    },
  });

  const stateOf = async (name: string) => {
    const { rows } = await t.ctx.database.sql.query<{ state: string }>(`select state from pgboss.job where name = $1`, [name]);
    return rows.map((r) => r.state);
  };

  beforeAll(async () => {
    rejections = unhandledRejections(cleanup);
    const db = await cuttablePostgres(cleanup);
    proxy = db.proxy;
    t = await startTestApp('postgres', {}, { databaseUrl: db.databaseUrl }, [...modules, cutModule]);
    cleanup.add('the server', () => t.stop());
  });
  afterAll(() => cleanup.run());

  it('its completion is recorded once the database is back, with no unhandled rejection', async () => {
    await t.ctx.jobs.send(CUT_JOB, {});
    await until('the job completed', async () => (await stateOf(CUT_JOB).catch(() => [] as string[])).includes('completed'), 20_000, 200);
    expect(await stateOf(CUT_JOB)).toEqual(['completed']);
    expect(runs.cut).toBe(1);
    expect(rejections.map(String)).toEqual([]);
  });

  it('so is a failed run (recorded as a failure to retry), with no unhandled rejection', async () => {
    await t.ctx.jobs.send(FAIL_JOB, {});
    await until('the failure recorded', async () => (await stateOf(FAIL_JOB).catch(() => [] as string[])).some((s) => s !== 'created' && s !== 'active'), 20_000, 200);
    expect(runs.fail).toBeGreaterThanOrEqual(1);
    expect(await stateOf(FAIL_JOB)).not.toContain('active');
    expect(rejections.map(String)).toEqual([]);
    await t.ctx.db.execute(sql`select 1`);
  });
});
