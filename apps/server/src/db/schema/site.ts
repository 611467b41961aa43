import { date, index, integer, numeric, pgTable, primaryKey, serial, timestamp, varchar } from 'drizzle-orm/pg-core';
import { appUser, company } from './system.ts';

/**
 * Stations ("sites"). The backbone needs them for data scope and user station access; the
 * configuration domain owns the remaining fields and calls.
 */
export const site = pgTable(
  'site',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => company.id),
    name: varchar('name', { length: 64 }).notNull(),
    code: varchar('code', { length: 32 }).notNull().unique(),
    timeZone: varchar('time_zone', { length: 64 }).notNull().default('Asia/Shanghai'),
    commissioningDate: date('commissioning_date'),
    serviceEndDate: date('service_end_date'),
    regionCode: varchar('region_code', { length: 12 }),
    address: varchar('address', { length: 256 }),
    longitude: numeric('longitude', { precision: 10, scale: 6 }),
    latitude: numeric('latitude', { precision: 10, scale: 6 }),
    contact: varchar('contact', { length: 64 }),
    phone: varchar('phone', { length: 32 }),
    currency: varchar('currency', { length: 8 }).notNull().default('CNY'),
    siteType: varchar('site_type', { length: 32 }).notNull().default('storage'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('site_company_idx').on(t.companyId)],
);

/** Stations granted to a user (product-spec §6: station access with count). */
export const userSite = pgTable(
  'user_site',
  {
    userId: integer('user_id').notNull().references(() => appUser.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.siteId] }), index('user_site_site_idx').on(t.siteId)],
);
