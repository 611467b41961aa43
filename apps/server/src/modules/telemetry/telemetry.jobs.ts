import type { AppContext } from '../../platform/context.ts';
import { ensureTelemetryPartitions } from './partitions.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const CHUNK = 50_000;

/** Deletes rows older than `before` in chunks, so one run never holds a huge transaction. */
async function purge(ctx: AppContext, table: string, column: string, before: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const { rows } = await ctx.database.sql.query<{ n: number }>(
      `with gone as (delete from ${table} where ctid in (select ctid from ${table} where ${column} < $1 limit ${CHUNK}) returning 1)
       select count(*)::int as n from gone`,
      [before],
    );
    const n = rows[0]?.n ?? 0;
    total += n;
    if (n < CHUNK) return total;
  }
}

export interface PurgeResult {
  /** Day partitions of raw telemetry dropped whole (their day ended before the retention limit). */
  rawPartitions: string[];
  /** Raw rows deleted one by one: those past the limit still in the default partition. */
  raw: number;
  fiveMinute: number;
}

/**
 * Retention of raw telemetry and 5-minute rollups; hour and day rollups are kept. Raw telemetry
 * goes a UTC day at a time: a day's partition is dropped once the whole day is older than
 * TELEMETRY_RAW_RETENTION_DAYS, so a raw row is kept at least that long and at most a day longer
 * (docs/decisions/0028); rows past the limit in the default partition are deleted.
 */
export async function purgeTelemetry(ctx: AppContext, now = Date.now()): Promise<PurgeResult> {
  const rawBefore = new Date(now - ctx.config.rawRetentionDays * DAY);
  const dropped = await ctx.database.sql.query<{ name: string }>('select ess_telemetry_drop_partitions($1) as name', [rawBefore]);
  const raw = await purge(ctx, 'telemetry_default', 'ts', rawBefore);
  const fiveMinute = await purge(ctx, 'telemetry_5m', 'bucket', new Date(now - ctx.config.fiveMinuteRetentionDays * DAY));
  // PGlite runs no autovacuum: give the space back for reuse after a purge.
  if (ctx.database.kind === 'pglite' && raw + fiveMinute > 0) {
    // One statement each: several in one call would run as one transaction, where VACUUM cannot.
    if (raw > 0) await ctx.database.sql.exec('vacuum telemetry_default');
    if (fiveMinute > 0) await ctx.database.sql.exec('vacuum telemetry_5m');
  }
  return { rawPartitions: dropped.rows.map((r) => r.name), raw, fiveMinute };
}

/** Partition upkeep, then retention: at start and every hour (on instances with the jobs role). */
export async function maintainTelemetry(ctx: AppContext, now = Date.now()): Promise<{ made: string[] } & PurgeResult> {
  const made = await ensureTelemetryPartitions(ctx.database.sql, now, now - ctx.config.rawRetentionDays * DAY);
  return { made, ...(await purgeTelemetry(ctx, now)) };
}

export function registerTelemetryJobs(ctx: AppContext): void {
  ctx.jobs.every(HOUR, async () => {
    const r = await maintainTelemetry(ctx);
    if (r.made.length + r.rawPartitions.length + r.raw + r.fiveMinute > 0) ctx.log.info(r, 'telemetry partitions and retention');
  });
}
