import { sql } from 'drizzle-orm';
import { domainEvent } from '../../db/schema/events.ts';
import type { AppContext } from '../context.ts';
import type { Database, DbOrTx } from '../db/database.ts';
import { isConnectionError, OutageLog } from '../db/outage.ts';
import type { Logger } from '../logging.ts';

/**
 * The payload of each domain event type. Modules add theirs by declaration merging, in a file of
 * their own (`declare module '…/platform/events/outbox.ts' { interface DomainEvents { … } }`),
 * so the platform names no domain and every emit and subscriber is typed.
 */
export interface DomainEvents {
  /** The outbox's own: deliveries of one subscriber went dead (its retries exhausted). */
  'outbox.dead': OutboxDeadPayload;
}

/** What went dead, in one batch of one subscriber. */
export interface OutboxDeadPayload {
  subscriber: string;
  /** The types of the dead events, each once. */
  types: string[];
  count: number;
  eventIds: number[];
  /** The error of the last attempt. */
  lastError: string;
}

export type DomainEventType = Extract<keyof DomainEvents, string>;

/** One stored event; a union over the types asked for, so `type` narrows `payload`. */
export type DomainEvent<K extends DomainEventType = DomainEventType> = K extends DomainEventType
  ? {
      /** Unique and increasing: subscribers that must not act twice remember it. */
      id: number;
      type: K;
      payload: DomainEvents[K];
      createdAt: Date;
    }
  : never;

/**
 * A subscriber declared in a module manifest. It gets the pending events of its types in order of
 * their ids, a batch at a time. By default inside the transaction that marks them delivered:
 * database work done with `tx` commits exactly once with the mark (and must use only `tx`: on
 * PGlite, the one connection is held by it). Anything else (live events, mail, queued jobs, calls
 * to other systems) happens at least once, so it must be idempotent by event id. A subscriber
 * whose work cannot run in the transaction (it queues jobs, or uses services that open their own)
 * says `transactional: false`: its batch is claimed for a lease, handled, then marked. A batch that
 * fails is retried with backoff, each event on its own, until it is dead.
 */
export interface Subscriber<K extends DomainEventType = DomainEventType> {
  /** Stable name (stored with each delivery): `<module>.<purpose>`. */
  name: string;
  events: readonly K[];
  /** Default true: `tx` is the delivery's transaction. false: `tx` is the database itself. */
  transactional?: boolean;
  /**
   * Default true: also handed events written as history (`emit(…, { history: true })`, the
   * alarm engine's history transitions — the demo's past). false: only what happens now; a
   * subscriber that tells people or other systems (a hook's request, a message) says so.
   */
  history?: boolean;
  handle(events: DomainEvent<K>[], tx: DbOrTx, ctx: AppContext): Promise<void>;
}

/** How long a claimed batch of a non-transactional subscriber is held before it is due again. */
const LEASE_MS = 60_000;

/** Declares a subscriber with its payloads typed by its event types. */
export function subscriber<K extends DomainEventType>(s: Subscriber<K>): Subscriber {
  return s;
}

/**
 * Writes events in the caller's transaction (the change and its events commit together).
 * `history`: they record the past (a history writer's), not news — see Subscriber.history.
 */
export async function emit<K extends DomainEventType>(tx: DbOrTx, type: K, payloads: readonly DomainEvents[K][], opts: { history?: boolean } = {}): Promise<void> {
  if (payloads.length === 0) return;
  await tx.insert(domainEvent).values(payloads.map((payload) => ({ type, payload, history: opts.history ?? false })));
}

export interface OutboxSettings {
  /** Deliveries per batch and per run of one subscriber. */
  batch: number;
  /** Attempts before a delivery is dead. */
  maxAttempts: number;
  /** First retry delay; doubled each attempt up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
}

export const OUTBOX_DEFAULTS: OutboxSettings = { batch: 100, maxAttempts: 10, backoffMs: 1000, maxBackoffMs: 600_000 };

interface DueRow {
  event_id: string | number;
  subscriber: string;
  attempts: number;
  type: string;
  payload: unknown;
  created_at: Date | string;
}

/**
 * Dispatches the outbox after commit, on instances with the jobs role: fans each new event out to
 * the subscribers of its type (one delivery row each), then hands every subscriber its due
 * deliveries. Runs when this instance emitted (nudge), on a short poll (events of other
 * instances, retries that came due), and survives its own death: what was not marked delivered is
 * delivered again.
 */
export class Outbox {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private killed = false;
  private ctx: AppContext | null = null;
  private readonly outage: OutageLog;
  readonly counters = { fannedOut: 0, delivered: 0, failed: 0, dead: 0 };

  constructor(
    private readonly database: Database,
    private readonly log: Logger,
    private readonly subscribers: readonly Subscriber[],
    private readonly settings: OutboxSettings = OUTBOX_DEFAULTS,
  ) {
    this.outage = new OutageLog(log, 'domain-event dispatch');
    const names = new Set<string>();
    for (const s of subscribers) {
      if (names.has(s.name)) throw new Error(`two domain-event subscribers are named ${s.name}`);
      names.add(s.name);
    }
  }

  /** Begins dispatching with this context (the jobs role). */
  start(ctx: AppContext): void {
    this.ctx = ctx;
    this.stopped = false;
    this.nudge();
  }

  /** Something was emitted (or came due): dispatch soon. A no-op where this instance does not dispatch. */
  nudge(): void {
    if (!this.ctx || this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runLoop().finally(() => {
      this.running = null;
    });
  }

  /** Dispatches until nothing is due (tests; also what a nudge starts). */
  async drain(): Promise<void> {
    this.nudge();
    while (this.running) await this.running;
  }

  /**
   * Stops at once, as a crash would (tests): the batch in hand must fail (its transaction rolls
   * back) and nothing more is written — no retry count, no mark.
   */
  kill(): void {
    this.killed = true;
    this.stopped = true;
  }

  /** Stops after the batch in hand (its transaction commits or rolls back as a whole). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
    this.ctx = null;
  }

  private async runLoop(): Promise<void> {
    do {
      this.again = false;
      try {
        while (!this.stopped && (await this.fanOut()) > 0);
        for (const s of this.subscribers) {
          if (this.stopped) break;
          if ((await this.deliver(s)) === this.settings.batch) this.again = true;
        }
      } catch (err) {
        // The database went away or the like: the next poll tries again; nothing was marked.
        if (!this.killed) this.outage.failed(err);
        return;
      }
      this.outage.ok();
    } while (this.again && !this.stopped);
  }

  /** New events → one pending delivery per subscriber of their type; returns how many events. */
  private async fanOut(): Promise<number> {
    const names = this.subscribers.flatMap((s) => s.events.map(() => s.name));
    const types = this.subscribers.flatMap((s) => [...s.events]);
    const history = this.subscribers.flatMap((s) => s.events.map(() => s.history !== false));
    // An event written as history goes only to the subscribers that take history.
    const { rows } = await this.database.sql.query<{ id: string }>(
      `with e as (
         select id, type, history from domain_event where not fanned_out order by id limit 500 for update skip locked
       ), s(name, type, history) as (
         select * from unnest($1::text[], $2::text[], $3::boolean[])
       ), d as (
         insert into domain_event_delivery (event_id, subscriber) select e.id, s.name from e join s on s.type = e.type and (s.history or not e.history)
         on conflict do nothing
       )
       update domain_event set fanned_out = true where id in (select id from e) returning id`,
      [names, types, history],
    );
    this.counters.fannedOut += rows.length;
    return rows.length;
  }

  /**
   * One subscriber's due deliveries: first attempts a batch at a time, retries one at a time (so
   * one bad event does not hold back the others). Returns how many were taken.
   */
  private async deliver(s: Subscriber): Promise<number> {
    const { rows } = await this.database.sql.query<DueRow>(
      `select d.event_id, d.subscriber, d.attempts, e.type, e.payload, e.created_at
       from domain_event_delivery d join domain_event e on e.id = d.event_id
       where d.subscriber = $1 and d.status = 'pending' and d.next_at <= now()
       order by d.event_id limit $2`,
      [s.name, this.settings.batch],
    );
    const first = rows.filter((r) => r.attempts === 0);
    const retries = rows.filter((r) => r.attempts > 0);
    if (first.length) await this.deliverBatch(s, first);
    for (const r of retries) {
      if (this.stopped) break;
      await this.deliverBatch(s, [r]);
    }
    return rows.length;
  }

  private async deliverBatch(s: Subscriber, rows: DueRow[]): Promise<void> {
    const ctx = this.ctx;
    if (!ctx) return;
    const ids = rows.map((r) => Number(r.event_id));
    const toEvents = (mine: Set<number>) =>
      rows
        .filter((r) => mine.has(Number(r.event_id)))
        .map((r) => ({ id: Number(r.event_id), type: r.type, payload: r.payload, createdAt: new Date(r.created_at) }) as DomainEvent);
    try {
      if (s.transactional === false) {
        const { rows: claimed } = await this.database.sql.query<{ event_id: string }>(
          `update domain_event_delivery set next_at = now() + $3::int * interval '1 millisecond'
           where subscriber = $1 and event_id = any($2::int8[]) and status = 'pending' and next_at <= now()
           returning event_id`,
          [s.name, ids, LEASE_MS],
        );
        const events = toEvents(new Set(claimed.map((r) => Number(r.event_id))));
        if (events.length === 0) return;
        await s.handle(events, this.database.db, ctx);
        await this.database.sql.query(
          `update domain_event_delivery set status = 'done', delivered_at = now(), attempts = attempts + 1, last_error = null
           where subscriber = $1 and event_id = any($2::int8[])`,
          [s.name, events.map((e) => e.id)],
        );
        this.counters.delivered += events.length;
        return;
      }
      const delivered = await this.database.db.transaction(async (tx) => {
        // Another dispatcher may hold (or have finished) some of them: take only what is still ours.
        const locked = await tx.execute<{ event_id: string | number }>(sql`
          select event_id from domain_event_delivery
          where subscriber = ${s.name} and event_id = any(${`{${ids.join(',')}}`}::int8[]) and status = 'pending'
          order by event_id for update skip locked`);
        const events = toEvents(new Set(locked.rows.map((r) => Number(r.event_id))));
        if (events.length === 0) return 0;
        await s.handle(events, tx, ctx);
        await tx.execute(sql`
          update domain_event_delivery set status = 'done', delivered_at = now(), attempts = attempts + 1, last_error = null
          where subscriber = ${s.name} and event_id = any(${`{${events.map((e) => e.id).join(',')}}`}::int8[])`);
        return events.length;
      });
      this.counters.delivered += delivered;
    } catch (err) {
      if (this.killed) return;
      // The database went away mid-delivery: nothing was marked and the events are not to blame,
      // so no attempt is counted; a poll after it is back delivers them.
      if (isConnectionError(err) && !(await this.databaseAnswers())) throw err;
      this.counters.failed += rows.length;
      await this.failed(s, rows, err);
    }
  }

  /** Whether the database answers now (a connection error with it up is the subscriber's own). */
  private async databaseAnswers(): Promise<boolean> {
    try {
      await this.database.sql.query('select 1');
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Counts a failed attempt of each delivery. Those out of attempts are dead: an `outbox.dead`
   * event naming them is written in the same transaction (so whoever subscribes to it, the system
   * module's notice to administrators, hears of every dead batch once), except for dead
   * `outbox.dead` events themselves, which are only logged (no notice about a notice, no loop).
   */
  private async failed(s: Subscriber, batch: DueRow[], err: unknown): Promise<void> {
    const ids = batch.map((r) => Number(r.event_id));
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 2000);
    const { backoffMs, maxBackoffMs, maxAttempts } = this.settings;
    const dead = await this.database.db.transaction(async (tx) => {
      const { rows } = await tx.execute<{ event_id: string | number; status: string }>(sql`
        update domain_event_delivery
        set attempts = attempts + 1, last_error = ${message},
            status = case when attempts + 1 >= ${maxAttempts} then 'dead' else 'pending' end,
            next_at = now() + least(${maxBackoffMs}::float8, ${backoffMs}::float8 * power(2, attempts)) * interval '1 millisecond'
        where subscriber = ${s.name} and event_id = any(${`{${ids.join(',')}}`}::int8[]) and status = 'pending'
        returning event_id, status`);
      const deadIds = new Set(rows.filter((r) => r.status === 'dead').map((r) => Number(r.event_id)));
      const deadRows = batch.filter((r) => deadIds.has(Number(r.event_id)) && r.type !== 'outbox.dead');
      if (deadRows.length) {
        await emit(tx, 'outbox.dead', [
          { subscriber: s.name, types: [...new Set(deadRows.map((r) => r.type))], count: deadRows.length, eventIds: deadRows.map((r) => Number(r.event_id)), lastError: message },
        ]);
      }
      return { ids: [...deadIds], notice: deadRows.length > 0 };
    });
    this.counters.dead += dead.ids.length;
    if (dead.ids.length) this.log.error({ err, subscriber: s.name, eventIds: dead.ids }, 'domain events dead: retries exhausted');
    else this.log.warn({ err, subscriber: s.name, eventIds: ids }, 'domain-event delivery failed; retrying');
    // The notice is due now: another round fans it out and hands it to its subscribers.
    if (dead.notice) this.again = true;
  }

  /**
   * Deletes delivered events older than `doneDays` (all their deliveries done) and dead ones older
   * than `deadDays`; returns how many events went.
   */
  async prune(doneDays = 7, deadDays = 30): Promise<number> {
    const { rows } = await this.database.sql.query<{ n: number }>(
      `with gone as (
         delete from domain_event e
         where (e.fanned_out and e.created_at < now() - $1::int * interval '1 day'
                and not exists (select 1 from domain_event_delivery d where d.event_id = e.id and d.status <> 'done'))
            or e.created_at < now() - $2::int * interval '1 day'
         returning 1)
       select count(*)::int as n from gone`,
      [doneDays, deadDays],
    );
    return rows[0]?.n ?? 0;
  }
}
