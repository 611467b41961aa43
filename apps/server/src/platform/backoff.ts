/**
 * The wait before the retry that follows the n-th failed attempt (1-based) of an exponential
 * backoff: `baseMs` after the first failure, doubled after each further one, never more than
 * `maxMs`. Callers add jitter or a Retry-After of their own.
 */
export function exponentialBackoffMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}
