import type { Database } from '../db/database.ts';
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

/**
 * Buffers access-log entries and writes them in multi-row inserts every flush interval (or
 * at once when a batch fills), so logging never waits on the database inside a request.
 */
export class AccessLogWriter {
  private buffer: AccessEntry[] = [];
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly database: Database, private readonly log: Logger, flushMs: number) {
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  add(e: AccessEntry): void {
    this.buffer.push(e);
    if (this.buffer.length >= MAX_BATCH) void this.flush();
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
      } catch (err) {
        this.log.error({ err, count: batch.length }, 'access log batch failed');
      }
    }
  }
}
