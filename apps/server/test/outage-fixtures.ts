import pg from 'pg';
import { freshPostgres, startTestApp, type Teardown, type TestApp } from './harness.ts';
import type { RawConfig } from '../src/platform/config.ts';
import { startTcpProxy, type TcpProxy } from './ingest-fixtures.ts';

export interface CuttablePostgres {
  /** Cut and restore: the application sees its database restart (connections reset, then refused). */
  proxy: TcpProxy;
  /** The database through the proxy: the application's. */
  databaseUrl: string;
  /** The test's own reads, straight to the database (not through the proxy). */
  q: <R>(text: string, values?: unknown[]) => Promise<R[]>;
}

/** A PostgreSQL database of the test's own behind a TCP proxy the test cuts; dropped at cleanup. */
export async function cuttablePostgres(cleanup: Teardown): Promise<CuttablePostgres> {
  const db = await freshPostgres();
  cleanup.add('the test database', db.drop);
  const proxy = await startTcpProxy('127.0.0.1', Number(new URL(db.url).port || 5432));
  cleanup.add('the database proxy', () => proxy.close());
  const direct = new pg.Pool({ connectionString: db.url, max: 2 });
  cleanup.add('the direct connection', () => direct.end());
  return { proxy, databaseUrl: proxy.via(db.url), q: async <R,>(text: string, values: unknown[] = []) => (await direct.query(text, values)).rows as R[] };
}

/** The unhandled rejections from now until cleanup (an outage must leave none). */
export function unhandledRejections(cleanup: Teardown): unknown[] {
  const seen: unknown[] = [];
  const on = (e: unknown) => void seen.push(e);
  process.on('unhandledRejection', on);
  cleanup.add('the rejection listener', () => {
    process.off('unhandledRejection', on);
    return Promise.resolve();
  });
  return seen;
}

/** A test server on a cuttable PostgreSQL, with the unhandled rejections seen; all stopped at cleanup. */
export async function appOnCuttablePostgres(cleanup: Teardown, env: Partial<RawConfig> = {}): Promise<CuttablePostgres & { t: TestApp; rejections: unknown[] }> {
  const rejections = unhandledRejections(cleanup);
  const db = await cuttablePostgres(cleanup);
  const t = await startTestApp('postgres', env, { databaseUrl: db.databaseUrl });
  cleanup.add('the server', () => t.stop());
  return { ...db, t, rejections };
}
