/**
 * Preloaded into the server child by bench/api/run.ts (`node --import tsx --import ./bench/api/count-queries.ts …`):
 * counts every statement the server sends to its database and answers the count over the child's
 * IPC channel. PostgreSQL: each pg Client.query (pool.query and drizzle go through it; BEGIN and
 * COMMIT count). PGlite: each of the instance's exclusive query slots — one per query, exec, and a
 * transaction's BEGIN, statements and COMMIT (its transaction object bypasses the public methods).
 *
 * Message 'queries' → { queries, monoUs }: monoUs is the monotonic clock in microseconds, the
 * clock of a --cpu-prof profile's timestamps, so the bench can cut the profile to its load window.
 */
import type { Client } from 'pg';

let queries = 0;

if (process.env.DATABASE_URL) {
  const { default: pg } = await import('pg');
  const proto = pg.Client.prototype as unknown as { query: (this: Client, ...args: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: Client, ...args: unknown[]) {
    queries++;
    return query.apply(this, args);
  };
} else {
  const { PGlite } = await import('@electric-sql/pglite');
  type Exclusive = (fn: () => Promise<unknown>) => Promise<unknown>;
  const proto = PGlite.prototype as unknown as { _runExclusiveQuery: Exclusive };
  const run = proto._runExclusiveQuery;
  if (typeof run !== 'function') throw new Error('count-queries: PGlite has no _runExclusiveQuery (PGlite changed; update the bench)');
  proto._runExclusiveQuery = function (this: unknown, fn) {
    queries++;
    return run.call(this, fn);
  };
}

process.on('message', (m) => {
  if (m === 'queries') process.send?.({ queries, monoUs: Number(process.hrtime.bigint() / 1000n) });
});
// The channel must not keep the server alive once it closes.
process.channel?.unref();
