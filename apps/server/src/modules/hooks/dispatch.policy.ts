import { exponentialBackoffMs } from '../../platform/backoff.ts';
import type { HookOutcome } from './dispatch.http.ts';

/**
 * What an attempt's outcome means (issue 21, item 4): only 2xx is success; 5xx, 408, 429, a
 * timeout and a connection error are temporary (retried while the hook's attempts last); any
 * other answer (3xx, 4xx) and a target the guard refuses are permanent. Retries wait an
 * exponential backoff with full jitter: uniform in [0, min(cap, base · 2^(attempt-1))].
 */

export type Verdict = 'delivered' | 'temporary' | 'permanent';

export function verdictOf(o: HookOutcome): Verdict {
  if (!o.ok) return o.error.kind === 'refused' ? 'permanent' : 'temporary';
  const s = o.response.status;
  if (s >= 200 && s < 300) return 'delivered';
  if (s >= 500 || s === 408 || s === 429) return 'temporary';
  return 'permanent';
}

/** The longest wait between two attempts. */
export const MAX_BACKOFF_MS = 3_600_000;

/** The wait after the n-th failed attempt (1-based): full jitter over the exponential ceiling. */
export function backoffMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  return Math.floor(random() * exponentialBackoffMs(attempt, baseMs, MAX_BACKOFF_MS));
}

/** A Retry-After header (seconds or an HTTP date) as milliseconds from now, capped; null when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  const s = Number(value);
  const ms = Number.isFinite(s) ? s * 1000 : Date.parse(value) - now.getTime();
  return Number.isFinite(ms) && ms >= 0 ? Math.min(ms, MAX_BACKOFF_MS) : null;
}

/** Consecutive failed deliveries (each after its retries) that open a hook's circuit. */
export const CIRCUIT_FAILURES = 5;
/** How long an open circuit waits before one probe delivery is let through (half-open). */
export const CIRCUIT_COOL_DOWN_MS = 5 * 60_000;
