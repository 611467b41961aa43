import type { AppContext } from '../../platform/context.ts';

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

/** Retention of raw telemetry and 5-minute rollups; hour and day rollups are kept. */
export async function purgeTelemetry(ctx: AppContext, now = Date.now()): Promise<{ raw: number; fiveMinute: number }> {
  const raw = await purge(ctx, 'telemetry', 'ts', new Date(now - ctx.config.rawRetentionDays * DAY));
  const fiveMinute = await purge(ctx, 'telemetry_5m', 'bucket', new Date(now - ctx.config.fiveMinuteRetentionDays * DAY));
  // PGlite runs no autovacuum: give the space back for reuse after a purge.
  if (ctx.database.kind === 'pglite' && raw + fiveMinute > 0) {
    // One statement each: several in one call would run as one transaction, where VACUUM cannot.
    await ctx.database.sql.exec('vacuum telemetry');
    await ctx.database.sql.exec('vacuum telemetry_5m');
  }
  return { raw, fiveMinute };
}

export function registerTelemetryJobs(ctx: AppContext): void {
  ctx.jobs.every(HOUR, async () => {
    const r = await purgeTelemetry(ctx);
    if (r.raw + r.fiveMinute > 0) ctx.log.info(r, 'telemetry retention purge');
  });
}
