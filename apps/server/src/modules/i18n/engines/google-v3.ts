import { createSign } from 'node:crypto';
import { z } from 'zod';
import { baseOf, callEngine, EngineError, protectMarkup, restoreMarkup, statusFailure, type EngineCredentials, type EngineFailure, type EngineOptions, type TranslationEngine } from './engine.ts';
import { GOOGLE_CODES } from './google.ts';

/**
 * Google Cloud Translation, Advanced edition (v3 REST: cloud.google.com/translate/docs/reference/rest/v3):
 * POST /v3/projects/{project}/locations/{location}:translateText with JSON { contents: [...],
 * sourceLanguageCode, targetLanguageCode, mimeType: "text/html" } and `Authorization: Bearer
 * <access token>` answers { translations: [{ translatedText }] }; GET
 * /v3/projects/{project}/locations/{location}/supportedLanguages answers { languages:
 * [{ languageCode, supportSource, supportTarget }] }. Errors: { error: { code, message, status } }
 * — UNAUTHENTICATED / PERMISSION_DENIED are auth, RESOURCE_EXHAUSTED (429) a quota.
 *
 * The access token comes from the service account's key (the engine's key: the JSON file Google
 * hands out, sealed like every key): a JWT signed RS256 with its private_key (iss client_email,
 * scope cloud-translation, aud token_uri, an hour) exchanged at token_uri (grant_type
 * jwt-bearer; developers.google.com/identity/protocols/oauth2/service-account#httprest), kept
 * until a minute before it expires. The project is the key's project_id; the location the
 * engine's app id (default `global`). Placeholders as in v2: `<span translate="no">`.
 */
const OPEN = '<span translate="no">';
const CLOSE = '</span>';
const SCOPE = 'https://www.googleapis.com/auth/cloud-translation';
const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';

const serviceAccount = z.object({
  type: z.literal('service_account').optional(),
  project_id: z.string().min(1),
  private_key: z.string().min(1),
  client_email: z.string().min(1),
  token_uri: z.string().url().optional(),
});
type ServiceAccount = z.infer<typeof serviceAccount>;

const errorShape = z.object({ error: z.object({ code: z.number().optional(), message: z.string().optional(), status: z.string().optional() }) });
const tokenError = z.object({ error: z.string(), error_description: z.string().optional() });
const tokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.number().optional(), token_type: z.string().optional() });
const translateAnswer = z.object({ translations: z.array(z.object({ translatedText: z.string() })) });
const languagesAnswer = z.object({ languages: z.array(z.object({ languageCode: z.string(), supportSource: z.boolean().optional(), supportTarget: z.boolean().optional() })) });

function accountOf(cred: EngineCredentials): ServiceAccount {
  let json: unknown;
  try {
    json = JSON.parse(cred.key ?? '');
  } catch {
    json = undefined;
  }
  const parsed = serviceAccount.safeParse(json);
  if (!parsed.success) throw new EngineError('auth', 'KEY', 'the key must be the service account JSON key (project_id, private_key, client_email)');
  return parsed.data;
}

const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');

/** The signed assertion of the OAuth 2.0 JWT bearer flow (RFC 7523) as Google documents it. */
export function serviceAccountJwt(a: ServiceAccount, now = Math.floor(Date.now() / 1000)): string {
  const head = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = b64url(JSON.stringify({ iss: a.client_email, scope: SCOPE, aud: a.token_uri ?? DEFAULT_TOKEN_URI, iat: now, exp: now + 3600 }));
  let signature: string;
  try {
    signature = createSign('RSA-SHA256').update(`${head}.${claims}`).sign(a.private_key, 'base64url');
  } catch {
    throw new EngineError('auth', 'KEY', 'the private_key of the service account key cannot sign');
  }
  return `${head}.${claims}.${signature}`;
}

const tokens = new Map<string, { token: string; until: number }>();

async function accessToken(a: ServiceAccount, options?: EngineOptions): Promise<string> {
  const uri = a.token_uri ?? DEFAULT_TOKEN_URI;
  const cacheKey = `${uri}|${a.client_email}|${a.private_key.length}|${a.private_key.slice(-64)}`;
  const held = tokens.get(cacheKey);
  if (held && held.until > Date.now()) return held.token;
  const r = await callEngine(uri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: serviceAccountJwt(a) }).toString(),
  }, options);
  if (r.status !== 200) {
    const e = tokenError.safeParse(r.json);
    // invalid_grant (bad signature, unknown account), invalid_client, unauthorized_client: the key.
    const kind: EngineFailure = r.status >= 500 ? 'temporary' : r.status === 429 ? 'quota' : 'auth';
    throw new EngineError(kind, e.success ? e.data.error : `HTTP ${r.status}`, e.success ? e.data.error_description ?? e.data.error : `token endpoint HTTP ${r.status}`);
  }
  const t = tokenAnswer.safeParse(r.json);
  if (!t.success) throw new EngineError('temporary', 'ANSWER', 'unexpected token answer');
  tokens.set(cacheKey, { token: t.data.access_token, until: Date.now() + ((t.data.expires_in ?? 3600) - 60) * 1000 });
  return t.data.access_token;
}

function fail(status: number, json: unknown): never {
  const e = errorShape.safeParse(json);
  const s = e.success ? e.data.error.status ?? '' : '';
  let kind: EngineFailure = statusFailure(status);
  if (s === 'RESOURCE_EXHAUSTED') kind = 'quota';
  else if (s === 'UNAUTHENTICATED' || s === 'PERMISSION_DENIED') kind = 'auth';
  else if (s === 'UNAVAILABLE' || s === 'INTERNAL' || s === 'DEADLINE_EXCEEDED') kind = 'temporary';
  throw new EngineError(kind, s || `HTTP ${status}`, e.success ? e.data.error.message ?? `HTTP ${status}` : `HTTP ${status}`);
}

async function call(cred: EngineCredentials, method: 'GET' | 'POST', suffix: string, body: unknown, options?: EngineOptions) {
  const a = accountOf(cred);
  const token = await accessToken(a, options);
  const location = cred.appId?.trim() || 'global';
  const url = `${baseOf(cred, googleV3.defaultEndpoint)}/v3/projects/${encodeURIComponent(a.project_id)}/locations/${encodeURIComponent(location)}${suffix}`;
  const r = await callEngine(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }, options);
  if (r.status === 401) tokens.clear();
  if (r.status !== 200) fail(r.status, r.json);
  return r.json;
}

export const googleV3: TranslationEngine = {
  kind: 'google-v3',
  name: 'Google Cloud Translation v3',
  defaultEndpoint: 'https://translation.googleapis.com',
  needsAppId: false,
  keyOptional: false,
  docs: 'https://cloud.google.com/translate/docs/reference/rest/v3/projects.locations/translateText',
  codeOf: (locale) => GOOGLE_CODES[locale] ?? null,
  async translate(cred, texts, from, to, options) {
    const target = GOOGLE_CODES[to];
    if (!target) throw new EngineError('permanent', 'LANGUAGE', `unsupported target ${to}`);
    const body = { contents: texts.map((t) => protectMarkup(t, OPEN, CLOSE)), targetLanguageCode: target, ...(GOOGLE_CODES[from] ? { sourceLanguageCode: GOOGLE_CODES[from] } : {}), mimeType: 'text/html' };
    const parsed = translateAnswer.safeParse(await call(cred, 'POST', ':translateText', body, options));
    if (!parsed.success || parsed.data.translations.length !== texts.length) throw new EngineError('temporary', 'ANSWER', 'unexpected answer');
    return parsed.data.translations.map((t) => restoreMarkup(t.translatedText, OPEN, CLOSE));
  },
  async languages(cred, options) {
    const parsed = languagesAnswer.safeParse(await call(cred, 'GET', '/supportedLanguages', undefined, options));
    if (!parsed.success) throw new EngineError('temporary', 'ANSWER', 'unexpected answer');
    return parsed.data.languages.map((l) => ({ code: l.languageCode, source: l.supportSource ?? true, target: l.supportTarget ?? true }));
  },
};
