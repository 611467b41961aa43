import type { QualityFlag } from '@ess/contract';
import { sql } from 'drizzle-orm';
import {
  bigserial, boolean, date, index, integer, jsonb, numeric, pgTable, serial, smallint, timestamp, uniqueIndex, varchar,
} from 'drizzle-orm/pg-core';
import { device } from './device.ts';
import { deviceChange } from './device-registry.ts';
import { site } from './site.ts';
import { company } from './system.ts';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
/**
 * The twelve registers of a reading as exact decimals (kWh, 0.001), in the contract's
 * READING_REGISTERS order (forward total, tip, peak, flat, valley, deep valley, then reverse);
 * an element is NULL where the register was not read. Read back as text.
 */
const registers = (name: string) => numeric(name, { precision: 18, scale: 3 }).array().$type<(string | null)[]>();
/** Flags met per register identifier. */
const flags = (name: string) => jsonb(name).$type<Record<string, QualityFlag[]>>().notNull().default(sql`'{}'::jsonb`);

/**
 * Meter readings (packages/contract/src/meter-reading.ts; issue 18 "Readings"): zero readings,
 * timing configurations and their readings, the readings of a replaced meter at the change,
 * the subsystems' period readings and the re-meter tasks. Everything belongs to a station (data
 * scope through it) and a meter (device of type meter). Energies only: no money is stored here
 * (prices and amounts are computed from the pricing module's history when answered).
 */

/** One meter's cumulative registers at 00:00 station-local time of `reading_date` (the daily job). */
export const meterZeroReading = pgTable(
  'meter_zero_reading',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: integer('device_id').notNull().references(() => device.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    /** The station-local date whose 00:00 was read. */
    readingDate: date('reading_date').notNull(),
    /** That instant. */
    readAt: tz('read_at').notNull(),
    /** Measurement time of the report the values come from; NULL when missing. */
    sourceTs: tz('source_ts'),
    /** measured, estimated or missing. */
    quality: varchar('quality', { length: 16 }).notNull(),
    registers: registers('registers').notNull(),
    /** The meter hardware's code at the instant (a replacement changes it). */
    code: varchar('code', { length: 64 }).notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('meter_zero_reading_uq').on(t.deviceId, t.readingDate),
    index('meter_zero_reading_site_idx').on(t.siteId, t.readingDate),
  ],
);

/**
 * When to take timing readings: for one station, or (site NULL) every station of the company
 * (company NULL too: every station). kind monthEnd (last day at `time`, '24:00' = next month's
 * 00:00), monthDay (day `day` at `time`), daily (`time`).
 */
export const meterTimingConfig = pgTable(
  'meter_timing_config',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').references(() => company.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').references(() => site.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 64 }).notNull(),
    kind: varchar('kind', { length: 16 }).notNull(),
    /** monthDay: 1–28. */
    day: smallint('day'),
    /** HH:mm station-local; '24:00' allowed (the end of the day). */
    time: varchar('time', { length: 5 }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('meter_timing_config_site_idx').on(t.siteId)],
);

/** A timing reading: one meter's registers at one configured instant. */
export const meterTimingReading = pgTable(
  'meter_timing_reading',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    configId: integer('config_id').notNull().references(() => meterTimingConfig.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').notNull().references(() => device.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    readAt: tz('read_at').notNull(),
    /** YYYY-MM-DD HH:mm station-local (24:00 kept as written). */
    localTime: varchar('local_time', { length: 16 }).notNull(),
    sourceTs: tz('source_ts'),
    quality: varchar('quality', { length: 16 }).notNull(),
    registers: registers('registers').notNull(),
    code: varchar('code', { length: 64 }).notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('meter_timing_reading_uq').on(t.configId, t.deviceId, t.readAt),
    index('meter_timing_reading_site_idx').on(t.siteId, t.readAt),
  ],
);

/**
 * A meter replacement's readings (the device-change flow keeps the device row; the hardware
 * changes at `changed_at`): the old meter's last registers before and the new meter's first after,
 * which close the old segment and open the new one.
 */
export const meterChangeReading = pgTable(
  'meter_change_reading',
  {
    id: serial('id').primaryKey(),
    changeId: integer('change_id').notNull().references(() => deviceChange.id, { onDelete: 'cascade' }).unique(),
    deviceId: integer('device_id').notNull().references(() => device.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    changedAt: tz('changed_at').notNull(),
    oldCode: varchar('old_code', { length: 64 }).notNull(),
    newCode: varchar('new_code', { length: 64 }).notNull(),
    oldEnd: registers('old_end').notNull(),
    oldEndTs: tz('old_end_ts'),
    newStart: registers('new_start').notNull(),
    newStartTs: tz('new_start_ts'),
    /** measured, estimated or missing (the worse side). */
    quality: varchar('quality', { length: 16 }).notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [index('meter_change_reading_device_idx').on(t.deviceId, t.changedAt)],
);

/**
 * A subsystem's period reading: one meter, station-local dates period_start..period_end
 * (inclusive), the registers at both ends, the normalised differences, flags per register and
 * the replacement segments. Written by the monthly job and by re-meter (which replaces it).
 */
export const meterPeriodReading = pgTable(
  'meter_period_reading',
  {
    id: serial('id').primaryKey(),
    /** storage, pv or pile. */
    subsystem: varchar('subsystem', { length: 16 }).notNull(),
    deviceId: integer('device_id').notNull().references(() => device.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    periodStart: date('period_start').notNull(),
    periodEnd: date('period_end').notNull(),
    startAt: tz('start_at').notNull(),
    endAt: tz('end_at').notNull(),
    startRegisters: registers('start_registers').notNull(),
    endRegisters: registers('end_registers').notNull(),
    differences: registers('differences').notNull(),
    /** The worst flag. */
    quality: varchar('quality', { length: 16 }).notNull(),
    flags: flags('flags'),
    /** The contract's MeterSegment[] (registers as numbers). */
    segments: jsonb('segments').$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    readAt: tz('read_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('meter_period_reading_uq').on(t.deviceId, t.periodStart, t.periodEnd),
    index('meter_period_reading_site_idx').on(t.siteId, t.subsystem, t.periodStart),
  ],
);

/**
 * Re-meter tasks (a background job with progress). At most one queued or running task per meter
 * and period: the partial unique index refuses a second (answered "task is occupied").
 */
export const meterReMeterTask = pgTable(
  'meter_remeter_task',
  {
    id: serial('id').primaryKey(),
    subsystem: varchar('subsystem', { length: 16 }).notNull(),
    deviceId: integer('device_id').notNull().references(() => device.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    periodStart: date('period_start').notNull(),
    periodEnd: date('period_end').notNull(),
    /** queued, running, done or failed. */
    state: varchar('state', { length: 16 }).notNull().default('queued'),
    /** 0–100. */
    progress: smallint('progress').notNull().default(0),
    startedAt: tz('started_at'),
    endedAt: tz('ended_at'),
    /** Done: whether the reading differs from the one before. */
    changed: boolean('changed'),
    /** Done: the period reading written. */
    periodReadingId: integer('period_reading_id').references(() => meterPeriodReading.id, { onDelete: 'set null' }),
    error: varchar('error', { length: 500 }),
    userId: integer('user_id'),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('meter_remeter_task_active_uq')
      .on(t.deviceId, t.periodStart, t.periodEnd)
      .where(sql`${t.state} in ('queued', 'running')`),
    index('meter_remeter_task_device_idx').on(t.deviceId, t.periodStart, t.createdAt),
  ],
);
