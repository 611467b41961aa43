import type { StatementLine } from '@ess/contract/statement';
import { sql } from 'drizzle-orm';
import { bigserial, boolean, date, index, integer, jsonb, numeric, pgTable, primaryKey, serial, smallint, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { site } from './site.ts';

/**
 * Statements (packages/contract/src/statement.ts; docs/decisions/0035-statement-lifecycle.md):
 * a station's settlement settings, its monthly statements with their lines, the prices each
 * statement used (so a used price refuses edits), and the statements' state journal. Money and
 * energy are numeric (exact decimals, read back as text), never floating point.
 */

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const money = (name: string) => numeric(name, { precision: 18, scale: 2 });
const energy = (name: string) => numeric(name, { precision: 18, scale: 3 });
const ratio = (name: string) => numeric(name, { precision: 5, scale: 2 });

/** A station's settlement terms (one per station). */
export const siteStatementSetting = pgTable('site_statement_setting', {
  id: serial('id').primaryKey(),
  siteId: integer('site_id').notNull().unique().references(() => site.id, { onDelete: 'cascade' }),
  investorName: varchar('investor_name', { length: 128 }).notNull(),
  /** Users are not referenced by key: deleting a user (decision 0033) must not fail on settings naming them. */
  investorUserId: integer('investor_user_id').notNull(),
  powerUserName: varchar('power_user_name', { length: 128 }).notNull(),
  powerUserUserId: integer('power_user_user_id').notNull(),
  investorShareRatio: ratio('investor_share_ratio').notNull(),
  billingDay: smallint('billing_day').notNull(),
  reconciliationContact: varchar('reconciliation_contact', { length: 64 }),
  reconciliationPhone: varchar('reconciliation_phone', { length: 32 }),
  includePv: boolean('include_pv').notNull().default(false),
  includePiles: boolean('include_piles').notNull().default(false),
  createdAt: tz('created_at').notNull().defaultNow(),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});

/** One station's statement of one month: the figures, the lines, the parties as they were. */
export const statement = pgTable(
  'statement',
  {
    id: serial('id').primaryKey(),
    code: varchar('code', { length: 64 }).notNull(),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    /** YYYY-MM. */
    month: varchar('month', { length: 7 }).notNull(),
    /** Station-local dates, both inclusive. */
    periodStart: date('period_start').notNull(),
    periodEnd: date('period_end').notNull(),
    currency: varchar('currency', { length: 8 }).notNull(),
    /** draft, investor_confirmed, power_user_confirmed, locked (contract statementMachine). */
    state: varchar('state', { length: 24 }).notNull().default('draft'),
    investorName: varchar('investor_name', { length: 128 }).notNull(),
    investorUserId: integer('investor_user_id').notNull(),
    powerUserName: varchar('power_user_name', { length: 128 }).notNull(),
    powerUserUserId: integer('power_user_user_id').notNull(),
    investorShareRatio: ratio('investor_share_ratio').notNull(),
    reconciliationContact: varchar('reconciliation_contact', { length: 64 }),
    reconciliationPhone: varchar('reconciliation_phone', { length: 32 }),
    chargeEnergy: energy('charge_energy').notNull(),
    dischargeEnergy: energy('discharge_energy').notNull(),
    pvSelfUseEnergy: energy('pv_self_use_energy').notNull(),
    pvExportEnergy: energy('pv_export_energy').notNull(),
    pileEnergy: energy('pile_energy').notNull(),
    storageRevenue: money('storage_revenue').notNull(),
    pvRevenue: money('pv_revenue').notNull(),
    pileRevenue: money('pile_revenue').notNull(),
    totalRevenue: money('total_revenue').notNull(),
    investorAmount: money('investor_amount').notNull(),
    powerUserAmount: money('power_user_amount').notNull(),
    flaggedLines: integer('flagged_lines').notNull().default(0),
    lines: jsonb('lines').$type<StatementLine[]>().notNull().default(sql`'[]'::jsonb`),
    note: varchar('note', { length: 200 }),
    computedAt: tz('computed_at').notNull().defaultNow(),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('statement_site_month_uq').on(t.siteId, t.month), index('statement_state_idx').on(t.state)],
);

/**
 * The prices a statement's lines used: a template, a cycle of it, a station rate (configure price
 * cycle) or a solar rate. Pricing refuses to edit or delete one a confirmed or locked statement used.
 */
export const statementPriceUse = pgTable(
  'statement_price_use',
  {
    statementId: integer('statement_id').notNull().references(() => statement.id, { onDelete: 'cascade' }),
    /** template, priceCycle, sitePrice, solarPrice. */
    kind: varchar('kind', { length: 16 }).notNull(),
    refId: integer('ref_id').notNull(),
    /** The first and last station-local day it priced. */
    firstDate: date('first_date').notNull(),
    lastDate: date('last_date').notNull(),
  },
  (t) => [primaryKey({ columns: [t.statementId, t.kind, t.refId] }), index('statement_price_use_ref_idx').on(t.kind, t.refId)],
);

/** The state journal of statements: who, when, from, to, note; a recompute's difference. */
export const statementLog = pgTable(
  'statement_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    statementId: integer('statement_id').notNull().references(() => statement.id, { onDelete: 'cascade' }),
    action: varchar('action', { length: 32 }).notNull(),
    fromState: varchar('from_state', { length: 24 }).notNull(),
    toState: varchar('to_state', { length: 24 }).notNull(),
    note: varchar('note', { length: 200 }),
    /** Null for the generation job and automatic recomputes (username 系统). */
    userId: integer('user_id'),
    username: varchar('username', { length: 64 }).notNull(),
    difference: money('difference'),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [index('statement_log_statement_idx').on(t.statementId, t.id)],
);
