import type { SqlExecutor } from '../../platform/db/database.ts';

const DAY = 86_400_000;
/** Partitions made ahead: yesterday (late data from just before midnight) to this many days after today. */
export const PARTITION_DAYS_AHEAD = 2;

/** The UTC day of `ms` as 'YYYY-MM-DD'. */
export const utcDay = (ms: number): string => new Date(Math.floor(ms / DAY) * DAY).toISOString().slice(0, 10);

/**
 * Raw telemetry is partitioned by UTC day (migration 0016, docs/decisions/0028). Makes the
 * partitions of yesterday to today + PARTITION_DAYS_AHEAD, and of every day that has rows in the
 * default partition (readings that arrived before their day had a partition: late data, clock
 * skew, a backfill), moving those rows into it; days already past `retainFrom` are left to the
 * retention purge. Returns the days whose partitions it made. Writes never wait for this: a
 * reading whose day has no partition lands in the default partition meanwhile.
 */
export async function ensureTelemetryPartitions(sql: SqlExecutor, now = Date.now(), retainFrom = 0): Promise<string[]> {
  const days = new Set<string>();
  for (let d = -1; d <= PARTITION_DAYS_AHEAD; d++) days.add(utcDay(now + d * DAY));
  const { rows } = await sql.query<{ day: string }>(
    `select distinct to_char((ts at time zone 'UTC')::date, 'YYYY-MM-DD') as day from telemetry_default where ts >= $1`,
    [new Date(Math.floor(retainFrom / DAY) * DAY)],
  );
  for (const r of rows) days.add(r.day);
  const made: string[] = [];
  // One day a statement (its own transaction): the writers wait for one move at a time.
  for (const day of [...days].sort()) {
    const r = await sql.query<{ made: boolean }>('select ess_telemetry_partition($1::date) as made', [day]);
    if (r.rows[0]?.made) made.push(day);
  }
  return made;
}
