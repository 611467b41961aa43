import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from '../../db/schema/index.ts';
import { runtimePath } from '../dist.ts';

export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/** The raw SQL seam used by pg-boss and bulk writers: one statement with parameters. */
export interface SqlExecutor {
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
  /** Several statements without parameters (PGlite's exec, pg's simple query). */
  exec(text: string): Promise<void>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  sql: SqlExecutor;
  close(): Promise<void>;
}

/** The migration history (generated SQL and drizzle's journal); the build copies it to dist/migrations. */
export const migrationsFolder = runtimePath('migrations', resolve(import.meta.dirname, '../../db/migrations'));

/**
 * Opens the database: PostgreSQL when a URL is given, otherwise embedded PGlite in
 * `<dataDir>/pglite` (kept across restarts; `memory://` for tests). Migrations are applied here.
 */
export async function openDatabase(opts: {
  url?: string; dataDir: string; memory?: boolean; image?: Blob;
  /** PostgreSQL only: connections of this instance's pool, and the longest a statement may run (ms; 0 = no limit). */
  poolMax?: number; statementTimeoutMs?: number;
}): Promise<Database> {
  if (opts.url) return openPostgres(opts.url, opts.poolMax ?? 20, opts.statementTimeoutMs ?? 0);
  let dir = 'memory://';
  if (!opts.memory) {
    mkdirSync(opts.dataDir, { recursive: true });
    dir = join(opts.dataDir, 'pglite');
  }
  // An image (PGlite's dumpDataDir of a migrated database) skips initdb: tests start in ~1.5 s
  // instead of ~6 s. Migrations still run (a no-op when the image is current).
  const client = await PGlite.create(dir, opts.image ? { loadDataDir: opts.image } : {});
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
  return {
    kind: 'pglite',
    db,
    sql: {
      query: async <R>(text: string, values?: unknown[]) => {
        const r = await client.query<R>(text, values);
        return { rows: r.rows };
      },
      exec: async (text) => {
        await client.exec(text);
      },
    },
    close: () => client.close(),
  };
}

async function openPostgres(url: string, max: number, statementTimeoutMs: number): Promise<Database> {
  // A runaway statement is cancelled by the server (57014) instead of holding a connection; the
  // migration below sets its own limit off (a large migration may run long).
  const pool = new pg.Pool({ connectionString: url, max, ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}) });
  pool.on('error', () => undefined); // an idle client's error must not crash the process
  // Nor a checked-out one's (a transaction or COPY in hand when the server restarts): its query
  // fails with the error, and the pool drops the client when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzlePg(pool, { schema });
  // Several instances may start at once: one migrates while the others wait on the lock.
  const lockClient = await pool.connect();
  try {
    await lockClient.query('set statement_timeout = 0');
    await lockClient.query('select pg_advisory_lock(727001)');
    await migratePg(drizzlePg(lockClient, { schema }), { migrationsFolder });
  } finally {
    await lockClient.query('select pg_advisory_unlock(727001)').catch(() => undefined);
    // Back to the connection's own limit (its start-up setting) before the pool lends it out.
    await lockClient.query('reset statement_timeout').catch(() => undefined);
    lockClient.release();
  }
  return {
    kind: 'postgres',
    db,
    sql: {
      query: async <R>(text: string, values?: unknown[]) => {
        const r = await pool.query(text, values);
        return { rows: r.rows as R[] };
      },
      exec: async (text) => {
        await pool.query(text);
      },
    },
    close: () => pool.end(),
  };
}
