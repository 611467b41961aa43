import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortTextLimit } from '@ess/contract/i18n';
import type { CompletionRecord, CurrencyRecord, EngineRecord, LanguageRecord, OriginalRecord, RefreshResult, TextNodeRecord } from '@ess/contract/i18n';
import type { Page } from '@ess/contract';
import { startHttpPeer, type HttpPeer, type PeerRequest } from '../../../test/http-peer.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newUser, okData, seededCompanies, until } from '../../../test/factory.ts';
import { seededCatalogue, setCatalogue, shippedCatalogue } from './i18n.state.ts';

/**
 * Issue 24, stage 1 over HTTP: languages and currencies seeded, the pack fetch from the database
 * (ETag, an edit shows on the next fetch), the catalogue refresh and its tip, translation checks
 * on save and import (all or nothing), engines with write-only keys, machine completion through a
 * LibreTranslate peer as a background job, business-data originals, and the refusals.
 */
describe.each(dbTargets(import.meta.url))('translation management on %s', (target) => {
  let t: TestApp;
  let peer: HttpPeer;
  let stranger: string;
  const post = <T>(path: string, body: unknown, token: string | null = t.adminToken) => t.api.post<T>(path, token, body);
  const get = <T>(path: string, query?: Record<string, string | number>, token: string | null = t.adminToken) => t.api.get<T>(path, token, query);

  beforeAll(async () => {
    // A LibreTranslate peer: checks the documented body and answers "[de] <text>" with the braces kept.
    peer = await startHttpPeer((req: PeerRequest) => {
      if (req.url === '/languages') return { status: 200, body: [{ code: 'en', name: 'English', targets: ['de', 'en', 'zh'] }, { code: 'de', name: 'German', targets: ['en'] }, { code: 'zh', name: 'Chinese', targets: ['en'] }] };
      const b = JSON.parse(req.body) as { q: string[]; source: string; target: string; format: string; api_key?: string };
      if (b.api_key !== 'libre-key') return { status: 403, body: { error: 'Invalid API key' } };
      return { status: 200, body: { translatedText: b.q.map((q) => `[${b.target}] ${q}`) } };
    });
    t = await startTestApp(target);
    const c = await seededCompanies(t);
    stranger = (await newUser(t, c.east.id, { menus: ['/config/site'] })).token;
  });
  afterAll(async () => {
    await t?.stop();
    await peer?.close();
  });

  it('seeds the 16 languages with their completion, the source language complete', async () => {
    const langs = await okData(post<LanguageRecord[]>('/i18n/language/query/list', {}));
    expect(langs).toHaveLength(16);
    const en = langs.find((l) => l.code === 'en-US')!;
    expect(en.text.total).toBeGreaterThan(1000);
    expect(en.text.reviewed).toBe(en.text.total);
    expect(langs.find((l) => l.code === 'ar-EG')!.direction).toBe('rtl');
    const enabled = await okData(get<{ code: string }[]>('/i18n/language/query/enable', undefined, null));
    expect(enabled.map((l) => l.code)).toContain('km-KH');
  });

  it('serves the pack from the database with an ETag; an edit shows on the next fetch', async () => {
    const first = await get<{ source: string; translation: string }[]>('/i18n/text/translation/view', { languageId: 'en-US' }, null);
    expect(first.body.data).toContainEqual({ source: '登录', translation: 'Sign in' });
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const again = await t.api.call('GET', '/i18n/text/translation/view', { query: { languageId: 'en-US' }, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const page = await okData(post<Page<OriginalRecord>>('/i18n/text/original/query/page', { languageId: 'en-US', keyword: '登录', pageSize: 50 }));
    const login = page.records.find((r) => r.source === '登录')!;
    expect(login.state).toBe('reviewed');
    await okData(post('/i18n/text/translation/edit', { id: login.id, languageId: 'en-US', translation: 'Log in' }));
    const after = await get<{ source: string; translation: string }[]>('/i18n/text/translation/view', { languageId: 'en-US' }, null);
    expect(after.body.data).toContainEqual({ source: '登录', translation: 'Log in' });
    expect(after.headers.get('etag')).not.toBe(etag);
    const edited = await okData(post<Page<OriginalRecord>>('/i18n/text/original/query/page', { languageId: 'en-US', keyword: '登录', state: 'translated', pageSize: 50 }));
    expect(edited.records.map((r) => r.id)).toContain(login.id);
  });

  it('refuses a translation missing a placeholder, an unknown language, and the source language, changing nothing', async () => {
    const page = await okData(post<Page<OriginalRecord>>('/i18n/text/original/query/page', { languageId: 'de-DE', keyword: '$1', pageSize: 5 }));
    const row = page.records[0]!;
    const bad = await post('/i18n/text/translation/edit', { id: row.id, languageId: 'de-DE', translation: 'ohne Platzhalter' });
    expect([bad.status, bad.body.errorCode]).toEqual([400, 'A0400']);
    expect(bad.body.tipMsg).toContain('$1');
    const still = await okData(post<Page<OriginalRecord>>('/i18n/text/original/query/page', { languageId: 'de-DE', keyword: row.source, pageSize: 5 }));
    expect(still.records.find((r) => r.id === row.id)!.translation).toBe(row.translation);
    const unknown = await get('/i18n/text/translation/view', { languageId: 'xx-XX' }, null);
    expect(unknown.status).toBe(400);
    expect((await post('/i18n/text/original/query/page', { languageId: 'xx-XX' })).status).toBe(400);
    expect((await post('/i18n/text/translation/edit', { id: row.id, languageId: 'zh-CN', translation: 'x' })).status).toBe(400);
  });

  it('refresh: the tip counts new and removed texts, the refresh merges them, removed ones become obsolete', async () => {
    const base = await seededCatalogue();
    setCatalogue(t.ctx, () => Promise.resolve([...base.slice(1), { source: '新的界面文本 $1', context: 'test' }]));
    const tip = await okData(get<{ added: number; removed: number }>('/i18n/text/original/refresh/tip'));
    expect(tip).toMatchObject({ added: 1, removed: 1 });
    const r = await okData(post<RefreshResult>('/i18n/text/original/refresh/view', {}));
    expect(r).toMatchObject({ added: 1, obsoleted: 1 });
    expect(await okData(get('/i18n/text/original/refresh/tip'))).toMatchObject({ added: 0, removed: 0 });
    const pack = await okData(get<{ source: string }[]>('/i18n/text/translation/view', { languageId: 'en-US' }, null));
    expect(pack.map((p) => p.source)).not.toContain(base[0]!.source);
  });

  it('imports a translator sheet all or nothing, naming the failing row', async () => {
    const res = await t.api.call('POST', '/i18n/text/original/export', { token: t.adminToken, body: { languageId: 'ja-JP', keyword: '新的界面文本' } });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect((ws.getRow(1).values as string[]).slice(1)).toEqual(['编号', '上下文', '原文', '译文', '状态']);
    const id = Number(ws.getRow(2).getCell(1).value);
    const upload = async (rows: [number, string, string][]) => {
      const out = new ExcelJS.Workbook();
      const s = out.addWorksheet('x');
      s.addRow(['编号', '原文', '译文']);
      for (const r of rows) s.addRow(r);
      const form = new FormData();
      form.set('languageId', 'ja-JP');
      form.set('file', new Blob([await out.xlsx.writeBuffer()]), 'ja.xlsx');
      return t.api.call('POST', '/i18n/text/translation/import', { token: t.adminToken, rawBody: form });
    };
    const refused = await upload([[id, '新的界面文本 $1', '新しいテキスト $1'], [id, '新的界面文本 $1', '新しいテキスト']]);
    expect(refused.status).toBe(406);
    expect(refused.body.tipMsg).toContain('第3行');
    expect(refused.body.tipMsg).toContain('$1');
    const none = await okData(post<Page<OriginalRecord>>('/i18n/text/original/query/page', { languageId: 'ja-JP', keyword: '新的界面文本', pageSize: 5 }));
    expect(none.records[0]!.state).toBe('untranslated');
    expect(await okData(upload([[id, '新的界面文本 $1', '新しいテキスト $1']]))).toEqual({ updated: 1, unchanged: 0 });
  });

  it('engines: the key write-only, connect and supports against the peer, wrong key a clear 4xx', async () => {
    const kinds = await okData(get<{ kind: string }[]>('/i18n/engine/optionals'));
    expect(kinds.map((k) => k.kind)).toEqual(['deepl', 'google', 'google-v3', 'baidu', 'libre']);
    const noKey = await post('/i18n/engine/add', { name: 'DeepL without key', kind: 'deepl' });
    expect(noKey.status).toBe(400);
    const { id } = await okData(post<{ id: number }>('/i18n/engine/add', { name: 'Libre', kind: 'libre', endpoint: peer.url, apiKey: 'libre-key' }));
    const one = await okData(post<EngineRecord>('/i18n/engine/query/one', { id }));
    expect(one).toMatchObject({ keySet: true, kind: 'libre' });
    expect(JSON.stringify(one)).not.toContain('libre-key');
    expect(await okData(get('/i18n/engine/connect', { id }))).toMatchObject({ ok: true, sample: '[en] 储能电站 $1' });
    const supports = await okData(get<{ languageId: string; target: boolean }[]>('/i18n/engine/supports', { id }));
    expect(supports.find((s) => s.languageId === 'de-DE')).toMatchObject({ target: true });
    const dup = await post('/i18n/engine/add', { name: 'Libre', kind: 'libre', endpoint: peer.url });
    expect(dup.body.errorCode).toBe('A0409');
    await okData(post('/i18n/engine/edit', { ...one, apiKey: 'wrong' }));
    const wrong = await get('/i18n/engine/connect', { id });
    expect(wrong.status).toBe(406);
    expect(wrong.body.tipMsg).toContain('Invalid API key');
    await okData(post('/i18n/engine/edit', { ...one, apiKey: 'libre-key' }));
  });

  it('machine completion as a job: untranslated texts become machine translated, then reviewed', async () => {
    const [engine] = await okData(post<EngineRecord[]>('/i18n/engine/query/list', { kind: 'libre' }));
    const target = await okData(post<Page<OriginalRecord>>('/i18n/text/original/query/page', { languageId: 'de-DE', keyword: '新的界面文本', pageSize: 5 }));
    expect(target.records[0]!.state).toBe('untranslated');
    const { id } = await okData(post<{ id: number }>('/i18n/text/original/completion', { languageId: 'de-DE', engineId: engine!.id }));
    let job: CompletionRecord | null = null;
    await until('the completion', async () => {
      job = await okData(post<CompletionRecord>('/i18n/text/original/completion/query/one', { id }));
      return job.state === 'done' || job.state === 'failed';
    }, 30_000, 200);
    expect(job).toMatchObject({ state: 'done', total: 1, done: 1, failed: 0 });
    const row = (await okData(post<Page<OriginalRecord>>('/i18n/text/original/query/page', { languageId: 'de-DE', keyword: '新的界面文本', pageSize: 5 }))).records[0]!;
    expect(row).toMatchObject({ state: 'machine', translation: '[de] 新的界面文本 $1', engineName: 'Libre' });
    await okData(post('/i18n/text/translation/edit', { id: row.id, languageId: 'de-DE', translation: 'Neuer Text $1', reviewed: true }));
    const pack = await okData(get<{ source: string; translation: string }[]>('/i18n/text/translation/view', { languageId: 'de-DE' }, null));
    expect(pack).toContainEqual({ source: '新的界面文本 $1', translation: 'Neuer Text $1' });
    const nothing = await post('/i18n/text/original/completion', { languageId: 'de-DE', engineId: engine!.id, ids: [row.id + 100_000] });
    expect(nothing.status).toBe(406);
    // An engine with wrong credentials: the job ends failed naming the service's words, and nothing is written.
    const { id: wrongKey } = await okData(post<{ id: number }>('/i18n/engine/add', { name: 'Libre (wrong key)', kind: 'libre', endpoint: peer.url, apiKey: 'not-the-key' }));
    const { id: failing } = await okData(post<{ id: number }>('/i18n/text/original/completion', { languageId: 'fr-FR', engineId: wrongKey, ids: [row.id] }));
    let failed: CompletionRecord | null = null;
    await until('the failing completion', async () => {
      failed = await okData(post<CompletionRecord>('/i18n/text/original/completion/query/one', { id: failing }));
      return failed.state === 'done' || failed.state === 'failed';
    }, 30_000, 200);
    expect(failed).toMatchObject({ state: 'failed', done: 0, failed: 1 });
    expect(failed!.error).toContain('Invalid API key');
    const fr = (await okData(post<Page<OriginalRecord>>('/i18n/text/original/query/page', { languageId: 'fr-FR', keyword: '新的界面文本', pageSize: 5 }))).records[0]!;
    expect(fr).toMatchObject({ id: row.id, state: 'untranslated', translation: null });
    await okData(get('/i18n/engine/delete', { id: wrongKey }));
  });

  it('refresh from the scanned catalogue: the texts the packs lack appear untranslated, the test text retires', async () => {
    setCatalogue(t.ctx, shippedCatalogue);
    const seeded = new Set((await seededCatalogue()).map((e) => e.source));
    const scanned = (await shippedCatalogue()).filter((e) => !seeded.has(e.source));
    expect(scanned.length).toBeGreaterThan(0);
    expect(scanned.every((e) => /^(web|contract|server)\b/.test(e.context))).toBe(true);
    const tip = await okData(get<{ added: number; removed: number }>('/i18n/text/original/refresh/tip'));
    expect(tip.added).toBeGreaterThanOrEqual(scanned.length - 1);
    const r = await okData(post<RefreshResult>('/i18n/text/original/refresh/view', {}));
    expect(r.obsoleted).toBe(1);
    const sample = scanned.find((e) => !e.source.includes('%'))!;
    const row = (await okData(post<Page<OriginalRecord>>('/i18n/text/original/query/page', { languageId: 'fr-FR', keyword: sample.source, pageSize: 50 }))).records.find((x) => x.source === sample.source);
    expect(row).toMatchObject({ state: 'untranslated', context: sample.context });
    expect(await okData(get('/i18n/text/original/refresh/tip'))).toMatchObject({ added: 0, removed: 0 });
  });

  it('the length rule where the UI has little room: a too long translation of a short text refused on save and import, nothing written', async () => {
    const short = (await seededCatalogue()).filter((e) => e.short && !e.source.includes('$'));
    expect(short.length).toBeGreaterThan(100);
    const rows = (await okData(post<Page<OriginalRecord>>('/i18n/text/original/query/page', { languageId: 'it-IT', keyword: short[0]!.source, pageSize: 50 }))).records;
    const row = rows.find((r) => r.source === short[0]!.source)!;
    expect(row.maxLength).toBe(shortTextLimit(row.source));
    const long = 'x'.repeat(row.maxLength! + 1);
    const bad = await post('/i18n/text/translation/edit', { id: row.id, languageId: 'it-IT', translation: long });
    expect([bad.status, bad.body.errorCode]).toEqual([400, 'A0400']);
    expect(bad.body.tipMsg).toContain(String(row.maxLength));
    expect(await okData(post('/i18n/text/translation/edit', { id: row.id, languageId: 'it-IT', translation: 'x'.repeat(row.maxLength!) }))).toBe(true);
    const out = new ExcelJS.Workbook();
    const sheet = out.addWorksheet('x');
    sheet.addRow(['编号', '原文', '译文']);
    sheet.addRow([row.id, row.source, 'Breve']);
    sheet.addRow([row.id, row.source, long]);
    const form = new FormData();
    form.set('languageId', 'it-IT');
    form.set('file', new Blob([await out.xlsx.writeBuffer()]), 'it.xlsx');
    const refused = await t.api.call('POST', '/i18n/text/translation/import', { token: t.adminToken, rawBody: form });
    expect(refused.status).toBe(406);
    expect(refused.body.tipMsg).toContain('第3行');
    expect(refused.body.tipMsg).toContain(String(row.maxLength));
    const after = (await okData(post<Page<OriginalRecord>>('/i18n/text/original/query/page', { languageId: 'it-IT', keyword: row.source, pageSize: 50 }))).records.find((r) => r.id === row.id)!;
    expect(after.translation).toBe('x'.repeat(row.maxLength!));
  });

  it('business data: refresh collects role names; a changed name makes its translation outdated', async () => {
    const r = await okData(get<RefreshResult>('/i18n/data/original/refresh'));
    expect(r.added).toBeGreaterThan(0);
    const roles = await okData(post<Page<OriginalRecord>>('/i18n/data/original/query/page', { languageId: 'en-US', keyword: '系统管理员', pageSize: 10 }));
    const admin = roles.records.find((x) => x.nodeName === '角色名称')!;
    await okData(post('/i18n/data/translation/edit', { id: admin.id, languageId: 'en-US', translation: 'System administrator' }));
    await t.ctx.db.execute((await import('drizzle-orm')).sql`update role set name = name || '（改）' where id = ${admin.recordId}`);
    expect(await okData(get<RefreshResult>('/i18n/data/original/refresh'))).toMatchObject({ changed: 1 });
    const after = await okData(post<Page<OriginalRecord>>('/i18n/data/original/query/page', { languageId: 'en-US', state: 'outdated', pageSize: 10 }));
    expect(after.records.map((x) => x.id)).toContain(admin.id);
    // The console shows names through the pack: the datum's translation is in it, by its source.
    const renamed = (await okData(post<Page<OriginalRecord>>('/i18n/data/original/query/page', { languageId: 'en-US', state: 'outdated', pageSize: 10 }))).records.find((x) => x.id === admin.id)!;
    await okData(post('/i18n/data/translation/edit', { id: admin.id, languageId: 'en-US', translation: 'System administrator (changed)', reviewed: true }));
    const pack = await okData(get<{ source: string; translation: string }[]>('/i18n/text/translation/view', { languageId: 'en-US' }, null));
    expect(pack).toContainEqual({ source: renamed.source, translation: 'System administrator (changed)' });
  });

  it('business data: the page and the export filter by data field (text node); a bad node id is refused', async () => {
    const nodes = await okData(post<TextNodeRecord[]>('/configure/text/node/query/list', {}));
    const roleNode = nodes.find((n) => n.field === 'role.name')!;
    const productNode = nodes.find((n) => n.field === 'product.name')!;
    const page = (body: object) => okData(post<Page<OriginalRecord>>('/i18n/data/original/query/page', { languageId: 'en-US', pageSize: 200, ...body }));
    const roles = await page({ nodeId: roleNode.id });
    expect(roles.total).toBeGreaterThan(0);
    expect(roles.total).toBe(roleNode.originals);
    expect(new Set(roles.records.map((r) => r.nodeId))).toEqual(new Set([roleNode.id]));
    expect(roles.records.map((r) => r.source)).toContain('运维人员');
    const products = await page({ nodeId: productNode.id });
    expect(products.total).toBeGreaterThan(0);
    expect(products.records.every((r) => r.nodeId === productNode.id && r.source !== '运维人员')).toBe(true);
    expect((await page({})).total).toBeGreaterThanOrEqual(roles.total + products.total);
    // With the other filters: a keyword inside the field.
    expect((await page({ nodeId: productNode.id, keyword: '运维人员' })).total).toBe(0);
    const bad = await post('/i18n/data/original/query/page', { languageId: 'en-US', nodeId: 'roles' });
    expect([bad.status, bad.body.errorCode]).toEqual([400, 'A0400']);
  });

  it('currencies: seeded, a duplicate code refused, bad minor units refused', async () => {
    const list = await okData(post<CurrencyRecord[]>('/i18n/currency/query/list', {}));
    expect(list.find((c) => c.code === 'JPY')).toMatchObject({ minorUnits: 0 });
    const dup = await post('/i18n/currency/add', { code: 'USD', symbol: '$', name: '美元', minorUnits: 2 });
    expect([dup.status, dup.body.errorCode]).toEqual([406, 'A0409']);
    expect((await post('/i18n/currency/add', { code: 'usd1', symbol: '$', name: 'x', minorUnits: 9 })).status).toBe(400);
    expect(await okData(post<{ id: number }>('/i18n/currency/add', { code: 'CHF', symbol: 'Fr.', name: '瑞士法郎', minorUnits: 2 }))).toHaveProperty('id');
  });

  it('refuses callers without the menus and without sign-in', async () => {
    for (const [path, body] of [['/i18n/language/query/page', {}], ['/i18n/engine/query/list', {}], ['/i18n/currency/add', { code: 'XTS', symbol: 'X', name: 'x', minorUnits: 0 }], ['/configure/text/node/query/list', {}]] as const) {
      expect((await post(path, body, stranger)).status).toBe(403);
      expect((await post(path, body, null)).status).toBe(401);
    }
  });
});
