import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

interface Raw { status: number; encoding: string | undefined; type: string | undefined; body: Buffer }

/** Issue 15, item 3: JSON answers over 1 KB travel compressed (br, else gzip) when the client accepts it. */
describe('answer compression', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(async () => t?.stop());

  /** A raw GET (no automatic decompression), ended after `maxMs` for streams. */
  const get = (path: string, headers: Record<string, string>, maxMs = 5000) =>
    new Promise<Raw>((resolve, reject) => {
      const req = request(new URL(`/api/manager${path}`, t.url), { headers }, (res) => {
        const chunks: Buffer[] = [];
        const done = () => resolve({ status: res.statusCode!, encoding: res.headers['content-encoding'], type: res.headers['content-type'], body: Buffer.concat(chunks) });
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', done);
        setTimeout(() => {
          done();
          req.destroy();
        }, maxMs).unref();
      });
      req.on('error', reject);
      req.end();
    });
  const json = (b: Buffer) => JSON.parse(b.toString('utf8')) as { errorCode: string; data: unknown };
  const PROFILE = '/system/user/profile/info';

  it('sends the profile (several KB) as brotli to a client that accepts it, and as gzip to one that takes only gzip', async () => {
    const br = await get(PROFILE, { authorization: t.adminToken, 'accept-encoding': 'gzip, deflate, br' });
    expect(br.encoding).toBe('br');
    const plain = brotliDecompressSync(br.body);
    expect(plain.length).toBeGreaterThan(1024);
    expect(br.body.length).toBeLessThan(plain.length / 2);
    expect(json(plain).errorCode).toBe('00000');
    const gz = await get(PROFILE, { authorization: t.adminToken, 'accept-encoding': 'gzip' });
    expect(gz.encoding).toBe('gzip');
    expect(json(gunzipSync(gz.body))).toEqual(json(plain));
  });

  it('sends plain JSON to a client that accepts no encoding, and small answers plain', async () => {
    const none = await get(PROFILE, { authorization: t.adminToken });
    expect(none.encoding).toBeUndefined();
    expect(json(none.body).errorCode).toBe('00000');
    const small = await get(PROFILE, { 'accept-encoding': 'br' });
    expect(small.status).toBe(401);
    expect(small.encoding).toBeUndefined();
    expect(json(small.body).errorCode).toBe('A0100');
  });

  it('leaves the live-event stream uncompressed (each event must reach the client at once)', async () => {
    const sse = await get('/basic/sse/connect', { authorization: t.adminToken, 'accept-encoding': 'br, gzip' }, 1500);
    expect(sse.status).toBe(200);
    expect(sse.type).toContain('text/event-stream');
    expect(sse.encoding).toBeUndefined();
  });
});
