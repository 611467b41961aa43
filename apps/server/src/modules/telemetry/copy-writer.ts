import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database } from '../../platform/db/database.ts';

export type CopyWriter = (table: string, columns: string, data: Buffer) => Promise<void>;

/** Statements and binary COPY on one connection (temporary tables live per connection). */
export interface Session {
  query: (text: string, values?: unknown[]) => Promise<void>;
  copy: (table: string, columns: string, data: Buffer) => Promise<void>;
}

/**
 * Binary COPY on either driver. The platform's SQL seam has no COPY, so this reaches the driver
 * under drizzle ($client): PGlite reads the stream from a blob, node-postgres streams it over a
 * pooled connection (pg-copy-streams).
 */
export function copyDriver(database: Database): { copy: CopyWriter; session: <T>(fn: (s: Session) => Promise<T>) => Promise<T> } {
  const client = (database.db as unknown as { $client: PGlite | pg.Pool }).$client;
  if (database.kind === 'pglite') {
    const sessionOf = (q: Pick<PGlite, 'query'>): Session => ({
      query: async (text, values) => {
        await q.query(text, values);
      },
      copy: async (table, columns, data) => {
        await q.query(`copy ${table} (${columns}) from '/dev/blob' with (format binary)`, [], { blob: new Blob([new Uint8Array(data)]) });
      },
    });
    const lite = client as PGlite;
    // PGlite is one connection: its transaction keeps other statements out meanwhile.
    return { copy: sessionOf(lite).copy, session: (fn) => lite.transaction((tx) => fn(sessionOf(tx))) };
  }
  const pool = client as pg.Pool;
  return {
    copy: async (table, columns, data) => {
      const conn = await pool.connect();
      let failure: Error | undefined;
      try {
        await copyOn(conn, table, columns, data);
      } catch (err) {
        failure = err as Error;
        throw err;
      } finally {
        // A connection that failed mid-COPY is not lent out again.
        conn.release(failure);
      }
    },
    session: async (fn) => {
      const conn = await pool.connect();
      let failure: Error | undefined;
      try {
        await conn.query('begin');
        const out = await fn({
          query: async (text, values) => {
            await conn.query(text, values);
          },
          copy: (table, columns, data) => copyOn(conn, table, columns, data),
        });
        await conn.query('commit');
        return out;
      } catch (err) {
        await conn.query('rollback').catch((rollbackErr: unknown) => (failure = rollbackErr as Error));
        throw err;
      } finally {
        conn.release(failure);
      }
    },
  };
}

/**
 * Binary COPY FROM STDIN on a pooled connection. The copy stream is not always told when its
 * connection ends mid-COPY (the pipeline would then wait forever and hold the connection): the
 * connection's own end or error fails it too.
 */
async function copyOn(conn: pg.PoolClient, table: string, columns: string, data: Buffer): Promise<void> {
  let onLost: (() => void) | undefined;
  const lost = new Promise<never>((_resolve, reject) => {
    onLost = () => reject(new Error('the database connection ended during COPY'));
    conn.once('end', onLost);
    conn.once('error', onLost);
  });
  try {
    await Promise.race([pipeline(Readable.from([data]), conn.query(copyFrom(`copy ${table} (${columns}) from stdin with (format binary)`))), lost]);
  } finally {
    if (onLost) {
      conn.off('end', onLost);
      conn.off('error', onLost);
    }
  }
}
