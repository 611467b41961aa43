import type { Database } from '../db/database.ts';
import { isConnectionError, OutageLog } from '../db/outage.ts';
import type { Logger } from '../logging.ts';

export interface AccessEntry {
  requestId: string;
  userId: number | null;
  companyId: number | null;
  username: string | null;
  method: string;
  path: string;
  query: string | null;
  status: number;
  durationMs: number;
  ip: string | null;
  userAgent: string | null;
  errorCode: string | null;
  createdAt: Date;
}

const COLUMNS = [
  'request_id', 'user_id', 'company_id', 'username', 'method', 'path', 'query', 'status', 'duration_ms', 'ip',
  'user_agent', 'error_code', 'created_at',
] as const;
const MAX_BATCH = 1000;
/** Entries held while the database is away; past this the oldest go (counted and logged). */
const MAX_HELD = 100_000;

/**
 * Buffers access-log entries and writes them in multi-row inserts every flush interval (or
 * at once when a batch fills), so logging never waits on the database inside a request. While the
 * database is unreachable the entries are held (up to MAX_HELD) and written when it is back; a
 * batch the database refuses for its content is dropped and logged.
 */
export class AccessLogWriter {
  private buffer: AccessEntry[] = [];
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private readonly outage: OutageLog;
  /** Entries lost to the MAX_HELD bound or refused by the database. */
  dropped = 0;

  constructor(private readonly database: Database, private readonly log: Logger, flushMs: number) {
    this.outage = new OutageLog(log, 'access log write');
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  add(e: AccessEntry): void {
    this.buffer.push(e);
    if (this.buffer.length > MAX_HELD) {
      this.buffer.shift();
      if (this.dropped++ % 10_000 === 0) this.log.error({ held: MAX_HELD, dropped: this.dropped }, 'access log full while the database is away; oldest entries dropped');
    }
    if (this.buffer.length >= MAX_BATCH && !this.outage.failing) void this.flush();
  }

  /** Entries not yet written. */
  get pending(): number {
    return this.buffer.length;
  }

  /** Writes what is buffered; calls queue behind each other so rows keep their order. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeBatch());
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async writeBatch(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, MAX_BATCH);
      const values: unknown[] = [];
      const rows = batch.map((e) => {
        const base = values.length;
        values.push(
          e.requestId, e.userId, e.companyId, e.username, e.method, e.path, e.query, e.status, e.durationMs, e.ip,
          e.userAgent, e.errorCode, e.createdAt,
        );
        return `(${COLUMNS.map((_, i) => `$${base + i + 1}`).join(',')})`;
      });
      try {
        await this.database.sql.query(`insert into access_log (${COLUMNS.join(',')}) values ${rows.join(',')}`, values);
        this.outage.ok({ held: this.buffer.length });
      } catch (err) {
        if (!isConnectionError(err)) {
          this.dropped += batch.length;
          this.log.error({ err, count: batch.length }, 'access log batch refused; dropped');
          continue;
        }
        // The database is away: keep the batch in front and try again at the next interval.
        this.buffer.unshift(...batch);
        this.outage.failed(err, { held: this.buffer.length });
        return;
      }
    }
  }
}
