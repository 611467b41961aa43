import type { EngineKind } from '@ess/contract/i18n';

/**
 * One machine-translation service behind one interface (issue 24): each adapter follows its
 * service's published HTTP API with node's fetch and node:crypto only. Failures are thrown as
 * EngineError, sorted: `auth` (the key or signature is refused), `quota` (rate limit or quota;
 * later), `temporary` (5xx, timeouts, no connection), `permanent` (anything else the service
 * refuses: an unsupported language, a malformed request).
 */

export interface EngineCredentials {
  /** The key (DeepL auth key, Google API key, Baidu secret key, LibreTranslate api_key); null: none. */
  key: string | null;
  /** Baidu's APP ID. */
  appId: string | null;
  /** The service's address; null: the kind's published one. */
  endpoint: string | null;
}

export interface EngineOptions {
  timeoutMs?: number;
}

/** A language as the service names it, and whether it translates from and into it. */
export interface EngineLanguage {
  code: string;
  source: boolean;
  target: boolean;
}

export type EngineFailure = 'auth' | 'quota' | 'temporary' | 'permanent';

export class EngineError extends Error {
  constructor(readonly kind: EngineFailure, readonly code: string, message: string) {
    super(message.slice(0, 300));
  }
}

export interface TranslationEngine {
  kind: EngineKind;
  /** Source-text name. */
  name: string;
  defaultEndpoint: string;
  needsAppId: boolean;
  keyOptional: boolean;
  docs: string;
  /** The service's code of a console locale, or null when it has none. */
  codeOf(locale: string): string | null;
  /** Texts from one language into another, in order; placeholders `$1`…`$n` kept as they are. */
  translate(cred: EngineCredentials, texts: string[], from: string, to: string, options?: EngineOptions): Promise<string[]>;
  /** The languages the service translates (its codes). */
  languages(cred: EngineCredentials, options?: EngineOptions): Promise<EngineLanguage[]>;
}

export const DEFAULT_ENGINE_TIMEOUT_MS = 15_000;

export interface EngineAnswer {
  status: number;
  text: string;
  json: unknown;
}

/** One HTTP request with a time limit; network failures and timeouts become temporary EngineErrors. */
export async function callEngine(url: string, init: RequestInit, options: EngineOptions = {}): Promise<EngineAnswer> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_ENGINE_TIMEOUT_MS;
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
    if (err.name === 'TimeoutError' || err.name === 'AbortError') throw new EngineError('temporary', 'ETIMEDOUT', `no answer within ${timeoutMs} ms`);
    throw new EngineError('temporary', err.cause?.code ?? 'ENETWORK', err.cause?.message ?? err.message ?? String(e));
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

/** The failure an HTTP status says when the body says nothing better. */
export function statusFailure(status: number): EngineFailure {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429 || status === 456) return 'quota';
  if (status >= 500 || status === 408) return 'temporary';
  return 'permanent';
}

export const baseOf = (cred: EngineCredentials, fallback: string) => (cred.endpoint?.trim() || fallback).replace(/\/+$/, '');

// ── Placeholder protection ─────────────────────────────────────────────────────────────

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const unescapeXml = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&#x27;/g, "'").replace(/&amp;/g, '&');

/**
 * Placeholders wrapped in markup the service leaves untranslated: `tag` is the element
 * (DeepL: `<x>` with ignore_tags=x; Google: `<span translate="no">`), the rest XML-escaped.
 */
export function protectMarkup(text: string, open: string, close: string): string {
  return escapeXml(text).replace(/\$(\d+)/g, (_, n: string) => `${open}$${n}${close}`);
}
export function restoreMarkup(text: string, open: string, close: string): string {
  return unescapeXml(text.split(open).join('').split(close).join(''));
}

/** Placeholders as numbered braces services keep (`$1` → `{1}`) for plain-text services. */
export const protectTokens = (text: string) => text.replace(/\$(\d+)/g, '{$1}');
export const restoreTokens = (text: string) => text.replace(/\{\s*(\d+)\s*\}/g, '$$$1');
