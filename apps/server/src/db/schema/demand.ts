import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, smallint, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { site } from './site.ts';

/**
 * Demand management (packages/contract/src/demand.ts; DOMAIN.md §4; decision 0037): the 15-minute
 * windows of each station (import at the main meter, storage charge and discharge, the guard's
 * outcome), the targets with their versions, and the utility bills' figures.
 */

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * One fixed 15-minute window of a station (aligned to the quarter hour in its zone), written by
 * the ingest's demand sink in batches (an upsert per flush, never per report). The main meter
 * sets the import side, each storage meter its own entry of `storage` (device id → [charge kWh,
 * discharge kWh, estimated 0/1]); charge_kwh / discharge_kwh are their sums.
 */
export const demandWindow = pgTable(
  'demand_window',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    /** Window start (UTC). */
    ts: tz('ts').notNull(),
    /** Main meter import energy in the window (kWh) and its average power × 4 (kW). */
    importKwh: doublePrecision('import_kwh'),
    demandKw: doublePrecision('demand_kw'),
    /** The cumulative import register at the window's start and end (interpolated when estimated). */
    startRegister: doublePrecision('start_register'),
    endRegister: doublePrecision('end_register'),
    importEstimated: boolean('import_estimated').notNull().default(false),
    storage: jsonb('storage').$type<Record<string, [number, number, number]>>(),
    chargeKwh: doublePrecision('charge_kwh'),
    dischargeKwh: doublePrecision('discharge_kwh'),
    storageEstimated: boolean('storage_estimated').notNull().default(false),
    /** The main meter's own max-demand register (this month's) as last reported in the window. */
    meterMaxKw: doublePrecision('meter_max_kw'),
    meterMaxTime: tz('meter_max_time'),
    /** The target in force during the window and whether the demand exceeded it. */
    targetKw: doublePrecision('target_kw'),
    exceeded: boolean('exceeded').notNull().default(false),
    /** The live guard: pre-alarm raised (with its projection), the discharge asked of the EMS and its answer. */
    preAlarmed: boolean('pre_alarmed').notNull().default(false),
    projectedKw: doublePrecision('projected_kw'),
    preAlarmAt: tz('pre_alarm_at'),
    guardRequested: boolean('guard_requested').notNull().default(false),
    guardAt: tz('guard_at'),
    guardKw: doublePrecision('guard_kw'),
    guardUntil: tz('guard_until'),
    guardRequestId: varchar('guard_request_id', { length: 64 }),
    /** sent, ok, refused, timeout, failed. */
    guardStatus: varchar('guard_status', { length: 16 }),
    guardGrantedKw: doublePrecision('guard_granted_kw'),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('demand_window_site_ts_uq').on(t.siteId, t.ts)],
);

/**
 * Targets: per station and month, or standing (month null). A new target for a station and month
 * replaces the current one, which stays as history (replaced_at) under the next version.
 */
export const demandSetting = pgTable(
  'demand_setting',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    /** YYYY-MM, null: standing. */
    month: varchar('month', { length: 7 }),
    targetKw: doublePrecision('target_kw').notNull(),
    marginKw: doublePrecision('margin_kw').notNull(),
    allowDischarge: boolean('allow_discharge').notNull().default(false),
    alarmLevel: smallint('alarm_level').notNull().default(2),
    version: integer('version').notNull().default(1),
    replacedAt: tz('replaced_at'),
    /** Users are not referenced by key (deleting a user must not fail on settings naming them). */
    createdBy: integer('created_by'),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('demand_setting_current_uq').on(t.siteId, sql`coalesce(${t.month}, '')`).where(sql`${t.replacedAt} is null`),
    index('demand_setting_site_idx').on(t.siteId, t.month),
  ],
);

/** The utility bill's maximum demand of a station and month, entered by a user (extension call). */
export const demandBill = pgTable(
  'demand_bill',
  {
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    month: varchar('month', { length: 7 }).notNull(),
    billMaxKw: doublePrecision('bill_max_kw').notNull(),
    note: varchar('note', { length: 200 }),
    userId: integer('user_id'),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.month] })],
);
