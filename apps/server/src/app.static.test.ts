import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET with exactly the given headers (fetch would add and undo Accept-Encoding itself). */
function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (r: RawResponse) =>
  r.headers['content-encoding'] === 'br' ? brotliDecompressSync(r.body) : r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body;

const INDEX = `<!doctype html><html><head><title>console</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
const SCRIPT = `export const answer = ${JSON.stringify('x'.repeat(4000))};\n`;
const SMALL_CSS = 'body{margin:0}';

/**
 * The console's files as the server sends them (apps/server/src/app.ts): the build's .br / .gz
 * copy by Accept-Encoding, hashed assets cached for a year, index.html revalidated. Static
 * serving does not touch the database, so PGlite alone.
 */
describe('console files', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    // A build as apps/web's precompress plugin leaves it.
    dist = mkdtempSync(join(tmpdir(), 'ess-static-test-'));
    mkdirSync(join(dist, 'assets'));
    const write = (name: string, text: string, compressed: boolean) => {
      writeFileSync(join(dist, name), text);
      if (compressed) {
        writeFileSync(join(dist, `${name}.gz`), gzipSync(text));
        writeFileSync(join(dist, `${name}.br`), brotliCompressSync(text));
      }
    };
    write('index.html', INDEX, true);
    write('assets/index-AbC123.js', SCRIPT, true);
    write('assets/tiny-XyZ789.css', SMALL_CSS, false);
    t = await startTestApp('pglite', { WEB_DIST: dist });
  });
  afterAll(async () => {
    await t?.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends a hashed script as brotli when the browser accepts it, cached for a year', async () => {
    const r = await rawGet(t.url, '/assets/index-AbC123.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(String(r.headers.vary)).toMatch(/accept-encoding/i);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(r.body.length).toBeLessThan(SCRIPT.length / 10);
    expect(decode(r).toString()).toBe(SCRIPT);
  });

  it('sends gzip to a browser that does not accept brotli, and the plain file to one that accepts neither', async () => {
    const gz = await rawGet(t.url, '/assets/index-AbC123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decode(gz).toString()).toBe(SCRIPT);

    const plain = await rawGet(t.url, '/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
    expect(plain.body.toString()).toBe(SCRIPT);

    const identity = await rawGet(t.url, '/assets/index-AbC123.js', { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.toString()).toBe(SCRIPT);
  });

  it('sends a file the build left uncompressed (too small) as it is', async () => {
    const r = await rawGet(t.url, '/assets/tiny-XyZ789.css', { 'accept-encoding': 'br, gzip' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers['content-type']).toMatch(/^text\/css/);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(r.body.toString()).toBe(SMALL_CSS);
  });

  it('sends index.html compressed and revalidated, for / and for client-side routes', async () => {
    for (const path of ['/', '/index.html', '/login', '/system/user']) {
      const r = await rawGet(t.url, path, { 'accept-encoding': 'gzip, deflate, br' });
      expect(r.status, path).toBe(200);
      expect(r.headers['content-type'], path).toMatch(/^text\/html/);
      expect(r.headers['content-encoding'], path).toBe('br');
      expect(r.headers['cache-control'], path).toBe('no-cache');
      expect(String(r.headers.vary), path).toMatch(/accept-encoding/i);
      expect(decode(r).toString(), path).toBe(INDEX);
    }
    const plain = await rawGet(t.url, '/login');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.body.toString()).toBe(INDEX);
  });

  it('does not serve the API from the console files', async () => {
    const r = await rawGet(t.url, '/api/manager/no-such-call', { 'accept-encoding': 'br, gzip' });
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toMatch(/json/);
    expect(r.headers['cache-control']).toBeUndefined();
  });
});
