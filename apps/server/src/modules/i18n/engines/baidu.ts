import { createHash, randomInt } from 'node:crypto';
import { z } from 'zod';
import { baseOf, callEngine, EngineError, protectTokens, restoreTokens, statusFailure, type EngineFailure, type TranslationEngine } from './engine.ts';

/**
 * Baidu Translate general text API (fanyi-api.baidu.com/doc/21): POST (form) /api/trans/vip/translate
 * with q, from, to, appid, salt and sign = MD5(appid + q + salt + secret key) in lower-case hex,
 * q unencoded UTF-8 when signed; several texts go in one q separated by "\n" and come back as
 * trans_result [{ src, dst }] line by line. Errors: { error_code, error_msg } — 52001 timeout,
 * 52002 system error, 52003 unauthorised user (bad APP ID), 54000 missing parameter, 54001
 * invalid sign, 54003 access frequency limited, 54004 insufficient balance, 54005 long queries
 * too frequent, 58000 client IP not allowed, 58001 language not supported, 58002 service closed,
 * 90107 not certified. Baidu has no language-list call: its documented list is here.
 */
const CODES: Record<string, string> = {
  'zh-CN': 'zh', 'zh-TW': 'cht', 'en-US': 'en', 'es-ES': 'spa', 'ja-JP': 'jp', 'id-ID': 'id', 'fr-FR': 'fra', 'pt-PT': 'pt',
  'de-DE': 'de', 'ko-KR': 'kor', 'it-IT': 'it', 'th-TH': 'th', 'vi-VN': 'vie', 'ms-MY': 'may', 'km-KH': 'hkm', 'ar-EG': 'ara',
};
const ERROR_KINDS: Record<string, EngineFailure> = {
  '52001': 'temporary', '52002': 'temporary', '52003': 'auth', '54001': 'auth', '58000': 'auth', '90107': 'auth', '58002': 'auth',
  '54003': 'quota', '54004': 'quota', '54005': 'quota', '58001': 'permanent', '54000': 'permanent',
};
const PATH = '/api/trans/vip/translate';

export const baiduSign = (appId: string, q: string, salt: string, key: string) => createHash('md5').update(`${appId}${q}${salt}${key}`, 'utf8').digest('hex');

const answer = z.object({ from: z.string().optional(), to: z.string().optional(), trans_result: z.array(z.object({ src: z.string(), dst: z.string() })).optional(), error_code: z.union([z.string(), z.number()]).optional(), error_msg: z.string().optional() });

export const baidu: TranslationEngine = {
  kind: 'baidu',
  name: '百度翻译',
  defaultEndpoint: 'https://fanyi-api.baidu.com',
  needsAppId: true,
  keyOptional: false,
  docs: 'https://fanyi-api.baidu.com/doc/21',
  codeOf: (locale) => CODES[locale] ?? null,
  async translate(cred, texts, from, to, options) {
    const target = CODES[to];
    if (!target) throw new EngineError('permanent', 'LANGUAGE', `unsupported target ${to}`);
    // One text per line: a newline inside a text would split it, so those go one by one.
    if (texts.length > 1 && texts.some((t) => t.includes('\n'))) {
      const out: string[] = [];
      for (const t of texts) out.push(...(await this.translate(cred, [t], from, to, options)));
      return out;
    }
    const lines = texts.map(protectTokens);
    const q = lines.join('\n');
    const salt = String(randomInt(1_000_000_000));
    const appid = cred.appId ?? '';
    const form = new URLSearchParams({ q, from: CODES[from] ?? 'auto', to: target, appid, salt, sign: baiduSign(appid, q, salt, cred.key ?? '') });
    const a = await callEngine(`${baseOf(cred, this.defaultEndpoint)}${PATH}`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString(),
    }, options);
    const parsed = answer.safeParse(a.json);
    if (a.status !== 200 || !parsed.success) throw new EngineError(statusFailure(a.status === 200 ? 500 : a.status), `HTTP ${a.status}`, a.text.slice(0, 200) || `HTTP ${a.status}`);
    const { error_code: code, error_msg: msg, trans_result: result } = parsed.data;
    if (code !== undefined && String(code) !== '52000') throw new EngineError(ERROR_KINDS[String(code)] ?? 'permanent', String(code), msg ?? String(code));
    if (!result) throw new EngineError('temporary', 'ANSWER', 'unexpected answer');
    // Baidu answers one result per input line; a text of several lines comes back as several results.
    const dst = texts.length === 1 ? [result.map((r) => r.dst).join('\n')] : result.map((r) => r.dst);
    if (dst.length !== texts.length) throw new EngineError('temporary', 'ANSWER', 'unexpected answer');
    return dst.map(restoreTokens);
  },
  languages() {
    const codes = Object.values(CODES);
    return Promise.resolve(codes.map((code) => ({ code, source: true, target: true })));
  },
};
