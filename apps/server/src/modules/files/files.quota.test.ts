import { existsSync, writeFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedFile } from '../../db/schema/files.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newUser, seededCompanies } from '../../../test/factory.ts';
import { addFileReferences, sweepUnreferencedFiles } from './index.ts';

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (bytes: number) => Buffer.concat([PNG_HEAD, Buffer.alloc(bytes - PNG_HEAD.length, 7)]);
const KB = 1024;

interface Uploaded { suffix: string; size: number }

/** Issue 14, item 6: uploads are limited per user and in total, and unreferenced uploads are removed. */
describe.each(dbTargets(import.meta.url))('upload quotas and the sweep of unreferenced uploads on %s', (target) => {
  let t: TestApp;
  const kept = new Set<string>();

  const upload = (content: Buffer, name: string, token: string) => {
    const f = new FormData();
    f.append('file', new Blob([content]), name);
    return t.api.call<Uploaded>('POST', '/basic/oss/upload', { token, rawBody: f });
  };
  const user = async () => (await newUser(t, (await seededCompanies(t)).east.id, { menus: ['/config/site'] })).token;
  const totalStored = async () => (await t.ctx.db.select({ size: storedFile.size }).from(storedFile)).reduce((n, r) => n + r.size, 0);
  const filesDir = () => join(t.ctx.config.dataDir, 'files');

  beforeAll(async () => {
    // 3 files or 100 KB per user and day; 400 KB stored in all; files of at most 50 KB.
    t = await startTestApp(target, {
      UPLOAD_MAX_MB: '0.05', UPLOAD_USER_DAILY_FILES: '3', UPLOAD_USER_DAILY_MB: String(100 / 1024), UPLOAD_TOTAL_GB: String(400 / 1024 / 1024),
    });
    addFileReferences(t.ctx, { name: 'test records', referenced: (_ctx, suffixes) => Promise.resolve(suffixes.filter((s) => kept.has(s))) });
  });
  afterAll(async () => t?.stop());

  it('a user may upload UPLOAD_USER_DAILY_FILES files a day; the next is refused with 429, others still upload', async () => {
    const a = await user();
    for (let i = 0; i < 3; i++) expect((await upload(png(100), `a${i}.png`, a)).body.errorCode).toBe('00000');
    const over = await upload(png(100), 'a3.png', a);
    expect(over.status).toBe(429);
    expect(over.body.errorCode).toBe('A0105');
    expect(over.body.tipMsg).toContain('3');
    expect((await upload(png(100), 'b.png', await user())).body.errorCode).toBe('00000');
  });

  it('parallel uploads of one user cannot pass UPLOAD_USER_DAILY_MB together', async () => {
    const c = await user();
    const before = await t.ctx.db.$count(storedFile);
    // Ten 40 KB uploads at once (the 10 × 19 MB, scaled): two fit into 100 KB.
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => upload(png(40 * KB), `c${i}.png`, c)));
    const ok = answers.filter((r) => r.body.errorCode === '00000');
    expect(ok).toHaveLength(2);
    for (const r of answers.filter((x) => x.body.errorCode !== '00000')) {
      expect(r.status).toBe(429);
      expect(r.body.tipMsg).toContain('MB');
    }
    expect(await t.ctx.db.$count(storedFile)).toBe(before + 2);
    // Nothing of the refused ones is left on disk, not even a partial upload.
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(filesDir()).filter((f) => f.startsWith('.upload-'))).toEqual([]);
  });

  it('all stored files together stay under UPLOAD_TOTAL_GB: past it an upload answers 503', async () => {
    let refused = null;
    for (let i = 0; i < 20 && !refused; i++) {
      const r = await upload(png(45 * KB), `t${i}.png`, await user());
      if (r.body.errorCode !== '00000') refused = r;
    }
    expect(refused?.status).toBe(503);
    expect(refused?.body.errorCode).toBe('B0002');
    expect(refused?.body.tipMsg).toBeTruthy();
    expect(await totalStored()).toBeLessThanOrEqual(400 * KB);
  });

  it('the sweep keeps referenced uploads and recent ones, and removes the rest after the grace period', async () => {
    // Start from an empty store, so the quotas above do not refuse these uploads.
    await sweepUnreferencedFiles(t.ctx, new Date(Date.now() + 25 * 3_600_000));
    expect(await t.ctx.db.$count(storedFile)).toBe(0);
    const u = await user();
    const orphan = (await upload(png(200), 'orphan.png', u)).body.data;
    const used = (await upload(png(200), 'used.png', u)).body.data;
    kept.add(used.suffix);
    // Debris of a crash: a partly written upload and a file without a record, both old.
    const temp = join(filesDir(), '.upload-0123456789abcdef');
    const stray = join(filesDir(), 'AAAAAAAAAAAAAAAAAAAAAA.png');
    for (const p of [temp, stray]) {
      writeFileSync(p, 'x');
      const old = new Date(Date.now() - 48 * 3_600_000);
      utimesSync(p, old, old);
    }

    // Within the grace period (24 h by default) nothing recorded goes.
    const early = await sweepUnreferencedFiles(t.ctx);
    expect(early).toMatchObject({ removed: 0, strays: 2 });
    expect(existsSync(temp) || existsSync(stray)).toBe(false);
    expect(await t.ctx.db.$count(storedFile)).toBe(2);

    const later = await sweepUnreferencedFiles(t.ctx, new Date(Date.now() + 24 * 3_600_000 + 60_000));
    expect(later).toMatchObject({ removed: 1, bytes: 200 });
    expect(await t.ctx.db.$count(storedFile, eq(storedFile.suffix, orphan.suffix))).toBe(0);
    expect(existsSync(join(filesDir(), orphan.suffix))).toBe(false);
    expect((await t.api.call('GET', '/basic/oss/download/suffix', { token: u, query: { suffix: orphan.suffix } })).status).toBe(404);
    expect(existsSync(join(filesDir(), used.suffix))).toBe(true);
    expect((await t.api.call('GET', '/basic/oss/download/suffix', { token: u, query: { suffix: used.suffix } })).status).toBe(200);
  });
});
