import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, startHttpPeer, type HttpPeer, type PeerAnswer, type PeerRequest } from '../../../../test/http-peer.ts';
import { baidu, baiduSign } from './baidu.ts';
import { deepl } from './deepl.ts';
import { EngineError, type EngineCredentials, type TranslationEngine } from './engine.ts';
import { google } from './google.ts';
import { libre } from './libre.ts';

/**
 * Each adapter against a local peer of its service: the peer checks the documented request
 * (path, method, authentication, body, Baidu's signature computed here from the documentation's
 * recipe), answers as the documentation shows — translating the text outside the placeholder
 * markup, so a placeholder that reached the "translation" would show — and answers its documented
 * errors and rate limits on demand.
 */

/** The "translation" of the peers: upper case outside the protected parts. */
const shout = (s: string) => s.toUpperCase();
const SOURCES = ['储能电站 $1 的告警', 'a < b & "c" $2 / $1', 'plain'];
const EXPECTED = ['储能电站 $1 的告警', 'A < B & "C" $2 / $1', 'PLAIN'];

type Mode = 'ok' | 'auth' | 'quota' | 'server' | 'slow';
interface Case {
  engine: TranslationEngine;
  cred: (base: string) => EngineCredentials;
  /** Checks the request; returns the problems found. */
  check: (req: PeerRequest) => string[];
  answer: (req: PeerRequest, mode: Mode) => PeerAnswer;
}

const deeplKey = 'f63c02c5-f056-0000-0000-000000000000:fx';
const googleKey = 'AIzaSyTestKey';
const baiduApp = '20240101000000001';
const baiduSecret = 'baidu-secret-key';
const libreKey = 'libre-api-key';

const cases: Case[] = [
  {
    engine: deepl,
    cred: (base) => ({ key: deeplKey, appId: null, endpoint: base }),
    check: (req) => {
      const p: string[] = [];
      if (req.method !== 'POST' || req.url !== '/v2/translate') p.push(`${req.method} ${req.url}`);
      if (req.headers.authorization !== `DeepL-Auth-Key ${deeplKey}`) p.push(`authorization ${req.headers.authorization}`);
      if (!String(req.headers['content-type']).startsWith('application/json')) p.push('content-type');
      const b = JSON.parse(req.body) as Record<string, unknown>;
      if (b.target_lang !== 'EN-US' || b.source_lang !== 'ZH' || b.tag_handling !== 'xml' || JSON.stringify(b.ignore_tags) !== '["x"]') p.push(JSON.stringify(b));
      return p;
    },
    answer: (req, mode) => {
      if (mode === 'auth') return { status: 403, body: { message: 'Wrong auth key' } };
      if (mode === 'quota') return { status: 456, body: { message: 'Quota Exceeded' } };
      if (mode === 'server') return { status: 503, body: { message: 'Service unavailable' } };
      const b = JSON.parse(req.body) as { text: string[] };
      // Outside <x>…</x> translated, the XML escapes kept as XML.
      const out = b.text.map((t) => t.split(/(<x>.*?<\/x>)/).map((part) => (part.startsWith('<x>') ? part : part.replace(/(&[a-z]+;)|([^&]+)/g, (m, ent: string) => ent ?? shout(m)))).join(''));
      return { status: 200, body: { translations: out.map((text) => ({ detected_source_language: 'ZH', text })) }, delayMs: mode === 'slow' ? 1000 : 0 };
    },
  },
  {
    engine: google,
    cred: (base) => ({ key: googleKey, appId: null, endpoint: base }),
    check: (req) => {
      const p: string[] = [];
      const url = new URL(req.url, 'http://peer');
      if (req.method !== 'POST' || url.pathname !== '/language/translate/v2') p.push(`${req.method} ${url.pathname}`);
      if (url.searchParams.get('key') !== googleKey) p.push(`key ${url.searchParams.get('key')}`);
      const b = JSON.parse(req.body) as Record<string, unknown>;
      if (b.target !== 'en' || b.source !== 'zh-CN' || b.format !== 'html' || !Array.isArray(b.q)) p.push(JSON.stringify(b));
      return p;
    },
    answer: (req, mode) => {
      const err = (code: number, message: string, reason: string, status?: string) => ({ status: code, body: { error: { code, message, errors: [{ message, domain: 'global', reason }], ...(status ? { status } : {}) } } });
      if (mode === 'auth') return err(400, 'API key not valid. Please pass a valid API key.', 'badRequest', 'INVALID_ARGUMENT');
      if (mode === 'quota') return err(403, 'User Rate Limit Exceeded', 'userRateLimitExceeded');
      if (mode === 'server') return err(500, 'Internal error encountered.', 'backendError', 'INTERNAL');
      const b = JSON.parse(req.body) as { q: string[] };
      // HTML in, HTML out: Google escapes apostrophes and quotes as entities.
      const out = b.q.map((t) => t.split(/(<span translate="no">.*?<\/span>)/).map((part) => (part.startsWith('<span') ? part : part.replace(/(&[a-z]+;)|([^&]+)/g, (m, ent: string) => ent ?? shout(m).replace(/"/g, '&quot;')))).join(''));
      return { status: 200, body: { data: { translations: out.map((translatedText) => ({ translatedText, detectedSourceLanguage: 'zh-CN' })) } }, delayMs: mode === 'slow' ? 1000 : 0 };
    },
  },
  {
    engine: baidu,
    cred: (base) => ({ key: baiduSecret, appId: baiduApp, endpoint: base }),
    check: (req) => {
      const p: string[] = [];
      if (req.method !== 'POST' || req.url !== '/api/trans/vip/translate') p.push(`${req.method} ${req.url}`);
      if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) p.push('content-type');
      const f = Object.fromEntries(new URLSearchParams(req.body));
      if (f.from !== 'zh' || f.to !== 'en' || f.appid !== baiduApp || !/^\d+$/.test(f.salt ?? '')) p.push(JSON.stringify(f));
      return p;
    },
    answer: (req, mode) => {
      const f = Object.fromEntries(new URLSearchParams(req.body));
      // The documented sign: MD5 of appid + q + salt + key, q as sent (not URL-encoded).
      const sign = createHash('md5').update(`${f.appid}${f.q}${f.salt}${baiduSecret}`).digest('hex');
      if (mode === 'auth' || f.sign !== sign) return { status: 200, body: { error_code: '54001', error_msg: 'Invalid Sign' } };
      if (mode === 'quota') return { status: 200, body: { error_code: '54003', error_msg: 'Invalid Access Limit' } };
      if (mode === 'server') return { status: 200, body: { error_code: '52002', error_msg: 'SYSTEM ERROR' } };
      const lines = f.q!.split('\n');
      return { status: 200, body: { from: 'zh', to: 'en', trans_result: lines.map((src) => ({ src, dst: src.replace(/[^{}]+(?=\{|$)/g, shout) })) }, delayMs: mode === 'slow' ? 1000 : 0 };
    },
  },
  {
    engine: libre,
    cred: (base) => ({ key: libreKey, appId: null, endpoint: base }),
    check: (req) => {
      const p: string[] = [];
      if (req.method !== 'POST' || req.url !== '/translate') p.push(`${req.method} ${req.url}`);
      const b = JSON.parse(req.body) as Record<string, unknown>;
      if (b.source !== 'zh' || b.target !== 'en' || b.format !== 'text' || b.api_key !== libreKey || !Array.isArray(b.q)) p.push(JSON.stringify(b));
      return p;
    },
    answer: (req, mode) => {
      if (mode === 'auth') return { status: 403, body: { error: 'Invalid API key' } };
      if (mode === 'quota') return { status: 429, body: { error: 'Slowdown: 20 per 1 minute' } };
      if (mode === 'server') return { status: 500, body: { error: 'Cannot translate text' } };
      const b = JSON.parse(req.body) as { q: string[] };
      return { status: 200, body: { translatedText: b.q.map((t) => t.replace(/[^{}]+(?=\{|$)/g, shout)) }, delayMs: mode === 'slow' ? 1000 : 0 };
    },
  },
];

describe('the Baidu sign', () => {
  it('reproduces the documentation\'s worked example', () => {
    expect(baiduSign('2015063000000001', 'apple', '1435660288', '12345678')).toBe('f89f9594663708c1605f3d736d01d2d4');
  });
});

describe.each(cases)('the $engine.name adapter against its peer', (c) => {
  let peer: HttpPeer;
  let mode: Mode = 'ok';
  const problems: string[] = [];
  beforeAll(async () => {
    peer = await startHttpPeer((req) => {
      if (!req.url.includes('languages')) problems.push(...c.check(req));
      return c.answer(req, mode);
    });
  });
  afterAll(async () => peer.close());

  it('sends the documented request and keeps the placeholders and markup characters', async () => {
    mode = 'ok';
    const out = await c.engine.translate(c.cred(peer.url), SOURCES, 'zh-CN', 'en-US');
    expect(out).toEqual(EXPECTED);
    expect(problems).toEqual([]);
    // No placeholder reaches the service unprotected (outside the markup it leaves alone).
    const unprotected = peer.requests.at(-1)!.body.replace(/<x>.*?<\/x>|<span translate=\\"no\\">.*?<\/span>/g, '');
    expect(unprotected).not.toMatch(/\$\d/);
  });

  it.each([
    ['auth', 'auth'],
    ['quota', 'quota'],
    ['server', 'temporary'],
  ] as const)('a %s refusal is a %s failure, without the key in it', async (m, kind) => {
    mode = m;
    const err = await c.engine.translate(c.cred(peer.url), ['测试'], 'zh-CN', 'en-US').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).kind).toBe(kind);
    for (const secret of [deeplKey, googleKey, baiduSecret, libreKey]) expect((err as EngineError).message).not.toContain(secret);
  });

  it('a wrong key is refused by the peer as auth', async () => {
    mode = 'ok';
    if (c.engine.kind !== 'baidu') return;
    const err = await c.engine.translate({ ...c.cred(peer.url), key: 'wrong' }, ['测试'], 'zh-CN', 'en-US').catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'auth', code: '54001' });
  });

  it('no answer in time and a refused connection are temporary', async () => {
    mode = 'slow';
    await expect(c.engine.translate(c.cred(peer.url), ['测试'], 'zh-CN', 'en-US', { timeoutMs: 100 })).rejects.toMatchObject({ kind: 'temporary', code: 'ETIMEDOUT' });
    const port = await closedPort();
    await expect(c.engine.translate(c.cred(`http://127.0.0.1:${port}`), ['测试'], 'zh-CN', 'en-US')).rejects.toMatchObject({ kind: 'temporary', code: 'ECONNREFUSED' });
  });
});

describe('language lists', () => {
  let peer: HttpPeer;
  beforeAll(async () => {
    peer = await startHttpPeer((req) => {
      const url = new URL(req.url, 'http://peer');
      if (url.pathname === '/v2/languages') {
        if (req.headers.authorization !== `DeepL-Auth-Key ${deeplKey}`) return { status: 403, body: { message: 'Wrong auth key' } };
        return { status: 200, body: url.searchParams.get('type') === 'source' ? [{ language: 'ZH', name: 'Chinese' }, { language: 'DE', name: 'German' }] : [{ language: 'DE', name: 'German', supports_formality: true }, { language: 'EN-US', name: 'English (American)', supports_formality: false }] };
      }
      if (url.pathname === '/language/translate/v2/languages') {
        if (url.searchParams.get('key') !== googleKey) return { status: 400, body: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', errors: [{ reason: 'badRequest' }], status: 'INVALID_ARGUMENT' } } };
        return { status: 200, body: { data: { languages: [{ language: 'de' }, { language: 'zh-CN' }, { language: 'km' }] } } };
      }
      if (url.pathname === '/languages') return { status: 200, body: [{ code: 'de', name: 'German', targets: ['en', 'zh-Hans'] }, { code: 'zh-Hans', name: 'Chinese', targets: ['de'] }] };
      return { status: 404, body: { error: 'not found' } };
    });
  });
  afterAll(async () => peer.close());

  it('DeepL: source and target lists by type, with the key', async () => {
    const langs = await deepl.languages({ key: deeplKey, appId: null, endpoint: peer.url });
    expect(langs).toContainEqual({ code: 'DE', source: true, target: true });
    expect(langs).toContainEqual({ code: 'ZH', source: true, target: false });
    await expect(deepl.languages({ key: 'bad', appId: null, endpoint: peer.url })).rejects.toMatchObject({ kind: 'auth' });
  });

  it('Google: the key in the query; a bad key is auth', async () => {
    expect((await google.languages({ key: googleKey, appId: null, endpoint: peer.url })).map((l) => l.code)).toEqual(['de', 'zh-CN', 'km']);
    await expect(google.languages({ key: 'bad', appId: null, endpoint: peer.url })).rejects.toMatchObject({ kind: 'auth' });
  });

  it('LibreTranslate: codes and their targets; Baidu: its documented list', async () => {
    expect(await libre.languages({ key: null, appId: null, endpoint: peer.url })).toEqual([{ code: 'de', source: true, target: true }, { code: 'zh-Hans', source: true, target: true }]);
    expect((await baidu.languages({ key: null, appId: null, endpoint: null })).map((l) => l.code)).toContain('jp');
  });
});
