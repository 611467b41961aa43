import { z } from 'zod';
import { baseOf, callEngine, EngineError, protectMarkup, restoreMarkup, statusFailure, type TranslationEngine } from './engine.ts';

/**
 * DeepL API v2 (developers.deepl.com "Translate text", "Retrieve languages"): POST /v2/translate
 * with a JSON body { text: [...], source_lang, target_lang, tag_handling, ignore_tags }, the key
 * in `Authorization: DeepL-Auth-Key <key>`; keys of the Free API end in ":fx" and go to
 * api-free.deepl.com. Errors by status: 403 key refused, 429 too many requests, 456 quota
 * exceeded, 5xx temporary; the body `{ message }`. Placeholders go inside `<x>` elements that
 * `ignore_tags=x` leaves untranslated.
 */
const TARGETS: Record<string, string> = {
  'zh-CN': 'ZH-HANS', 'zh-TW': 'ZH-HANT', 'en-US': 'EN-US', 'es-ES': 'ES', 'ja-JP': 'JA', 'id-ID': 'ID', 'fr-FR': 'FR', 'pt-PT': 'PT-PT',
  'de-DE': 'DE', 'ko-KR': 'KO', 'it-IT': 'IT', 'th-TH': 'TH', 'vi-VN': 'VI', 'ar-EG': 'AR',
};
const OPEN = '<x>';
const CLOSE = '</x>';

const translateAnswer = z.object({ translations: z.array(z.object({ text: z.string(), detected_source_language: z.string().optional() })) });
const languagesAnswer = z.array(z.object({ language: z.string(), name: z.string().optional() }));

function fail(status: number, json: unknown, text: string): never {
  const message = (json as { message?: string } | undefined)?.message ?? (text.slice(0, 200) || `HTTP ${status}`);
  throw new EngineError(statusFailure(status), `HTTP ${status}`, message);
}

const hostOf = (key: string | null) => (key?.endsWith(':fx') ? 'https://api-free.deepl.com' : 'https://api.deepl.com');
const authOf = (key: string | null) => ({ authorization: `DeepL-Auth-Key ${key ?? ''}` });

export const deepl: TranslationEngine = {
  kind: 'deepl',
  name: 'DeepL',
  defaultEndpoint: 'https://api.deepl.com',
  needsAppId: false,
  keyOptional: false,
  docs: 'https://developers.deepl.com/docs/api-reference/translate',
  codeOf: (locale) => TARGETS[locale] ?? null,
  async translate(cred, texts, from, to, options) {
    const target = TARGETS[to];
    if (!target) throw new EngineError('permanent', 'LANGUAGE', `unsupported target ${to}`);
    // Source languages are written without a variant (ZH, EN, PT).
    const source = TARGETS[from]?.split('-')[0];
    const body = { text: texts.map((t) => protectMarkup(t, OPEN, CLOSE)), target_lang: target, ...(source ? { source_lang: source } : {}), tag_handling: 'xml', ignore_tags: ['x'] };
    const a = await callEngine(`${baseOf(cred, hostOf(cred.key))}/v2/translate`, {
      method: 'POST', headers: { ...authOf(cred.key), 'content-type': 'application/json' }, body: JSON.stringify(body),
    }, options);
    if (a.status !== 200) fail(a.status, a.json, a.text);
    const parsed = translateAnswer.safeParse(a.json);
    if (!parsed.success || parsed.data.translations.length !== texts.length) throw new EngineError('temporary', 'ANSWER', 'unexpected answer');
    return parsed.data.translations.map((t) => restoreMarkup(t.text, OPEN, CLOSE));
  },
  async languages(cred, options) {
    const get = async (type: 'source' | 'target') => {
      const a = await callEngine(`${baseOf(cred, hostOf(cred.key))}/v2/languages?type=${type}`, { method: 'GET', headers: authOf(cred.key) }, options);
      if (a.status !== 200) fail(a.status, a.json, a.text);
      const parsed = languagesAnswer.safeParse(a.json);
      if (!parsed.success) throw new EngineError('temporary', 'ANSWER', 'unexpected answer');
      return parsed.data.map((l) => l.language.toUpperCase());
    };
    const sources = new Set(await get('source'));
    const targets = new Set(await get('target'));
    return [...new Set([...sources, ...targets])].map((code) => ({ code, source: sources.has(code) || sources.has(code.split('-')[0]!), target: targets.has(code) }));
  },
};
