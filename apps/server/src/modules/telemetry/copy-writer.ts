import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database } from '../../platform/db/database.ts';

export type CopyWriter = (table: string, columns: string, data: Buffer) => Promise<void>;

/**
 * Binary COPY into a table on either driver. The platform's SQL seam has no COPY, so this
 * reaches the driver under drizzle ($client): PGlite reads the stream from a blob, node-postgres
 * streams it over a pooled connection (pg-copy-streams).
 */
export function copyWriter(database: Database): CopyWriter {
  const client = (database.db as unknown as { $client: PGlite | pg.Pool }).$client;
  if (database.kind === 'pglite') {
    const lite = client as PGlite;
    return async (table, columns, data) => {
      await lite.query(`copy ${table} (${columns}) from '/dev/blob' with (format binary)`, [], { blob: new Blob([new Uint8Array(data)]) });
    };
  }
  const pool = client as pg.Pool;
  return async (table, columns, data) => {
    const conn = await pool.connect();
    try {
      await pipeline(Readable.from([data]), conn.query(copyFrom(`copy ${table} (${columns}) from stdin with (format binary)`)));
    } finally {
      conn.release();
    }
  };
}
