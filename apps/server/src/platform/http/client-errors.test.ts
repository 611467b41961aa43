import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@ess/contract';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

/** A raw request with Node's client (no limits of its own on what it sends). */
function raw(url: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'] ?? '', body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('requests refused before routing, and text that is not valid Unicode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(async () => t?.stop());

  const tooLarge = { errorCode: ERRORS.HEADERS_TOO_LARGE.code, tipMsg: ERRORS.HEADERS_TOO_LARGE.tip, errorMsg: '', data: null };

  it('answers headers over 16 KB with 431 and the envelope', async () => {
    const r = await raw(t.url, '/api/manager/system/user/profile/info', { authorization: t.adminToken, 'x-padding': 'a'.repeat(17 * 1024) });
    expect(r.status).toBe(431);
    expect(r.type).toContain('application/json');
    expect(JSON.parse(r.body)).toEqual(tooLarge);
  });

  it('answers a 100 KB URL with 431 and the envelope', async () => {
    const r = await raw(t.url, `/api/manager/system/user/page?name=${'a'.repeat(100 * 1024)}`, { authorization: t.adminToken });
    expect(r.status).toBe(431);
    expect(JSON.parse(r.body)).toEqual(tooLarge);
    // The server is unharmed.
    expect((await t.api.get('/system/user/profile/info', t.adminToken)).status).toBe(200);
  });

  it('refuses a lone surrogate in a JSON string with 400 naming the field, instead of storing U+FFFD', async () => {
    const send = (body: string) =>
      fetch(`${t.url}/api/manager/system/user/profile/change/info`, { method: 'POST', headers: { authorization: t.adminToken, 'content-type': 'application/json' }, body }).then(
        async (res) => ({ status: res.status, body: (await res.json()) as { errorCode: string; tipMsg: string } }),
      );
    for (const name of ['\\ud800', 'ab\\udc00', '\\ude00\\ud83d', 'x\\ud83d']) {
      const r = await send(`{"name":"${name}"}`);
      expect(r.status, name).toBe(400);
      expect(r.body, name).toMatchObject({ errorCode: 'A0400', tipMsg: 'name: 不是有效的 Unicode 文本' });
    }
    const key = await send('{"name":"张三","\\udbff":1}');
    expect(key.status).toBe(400);
    // A surrogate pair is one character and is kept.
    const pair = await send('{"name":"张三 \\ud83d\\ude00"}');
    expect(pair.body.errorCode).toBe('00000');
    const profile = await t.api.get<{ name: string }>('/system/user/profile/info', t.adminToken);
    expect(profile.body.data.name).toBe('张三 \u{1F600}');
  });
});
