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
import { retryDelayMs } from './outage.ts';
import { PreparingClient } from './prepared.ts';

export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/** The raw SQL seam used by pg-boss and bulk writers: one statement with parameters. */
export interface SqlExecutor {
  /**
   * `name` makes it a named prepared statement on PostgreSQL: parsed and planned once per pooled
   * connection instead of on every call (for the hot paths: the session check, the profile). The
   * same name must always come with the same text.
   */
  query<R = Record<string, unknown>>(text: string, values?: unknown[], name?: string): Promise<{ rows: R[] }>;
  /** Several statements without parameters (PGlite's exec, pg's simple query). */
  exec(text: string): Promise<void>;
}

/** What a LISTEN subscriber hears: a notification, or that it may have missed some (connection lost or back). */
export type ListenSignal = 'notify' | 'lost' | 'listening';

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  sql: SqlExecutor;
  /**
   * LISTEN on a channel. On PostgreSQL a connection of its own that reconnects by itself:
   * `lost` when it drops (notifications may be missed from then on), `listening` once it
   * listens (again). Returns the unsubscribe.
   */
  listen(channel: string, onSignal: (signal: ListenSignal) => void): Promise<() => Promise<void>>;
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
  /**
   * PostgreSQL: channels every pooled connection LISTENs on, so that a change committed through
   * this instance is heard before its statement returns (PostgreSQL delivers a session's own
   * notifications with the commit); `listen` on one of them then never lags this instance's writes.
   */
  channels?: string[];
}): Promise<Database> {
  if (opts.url) return openPostgres(opts.url, opts.poolMax ?? 20, opts.statementTimeoutMs ?? 0, opts.channels ?? []);
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
    // One process owns an embedded database, so its notifications cannot be missed.
    listen: async (channel, onSignal) => {
      const unlisten = await client.listen(channel, () => onSignal('notify'));
      onSignal('listening');
      return unlisten;
    },
    close: () => client.close(),
  };
}

async function openPostgres(url: string, max: number, statementTimeoutMs: number, channels: string[]): Promise<Database> {
  const subscribers = new Map<string, Set<(signal: ListenSignal) => void>>();
  let own: { stop: () => Promise<void>; ready: Promise<void> } | null = null;
  let listening = false;
  const notify = (channel: string) => {
    for (const s of subscribers.get(channel) ?? []) s('notify');
  };
  // A runaway statement is cancelled by the server (57014) instead of holding a connection; the
  // migration below sets its own limit off (a large migration may run long).
  const pool = new pg.Pool({
    connectionString: url,
    max,
    Client: PreparingClient,
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
    // Before the pool lends a new connection out, it listens on the channels.
    // (pg-pool awaits the promise; its types say void.)
    onConnect: ((client: pg.ClientBase) => {
      if (!channels.length) return Promise.resolve();
      client.on('notification', (m) => notify(m.channel));
      return client.query(listenText(channels));
    }) as (client: pg.ClientBase) => void,
  });
  // The connections lent out now: a close that finds one still out after CLOSE_GRACE_MS ends it.
  const lent = new Set<pg.PoolClient>();
  pool.on('acquire', (client) => lent.add(client));
  pool.on('release', (_err, client) => lent.delete(client));
  pool.on('remove', (client) => lent.delete(client));
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
      query: async <R>(text: string, values?: unknown[], name?: string) => {
        const r = await pool.query(name ? { name, text, values } : { text, values });
        return { rows: r.rows as R[] };
      },
      exec: async (text) => {
        await pool.query(text);
      },
    },
    listen: (channel, onSignal) => {
      if (!channels.includes(channel)) throw new Error(`listen: channel ${channel} is not among the database's channels`);
      const set = subscribers.get(channel) ?? new Set();
      subscribers.set(channel, set);
      set.add(onSignal);
      if (listening) onSignal('listening');
      // One connection of its own for every channel: the pool may hold none, and other instances' changes must be heard.
      own ??= listenPostgres(url, channels, notify, (signal) => {
        listening = signal === 'listening';
        for (const subs of subscribers.values()) for (const s of subs) s(signal);
      });
      // Resolved once the first connection attempt listens or fails, so the caches start live.
      return own.ready.then(() => async () => {
        set.delete(onSignal);
        if ([...subscribers.values()].every((subs) => subs.size === 0)) {
          await own?.stop();
          own = null;
          listening = false;
        }
      });
    },
    close: () => closePool(pool, lent),
  };
}

/** How long a close waits for the connections lent out to come back before it ends them. */
export const CLOSE_GRACE_MS = 5_000;

/**
 * Ends the pool. pg-pool's end waits for every lent connection to be released, and one held by a
 * statement that never answers (a COPY on a connection the network dropped silently) would hold
 * the shutdown forever: after CLOSE_GRACE_MS the connections still out are ended, which fails
 * their statements so their holders release them, and the close waits at most as long again.
 */
async function closePool(pool: pg.Pool, lent: Set<pg.PoolClient>): Promise<void> {
  const ended = pool.end();
  const within = (ms: number) =>
    Promise.race([ended.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), ms).unref())]);
  if (await within(CLOSE_GRACE_MS)) return;
  for (const client of lent) (client as unknown as pg.Client).end().catch(() => undefined);
  await within(CLOSE_GRACE_MS);
}

/** How the change listener's connection shows in pg_stat_activity. */
export const LISTEN_APPLICATION_NAME = 'ess-listen';

/**
 * LISTEN on the channels on a connection of its own, outside the pool. When it drops, `onState`
 * hears `lost` and a new connection is tried after 0.5 s doubling to 5 s; `listening` once LISTEN
 * succeeded. `ready` resolves when the first attempt has listened or failed.
 */
function listenPostgres(
  url: string,
  channels: string[],
  onNotify: (channel: string) => void,
  onState: (signal: 'lost' | 'listening') => void,
): { stop: () => Promise<void>; ready: Promise<void> } {
  let stopped = false;
  let settle: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (settle = resolve));
  let client: pg.Client | null = null;
  let attempt = 0;
  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: url, application_name: LISTEN_APPLICATION_NAME });
    client = c;
    let down = false;
    const lost = () => {
      if (down) return;
      down = true;
      onState('lost');
      settle();
      c.removeAllListeners('notification');
      c.end().catch(() => undefined);
      if (!stopped) setTimeout(() => void connect(), retryDelayMs(++attempt)).unref();
    };
    c.on('error', lost);
    c.on('end', lost);
    c.on('notification', (m) => onNotify(m.channel));
    try {
      await c.connect();
      await c.query(listenText(channels));
      attempt = 0;
      if (!stopped && !down) onState('listening');
      settle();
    } catch {
      lost();
    }
  };
  void connect();
  return {
    ready,
    stop: async () => {
      stopped = true;
      await client?.end().catch(() => undefined);
    },
  };
}

const listenText = (channels: string[]) => channels.map((c) => `listen ${pg.escapeIdentifier(c)}`).join('; ');
