import { PlatformError } from './types.ts';

/**
 * JSON over HTTP for the adapters: a timeout on every call, network failures as `unreachable`,
 * a non-JSON answer as `protocol`; the caller reads the status and the body.
 */
export interface JsonAnswer {
  status: number;
  body: unknown;
}

export async function jsonCall(url: string, init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: unknown; timeoutMs: number }): Promise<JsonAnswer> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method,
      headers: { accept: 'application/json', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(init.timeoutMs),
      redirect: 'error',
    });
  } catch (err) {
    throw new PlatformError('unreachable', networkReason(err, init.timeoutMs));
  }
  const text = await res.text().catch(() => '');
  if (!text) return { status: res.status, body: null };
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    throw new PlatformError('protocol', `HTTP ${res.status}: not a JSON answer (${text.slice(0, 80).replace(/\s+/g, ' ')})`);
  }
}

function networkReason(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const cause = e.cause;
  if (cause?.code) return `${cause.code}${cause.message ? `: ${cause.message}` : ''}`;
  return e.message ?? String(err);
}

/** A field of an object, or undefined. */
export const field = (o: unknown, key: string): unknown => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined);
export const text = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : typeof v === 'number' ? String(v) : null);
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A read of one object: null when the platform answers that it does not know it. */
export async function orNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof PlatformError && e.kind === 'notFound') return null;
    throw e;
  }
}
