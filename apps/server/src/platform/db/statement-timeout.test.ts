import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoint } from '@ess/contract';
import { DB_TARGETS, startTestApp, type TestApp } from '../../../test/harness.ts';
import { modules } from '../../modules/index.ts';
import { route } from '../http/route.ts';
import { defineModule } from '../module.ts';

/**
 * A runaway query must not hold a connection for ever: past DB_STATEMENT_TIMEOUT_MS PostgreSQL
 * cancels it and the call answers 503 with the envelope (issue 15, item 5); the next call is served.
 */
const slow = endpoint({ method: 'GET', path: '/example/slow', response: z.object({ slept: z.boolean() }) });
const slowModule = defineModule({
  name: 'example-slow',
  routes: [
    route(slow, {
      access: 'user', name: '慢查询示例', scope: { global: 'a test route touching no data' },
      handler: async ({ ctx }) => {
        await ctx.database.sql.query('select pg_sleep(3)');
        return { slept: true };
      },
    }),
  ],
});

describe.skipIf(!DB_TARGETS.includes('postgres'))('statement timeout on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('postgres', { DB_STATEMENT_TIMEOUT_MS: '300', DB_POOL_MAX: '3' }, undefined, [...modules, slowModule]);
  });
  afterAll(async () => t?.stop());

  it('cancels a statement past the limit and answers 503 with the envelope, then serves the next calls', async () => {
    const started = Date.now();
    const res = await t.api.get('/example/slow', t.adminToken);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ errorCode: 'B0002', tipMsg: '服务暂不可用，请稍后再试', data: null });
    expect(Date.now() - started).toBeLessThan(2900);
    // The pool (3 connections) is not used up by cancelled statements.
    for (let i = 0; i < 5; i++) expect((await t.api.get('/example/slow', t.adminToken)).status).toBe(503);
    expect((await t.api.get('/system/user/profile/info', t.adminToken)).status).toBe(200);
  });
});
