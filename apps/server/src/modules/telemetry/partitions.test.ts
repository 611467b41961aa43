import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, freshPostgres, PG_ADMIN_URL } from '../../../test/harness.ts';
import { migratedPgliteImage } from '../../../test/db-images.ts';
import { migrationsFolder, openDatabase, type Database } from '../../platform/db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { CopyEncoder } from './copy.ts';
import { copyDriver } from './copy-writer.ts';
import { ensureTelemetryPartitions, utcDay } from './partitions.ts';
import { purgeTelemetry } from './telemetry.jobs.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 27, 8, 30); // 2026-11-27 08:30 UTC
const dayName = (ms: number) => `telemetry_p${utcDay(ms).replaceAll('-', '')}`;

/** Where each row is: partition name → rows. */
async function placement(database: Database): Promise<Record<string, number>> {
  const { rows } = await database.sql.query<{ p: string; n: number }>('select tableoid::regclass::text as p, count(*)::int as n from telemetry group by 1');
  return Object.fromEntries(rows.map((r) => [r.p, r.n]));
}

async function partitions(database: Database): Promise<string[]> {
  const { rows } = await database.sql.query<{ name: string }>(
    "select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'telemetry'::regclass order by 1",
  );
  return rows.map((r) => r.name);
}

/** Rows written as the ingest writes them: binary COPY into telemetry. */
async function copyRows(database: Database, rows: [deviceId: number, ts: number, seq: number][]): Promise<void> {
  const enc = new CopyEncoder();
  for (const [d, ts, seq] of rows) enc.add(d, ts, seq, new Float64Array([seq, NaN, 1.5]));
  await copyDriver(database).copy('telemetry', 'device_id, ts, seq, v', enc.take());
}

/** A migrations folder holding the migrations before 0016 only. */
function migrationsBefore0016(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ess-mig-'));
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalFile = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((e) => e.tag < '0016');
  writeFileSync(journalFile, JSON.stringify(journal));
  rmSync(join(dir, '0016_telemetry_partitions.sql'));
  return dir;
}

describe.each(dbTargets(import.meta.url))('telemetry partitions on %s', (target) => {
  let database: Database;
  let dropPg: (() => Promise<void>) | null = null;
  let pgUrl = '';

  beforeAll(async () => {
    if (target === 'pglite') {
      database = await openDatabase({ dataDir: tmpdir(), memory: true, image: await migratedPgliteImage() });
    } else {
      const fresh = await freshPostgres();
      pgUrl = fresh.url;
      dropPg = fresh.drop;
      database = await openDatabase({ url: fresh.url, dataDir: tmpdir() });
    }
  });
  afterAll(async () => {
    await database?.close();
    await dropPg?.();
  });

  it('migration 0016 keeps the rows of the unpartitioned table, each in the partition of its UTC day', async () => {
    const old = migrationsBefore0016();
    const rows: [number, string, number][] = [
      [1, '2026-11-20T23:59:59.999Z', 1], [1, '2026-11-21T00:00:00.000Z', 2], [2, '2026-11-21T12:00:00.000Z', 3], [2, '2026-11-25T07:00:00.000Z', 4],
    ];
    const check = async (query: (text: string) => Promise<{ rows: Record<string, unknown>[] }>) => {
      const insert = `insert into telemetry (device_id, ts, seq, v) values ${rows.map(([d, ts, s]) => `(${d}, '${ts}', ${s}, '{${s},NULL,1.5}')`).join(', ')}`;
      await query(insert);
      return query;
    };
    let got: { rows: Record<string, unknown>[] };
    let parts: { rows: Record<string, unknown>[] };
    if (target === 'pglite') {
      const client = await PGlite.create('memory://');
      await migratePglite(drizzlePglite(client), { migrationsFolder: old });
      const q = await check((t) => client.query<Record<string, unknown>>(t));
      await migratePglite(drizzlePglite(client), { migrationsFolder });
      got = await q("select device_id, to_char(ts at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS') as ts, seq, v, tableoid::regclass::text as p from telemetry order by seq");
      parts = await q("select relkind from pg_class where relname = 'telemetry'");
      await client.close();
    } else {
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      const name = `ess_test_mig_${process.pid}_${Date.now() % 1e6}`;
      await admin.query(`create database ${name}`);
      const url = new URL(PG_ADMIN_URL);
      url.pathname = `/${name}`;
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        await migratePg(drizzlePg(client), { migrationsFolder: old });
        const q = await check((t) => client.query(t));
        await migratePg(drizzlePg(client), { migrationsFolder });
        got = await q("select device_id, to_char(ts at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS') as ts, seq, v, tableoid::regclass::text as p from telemetry order by seq");
        parts = await q("select relkind from pg_class where relname = 'telemetry'");
      } finally {
        await client.end();
        await admin.query(`drop database ${name} with (force)`);
        await admin.end();
      }
    }
    rmSync(old, { recursive: true, force: true });
    expect(parts.rows).toEqual([{ relkind: 'p' }]);
    expect(got.rows).toEqual(rows.map(([d, ts, s]) => ({
      device_id: d, ts: ts.slice(0, -1), seq: s, v: [s, null, 1.5], p: `telemetry_p${ts.slice(0, 10).replaceAll('-', '')}`,
    })));
  });

  it('stores a reading whose day has no partition (default partition), and moves it into the partition made for its day', async () => {
    const late = NOW - 10 * DAY + 3_600_000;
    await copyRows(database, [[1, late, 1], [1, late + 1000, 2], [2, NOW, 3]]);
    expect(await placement(database)).toEqual({ telemetry_default: 3 });

    const made = await ensureTelemetryPartitions(database.sql, NOW, NOW - 30 * DAY);
    // yesterday .. today + 2, and the late reading's day
    expect(made).toEqual([utcDay(late), utcDay(NOW - DAY), utcDay(NOW), utcDay(NOW + DAY), utcDay(NOW + 2 * DAY)]);
    expect(await placement(database)).toEqual({ [dayName(late)]: 2, [dayName(NOW)]: 1 });
    // Idempotent: a second run makes nothing and moves nothing.
    expect(await ensureTelemetryPartitions(database.sql, NOW, NOW - 30 * DAY)).toEqual([]);
    // And the ingest's next readings of those days go straight to their partitions.
    await copyRows(database, [[1, late + 2000, 4], [2, NOW + 1000, 5]]);
    expect(await placement(database)).toEqual({ [dayName(late)]: 3, [dayName(NOW)]: 2 });
    await database.sql.query('truncate telemetry');
  });

  it('scans only the partitions of the days a history query asks for', async () => {
    await ensureTelemetryPartitions(database.sql, NOW);
    const plan = async (from: number, to: number) => {
      const { rows } = await database.sql.query<{ 'QUERY PLAN': string }>(
        'explain select ts, v[1] from telemetry where device_id = $1 and ts >= $2 and ts < $3 order by ts',
        [1, new Date(from), new Date(to)],
      );
      const text = rows.map((r) => r['QUERY PLAN']).join('\n');
      return [...new Set(text.match(/telemetry_(p\d{8}|default)/g))].sort();
    };
    // The query of history.service.ts over the last hour: today's partition only.
    expect(await plan(NOW - 3_600_000, NOW)).toEqual([dayName(NOW)]);
    // Across midnight: yesterday's and today's.
    expect(await plan(NOW - DAY, NOW)).toEqual([dayName(NOW - DAY), dayName(NOW)]);
    // A range reaching a day with no partition reads the default partition too (where such rows are).
    expect(await plan(NOW - 5 * DAY, NOW - 4 * DAY)).toEqual(['telemetry_default']);
  });

  it('retention drops the partitions of whole days past the limit, deletes old rows of the default partition, keeps the rest', async () => {
    await database.sql.query('truncate telemetry');
    await database.sql.query("select ess_telemetry_drop_partitions('infinity')");
    await ensureTelemetryPartitions(database.sql, NOW - 6 * DAY);
    await ensureTelemetryPartitions(database.sql, NOW - 3 * DAY);
    await ensureTelemetryPartitions(database.sql, NOW);
    // Partitions now: NOW-7d .. NOW+2d (every day); rows in several of them.
    const ts = [NOW - 7 * DAY, NOW - 5 * DAY, NOW - 3 * DAY - 3_600_000, NOW - 3 * DAY + 3_600_000, NOW - DAY, NOW];
    await copyRows(database, ts.map((t, i) => [1, t, i + 1]));
    // A straggler past the limit in the default partition (its day has no partition).
    await database.sql.query(`drop table ${dayName(NOW - 5 * DAY)}`);
    await copyRows(database, [[1, NOW - 5 * DAY, 100], [1, NOW - 3 * DAY - 7_200_000, 101]]);
    expect((await placement(database)).telemetry_default).toBe(1);

    const ctx = { database, config: { rawRetentionDays: 3, fiveMinuteRetentionDays: 93 } } as unknown as AppContext;
    const r = await purgeTelemetry(ctx, NOW);
    // The limit is NOW - 3 d = 2026-11-24 08:30: the days up to 2026-11-23 are gone whole; the
    // day of the limit stays whole (a row is kept at least 3 days and at most a day longer).
    expect(r.rawPartitions).toEqual([dayName(NOW - 7 * DAY), dayName(NOW - 6 * DAY), dayName(NOW - 4 * DAY)]);
    expect(r.raw).toBe(1);
    const { rows } = await database.sql.query<{ seq: number }>('select seq from telemetry order by seq');
    expect(rows.map((x) => x.seq)).toEqual([3, 4, 5, 6, 101]);
    expect(await partitions(database)).toEqual([
      dayName(NOW - 3 * DAY), dayName(NOW - 2 * DAY), dayName(NOW - DAY), dayName(NOW), dayName(NOW + DAY), dayName(NOW + 2 * DAY), 'telemetry_default',
    ].sort());
    await database.sql.query('truncate telemetry');
  });

  it.runIf(target === 'postgres')('a writer holding rows of a day in the default partition and the partition being made wait for each other; nothing is lost', async () => {
    await database.sql.query('truncate telemetry');
    const day = NOW - 20 * DAY;
    const a = new pg.Client({ connectionString: pgUrl });
    const b = new pg.Client({ connectionString: pgUrl });
    await a.connect();
    await b.connect();
    try {
      // 1. The writer first: its uncommitted row of the day is in the default partition; making
      // the partition waits for it, then moves it.
      await a.query('begin');
      await a.query("insert into telemetry values (7, $1, 1, '{1}')", [new Date(day)]);
      const making = b.query('select ess_telemetry_partition($1::date) as made', [utcDay(day)]);
      await new Promise((r) => setTimeout(r, 300));
      await a.query('commit');
      expect((await making).rows).toEqual([{ made: true }]);
      expect(await placement(database)).toEqual({ [dayName(day)]: 1 });

      // 2. The partition first: a writer that starts while it is being made waits, then routes
      // its row to the new partition.
      const next = day + DAY;
      await b.query('begin');
      await b.query('select ess_telemetry_partition($1::date)', [utcDay(next)]);
      const writing = a.query("insert into telemetry values (7, $1, 2, '{2}')", [new Date(next)]);
      await new Promise((r) => setTimeout(r, 300));
      await b.query('commit');
      await writing;
      expect(await placement(database)).toEqual({ [dayName(day)]: 1, [dayName(next)]: 1 });
    } finally {
      await a.end();
      await b.end();
    }
  });
});
