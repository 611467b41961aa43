import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LOCALE, LOCALES, LOCALE_STORAGE_KEY } from '@ess/contract/constants';
import { ERRORS } from '@ess/contract/errors';
import { MENUS } from '@ess/contract/menus';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, json, mockFetch, recordUi } from '../../test/http.ts';
import { commonHeaders, request } from '../request.ts';
import { fetchPack, forgetPacks, loadLanguagePack, setLocale, useUiLocaleStore } from './language.ts';
import { ANTD_LOCALES, LOCALE_NAMES } from './locales.ts';
import { fill, t, useI18nStore } from './translate.ts';
import { readPack } from '../../test/packs.ts';
import { pluralForms } from '@ess/contract/pack-text';

const SRC = join(import.meta.dirname, '../..');

let ui: ReturnType<typeof recordUi>;
beforeEach(() => {
  ui = recordUi();
  forgetPacks();
  useI18nStore.setState({ locale: DEFAULT_LOCALE, pack: new Map() });
  document.documentElement.dir = 'ltr';
});

describe('language-pack model (§3, §9)', () => {
  it('translates source text and fills $1 placeholders; a missing entry shows the source text', () => {
    useI18nStore.setState({ pack: new Map([['共 $1 条，第 $2 页', '$1 in total, page $2']]) });
    expect(t('共 $1 条，第 $2 页', 30, 2)).toBe('30 in total, page 2');
    expect(t('未翻译的 $1', 'x')).toBe('未翻译的 x');
    expect(fill('最多显示 $1 个字段', [])).toBe('最多显示 $1 个字段');
  });

  it('fetches the pack by language id and uses it', async () => {
    useI18nStore.setState({ locale: 'en-US' });
    const { calls } = mockFetch(() => json(envelope([{ source: '登录', translation: 'Sign in' }])));
    await loadLanguagePack();
    expect(calls[0]!.url).toBe('/api/manager/i18n/text/translation/view?languageId=en-US');
    expect(t('登录')).toBe('Sign in');
    await loadLanguagePack();
    expect(calls).toHaveLength(1);
  });

  it('the default locale needs no pack', async () => {
    const { calls } = mockFetch();
    await loadLanguagePack();
    expect(calls).toHaveLength(0);
    expect(t('登录')).toBe('登录');
  });

  it('a failed pack logs to the console, shows no toast and keeps the source text', async () => {
    useI18nStore.setState({ locale: 'fr-FR' });
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch(() => json(envelope(null, 'B0001', '服务器繁忙，请稍后再试'), 500));
    await loadLanguagePack();
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0]![0])).toContain('fr-FR');
    expect(ui.toasts).toEqual([]);
    expect(t('登录')).toBe('登录');
    // It is tried again next time.
    mockFetch(() => json(envelope([{ source: '登录', translation: 'Connexion' }])));
    await loadLanguagePack();
    expect(t('登录')).toBe('Connexion');
  });

  it('switching to ar-EG stores it, sends it as Client-Language, loads antd Arabic and turns the page right-to-left', async () => {
    mockFetch(() => json(envelope([{ source: '登录', translation: 'تسجيل الدخول' }])));
    await setLocale('ar-EG');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('ar-EG');
    expect(commonHeaders()['Client-Language']).toBe('ar-EG');
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('ar-EG');
    expect(useUiLocaleStore.getState().direction).toBe('rtl');
    expect(useUiLocaleStore.getState().antd?.locale).toBe('ar');
    expect(t('登录')).toBe('تسجيل الدخول');
    mockFetch();
    await setLocale('zh-CN');
    expect(document.documentElement.dir).toBe('ltr');
    expect(commonHeaders()).not.toHaveProperty('Client-Language');
    expect(useUiLocaleStore.getState().antd?.locale).toBe('zh-cn');
    expect(t('登录')).toBe('登录');
  });

  it('offers all 16 locales of §9, each with a name and an antd locale', async () => {
    expect(LOCALES).toHaveLength(16);
    expect(Object.keys(LOCALE_NAMES).sort()).toEqual([...LOCALES].sort());
    const antd = await Promise.all(LOCALES.map((l) => ANTD_LOCALES[l]().then((m) => m.default.locale)));
    expect(antd).toEqual(['zh-cn', 'zh-tw', 'en', 'es', 'ja', 'id', 'fr', 'pt', 'de', 'ko', 'it', 'th', 'vi', 'ms-my', 'km', 'ar']);
  });

  it('request errors show tipMsg through the pack', async () => {
    useI18nStore.setState({ locale: 'en-US', pack: new Map([['数据已存在', 'The data already exists']]) });
    mockFetch(() => json(envelope(null, 'A0409', '数据已存在')));
    await expect(request({ url: '/x', method: 'GET' })).rejects.toThrow('The data already exists');
    expect(ui.toasts[0]!.text).toBe('The data already exists');
  });

  it('only the default locale skips the pack fetch', async () => {
    const { calls } = mockFetch(() => json(envelope([])));
    for (const l of LOCALES) await fetchPack(l);
    expect(calls.map((c) => new URL(c.url, 'http://x').searchParams.get('languageId'))).toEqual(LOCALES.filter((l) => l !== 'zh-CN'));
  });
});

/** Every source text the shell passes to t() as a literal, plus the names and messages it shows. */
function shellTexts(): string[] {
  const texts = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.tsx?$/.test(name) && !name.includes('.test.')) {
        const src = readFileSync(p, 'utf8');
        for (const m of src.matchAll(/\bt\(\s*'([^']+)'/g)) texts.add(m[1]!);
        for (const m of src.matchAll(/required\('([^']+)'\)/g)) texts.add(m[1]!);
      }
    }
  };
  walk(SRC);
  for (const m of MENUS) texts.add(m.name);
  for (const e of Object.values(ERRORS)) texts.add(e.tip);
  texts.add('欢迎');
  texts.add('个人中心');
  return [...texts];
}

describe('shipped packs', () => {
  // Every locale but the source-text one ships a pack that covers the shell.
  it.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s translates every text the shell shows', (locale) => {
    const pack = readPack(locale);
    const texts = shellTexts();
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
    // Placeholders survive translation.
    for (const [source, translation] of Object.entries(pack)) {
      expect((pluralForms(translation)?.other ?? translation).match(/\$\d/g)?.sort() ?? [], source).toEqual(source.match(/\$\d/g)?.sort() ?? []);
    }
  });
});
