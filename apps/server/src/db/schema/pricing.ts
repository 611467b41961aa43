import { date, index, integer, jsonb, numeric, pgTable, serial, timestamp, unique, varchar } from 'drizzle-orm/pg-core';
import { site } from './site.ts';
import { company } from './system.ts';

/**
 * Time-of-use prices (DOMAIN.md §2). Money is numeric (exact decimals, read back as text and
 * converted at the edge); dates of a station's price configuration are station-local calendar
 * dates; the daily partition is station-local wall-clock time.
 */

/** A tariff of a company: the template its stations' price configuration names. */
export const priceTemplate = pgTable(
  'price_template',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => company.id),
    name: varchar('name', { length: 64 }).notNull(),
    /** Electricity category (contract ELECTRICITY_TYPES). */
    type: varchar('type', { length: 32 }).notNull(),
    /** singlePart or twoPart. */
    billingSystem: varchar('billing_system', { length: 16 }).notNull(),
    voltageLevel: varchar('voltage_level', { length: 32 }).notNull(),
    currency: varchar('currency', { length: 8 }).notNull(),
    regionCode: varchar('region_code', { length: 12 }),
    remark: varchar('remark', { length: 200 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('price_template_company_name_uq').on(t.companyId, t.name)],
);

export interface PriceBandJson {
  /** HH:MM, station-local. */
  start: string;
  /** HH:MM, up to 24:00. */
  end: string;
  period: 'tip' | 'peak' | 'flat' | 'valley' | 'deepValley';
}

const money = (name: string) => numeric(name, { precision: 16, scale: 6 });

/** A cycle of a template: the months it applies to, the day's partition into periods, and prices. */
export const priceCycle = pgTable(
  'price_cycle',
  {
    id: serial('id').primaryKey(),
    templateId: integer('template_id').notNull().references(() => priceTemplate.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 32 }).notNull(),
    /** Calendar months 1–12; no month in two cycles of one template (checked under the template's row lock). */
    months: integer('months').array().notNull(),
    periods: jsonb('periods').$type<PriceBandJson[]>().notNull(),
    tipPrice: money('tip_price'),
    peakPrice: money('peak_price'),
    flatPrice: money('flat_price'),
    valleyPrice: money('valley_price'),
    deepValleyPrice: money('deep_valley_price'),
    /** Per kW per month. */
    demandPrice: money('demand_price'),
    /** Per kVA per month. */
    capacityPrice: money('capacity_price'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('price_cycle_template_idx').on(t.templateId)],
);

/** Which template a station uses from when to when, and its charging service fee. */
export const sitePriceCycle = pgTable(
  'site_price_cycle',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    /** A template in use cannot be deleted. */
    templateId: integer('template_id').notNull().references(() => priceTemplate.id, { onDelete: 'restrict' }),
    startDate: date('start_date').notNull(),
    /** Inclusive; null: open-ended. */
    endDate: date('end_date'),
    /** Per kWh. */
    serviceFee: money('service_fee'),
    remark: varchar('remark', { length: 200 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('site_price_cycle_site_idx').on(t.siteId, t.startDate), index('site_price_cycle_template_idx').on(t.templateId)],
);

/** A station's PV feed-in price over a date range. */
export const solarPriceCycle = pgTable(
  'solar_price_cycle',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    startDate: date('start_date').notNull(),
    endDate: date('end_date'),
    /** Per kWh. */
    price: money('price').notNull(),
    /** Per period type where it differs from `price` (JSON numbers). */
    periodPrices: jsonb('period_prices').$type<Partial<Record<PriceBandJson['period'], number>>>(),
    remark: varchar('remark', { length: 200 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('solar_price_cycle_site_idx').on(t.siteId, t.startDate)],
);
