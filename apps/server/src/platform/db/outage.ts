import { exponentialBackoffMs } from '../backoff.ts';
import type { Logger } from '../logging.ts';

/**
 * Whether an error means the database could not be reached (refused, reset, shut down, not yet
 * accepting connections) rather than that the statement was wrong: background writers keep what
 * they hold and try again; nothing counts it against the work itself.
 */
export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; cause?: unknown } | null;
  // Drizzle wraps the driver's error ("Failed query: …") with it as the cause.
  if (e?.cause && e.cause !== err && isConnectionError(e.cause)) return true;
  const code = typeof e?.code === 'string' ? e.code : '';
  // Node's socket errors, and PostgreSQL's classes 08 (connection exception) and 57P (operator intervention).
  if (/^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)$/.test(code)) return true;
  if (code.startsWith('08') || /^57P0[1-3]$/.test(code)) return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|terminating connection|Client has encountered a connection error|the database system is (starting up|shutting down)/i.test(message);
}

/** Wait before the `attempt`-th retry of a failed write: 0.5 s doubling to 5 s. */
export function retryDelayMs(attempt: number): number {
  return exponentialBackoffMs(attempt, 500, 5000);
}

/** Resolves after `ms` without keeping the process alive. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** How often a writer that keeps failing says so again. */
const REPEAT_MS = 30_000;

/**
 * The log of one background writer across a database outage: the first failure as an error,
 * then one line every 30 s while it lasts, and one when the writer succeeds again (how long, how
 * many failed tries) — not a line a second.
 */
export class OutageLog {
  private since: number | null = null;
  private lastLogged = 0;
  private failures = 0;

  constructor(
    private readonly log: Logger,
    private readonly what: string,
  ) {}

  get failing(): boolean {
    return this.since !== null;
  }

  failed(err: unknown, extra: Record<string, unknown> = {}): void {
    const now = Date.now();
    this.failures++;
    if (this.since === null) {
      this.since = now;
      this.lastLogged = now;
      this.log.error({ err, ...extra }, `${this.what} failed; holding it and retrying`);
    } else if (now - this.lastLogged >= REPEAT_MS) {
      this.lastLogged = now;
      this.log.error({ err, failures: this.failures, sinceMs: now - this.since, ...extra }, `${this.what} still failing; holding it and retrying`);
    }
  }

  ok(extra: Record<string, unknown> = {}): void {
    if (this.since === null) return;
    this.log.info({ failures: this.failures, downMs: Date.now() - this.since, ...extra }, `${this.what} works again`);
    this.since = null;
    this.failures = 0;
  }
}

/**
 * Runs a write that must land (a background worker's record of something that already happened
 * outside, e.g. a request its peer answered, a mail the SMTP server took, a job that finished):
 * while the database cannot be reached it is tried again with backoff (0.1 s doubling to 2 s)
 * until it lands or `withinMs` has passed, then the last error is thrown. Any other error is
 * thrown at once, and so is the last one when `giveUp` says so (an instance stopping). The write
 * must be safe to repeat (a connection lost after the commit leaves the caller not knowing it landed).
 */
export async function writeThroughOutage<T>(write: () => Promise<T>, withinMs: number, giveUp: () => boolean = () => false): Promise<T> {
  const until = Date.now() + withinMs;
  for (let wait = 100; ; wait = Math.min(wait * 2, 2_000)) {
    try {
      return await write();
    } catch (err) {
      if (!isConnectionError(err) || giveUp() || Date.now() + wait > until) throw err;
      await pause(wait);
    }
  }
}
