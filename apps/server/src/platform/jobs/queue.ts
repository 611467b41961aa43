import PgBoss from 'pg-boss';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logging.ts';

export type JobHandler<T> = (data: T) => Promise<void>;

/**
 * Background jobs on pg-boss, on the same database as everything else (PGlite embedded or
 * PostgreSQL). Instances without the `jobs` role only enqueue.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly handlers = new Map<string, JobHandler<unknown>>();
  private readonly periodic: { ms: number; fn: () => Promise<void> }[] = [];
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(database: Database, private readonly log: Logger, private readonly work: boolean) {
    this.boss = new PgBoss({
      db: {
        executeSql: async (text: string, values?: unknown[]) => {
          if (!values || values.length === 0) {
            if (database.kind === 'pglite' && text.includes(';')) {
              await database.sql.exec(text);
              return { rows: [] };
            }
          }
          return database.sql.query(text, values);
        },
      },
      schema: 'pgboss',
      schedule: false,
      supervise: work,
      migrate: true,
    });
    this.boss.on('error', (err) => this.log.error({ err }, 'job queue error'));
  }

  /** Registers a handler before start(). */
  handle<T>(name: string, handler: JobHandler<T>): void {
    this.handlers.set(name, handler as JobHandler<unknown>);
  }

  /** Runs `fn` at start and every `ms` on instances with the jobs role (sweeps, catch-up work). */
  every(ms: number, fn: () => Promise<void>): void {
    this.periodic.push({ ms, fn });
  }

  async start(): Promise<void> {
    await this.boss.start();
    for (const name of this.handlers.keys()) await this.boss.createQueue(name);
    if (!this.work) return;
    for (const [name, handler] of this.handlers) {
      await this.boss.work<unknown>(name, { pollingIntervalSeconds: 1 }, async (jobs) => {
        for (const job of jobs) await handler(job.data);
      });
    }
    for (const p of this.periodic) {
      const run = () => void p.fn().catch((err: unknown) => this.log.error({ err }, 'periodic job failed'));
      run();
      const timer = setInterval(run, p.ms);
      timer.unref();
      this.timers.push(timer);
    }
  }

  async send<T extends object>(name: string, data: T, startAfter?: Date): Promise<void> {
    await this.boss.send(name, data, startAfter ? { startAfter } : {});
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    await this.boss.stop({ graceful: false, wait: true });
  }
}
