import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiagramRecord, PackRow, SiteRecord } from '@ess/contract';
import { Api, ADMIN_PASSWORD } from './test/harness.ts';
import { freePort, until } from './test/ingest-fixtures.ts';

/**
 * The production build (build.mjs) as `npm start` runs it: bundled into a checkout-like folder of
 * its own that holds nothing of the sources (only node_modules, linked, and a console build), and
 * started with plain node, no TypeScript loader. Anything the bundle still looked for beside the
 * sources (migrations, language packs, the SVG worker, the simulator) would fail here.
 */
const ROOT = resolve(import.meta.dirname, '../..');

describe('the production build', () => {
  let dir: string;
  let dataDir: string;
  let server: ChildProcess;
  let exited: Promise<number | null>;
  let output = '';
  let api: Api;
  let token: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ess-build-'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const dist = join(dir, 'apps/server/dist');
    await promisify(execFile)(process.execPath, ['build.mjs', '--outdir', dist], { cwd: import.meta.dirname });
    // The console's build, where the server looks for it by default (apps/web/dist).
    mkdirSync(join(dir, 'apps/web/dist'), { recursive: true });
    writeFileSync(join(dir, 'apps/web/dist/index.html'), '<!doctype html><title>console build</title>');

    dataDir = join(dir, 'data');
    const port = await freePort();
    api = new Api(`http://127.0.0.1:${port}`);
    server = spawn(process.execPath, [join(dist, 'main.mjs')], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        PORT: String(port), HOST: '127.0.0.1', MQTT_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn',
        ADMIN_PASSWORD, CAPTCHA_ENABLED: 'false', PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_TIME_COST: '1',
        // The demo as `npm start` plays it, without its past and with one report a minute.
        SEED_DEMO: 'true', SIMULATOR: 'on', DEMO_HISTORY_DAYS: '0', SIM_INTERVAL_MS: '60000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    server.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    exited = new Promise((r) => server.once('exit', (code) => r(code)));
    await until(
      'the built server to answer',
      async () => {
        if (server.exitCode !== null) throw new Error(`the built server exited with ${server.exitCode}:\n${output}`);
        return fetch(`${api.base}/api/manager/basic/captcha`).then((r) => r.ok, () => false);
      },
      90_000,
    );
    token = await api.login('admin', ADMIN_PASSWORD);
  });

  afterAll(async () => {
    if (server?.exitCode === null) {
      server.kill('SIGKILL');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves the console build from beside it', async () => {
    const page = await fetch(api.base);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('console build');
  });

  it('answers a menu-protected call with the demo stations it seeded', async () => {
    expect((await api.post('/configure/site/query/list', null, {})).status).toBe(401);
    const sites = await api.post<SiteRecord[]>('/configure/site/query/list', token, {});
    expect(sites.body.errorCode).toBe('00000');
    expect(sites.body.data.map((s) => s.code).sort()).toEqual(['BE01', 'LA01', 'SH01']);
  });

  it('sanitises an uploaded diagram in its worker thread', async () => {
    const sites = await api.post<SiteRecord[]>('/configure/site/query/list', token, {});
    const f = new FormData();
    f.append('siteId', String(sites.body.data[0]!.id));
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect id="bus" onclick="alert(2)" width="9" height="9"/></svg>';
    f.append('file', new Blob([svg], { type: 'image/svg+xml' }), 'plan.svg');
    const r = await api.call<DiagramRecord>('POST', '/configure/distribution/diagram/upload', { token, rawBody: f });
    expect(r.body.errorCode).toBe('00000');
    expect(r.body.data.elementIds).toEqual(['bus']);
    expect(r.body.data.svg).toContain('id="bus"');
    expect(r.body.data.svg).not.toMatch(/script|onclick|alert/);
  });

  it('serves the shipped language packs and writes a spreadsheet', async () => {
    const pack = await api.get<PackRow[]>('/i18n/text/translation/view', null, { languageId: 'en-US' });
    expect(pack.body.data.length).toBeGreaterThan(100);
    const sheet = await api.call('POST', '/alarm/dict/export', { token, body: {} });
    expect(sheet.status).toBe(200);
    expect(sheet.raw.subarray(0, 2).toString()).toBe('PK');
  });

  it('plays the demo stations with the bundled simulator', async () => {
    await until('the simulator to start', () => /\[simulator\] 3 stations, 114 devices/.test(output));
  });

  it('stops on SIGTERM with every migration applied to its database', async () => {
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    const journal = JSON.parse(readFileSync(join(import.meta.dirname, 'src/db/migrations/meta/_journal.json'), 'utf8')) as { entries: unknown[] };
    const db = await PGlite.create(join(dataDir, 'pglite'));
    try {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
      expect(rows[0]!.n).toBe(journal.entries.length);
    } finally {
      await db.close();
    }
  });
});
