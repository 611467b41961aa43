import { z } from 'zod';
import { baseOf, callEngine, EngineError, protectMarkup, restoreMarkup, statusFailure, type EngineFailure, type TranslationEngine } from './engine.ts';

/**
 * Google Cloud Translation, Basic edition (v2 REST: cloud.google.com/translate/docs/reference/rest/v2):
 * POST /language/translate/v2?key=API_KEY with JSON { q: [...], source, target, format: "html" }
 * answers { data: { translations: [{ translatedText }] } }; GET /language/translate/v2/languages?key=
 * answers { data: { languages: [{ language }] } }. Errors: { error: { code, message, errors:
 * [{ reason }], status } } — an invalid key is 400 "API key not valid" (reason keyInvalid /
 * badRequest), 403 with reason rateLimitExceeded, userRateLimitExceeded or dailyLimitExceeded is
 * a quota, 429 too many requests. Placeholders go in `<span translate="no">`, which the HTML
 * format leaves untranslated.
 */
export const GOOGLE_CODES: Record<string, string> = {
  'zh-CN': 'zh-CN', 'zh-TW': 'zh-TW', 'en-US': 'en', 'es-ES': 'es', 'ja-JP': 'ja', 'id-ID': 'id', 'fr-FR': 'fr', 'pt-PT': 'pt-PT',
  'de-DE': 'de', 'ko-KR': 'ko', 'it-IT': 'it', 'th-TH': 'th', 'vi-VN': 'vi', 'ms-MY': 'ms', 'km-KH': 'km', 'ar-EG': 'ar',
};
const OPEN = '<span translate="no">';
const CLOSE = '</span>';
const PATH = '/language/translate/v2';

const errorShape = z.object({ error: z.object({ code: z.number().optional(), message: z.string().optional(), status: z.string().optional(), errors: z.array(z.object({ reason: z.string().optional() })).optional() }) });
const translateAnswer = z.object({ data: z.object({ translations: z.array(z.object({ translatedText: z.string() })) }) });
const languagesAnswer = z.object({ data: z.object({ languages: z.array(z.object({ language: z.string() })) }) });
const QUOTA_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'dailyLimitExceeded', 'quotaExceeded']);

function fail(status: number, json: unknown): never {
  const e = errorShape.safeParse(json);
  const reason = e.success ? e.data.error.errors?.[0]?.reason ?? e.data.error.status ?? '' : '';
  const message = e.success ? e.data.error.message ?? `HTTP ${status}` : `HTTP ${status}`;
  let kind: EngineFailure = statusFailure(status);
  if (QUOTA_REASONS.has(reason)) kind = 'quota';
  else if (reason === 'keyInvalid' || /API key not valid/i.test(message)) kind = 'auth';
  throw new EngineError(kind, reason || `HTTP ${status}`, message);
}

const keyQuery = (key: string | null) => `key=${encodeURIComponent(key ?? '')}`;

export const google: TranslationEngine = {
  kind: 'google',
  name: 'Google Cloud Translation',
  defaultEndpoint: 'https://translation.googleapis.com',
  needsAppId: false,
  keyOptional: false,
  docs: 'https://cloud.google.com/translate/docs/reference/rest/v2/translate',
  codeOf: (locale) => GOOGLE_CODES[locale] ?? null,
  async translate(cred, texts, from, to, options) {
    const target = GOOGLE_CODES[to];
    if (!target) throw new EngineError('permanent', 'LANGUAGE', `unsupported target ${to}`);
    const body = { q: texts.map((t) => protectMarkup(t, OPEN, CLOSE)), target, ...(GOOGLE_CODES[from] ? { source: GOOGLE_CODES[from] } : {}), format: 'html' };
    const a = await callEngine(`${baseOf(cred, this.defaultEndpoint)}${PATH}?${keyQuery(cred.key)}`, {
      method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body),
    }, options);
    if (a.status !== 200) fail(a.status, a.json);
    const parsed = translateAnswer.safeParse(a.json);
    if (!parsed.success || parsed.data.data.translations.length !== texts.length) throw new EngineError('temporary', 'ANSWER', 'unexpected answer');
    return parsed.data.data.translations.map((t) => restoreMarkup(t.translatedText, OPEN, CLOSE));
  },
  async languages(cred, options) {
    const a = await callEngine(`${baseOf(cred, this.defaultEndpoint)}${PATH}/languages?${keyQuery(cred.key)}`, { method: 'GET' }, options);
    if (a.status !== 200) fail(a.status, a.json);
    const parsed = languagesAnswer.safeParse(a.json);
    if (!parsed.success) throw new EngineError('temporary', 'ANSWER', 'unexpected answer');
    return parsed.data.data.languages.map((l) => ({ code: l.language, source: true, target: true }));
  },
};
