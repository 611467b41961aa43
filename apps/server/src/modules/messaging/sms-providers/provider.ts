import type { z } from 'zod';

/**
 * One SMS provider behind one interface (issue 20, "an adapter is one small module behind one
 * interface, so more providers drop in"): each adapter follows its provider's published HTTP API
 * and signature scheme, with node's fetch and node:crypto only, and sorts every failure into
 * temporary (worth a retry with backoff: 5xx, throttling, timeouts, connection refused) or
 * permanent (bad credentials or signature, an invalid number, a template not approved…).
 */

/** One message as the delivery hands it over: the phone in E.164 (+8613800000000), already validated. */
export interface SmsMessage {
  phone: string;
  /** The provider's approved template (Aliyun "SMS_…", Tencent's numeric template id); Twilio sends `text`. */
  templateCode: string;
  /** The approved sign name shown in 【】 (Aliyun, Tencent); unused by Twilio. */
  signName: string;
  /** The template's variables by name (Aliyun) or in order (Tencent's {1}, {2} …). */
  params: Record<string, string>;
  /** The rendered text, for providers that send free text (Twilio). */
  text: string;
}

export type SmsSendResult =
  | { ok: true; providerMessageId: string }
  | SmsFailure;

export interface SmsFailure {
  ok: false;
  /** temporary: retry later with backoff; permanent: mark failed with the reason. */
  kind: 'temporary' | 'permanent';
  /** The provider's own words (or the network's), for the log; never a credential. */
  reason: string;
  /** The provider's error code ("isv.MOBILE_NUMBER_ILLEGAL", "AuthFailure.SignatureFailure", "21211"), or the network's ("ETIMEDOUT"). */
  providerCode: string;
}

export interface SmsSendOptions {
  /** Overrides the provider's endpoint (a local peer in tests and the demo's catcher). */
  baseUrl?: string | null;
  /** The whole request's time limit; a timeout is a temporary failure. Default 10 s. */
  timeoutMs?: number;
  /** The clock for timestamps (signatures carry the time). */
  now?: () => Date;
}

export interface SmsProvider<C extends Record<string, string | undefined>> {
  kind: SmsProviderKind;
  /** The channel's credentials for this provider (strings); which of them are secret is `secretFields`. */
  credentials: z.ZodType<C>;
  /** Fields stored encrypted, never returned, logged or exported. */
  secretFields: readonly (keyof C & string)[];
  /** The production endpoint, from the provider's documentation. */
  defaultBaseUrl: string;
  /** Whether the provider sends an approved template (code + sign name) or free text. */
  sends: 'template' | 'text';
  send(credentials: C, message: SmsMessage, options?: SmsSendOptions): Promise<SmsSendResult>;
}

export const smsProviderKinds = ['aliyun', 'tencent', 'twilio'] as const;
export type SmsProviderKind = (typeof smsProviderKinds)[number];

export const DEFAULT_SMS_TIMEOUT_MS = 10_000;

/** Source text (translated by the language packs): a channel without its provider's secret cannot send. */
export const SMS_SECRET_REQUIRED = '访问密钥不能为空';

export function failure(kind: SmsFailure['kind'], providerCode: string, reason: string): SmsFailure {
  return { ok: false, kind, providerCode, reason: reason.slice(0, 500) };
}

/** Network error codes that say "try again later" (the peer was not reached or did not answer in time). */
const TEMPORARY_NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export interface ProviderAnswer {
  status: number;
  text: string;
  /** The answer as JSON, or undefined when it is not JSON (a proxy's HTML error page). */
  json: unknown;
}

/**
 * One HTTP request to a provider with a time limit. A network failure or a timeout comes back as a
 * temporary failure (never thrown), an answer of any status as the answer.
 */
export async function callProvider(url: string, init: RequestInit, options: SmsSendOptions = {}): Promise<ProviderAnswer | SmsFailure> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SMS_TIMEOUT_MS;
  try {
    const res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, text, json };
  } catch (e) {
    return networkFailure(e, timeoutMs);
  }
}

function networkFailure(e: unknown, timeoutMs: number): SmsFailure {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return failure('temporary', 'ETIMEDOUT', `no answer within ${timeoutMs} ms`);
  const code = err.cause?.code ?? 'ENETWORK';
  const reason = err.cause?.message ?? err.message ?? String(e);
  // An unreachable host or a refused connection may pass; a malformed URL or a TLS refusal will not.
  return failure(TEMPORARY_NETWORK_CODES.has(code) ? 'temporary' : 'permanent', code, reason);
}

export function isFailure(x: ProviderAnswer | SmsFailure): x is SmsFailure {
  return 'ok' in x;
}

/** The endpoint to call: the channel's override (trailing slash trimmed) or the provider's default. */
export function baseUrlOf(options: SmsSendOptions | undefined, fallback: string): string {
  const base = options?.baseUrl?.trim() || fallback;
  return base.replace(/\/+$/, '');
}

/** The answer's status as a failure when nothing better is known: 5xx and 429 temporary, the rest permanent. */
export function httpStatusFailure(answer: ProviderAnswer, code?: string, message?: string): SmsFailure {
  const temporary = answer.status >= 500 || answer.status === 429 || answer.status === 408;
  return failure(temporary ? 'temporary' : 'permanent', code ?? `HTTP ${answer.status}`, message ?? (answer.text.slice(0, 200) || `HTTP ${answer.status}`));
}
