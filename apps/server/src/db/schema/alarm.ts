import { sql } from 'drizzle-orm';
import {
  boolean, doublePrecision, index, integer, pgTable, serial, smallint, timestamp, uniqueIndex, varchar,
} from 'drizzle-orm/pg-core';
import { cabinet, device, product } from './device.ts';
import { site } from './site.ts';
import { appUser } from './system.ts';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The alarm dictionary: what raises an alarm. An entry names a product or a device type (every
 * product of it; a product's own entry wins over its type's for the same code, or the same
 * property and operator) and either a fault code (`kind` event) or a threshold on a numeric
 * property (`kind` threshold, with a clear value for hysteresis). Several threshold entries on one
 * property and operator are tiers told apart by their level (cell temperature > 35 °C at level 3,
 * > 45 °C at level 1; decision 0033). Not owned by a company: thing models are shared. Duplicates
 * are refused by the two partial unique indexes.
 */
export const alarmDict = pgTable(
  'alarm_dict',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id').references(() => product.id, { onDelete: 'cascade' }),
    deviceType: varchar('device_type', { length: 32 }),
    /** event or threshold. */
    kind: varchar('kind', { length: 16 }).notNull(),
    eventCode: varchar('event_code', { length: 64 }),
    identifier: varchar('identifier', { length: 64 }),
    /** >, >=, < or <=. */
    operator: varchar('operator', { length: 2 }),
    threshold: doublePrecision('threshold'),
    clearValue: doublePrecision('clear_value'),
    level: smallint('level').notNull(),
    alarmType: varchar('alarm_type', { length: 32 }).notNull(),
    description: varchar('description', { length: 200 }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('alarm_dict_event_uq')
      .on(sql`coalesce(${t.productId}, 0)`, sql`coalesce(${t.deviceType}, '')`, t.eventCode)
      .where(sql`${t.kind} = 'event'`),
    uniqueIndex('alarm_dict_threshold_uq')
      .on(sql`coalesce(${t.productId}, 0)`, sql`coalesce(${t.deviceType}, '')`, t.identifier, t.operator, t.level)
      .where(sql`${t.kind} = 'threshold'`),
  ],
);

/**
 * Alarms, opened and ended by the ingest (never a write per report: only transitions). The
 * source of an alarm is (device, dictionary entry); the partial unique index on the open alarm
 * of a source makes the database the arbiter when several ingest instances see the same
 * condition: the second insert does nothing. Level, type and description are copied from the
 * dictionary at opening, so later edits do not rewrite history.
 */
export const alarm = pgTable(
  'alarm',
  {
    id: serial('id').primaryKey(),
    no: varchar('no', { length: 32 }).notNull().unique(),
    dictId: integer('dict_id').references(() => alarmDict.id, { onDelete: 'set null' }),
    deviceId: integer('device_id').notNull().references(() => device.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references(() => site.id),
    cabinetId: integer('cabinet_id').references(() => cabinet.id, { onDelete: 'set null' }),
    kind: varchar('kind', { length: 16 }).notNull(),
    /** The fault code, or the property identifier of a threshold rule. */
    code: varchar('code', { length: 64 }).notNull(),
    level: smallint('level').notNull(),
    alarmType: varchar('alarm_type', { length: 32 }).notNull(),
    description: varchar('description', { length: 200 }).notNull(),
    /** active (in progress) or ended. */
    status: varchar('status', { length: 16 }).notNull().default('active'),
    /** Device time of the report or event that raised it, and of the one that ended it. */
    startedAt: tz('started_at').notNull(),
    endedAt: tz('ended_at'),
    /** Why it ended, when not by its own condition clearing: `escalated` (a more severe tier of the same property opened). */
    endReason: varchar('end_reason', { length: 16 }),
    triggerValue: doublePrecision('trigger_value'),
    clearValue: doublePrecision('clear_value'),
    /** The device's event message (fault codes). */
    message: varchar('message', { length: 500 }),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('alarm_open_source_uq').on(t.deviceId, t.dictId).where(sql`${t.status} = 'active'`),
    index('alarm_site_started_idx').on(t.siteId, t.startedAt),
    index('alarm_started_idx').on(t.startedAt),
    index('alarm_device_idx').on(t.deviceId, t.startedAt),
    index('alarm_active_idx').on(t.siteId).where(sql`${t.status} = 'active'`),
  ],
);

/**
 * Shields: a source (device + dictionary entry) raises no new alarm from start until end, or
 * until cancelled. An alarm already open stays open and still ends when its condition clears.
 */
export const alarmShield = pgTable(
  'alarm_shield',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id').notNull().references(() => device.id, { onDelete: 'cascade' }),
    dictId: integer('dict_id').notNull().references(() => alarmDict.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references(() => site.id),
    startAt: tz('start_at').notNull(),
    endAt: tz('end_at').notNull(),
    cancelledAt: tz('cancelled_at'),
    cancelledBy: integer('cancelled_by').references(() => appUser.id, { onDelete: 'set null' }),
    remark: varchar('remark', { length: 200 }),
    /** The alarm it was created from, if any. */
    alarmId: integer('alarm_id'),
    createdBy: integer('created_by').references(() => appUser.id, { onDelete: 'set null' }),
    createdByName: varchar('created_by_name', { length: 64 }).notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [index('alarm_shield_source_idx').on(t.deviceId, t.dictId, t.endAt), index('alarm_shield_site_idx').on(t.siteId)],
);
