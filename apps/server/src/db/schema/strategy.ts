import type { StrategySchedule } from '@ess/contract/strategy';
import { boolean, doublePrecision, integer, jsonb, pgTable, serial, smallint, timestamp, varchar } from 'drizzle-orm/pg-core';
import { site } from './site.ts';

/**
 * Operation strategies (packages/contract/src/strategy.ts; DOMAIN.md §6a): one per station, its
 * schedules and limits, and the state of its synchronisation to the station's EMS.
 */

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const strategy = pgTable('strategy', {
  id: serial('id').primaryKey(),
  siteId: integer('site_id').notNull().unique().references(() => site.id, { onDelete: 'cascade' }),
  /** The schedules with their windows (validated by the contract's rules before they are written). */
  schedules: jsonb('schedules').$type<StrategySchedule[]>().notNull(),
  socMin: doublePrecision('soc_min').notNull(),
  socMax: doublePrecision('soc_max').notNull(),
  transformerProtectionKw: doublePrecision('transformer_protection_kw'),
  antiBackflow: boolean('anti_backflow').notNull(),
  demandTargetKw: doublePrecision('demand_target_kw'),
  /** Users are not referenced by key (deleting a user must not fail on the strategies they saved). */
  updatedBy: integer('updated_by'),
  createdAt: tz('created_at').notNull().defaultNow(),
  updatedAt: tz('updated_at').notNull().defaultNow(),
  // ── Synchronisation (contract StrategySync) ──
  /** unsynced | pending | applied | drifted. */
  syncState: varchar('sync_state', { length: 16 }).notNull().default('unsynced'),
  /** What was last sent (strategyHash of the EMS strategy), with the EMS strategy itself (re-sent as is on reconnect). */
  syncedHash: varchar('synced_hash', { length: 16 }),
  syncedPayload: jsonb('synced_payload').$type<Record<string, unknown>>(),
  appliedHash: varchar('applied_hash', { length: 16 }),
  reportedHash: varchar('reported_hash', { length: 16 }),
  sentAt: tz('sent_at'),
  appliedAt: tz('applied_at'),
  reportedAt: tz('reported_at'),
  attempts: smallint('attempts').notNull().default(0),
  lastError: varchar('last_error', { length: 500 }),
});
