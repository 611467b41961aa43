import { sql } from 'drizzle-orm';
import type { AppContext } from '../src/platform/context.ts';
import type { Database } from '../src/platform/db/database.ts';
import { emit, Outbox, subscriber, type OutboxSettings, type Subscriber } from '../src/platform/events/outbox.ts';
import type { Logger } from '../src/platform/logging.ts';

declare module '../src/platform/events/outbox.ts' {
  interface DomainEvents {
    'test.ping': { n: number };
  }
}

/** The table the recording subscriber writes each delivered event id to (no unique key: a duplicate would show). */
export async function prepareRecorder(database: Database): Promise<void> {
  await database.sql.exec('create table if not exists outbox_test_seen (event_id int8 not null, seen_at timestamptz not null default now())');
}

/** Emits `count` test events, `perTx` per transaction. */
export async function emitPings(database: Database, count: number, perTx = 50): Promise<void> {
  for (let i = 0; i < count; i += perTx) {
    await database.db.transaction((tx) => emit(tx, 'test.ping', Array.from({ length: Math.min(perTx, count - i) }, (_, k) => ({ n: i + k }))));
  }
}

/**
 * A subscriber that records the ids it is given, in the delivery's transaction (so an interrupted
 * batch leaves no record), after an optional pause per batch and an optional hook.
 */
export function recorder(opts: { pauseMs?: number; onBatch?: (batch: number) => void } = {}) {
  let batches = 0;
  return subscriber({
    name: 'test.recorder',
    events: ['test.ping'],
    handle: async (events, tx) => {
      batches++;
      await tx.execute(sql`insert into outbox_test_seen (event_id) select unnest(${`{${events.map((e) => e.id).join(',')}}`}::int8[])`);
      if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
      opts.onBatch?.(batches);
    },
  });
}

/** A dispatcher on its own: the recorder's handler uses no context. */
export function dispatcher(database: Database, log: Logger, subs: Parameters<typeof recorder>[0] | Subscriber[], settings?: Partial<OutboxSettings>) {
  const list = Array.isArray(subs) ? subs : [recorder(subs)];
  const outbox = new Outbox(database, log, list, { batch: 20, maxAttempts: 3, backoffMs: 1, maxBackoffMs: 5, ...settings });
  outbox.start({} as AppContext);
  return outbox;
}

export async function seenCounts(database: Database): Promise<{ rows: number; distinct: number }> {
  const { rows } = await database.sql.query<{ rows: number; distinct: number }>(
    'select count(*)::int as rows, count(distinct event_id)::int as distinct from outbox_test_seen',
  );
  return rows[0]!;
}
