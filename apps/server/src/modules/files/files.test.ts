import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedFile } from '../../db/schema/files.ts';
import { company } from '../../db/schema/system.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newUser } from '../../../test/factory.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-not-a-real-image')]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF')]);
const PDF = Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
const SVG_XML = Buffer.from('\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<!-- diagram -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg xmlns="http://www.w3.org/2000/svg"></svg>');

interface Uploaded {
  suffix: string;
  name: string;
  size: number;
  url: string;
}

function form(content: Buffer, name: string, field = 'file') {
  const f = new FormData();
  f.append(field, new Blob([content]), name);
  return f;
}

describe.each(dbTargets(import.meta.url))('files on %s', (target) => {
  let t: TestApp;
  let eastToken: string;
  let southToken: string;
  let eastCompanyId: number;

  const upload = (content: Buffer, name: string, token: string | null = t.adminToken, field = 'file') =>
    t.api.call<Uploaded>('POST', '/basic/oss/upload', { token, rawBody: form(content, name, field) });
  const download = (suffix: string, token: string | null = t.adminToken) =>
    t.api.call('GET', '/basic/oss/download/suffix', { token, query: { suffix } });
  const filesOnDisk = () => {
    const dir = join(t.ctx.config.dataDir, 'files');
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  async function userIn(code: string, username: string) {
    const [c] = await t.ctx.db.select().from(company).where(eq(company.code, code));
    return { companyId: c!.id, token: (await newUser(t, c!.id, { username, name: username, menus: ['/config/site'] })).token };
  }

  beforeAll(async () => {
    t = await startTestApp(target, { UPLOAD_MAX_MB: '0.05' });
    const east = await userIn('EAST', 'east-files');
    eastToken = east.token;
    eastCompanyId = east.companyId;
    southToken = (await userIn('SOUTH', 'south-files')).token;
  });
  afterAll(async () => t?.stop());

  it('stores a PNG on disk with its hash and serves it back under its original (Chinese) name', async () => {
    const r = await upload(PNG, '站点图 (1).png', eastToken);
    expect(r.status).toBe(200);
    expect(r.body.errorCode).toBe('00000');
    const up = r.body.data;
    expect(up.suffix).toMatch(/^[A-Za-z0-9_-]{22}\.png$/);
    expect(up).toMatchObject({ name: '站点图 (1).png', size: PNG.length, url: `/api/manager/basic/oss/download/suffix?suffix=${up.suffix}` });

    const [row] = await t.ctx.db.select().from(storedFile).where(eq(storedFile.suffix, up.suffix));
    expect(row).toMatchObject({ originalName: '站点图 (1).png', mime: 'image/png', size: PNG.length, companyId: eastCompanyId });
    expect(row!.sha256).toBe(createHash('sha256').update(PNG).digest('hex'));
    expect(readFileSync(join(t.ctx.config.dataDir, 'files', up.suffix))).toEqual(PNG);

    const d = await download(up.suffix, eastToken);
    expect(d.status).toBe(200);
    expect(d.raw).toEqual(PNG);
    expect(d.headers.get('content-type')).toBe('image/png');
    expect(d.headers.get('content-length')).toBe(String(PNG.length));
    const disposition = d.headers.get('content-disposition') ?? '';
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent('站点图')}%20%281%29.png`);
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"/);
  });

  it('accepts each type the upload call needs (pictures, zip packages) whose content matches its extension', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('s').addRow(['a', 1]);
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
    const cases: [Buffer, string, string][] = [
      [JPEG, 'photo.jpg', 'image/jpeg'],
      [JPEG, 'photo.jpeg', 'image/jpeg'],
      [PNG, 'PHOTO.PNG', 'image/png'],
      [xlsx, 'archive.zip', 'application/zip'],
    ];
    for (const [content, name, mime] of cases) {
      const r = await upload(content, name);
      expect(r.body.errorCode, name).toBe('00000');
      const d = await download(r.body.data.suffix);
      expect(d.status, name).toBe(200);
      expect(d.headers.get('content-type'), name).toBe(mime);
      expect(d.raw.equals(content), name).toBe(true);
    }
  });

  it('refuses types the upload call does not need, and .bin whatever its content (issue 14, item 6)', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('s').addRow(['a', 1]);
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
    const before = await t.ctx.db.$count(storedFile);
    const cases: [Buffer, string][] = [
      [Buffer.from([0, 1, 2, 3, 4, 5]), 'firmware-v1.2.bin'],
      [Buffer.from('<script>alert(1)</script>'), 'anything.bin'],
      [xlsx, 'book.xlsx'],
      [SVG, 'diagram.svg'],
      [SVG_XML, 'diagram2.SVG'],
      [PDF, 'report.pdf'],
    ];
    for (const [content, name] of cases) {
      const r = await upload(content, name);
      expect(r.status, name).toBe(406);
      expect(r.body.errorCode, name).toBe('A0420');
      expect(r.body.tipMsg, name).toContain('jpg');
    }
    expect(await t.ctx.db.$count(storedFile)).toBe(before);
  });

  it('refuses a type outside the list or content that does not match the extension (406 FILE_TYPE)', async () => {
    const before = await t.ctx.db.$count(storedFile);
    const cases: [Buffer, string][] = [
      [PNG, 'tool.exe'],
      [PNG, 'noextension'],
      [Buffer.from('PK\x03\x04 but called png'), 'fake.png'],
      [Buffer.from('hello world'), 'fake.svg'],
      [Buffer.from('<html><svg></svg></html>'), 'page.svg'],
      [Buffer.from('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "b">]><svg/>'), 'entities.svg'],
      [PNG, 'image.jpg'],
      [JPEG, 'doc.pdf'],
      [PDF, 'book.xlsx'],
      [Buffer.from('plain text'), 'archive.zip'],
    ];
    for (const [content, name] of cases) {
      const r = await upload(content, name);
      expect(r.status, name).toBe(406);
      expect(r.body.errorCode, name).toBe('A0420');
      expect(r.body.tipMsg, name).toBeTruthy();
    }
    expect(await t.ctx.db.$count(storedFile)).toBe(before);
    expect(filesOnDisk().filter((f) => f.startsWith('.upload-'))).toEqual([]);
  });

  it('lets only the screens that attach files upload: a user with only the log menus is refused 403 and nothing is stored (issue 14, item 6)', async () => {
    const [c] = await t.ctx.db.select().from(company).where(eq(company.code, 'EAST'));
    const logsOnly = await newUser(t, c!.id, { menus: ['/log/login', '/log/api'] });
    const before = filesOnDisk().length;
    const r = await upload(PNG, 'a.png', logsOnly.token);
    expect(r.status).toBe(403);
    expect(filesOnDisk()).toHaveLength(before);
    expect((await upload(PNG, 'b.png', eastToken)).status).toBe(200);
  });

  it('refuses a file over UPLOAD_MAX_MB with 413 and keeps nothing of it', async () => {
    const before = await t.ctx.db.$count(storedFile);
    const onDisk = filesOnDisk().length;
    const big = Buffer.concat([PNG, Buffer.alloc(60 * 1024, 7)]);
    const r = await upload(big, 'big.png');
    expect(r.status).toBe(413);
    expect(r.body.errorCode).toBe('A0421');
    expect(r.body.tipMsg).toContain('MB');
    expect(await t.ctx.db.$count(storedFile)).toBe(before);
    expect(filesOnDisk().length).toBe(onDisk);
    // Just under the limit is fine.
    const ok = await upload(Buffer.concat([PNG, Buffer.alloc(40 * 1024, 7)]), 'fits.png');
    expect(ok.body.errorCode).toBe('00000');
  });

  it('answers 400 when the file part is missing or empty, 415 for a non-multipart body, 401 without a token', async () => {
    const fieldOnly = new FormData();
    fieldOnly.append('name', 'x');
    const r1 = await t.api.call('POST', '/basic/oss/upload', { token: t.adminToken, rawBody: fieldOnly });
    expect(r1.status).toBe(400);
    expect(r1.body.tipMsg).toBe('file不能为空');
    const r2 = await upload(PNG, 'a.png', t.adminToken, 'other');
    expect(r2.status).toBe(400);
    const r3 = await upload(Buffer.alloc(0), 'empty.png');
    expect(r3.status).toBe(400);
    const r4 = await t.api.post('/basic/oss/upload', t.adminToken, { file: 'x' });
    expect(r4.status).toBe(415);
    expect(r4.body.errorCode).toBe('A0403');
    const r5 = await upload(PNG, 'a.png', null);
    expect(r5.status).toBe(401);
  });

  it("limits downloads to the caller's company scope and reports unknown files as 404", async () => {
    const up = (await upload(PNG, 'east.png', eastToken)).body.data;
    const south = await download(up.suffix, southToken);
    expect(south.status).toBe(403);
    expect(south.body.errorCode).toBe('A0301');
    // The group administrator sees the subsidiaries' files.
    expect((await download(up.suffix, t.adminToken)).status).toBe(200);
    // A group file is not visible to a subsidiary.
    const groupFile = (await upload(PNG, 'group.png')).body.data;
    expect((await download(groupFile.suffix, eastToken)).status).toBe(403);

    const missing = await download('AAAAAAAAAAAAAAAAAAAAAA.png');
    expect(missing.status).toBe(404);
    expect(missing.body.errorCode).toBe('A0410');
    expect((await download(up.suffix, null)).status).toBe(401);
  });

  it('refuses suffixes that could leave the files folder', async () => {
    for (const suffix of ['../../etc/passwd', '..%2F..%2Fetc%2Fpasswd', 'abc/../../x.png', '/etc/passwd', '....png', 'a.b.c.png', '']) {
      const r = await download(suffix);
      expect(r.status, suffix).toBe(400);
      expect(r.body.errorCode, suffix).toBe('A0400');
    }
    const r = await t.api.call('GET', '/basic/oss/download/suffix', { token: t.adminToken });
    expect(r.status).toBe(400);
    expect(r.body.tipMsg).toBe('suffix不能为空');
  });
});
