import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../modules/index.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import type { AnyRoute } from './route.ts';

interface Probe {
  status: number;
  envelope: { errorCode?: string; tipMsg?: string } | null;
}

/** Top-level keys of an object schema (through refinements), else none. */
function keysOf(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : [];
}

/**
 * Bad input must come back as a 4xx envelope naming the problem, never a 500, and must not
 * harm the server (product-spec §5, ARCHITECTURE §3).
 */
describe.each(dbTargets(import.meta.url))('robustness on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(async () => t?.stop());

  /** A raw request; streams (event sources) are cut off once the status is known. */
  async function probe(method: string, path: string, init: { body?: string; headers?: Record<string, string>; token?: string | null } = {}): Promise<Probe> {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (init.token !== null) headers.authorization = init.token ?? t.adminToken;
    const res = await fetch(`${t.url}${path}`, { method, headers, body: init.body, signal: AbortSignal.timeout(15_000) });
    if (!(res.headers.get('content-type') ?? '').includes('application/json')) {
      await res.body?.cancel();
      return { status: res.status, envelope: null };
    }
    return { status: res.status, envelope: (await res.json()) as Probe['envelope'] };
  }
  const json = (path: string, body: string, token?: string | null) =>
    probe('POST', `/api/manager${path}`, { body, headers: { 'content-type': 'application/json' }, token });

  it('answers a body that is not JSON with 400 A0401', async () => {
    for (const body of ['{"username": "admin",', '{username: admin}', "{'a': 1}", '{"a": 1}}']) {
      const r = await json('/basic/user/login', body, null);
      expect(r.status, body).toBe(400);
      expect(r.envelope?.errorCode, body).toBe('A0401');
    }
  });

  it('answers wrong types with 400 naming the field', async () => {
    const r = await json('/basic/user/login', JSON.stringify({ username: 123, password: 'x' }), null);
    expect(r.status).toBe(400);
    expect(r.envelope?.errorCode).toBe('A0400');
    expect(r.envelope?.tipMsg).toMatch(/^username: /);
    const nested = await json('/system/user/profile/change/info', JSON.stringify({ name: ['a'], phone: null }));
    expect(nested.status).toBe(400);
    expect(nested.envelope?.tipMsg).toMatch(/^name: /);
    for (const body of ['[]', '"text"', '42']) {
      const whole = await json('/basic/user/login', body, null);
      expect(whole.status, body).toBe(400);
      expect(whole.envelope?.tipMsg, body).toMatch(/^请求体: /);
    }
  });

  it('names the missing field: "<field>不能为空"', async () => {
    const r = await json('/basic/user/login', JSON.stringify({ password: 'x' }), null);
    expect(r.status).toBe(400);
    expect(r.envelope?.tipMsg).toBe('username不能为空');
    const empty = await json('/basic/user/login', '{}', null);
    expect(empty.envelope?.tipMsg).toBe('username不能为空');
  });

  it('refuses an oversize string field with 400 and a body over 1 MB with 413', async () => {
    const r = await json('/basic/user/login', JSON.stringify({ username: 'a'.repeat(65), password: 'x' }), null);
    expect(r.status).toBe(400);
    expect(r.envelope?.tipMsg).toMatch(/^username: /);
    const big = await json('/basic/user/login', JSON.stringify({ username: 'a'.repeat(1024 * 1024 + 10), password: 'x' }), null);
    expect(big.status).toBe(413);
    expect(big.envelope?.errorCode).toBe('A0402');
  });

  it('refuses U+0000 in any string (PostgreSQL text cannot hold it) with 400, not a database error', async () => {
    const r = await json('/basic/user/login', JSON.stringify({ username: 'ad\u0000min', password: 'x' }), null);
    expect(r.status).toBe(400);
    expect(r.envelope?.tipMsg).toBe('username: 不能包含空字符');
    const deep = await json('/system/user/profile/change/info', JSON.stringify({ name: 'ok', extra: { list: ['a', 'b\u0000'] } }));
    expect(deep.status).toBe(400);
    expect(deep.envelope?.tipMsg).toBe('extra.list.1: 不能包含空字符');
    const query = await probe('GET', '/api/manager/basic/oss/download/suffix?suffix=abcdefgh%00.png');
    expect(query.status).toBe(400);
  });

  it('answers unknown routes and methods with 404 A0404, malformed URLs with a 400 envelope', async () => {
    for (const [method, path] of [['GET', '/api/manager/no/such/route'], ['POST', '/api/manager/system/nothing'], ['DELETE', '/api/manager/basic/user/login']] as const) {
      const r = await probe(method, path, { token: null });
      expect(r.status, path).toBe(404);
      expect(r.envelope?.errorCode, path).toBe('A0404');
    }
    const bad = await probe('GET', '/api/manager/%E0%A4%A', { token: null });
    expect(bad.status).toBe(400);
    expect(bad.envelope?.errorCode).toBe('A0400');
  });

  it('answers 415 for a body type the server does not read', async () => {
    const r = await probe('POST', '/api/manager/basic/user/login', { body: 'username=a', headers: { 'content-type': 'application/x-www-form-urlencoded' }, token: null });
    expect(r.status).toBe(415);
    expect(r.envelope?.errorCode).toBe('A0403');
  });

  it('answers garbage query values on every GET route with a 4xx, and 400 naming the id for id queries', async () => {
    const failures: string[] = [];
    const gets = allRoutes.filter((r) => r.method === 'GET' && r.query);
    expect(gets.length).toBeGreaterThan(0);
    for (const r of gets) {
      const keys = keysOf(r.query);
      const variants = [
        keys.map((k) => `${k}[$gt]=1`).join('&'),
        keys.map((k) => `${k}=${encodeURIComponent("1' or '1'='1")}`).join('&'),
        keys.map((k) => `${k}[]=1&${k}[]=2`).join('&'),
        keys.map((k) => `${k}=${'9'.repeat(400)}`).join('&'),
        keys.map((k) => `${k}=-1`).join('&'),
      ];
      for (const q of variants) {
        const res = await probe('GET', `/api/manager${r.path}?${q}`);
        if (res.status >= 500 || !res.envelope) failures.push(`${r.method} ${r.path}?${q.slice(0, 60)} → ${res.status}`);
      }
      if (keys.includes('id')) {
        const res = await probe('GET', `/api/manager${r.path}?id=abc`);
        if (res.status !== 400 || !res.envelope?.tipMsg?.startsWith('id')) failures.push(`${r.path}?id=abc → ${res.status} ${res.envelope?.tipMsg}`);
      }
    }
    expect(failures).toEqual([]);
  });

  // Five bodies for each of ~390 POST routes (≈40 s on an idle machine, growing with every module): past the default 60 s on a loaded one.
  it('answers wrong-typed bodies on every JSON POST route with a 4xx envelope', async () => {
    const failures: string[] = [];
    const posts = allRoutes.filter((r: AnyRoute) => r.method === 'POST' && r.body && !r.multipart);
    expect(posts.length).toBeGreaterThan(0);
    for (const r of posts) {
      const keys = keysOf(r.body);
      const variants = [
        '[]',
        JSON.stringify(Object.fromEntries(keys.map((k) => [k, { $gt: '' }]))),
        JSON.stringify(Object.fromEntries(keys.map((k) => [k, [[[]]]]))),
        JSON.stringify(Object.fromEntries(keys.map((k) => [k, 1e308]))),
        JSON.stringify(Object.fromEntries(keys.map((k) => [k, 'x'.repeat(200_000)]))),
      ];
      for (const body of variants) {
        const res = await json(r.path, body);
        if (res.status >= 500 || !res.envelope) failures.push(`POST ${r.path} ${body.slice(0, 60)} → ${res.status}`);
        else if (res.status < 400 && body === '[]') failures.push(`POST ${r.path} accepted an array body`);
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('still answers normally afterwards', async () => {
    const r = await t.api.get('/system/user/profile/info', t.adminToken);
    expect(r.status).toBe(200);
    expect(r.body.errorCode).toBe('00000');
    expect((await t.api.login('admin', 'Admin12345')).length).toBeGreaterThan(20);
  });
});
