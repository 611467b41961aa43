/**
 * bench/retention: what retention of one day of raw telemetry costs, DELETE against DROP of the
 * day's partition (docs/decisions/0028). On a fresh PostgreSQL database (the migrated schema:
 * telemetry partitioned by UTC day) it fills two day partitions with the same rows, in the ingest's
 * shape (binary COPY of (device_id, ts, seq, v float8[--points]), reports of --devices devices at
 * an even pace through the day), copies the same rows into an unpartitioned table as it was before
 * (migration 0001: one heap, brin on ts, btree on (device_id, ts)), then retires the first day:
 *   - from the unpartitioned table by DELETE as the retention purge did before partitioning (chunks
 *     of 50,000 rows by ctid), then VACUUM to make the space reusable (what autovacuum does later;
 *     the table does not shrink, the second day's rows follow);
 *   - from the partitioned table by dropping the day's partition (ess_telemetry_drop_partitions,
 *     what the purge does now).
 * Per method: wall time, WAL written (per statement from EXPLAIN (ANALYZE, WAL) for the DELETE,
 * from VACUUM VERBOSE for the vacuum; for the DROP the server's WAL position before and after, which
 * includes whatever else the shared server wrote meanwhile: an upper bound), the partition's size
 * (pg_total_relation_size) and dead tuples (pg_stat_user_tables) before and after. Figures are also
 * given per million rows: a day at 400,000 points/s of 50-point reports is 691 million rows.
 *
 * The fill also compares COPY into the partitioned table with COPY into the unpartitioned one
 * (each batch into both, in turn first): 20,000-row COPYs, then --small-copies COPYs of the
 * ingest's batch size (5,000 points).
 *
 *   npx tsx bench/retention/run.ts [--rows 2000000] [--points 50] [--devices 2000] [--small-copies 3000]
 */
import pg from 'pg';
import { freshPostgres } from '../../apps/server/test/harness.ts';
import { openDatabase } from '../../apps/server/src/platform/db/database.ts';
import { CopyEncoder } from '../../apps/server/src/modules/telemetry/copy.ts';
import { copyDriver } from '../../apps/server/src/modules/telemetry/copy-writer.ts';
import { utcDay } from '../../apps/server/src/modules/telemetry/partitions.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : def;
};
const ROWS = Number(opt('--rows', '2000000'));
const POINTS = Number(opt('--points', '50'));
const DEVICES = Number(opt('--devices', '2000'));
const SMALL_COPIES = Number(opt('--small-copies', '3000'));
const DAY = 86_400_000;
const CHUNK = 50_000;
const COPY_ROWS = 20_000;
const FLAT = 'telemetry_unpartitioned';

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mb = (bytes: number) => `${fmt(bytes / 1024 / 1024, 1)} MB`;

interface TableState { bytes: number; live: number; dead: number }

async function main() {
  const fresh = await freshPostgres();
  const database = await openDatabase({ url: fresh.url, dataDir: '/tmp' });
  const client = new pg.Client({ connectionString: fresh.url });
  await client.connect();
  try {
    // Two whole UTC days well in the past: the first is deleted, the second dropped.
    const today = Math.floor(Date.now() / DAY) * DAY;
    const days = [today - 30 * DAY, today - 29 * DAY];
    const names = days.map((d) => `telemetry_p${utcDay(d).replaceAll('-', '')}`);
    for (const d of days) await client.query('select ess_telemetry_partition($1::date)', [utcDay(d)]);

    // The table before partitioning (migration 0001): the same rows, both days in one heap.
    await client.query(`create table ${FLAT} (device_id integer not null, ts timestamptz not null, seq integer, v double precision[] not null)`);
    await client.query(`create index on ${FLAT} using brin (ts)`);
    await client.query(`create index on ${FLAT} (device_id, ts)`);

    // Each batch goes into both tables, one after the other (in turn first), timed apiece: the
    // COPY cost of partitioning under the same conditions.
    const { copy } = copyDriver(database);
    const values = new Float64Array(POINTS);
    const copyMs = { telemetry: 0, [FLAT]: 0 } as Record<string, number>;
    const both = async (data: Buffer, turn: number) => {
      for (const table of turn % 2 ? [FLAT, 'telemetry'] : ['telemetry', FLAT]) {
        const t = performance.now();
        await copy(table, 'device_id, ts, seq, v', data);
        copyMs[table]! += performance.now() - t;
      }
    };
    const encode = (day: number, from: number, to: number) => {
      const enc = new CopyEncoder((to - from) * (POINTS * 12 + 64));
      for (let i = from; i < to; i++) {
        for (let p = 0; p < POINTS; p++) values[p] = Math.round(Math.random() * 100_000) / 100;
        enc.add(1 + (i % DEVICES), day + Math.floor((i * DAY) / ROWS), Math.floor(i / DEVICES), values);
      }
      return enc.take();
    };
    const t0 = performance.now();
    let turn = 0;
    for (const day of days) {
      for (let done = 0; done < ROWS; done += COPY_ROWS) await both(encode(day, done, Math.min(ROWS, done + COPY_ROWS)), turn++);
    }
    const fillS = (performance.now() - t0) / 1000;
    const bigCopy = { ...copyMs };
    // Then COPYs of the ingest's size (5,000 points a batch: 100 rows of 50), into the second day.
    copyMs.telemetry = 0;
    copyMs[FLAT] = 0;
    const small = Math.max(1, Math.floor(SMALL_COPIES));
    const smallRows = Math.max(1, Math.round(5000 / POINTS));
    for (let i = 0; i < small; i++) await both(encode(days[1]!, i * smallRows, (i + 1) * smallRows), i);
    const smallCopy = { ...copyMs };
    for (const t of [FLAT, ...names]) await client.query(`analyze ${t}`);

    const state = async (name: string): Promise<TableState> => {
      // The statistics of this session's own writes reach the shared view when flushed.
      await client.query('select pg_stat_force_next_flush()');
      await client.query('select pg_stat_clear_snapshot()');
      const { rows } = await client.query<{ bytes: string; live: string; dead: string }>(
        `select coalesce(pg_total_relation_size(to_regclass($1)), 0) as bytes,
                coalesce((select n_live_tup from pg_stat_user_tables where relname = $1), 0) as live,
                coalesce((select n_dead_tup from pg_stat_user_tables where relname = $1), 0) as dead`,
        [name],
      );
      return { bytes: Number(rows[0]!.bytes), live: Number(rows[0]!.live), dead: Number(rows[0]!.dead) };
    };
    const lsn = async () => (await client.query<{ l: string }>('select pg_current_wal_lsn()::text as l')).rows[0]!.l;
    const walSince = async (from: string) =>
      Number((await client.query<{ d: string }>('select pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn) as d', [from])).rows[0]!.d);

    console.log(`retention bench: PostgreSQL, ${fmt(ROWS)} rows a day (${POINTS} points a row, ${DEVICES} devices), ` +
      `two days filled by binary COPY into both tables in ${fmt(fillS, 1)} s`);
    const rate = (rows: number, ms: number) => `${fmt(rows / (ms / 1000))} rows/s`;
    console.log(` COPY of ${fmt(COPY_ROWS)} rows: partitioned ${rate(2 * ROWS, bigCopy.telemetry!)}, unpartitioned ${rate(2 * ROWS, bigCopy[FLAT]!)}; ` +
      `${fmt(small)} COPYs of ${smallRows} rows (the ingest's batch): partitioned ${fmt(smallCopy.telemetry! / small, 2)} ms each (${rate(small * smallRows, smallCopy.telemetry!)}), ` +
      `unpartitioned ${fmt(smallCopy[FLAT]! / small, 2)} ms each (${rate(small * smallRows, smallCopy[FLAT]!)})`);

    // DELETE of the first day from the unpartitioned table, as the purge did before: chunks by
    // ctid until none is left.
    const dropDay = names[0]!;
    const beforeDelete = await state(FLAT);
    const cutoff = new Date(days[0]! + DAY);
    let deleted = 0;
    let deleteWal = 0;
    let deleteFpi = 0;
    let chunks = 0;
    const lsnDelete = await lsn();
    const tDelete = performance.now();
    for (;;) {
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `explain (analyze, wal, format json) delete from ${FLAT} where ctid in (select ctid from ${FLAT} where ts < $1 limit ${CHUNK})`,
        [cutoff],
      );
      const plan = rows[0]!['QUERY PLAN'][0].Plan;
      const n = Math.max(0, limitRows(plan));
      deleteWal += plan['WAL Bytes'] ?? 0;
      deleteFpi += plan['WAL FPI'] ?? 0;
      deleted += n;
      chunks++;
      if (n < CHUNK) break;
    }
    const deleteS = (performance.now() - tDelete) / 1000;
    const deleteLsn = await walSince(lsnDelete);
    const afterDelete = await state(FLAT);

    // VACUUM: what makes the deleted rows' space reusable (the table does not shrink: the next day's rows follow them).
    let vacuumWal = 0;
    const onNotice = (msg: { message?: string }) => {
      const m = /WAL usage: \d+ records, \d+ full page images, (\d+) bytes/.exec(msg.message ?? '');
      if (m) vacuumWal += Number(m[1]);
    };
    client.on('notice', onNotice);
    const lsnVacuum = await lsn();
    const tVacuum = performance.now();
    await client.query(`vacuum (verbose) ${FLAT}`);
    const vacuumS = (performance.now() - tVacuum) / 1000;
    client.off('notice', onNotice);
    const vacuumLsn = await walSince(lsnVacuum);
    const afterVacuum = await state(FLAT);

    // DROP of the first day's partition of the partitioned table, as the purge does now.
    const beforeDrop = await state(dropDay);
    const lsnDrop = await lsn();
    const tDrop = performance.now();
    const dropped = await client.query<{ name: string }>('select ess_telemetry_drop_partitions($1) as name', [cutoff]);
    const dropS = (performance.now() - tDrop) / 1000;
    const dropLsn = await walSince(lsnDrop);
    const afterDrop = await state(dropDay);
    const droppedNames = dropped.rows.map((r) => r.name);

    const perM = (x: number, rows: number) => x / (rows / 1e6);
    const show = (s: TableState) => `${mb(s.bytes)}, ${fmt(s.live)} live, ${fmt(s.dead)} dead`;
    console.log(`\n before: unpartitioned table (two days) ${show(beforeDelete)}; the day's partition ${show(beforeDrop)}`);
    console.log('\n method | rows | time s | s per M rows | WAL | WAL per M rows | table or partition after');
    console.log(` DELETE (${chunks} chunks of ${fmt(CHUNK)} by ctid) | ${fmt(deleted)} | ${fmt(deleteS, 2)} | ${fmt(perM(deleteS, deleted), 2)} | ` +
      `${mb(deleteWal)} (${fmt(deleteFpi)} full-page images; server LSN moved ${mb(deleteLsn)}) | ${mb(perM(deleteWal, deleted))} | ${show(afterDelete)}`);
    console.log(` VACUUM after the DELETE | ${fmt(deleted)} | ${fmt(vacuumS, 2)} | ${fmt(perM(vacuumS, deleted), 2)} | ` +
      `${mb(vacuumWal)} (server LSN moved ${mb(vacuumLsn)}) | ${mb(perM(vacuumWal, deleted))} | ${show(afterVacuum)}`);
    console.log(` DROP partition (${droppedNames.join(', ')}) | ${fmt(ROWS)} | ${fmt(dropS, 3)} | ${fmt(perM(dropS, ROWS), 4)} | ` +
      `≤ ${mb(dropLsn)} (server LSN, includes other sessions' WAL) | ≤ ${mb(perM(dropLsn, ROWS))} | ${afterDrop.bytes === 0 ? 'gone, 0 bytes' : show(afterDrop)}`);
    console.log(`\n a day at 400,000 points/s (${fmt((400_000 / POINTS) * 86_400)} rows of ${POINTS} points), scaled linearly: ` +
      `DELETE ${fmt(perM(deleteS, deleted) * 691.2 / 60, 0)} min and ${fmt(perM(deleteWal, deleted) * 691.2 / 1024 / 1024 / 1024, 1)} GB WAL, ` +
      `then VACUUM ${fmt(perM(vacuumS, deleted) * 691.2 / 60, 0)} min and ${fmt(perM(vacuumWal, deleted) * 691.2 / 1024 / 1024 / 1024, 1)} GB WAL, ` +
      `the ${fmt((perM(beforeDrop.bytes, ROWS) * 691.2) / 1024 ** 3, 0)} GB of the day left in the table for reuse; DROP a fixed cost (${fmt(dropS, 3)} s here)`);
  } finally {
    await client.end();
    await database.close();
    await fresh.drop();
  }
}

interface PlanNode { 'Node Type': string; 'Actual Rows'?: number; 'WAL Bytes'?: number; 'WAL FPI'?: number; Plans?: PlanNode[] }

/** Rows the delete's `limit` subquery gave: the rows deleted by the chunk. */
function limitRows(node: PlanNode): number {
  if (node['Node Type'] === 'Limit') return node['Actual Rows'] ?? 0;
  for (const child of node.Plans ?? []) {
    const n = limitRows(child);
    if (n >= 0) return n;
  }
  return -1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
