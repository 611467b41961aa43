import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, varchar } from 'drizzle-orm/pg-core';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The domain-event outbox: a change and its event are written in one transaction; after commit
 * the dispatcher fans each event out to the subscribers of its type (domain_event_delivery) and
 * delivers it, at least once (platform/events/outbox.ts).
 */
export const domainEvent = pgTable(
  'domain_event',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** `alarm.opened`, `site.changed`, … */
    type: varchar('type', { length: 64 }).notNull(),
    payload: jsonb('payload').notNull(),
    /**
     * Written as history (the demo's past, played at its first start): a record of what happened
     * then, not news. Subscribers that tell people or other systems (hooks, messages) are not
     * handed it; those that keep state are (decision 0042, amendment).
     */
    history: boolean('history').notNull().default(false),
    /** Fanned out to the subscribers of its type (their delivery rows exist). */
    fannedOut: boolean('fanned_out').notNull().default(false),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [index('domain_event_pending_idx').on(t.id).where(sql`not ${t.fannedOut}`), index('domain_event_created_idx').on(t.createdAt)],
);

/** One event for one subscriber: pending (due at next_at), done, or dead (retries exhausted). */
export const domainEventDelivery = pgTable(
  'domain_event_delivery',
  {
    eventId: bigint('event_id', { mode: 'number' }).notNull().references(() => domainEvent.id, { onDelete: 'cascade' }),
    subscriber: varchar('subscriber', { length: 64 }).notNull(),
    status: varchar('status', { length: 8 }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: tz('next_at').notNull().defaultNow(),
    lastError: text('last_error'),
    deliveredAt: tz('delivered_at'),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.subscriber] }),
    index('domain_event_delivery_due_idx').on(t.nextAt).where(sql`${t.status} = 'pending'`),
    index('domain_event_delivery_dead_idx').on(t.subscriber).where(sql`${t.status} = 'dead'`),
  ],
);
