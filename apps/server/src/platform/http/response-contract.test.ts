import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoint } from '@ess/contract';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { allRoutes } from '../../modules/index.ts';
import { route } from './route.ts';
import { buildHttp } from './server.ts';

/** A public endpoint whose handler answers whatever the test puts in `answer`. */
const probe = endpoint({
  method: 'GET',
  path: '/test/contract-probe',
  response: z.object({ id: z.number(), name: z.string(), at: z.string() }),
});
let answer: unknown;
const probeRoute = route(probe, { access: 'public', name: 'probe', scope: { global: 'a test probe touching no data' }, handler: () => answer as never });

describe('response contract', () => {
  let t: TestApp;
  let base: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    t = await startTestApp('pglite');
    const app = await buildHttp(t.ctx, [probeRoute]);
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    close = () => app.close();
  });
  afterAll(async () => {
    await close?.();
    await t?.stop();
  });

  const get = async () => {
    const res = await fetch(`${base}/api/manager/test/contract-probe`);
    return { status: res.status, body: (await res.json()) as { errorCode: string; errorMsg: string; data: unknown } };
  };

  it('an answer that matches its schema passes (a Date goes out as its ISO string)', async () => {
    answer = { id: 1, name: 'a', at: new Date('2026-01-02T03:04:05Z') };
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: 1, name: 'a', at: '2026-01-02T03:04:05.000Z' });
  });

  it('a drift (a field missing or of another type) fails the call in tests, naming the field', async () => {
    answer = { id: '1', name: 'a', at: 'x' };
    const res = await get();
    expect(res.status).toBe(500);
    expect(res.body.errorMsg).toMatch(/\/test\/contract-probe.*id:/);
    answer = { id: 1, at: 'x' };
    expect((await get()).body.errorMsg).toMatch(/name:/);
  });

  it('is on in the test harness only: production configuration leaves it off', () => {
    expect(t.ctx.config.validateResponses).toBe(true);
  });

  it('every route that answers JSON declares its response schema', () => {
    const missing = allRoutes.filter((r) => !r.raw && !r.response).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });
});
