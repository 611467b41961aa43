import { createRequire } from 'node:module';
import PgBoss from 'pg-boss';
import type { Database } from '../db/database.ts';
import { writeThroughOutage } from '../db/outage.ts';
import type { Logger } from '../logging.ts';

export type JobHandler<T> = (data: T) => Promise<void>;

/** How long stopping waits for running handlers before pg-boss gives up on them. */
const STOP_TIMEOUT_MS = 15_000;
const SCHEMA = 'pgboss';
/** How long a job's completion is retried while the database is away before it is left to run again. */
export const SETTLE_RETRY_MS = 60_000;

/**
 * The statements by which pg-boss marks a job done or failed. Its worker issues them without
 * awaiting or catching them (pg-boss 10, manager.js `onFetch`), so one that fails — the database
 * went away as a job finished — would be an unhandled rejection, which ends a Node process. They
 * are retried until the database is back; given up (logged), the job expires and runs again.
 */
const pgBossPlans = createRequire(import.meta.url)('pg-boss/src/plans.js') as { completeJobs(schema: string): string; failJobsById(schema: string): string };
const SETTLE_STATEMENTS = new Set([pgBossPlans.completeJobs(SCHEMA), pgBossPlans.failJobsById(SCHEMA)]);

/**
 * Background jobs on pg-boss, on the same database as everything else (PGlite embedded or
 * PostgreSQL). Instances without the `jobs` role only enqueue.
 *
 * Stopping waits for the work in hand: handlers running, periodic runs, and pg-boss's own
 * statements (it marks a job complete without awaiting it), so nothing queries the database
 * after the server closes it. Once stopping, periodic runs no longer start.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly handlers = new Map<string, JobHandler<unknown>>();
  private readonly periodic: { ms: number; fn: () => Promise<void> }[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  /** Work in hand: handler runs, periodic runs, pg-boss statements. */
  private readonly inHand = new Set<Promise<unknown>>();
  private stopping = false;

  constructor(database: Database, private readonly log: Logger, private readonly work: boolean) {
    this.boss = new PgBoss({
      db: {
        executeSql: (text: string, values?: unknown[]) => {
          const run = async () => {
            if (!values || values.length === 0) {
              if (database.kind === 'pglite' && text.includes(';')) {
                await database.sql.exec(text);
                return { rows: [] };
              }
            }
            return database.sql.query(text, values);
          };
          return this.track(SETTLE_STATEMENTS.has(text) ? this.settle(run) : run());
        },
      },
      schema: SCHEMA,
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
      await this.boss.work<unknown>(name, { pollingIntervalSeconds: 1 }, (jobs) =>
        this.track(
          (async () => {
            for (const job of jobs) await handler(job.data);
          })(),
        ),
      );
    }
    for (const p of this.periodic) {
      const run = () => {
        if (this.stopping) return;
        void this.track(p.fn()).catch((err: unknown) => this.log.error({ err }, 'periodic job failed'));
      };
      run();
      const timer = setInterval(run, p.ms);
      timer.unref();
      this.timers.push(timer);
    }
  }

  async send<T extends object>(name: string, data: T, startAfter?: Date): Promise<void> {
    await this.boss.send(name, data, startAfter ? { startAfter } : {});
  }

  /** Stops after the work in hand (handlers finish and are marked; periodic runs end). */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const t of this.timers) clearInterval(t);
    // Graceful: pg-boss stops fetching and waits for the handlers running (a bounded wait).
    await this.boss.stop({ graceful: true, wait: true, timeout: STOP_TIMEOUT_MS });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.settled(), new Promise((r) => (timer = setTimeout(r, STOP_TIMEOUT_MS)))]);
    clearTimeout(timer);
  }

  /** A job's completion or failure, retried through a database outage; never rejects (see SETTLE_STATEMENTS). */
  private async settle(run: () => Promise<{ rows: unknown[] }>): Promise<{ rows: unknown[] }> {
    try {
      return await writeThroughOutage(run, SETTLE_RETRY_MS, () => this.stopping);
    } catch (err) {
      this.log.warn({ err }, 'a job finished but its completion could not be recorded; it runs again when its lease expires');
      return { rows: [{ count: 0 }] };
    }
  }

  /** Work in hand, for stop() to wait on. */
  private track<T>(p: Promise<T>): Promise<T> {
    this.inHand.add(p);
    void p.then(
      () => this.inHand.delete(p),
      () => this.inHand.delete(p),
    );
    return p;
  }

  /** Until nothing is in hand (what finishes may start a last statement: complete the job). */
  private async settled(): Promise<void> {
    while (this.inHand.size) await Promise.allSettled([...this.inHand]);
  }
}
