import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

describe('language packs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(async () => t?.stop());

  it('serves a pack without sign-in as source/translation pairs', async () => {
    const r = await t.api.get<{ source: string; translation: string }[]>('/i18n/text/translation/view', null, { languageId: 'en-US' });
    expect(r.status).toBe(200);
    expect(r.body.errorCode).toBe('00000');
    expect(r.body.data).toContainEqual({ source: '登录', translation: 'Sign in' });
    expect(r.body.data).toContainEqual({ source: '未登录或登录已过期', translation: 'Not signed in or login expired' });
  });

  it('gives the default locale no pack (it is the source text) and refuses an unknown locale', async () => {
    const zh = await t.api.get<unknown[]>('/i18n/text/translation/view', null, { languageId: 'zh-CN' });
    expect(zh.body.data).toEqual([]);
    const bad = await t.api.get('/i18n/text/translation/view', null, { languageId: 'xx-XX' });
    expect(bad.status).toBe(400);
    expect(bad.body.errorCode).not.toBe('00000');
  });
});
