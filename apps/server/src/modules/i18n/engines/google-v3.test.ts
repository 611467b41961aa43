import { createVerify, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpPeer, type HttpPeer, type PeerAnswer, type PeerRequest } from '../../../../test/http-peer.ts';
import { EngineError } from './engine.ts';
import { googleV3 } from './google-v3.ts';

/**
 * Google Cloud Translation v3 against a local peer of Google's token endpoint and the v3 REST API:
 * the peer verifies the service account's JWT (RS256 with the account's public key, its claims as
 * Google documents them), hands out a bearer token, and checks the translateText request (path
 * with project and location, bearer, body) and answers as the documentation shows — translating
 * outside `<span translate="no">`, so an unprotected placeholder would show — and its errors.
 */
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const TOKEN = 'ya29.test-access-token';

type Mode = 'ok' | 'quota' | 'denied' | 'server';

describe('the Google Cloud Translation v3 adapter against its peer', () => {
  let peer: HttpPeer;
  let mode: Mode = 'ok';
  const problems: string[] = [];
  let tokensIssued = 0;
  const account = (key = privateKey) => JSON.stringify({
    type: 'service_account', project_id: 'ess-demo', private_key_id: 'k1', client_email: 'translator@ess-demo.iam.gserviceaccount.com',
    private_key: key.export({ type: 'pkcs8', format: 'pem' }).toString(), token_uri: `${peer.url}/token`,
  });
  const cred = (key?: typeof privateKey, location: string | null = null) => ({ key: account(key), appId: location, endpoint: peer.url });

  const tokenEndpoint = (req: PeerRequest): PeerAnswer => {
    if (req.method !== 'POST' || !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) problems.push(`token ${req.method} ${req.headers['content-type']}`);
    const form = new URLSearchParams(req.body);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') problems.push(`grant_type ${form.get('grant_type')}`);
    const [head, claims, sig] = (form.get('assertion') ?? '').split('.');
    const header = JSON.parse(Buffer.from(head ?? '', 'base64url').toString()) as { alg: string; typ: string };
    const c = JSON.parse(Buffer.from(claims ?? '', 'base64url').toString()) as { iss: string; scope: string; aud: string; iat: number; exp: number };
    if (header.alg !== 'RS256' || header.typ !== 'JWT') problems.push(`header ${JSON.stringify(header)}`);
    const now = Date.now() / 1000;
    if (c.iss !== 'translator@ess-demo.iam.gserviceaccount.com' || c.scope !== 'https://www.googleapis.com/auth/cloud-translation' || c.aud !== `${peer.url}/token`
      || Math.abs(c.iat - now) > 60 || c.exp - c.iat !== 3600) problems.push(`claims ${JSON.stringify(c)}`);
    const valid = createVerify('RSA-SHA256').update(`${head}.${claims}`).verify(publicKey, sig ?? '', 'base64url');
    if (!valid) return { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } };
    tokensIssued++;
    return { status: 200, body: { access_token: TOKEN, expires_in: 3599, token_type: 'Bearer' } };
  };

  beforeAll(async () => {
    peer = await startHttpPeer((req) => {
      const url = new URL(req.url, 'http://peer');
      if (url.pathname === '/token') return tokenEndpoint(req);
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return { status: 401, body: { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } } };
      const err = (code: number, message: string, status: string) => ({ status: code, body: { error: { code, message, status } } });
      if (mode === 'quota') return err(429, 'Quota exceeded for quota metric \'Number of requests\'', 'RESOURCE_EXHAUSTED');
      if (mode === 'denied') return err(403, 'Cloud Translation API has not been used in project ess-demo before or it is disabled.', 'PERMISSION_DENIED');
      if (mode === 'server') return err(503, 'The service is currently unavailable.', 'UNAVAILABLE');
      const loc = /^\/v3\/projects\/ess-demo\/locations\/([a-z0-9-]+)(:translateText|\/supportedLanguages)$/.exec(url.pathname);
      if (!loc) return err(404, `no such path ${url.pathname}`, 'NOT_FOUND');
      if (loc[2] === '/supportedLanguages') {
        if (req.method !== 'GET') problems.push(`languages ${req.method}`);
        return { status: 200, body: { languages: [{ languageCode: 'de', supportSource: true, supportTarget: true }, { languageCode: 'zh-CN', supportSource: true, supportTarget: true }, { languageCode: 'km', supportSource: false, supportTarget: true }] } };
      }
      if (req.method !== 'POST' || !String(req.headers['content-type']).startsWith('application/json')) problems.push(`translate ${req.method} ${req.headers['content-type']}`);
      const b = JSON.parse(req.body) as { contents: string[]; sourceLanguageCode?: string; targetLanguageCode: string; mimeType: string };
      if (b.targetLanguageCode !== 'de' || b.sourceLanguageCode !== 'zh-CN' || b.mimeType !== 'text/html' || !Array.isArray(b.contents)) problems.push(JSON.stringify(b));
      const out = b.contents.map((t) => t.split(/(<span translate="no">.*?<\/span>)/).map((part) => (part.startsWith('<span') ? part : part.replace(/(&[a-z]+;)|([^&]+)/g, (m, ent: string) => ent ?? `[${m}]`))).join(''));
      return { status: 200, body: { translations: out.map((translatedText) => ({ translatedText, detectedLanguageCode: 'zh-CN' })) } };
    });
  });
  afterAll(async () => peer.close());

  it('signs in with the service account, sends the documented request, keeps the placeholders', async () => {
    mode = 'ok';
    const out = await googleV3.translate(cred(), ['储能电站 $1 的告警', 'a < b $2'], 'zh-CN', 'de-DE');
    expect(out).toEqual(['[储能电站 ]$1[ 的告警]', '[a ]<[ b ]$2']);
    expect(problems).toEqual([]);
    const sent = peer.requests.at(-1)!;
    expect(sent.url).toBe('/v3/projects/ess-demo/locations/global:translateText');
    expect(sent.body.replace(/<span translate=\\"no\\">.*?<\/span>/g, '')).not.toMatch(/\$\d/);
    // The token is kept: a second call asks for none.
    const issued = tokensIssued;
    await googleV3.translate(cred(), ['再来'], 'zh-CN', 'de-DE');
    expect(tokensIssued).toBe(issued);
  });

  it('the location is the app id; supported languages with their directions', async () => {
    expect(await googleV3.languages(cred(undefined, 'us-central1'))).toContainEqual({ code: 'km', source: false, target: true });
    expect(peer.requests.at(-1)!.url).toBe('/v3/projects/ess-demo/locations/us-central1/supportedLanguages');
    expect(googleV3.codeOf('pt-PT')).toBe('pt-PT');
  });

  it('a key signed by another private key, or no JSON key, is auth; refusals sorted, without the key', async () => {
    await expect(googleV3.translate(cred(other.privateKey), ['测试'], 'zh-CN', 'de-DE')).rejects.toMatchObject({ kind: 'auth', code: 'invalid_grant', message: 'Invalid JWT Signature.' });
    await expect(googleV3.translate({ key: 'AIzaSyNotAServiceAccount', appId: null, endpoint: peer.url }, ['测试'], 'zh-CN', 'de-DE')).rejects.toMatchObject({ kind: 'auth', code: 'KEY' });
    for (const [m, kind, code] of [['quota', 'quota', 'RESOURCE_EXHAUSTED'], ['denied', 'auth', 'PERMISSION_DENIED'], ['server', 'temporary', 'UNAVAILABLE']] as const) {
      mode = m;
      const err = await googleV3.translate(cred(), ['测试'], 'zh-CN', 'de-DE').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EngineError);
      expect(err).toMatchObject({ kind, code });
      expect((err as EngineError).message).not.toContain('PRIVATE KEY');
    }
    mode = 'ok';
  });
});
