import { boolean, date, doublePrecision, integer, jsonb, numeric, pgTable, primaryKey, timestamp, varchar } from 'drizzle-orm/pg-core';
import type { PeriodValues } from '@ess/contract';
import { site } from './site.ts';

/**
 * Revenue figures per station and station-local day (modules/dashboard, docs/decisions/0014):
 * computed from the rollups of the meter registers and the day's prices, never entered. Today's
 * row is refreshed every few minutes, a range is recomputed when prices change. Money is to the
 * cent in `currency`; energy kWh.
 */
export const revenueDaily = pgTable(
  'revenue_daily',
  {
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    /** Station-local date. */
    day: date('day', { mode: 'string' }).notNull(),
    currency: varchar('currency', { length: 8 }).notNull(),
    charge: doublePrecision('charge').notNull().default(0),
    discharge: doublePrecision('discharge').notNull().default(0),
    chargeByPeriod: jsonb('charge_by_period').$type<PeriodValues>().notNull(),
    dischargeByPeriod: jsonb('discharge_by_period').$type<PeriodValues>().notNull(),
    chargeCost: numeric('charge_cost', { precision: 16, scale: 2 }).notNull().default('0'),
    dischargeIncome: numeric('discharge_income', { precision: 16, scale: 2 }).notNull().default('0'),
    arbitrage: numeric('arbitrage', { precision: 16, scale: 2 }).notNull().default('0'),
    /** PV energy, the part used on site and the part exported (null: the station has no PV). */
    pv: doublePrecision('pv'),
    pvSelfUsed: doublePrecision('pv_self_used'),
    pvExported: doublePrecision('pv_exported'),
    pvRevenue: numeric('pv_revenue', { precision: 16, scale: 2 }).notNull().default('0'),
    /** Energy delivered by the charging piles (null: no piles). */
    piles: doublePrecision('piles'),
    chargingRevenue: numeric('charging_revenue', { precision: 16, scale: 2 }).notNull().default('0'),
    total: numeric('total', { precision: 16, scale: 2 }).notNull().default('0'),
    cycles: doublePrecision('cycles'),
    /** False when the day had no price for a period that carried energy (its money counts 0). */
    pricesComplete: boolean('prices_complete').notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.day] })],
);
