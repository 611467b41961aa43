import { bigserial, index, integer, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';
import { site } from './site.ts';

/**
 * Handlings of a station from the monitoring screens (POST /comprehensive/site/handle,
 * docs/decisions/0011-site-handle.md): one row per acknowledgement, maintenance start or end,
 * with who did it. Kept without foreign keys, like the device operation journal, so it outlives
 * deleted users and stations and never stops a station from being deleted.
 */
export const siteHandle = pgTable(
  'site_handle',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id').notNull(),
    companyId: integer('company_id').notNull(),
    /** acknowledge, maintenanceStart or maintenanceEnd. */
    action: varchar('action', { length: 32 }).notNull(),
    note: varchar('note', { length: 200 }),
    userId: integer('user_id').notNull(),
    username: varchar('username', { length: 64 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('site_handle_site_idx').on(t.siteId, t.createdAt)],
);

/** Stations in maintenance now: a row from maintenanceStart until maintenanceEnd. */
export const siteMaintenance = pgTable('site_maintenance', {
  siteId: integer('site_id').primaryKey().references(() => site.id, { onDelete: 'cascade' }),
  since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
  note: varchar('note', { length: 200 }),
  userId: integer('user_id').notNull(),
  username: varchar('username', { length: 64 }).notNull(),
});
