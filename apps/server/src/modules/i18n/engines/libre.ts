import { z } from 'zod';
import { baseOf, callEngine, EngineError, protectTokens, restoreTokens, statusFailure, type TranslationEngine } from './engine.ts';

/**
 * LibreTranslate (docs.libretranslate.com, self-hostable): POST /translate with JSON { q, source,
 * target, format: "text", api_key } — q a string or an array of strings, answered as
 * { translatedText } of the same shape; GET /languages answers [{ code, name, targets: [...] }].
 * Errors: { error } with 400 (bad request, unsupported language), 403 (invalid or missing API
 * key, banned), 429 (slow down), 500.
 */
const CODES: Record<string, string[]> = {
  'zh-CN': ['zh-Hans', 'zh'], 'zh-TW': ['zh-Hant', 'zt'], 'en-US': ['en'], 'es-ES': ['es'], 'ja-JP': ['ja'], 'id-ID': ['id'], 'fr-FR': ['fr'], 'pt-PT': ['pt'],
  'de-DE': ['de'], 'ko-KR': ['ko'], 'it-IT': ['it'], 'th-TH': ['th'], 'vi-VN': ['vi'], 'ms-MY': ['ms'], 'km-KH': ['km'], 'ar-EG': ['ar'],
};
const translateAnswer = z.object({ translatedText: z.union([z.string(), z.array(z.string())]) });
const languagesAnswer = z.array(z.object({ code: z.string(), name: z.string().optional(), targets: z.array(z.string()).optional() }));

function fail(status: number, json: unknown, text: string): never {
  const message = (json as { error?: string } | undefined)?.error ?? (text.slice(0, 200) || `HTTP ${status}`);
  throw new EngineError(statusFailure(status), `HTTP ${status}`, message);
}

export const libre: TranslationEngine = {
  kind: 'libre',
  name: 'LibreTranslate',
  defaultEndpoint: 'https://libretranslate.com',
  needsAppId: false,
  keyOptional: true,
  docs: 'https://docs.libretranslate.com/guides/api_usage/',
  codeOf: (locale) => CODES[locale]?.at(-1) ?? null,
  async translate(cred, texts, from, to, options) {
    const target = this.codeOf(to);
    if (!target) throw new EngineError('permanent', 'LANGUAGE', `unsupported target ${to}`);
    const body = { q: texts.map(protectTokens), source: this.codeOf(from) ?? 'auto', target, format: 'text', ...(cred.key ? { api_key: cred.key } : {}) };
    const a = await callEngine(`${baseOf(cred, this.defaultEndpoint)}/translate`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    }, options);
    if (a.status !== 200) fail(a.status, a.json, a.text);
    const parsed = translateAnswer.safeParse(a.json);
    if (!parsed.success) throw new EngineError('temporary', 'ANSWER', 'unexpected answer');
    const out = typeof parsed.data.translatedText === 'string' ? [parsed.data.translatedText] : parsed.data.translatedText;
    if (out.length !== texts.length) throw new EngineError('temporary', 'ANSWER', 'unexpected answer');
    return out.map(restoreTokens);
  },
  async languages(cred, options) {
    const a = await callEngine(`${baseOf(cred, this.defaultEndpoint)}/languages`, { method: 'GET' }, options);
    if (a.status !== 200) fail(a.status, a.json, a.text);
    const parsed = languagesAnswer.safeParse(a.json);
    if (!parsed.success) throw new EngineError('temporary', 'ANSWER', 'unexpected answer');
    const all = new Set(parsed.data.flatMap((l) => l.targets ?? []));
    return parsed.data.map((l) => ({ code: l.code, source: true, target: all.size === 0 || all.has(l.code) }));
  },
};

/** The codes a self-hosted instance may use for a console locale (older instances: zh, zt). */
export const libreCodesOf = (locale: string) => CODES[locale] ?? [];
