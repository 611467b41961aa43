import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import type { IotDiffItem, IotValueMap } from '@ess/contract/iot';
import { device, product } from './device.ts';
import { company } from './system.ts';

/**
 * IoT platform sync (packages/contract/src/iot.ts; issue 23; decision 0048): the companies' IoT
 * applications (platform, address, sealed password, sync settings), what the last applied sync
 * read from the platform (products, their properties, events, commands and parameters, devices),
 * every sync run with its diff, and the relations from platform items to the console's thing
 * model. Every row carries its application's company (the data scope) and application.
 */

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const companyId = () => integer('company_id').notNull().references(() => company.id, { onDelete: 'cascade' });
const configId = () => integer('config_id').notNull().references(() => iotConfig.id, { onDelete: 'cascade' });
const iotProductId = () => integer('iot_product_id').notNull().references(() => iotProduct.id, { onDelete: 'cascade' });
/** The columns every item of a platform product's thing model starts with (property, event, command): keyed by its identifier. */
const productItem = () => ({
  id: serial('id').primaryKey(),
  companyId: companyId(),
  configId: configId(),
  iotProductId: iotProductId(),
  identifier: varchar('identifier', { length: 128 }).notNull(),
  name: varchar('name', { length: 128 }).notNull(),
});
const made = () => ({ createdBy: integer('created_by'), createdAt: tz('created_at').notNull().defaultNow(), updatedAt: tz('updated_at').notNull().defaultNow() });

export const iotConfig = pgTable(
  'iot_config',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    name: varchar('name', { length: 64 }).notNull(),
    /** thingsboard, jetlinks. */
    platform: varchar('platform', { length: 16 }).notNull(),
    baseUrl: varchar('base_url', { length: 255 }).notNull(),
    username: varchar('username', { length: 128 }).notNull(),
    /** Sealed (platform/secrets.ts, purpose "iot.password"); never answered, logged or exported. */
    passwordEnc: text('password_enc').notNull(),
    requireApproval: boolean('require_approval').notNull().default(true),
    enabled: boolean('enabled').notNull().default(true),
    remark: varchar('remark', { length: 200 }),
    lastConnectAt: tz('last_connect_at'),
    lastConnectOk: boolean('last_connect_ok'),
    lastConnectReason: varchar('last_connect_reason', { length: 500 }),
    lastSyncAt: tz('last_sync_at'),
    ...made(),
  },
  (t) => [uniqueIndex('iot_config_company_name_uq').on(t.companyId, t.name)],
);

/** A sync run: its diff (planned), then applied, discarded, found unchanged or failed. */
export const iotSync = pgTable(
  'iot_sync',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    configId: configId(),
    /** full, product, device. */
    scope: varchar('scope', { length: 16 }).notNull(),
    /** The platform id a one-item sync read. */
    target: varchar('target', { length: 128 }),
    state: varchar('state', { length: 16 }).notNull(),
    items: jsonb('items').$type<IotDiffItem[]>().notNull().default([]),
    /** What the platform answered, normalised (applied as read when approved). */
    snapshot: jsonb('snapshot').$type<unknown>(),
    /** The stored rows' fingerprint the diff was made against (approval refuses a stale plan). */
    baseHash: varchar('base_hash', { length: 64 }),
    added: integer('added').notNull().default(0),
    changed: integer('changed').notNull().default(0),
    removed: integer('removed').notNull().default(0),
    error: varchar('error', { length: 500 }),
    createdBy: integer('created_by'),
    approvedBy: integer('approved_by'),
    createdAt: tz('created_at').notNull().defaultNow(),
    appliedAt: tz('applied_at'),
  },
  (t) => [index('iot_sync_config_idx').on(t.configId, t.createdAt)],
);

export const iotProduct = pgTable(
  'iot_product',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    configId: configId(),
    externalId: varchar('external_id', { length: 128 }).notNull(),
    name: varchar('name', { length: 128 }).notNull(),
    description: varchar('description', { length: 500 }),
    syncedAt: tz('synced_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('iot_product_uq').on(t.configId, t.externalId)],
);

/** Telemetry keys and attributes (ThingsBoard) or thing-model properties (JetLinks). */
export const iotProperty = pgTable(
  'iot_property',
  {
    ...productItem(),
    dataType: varchar('data_type', { length: 16 }).notNull(),
    unit: varchar('unit', { length: 32 }),
    /** timeseries, attribute (ThingsBoard), metadata (JetLinks). */
    source: varchar('source', { length: 16 }).notNull(),
  },
  (t) => [uniqueIndex('iot_property_uq').on(t.iotProductId, t.identifier)],
);

/** Alarm types of a device profile (ThingsBoard) or thing-model events (JetLinks). */
export const iotEvent = pgTable(
  'iot_event',
  {
    ...productItem(),
    level: varchar('level', { length: 32 }),
  },
  (t) => [uniqueIndex('iot_event_uq').on(t.iotProductId, t.identifier)],
);

/** Thing-model functions (JetLinks); ThingsBoard declares no RPC methods. */
export const iotCommand = pgTable(
  'iot_command',
  {
    ...productItem(),
    async: boolean('async').notNull().default(false),
  },
  (t) => [uniqueIndex('iot_command_uq').on(t.iotProductId, t.identifier)],
);

/** A command's inputs and output, an event's fields. */
export const iotParam = pgTable(
  'iot_param',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    configId: configId(),
    iotProductId: iotProductId(),
    ownerKind: varchar('owner_kind', { length: 8 }).notNull(),
    commandId: integer('command_id').references(() => iotCommand.id, { onDelete: 'cascade' }),
    eventId: integer('event_id').references(() => iotEvent.id, { onDelete: 'cascade' }),
    direction: varchar('direction', { length: 8 }).notNull(),
    identifier: varchar('identifier', { length: 128 }).notNull(),
    name: varchar('name', { length: 128 }).notNull(),
    dataType: varchar('data_type', { length: 16 }).notNull(),
    unit: varchar('unit', { length: 32 }),
  },
  (t) => [uniqueIndex('iot_param_uq').on(t.iotProductId, t.ownerKind, sql`coalesce(${t.commandId}, ${t.eventId})`, t.direction, t.identifier)],
);

export const iotDevice = pgTable(
  'iot_device',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    configId: configId(),
    iotProductId: iotProductId(),
    externalId: varchar('external_id', { length: 128 }).notNull(),
    name: varchar('name', { length: 128 }).notNull(),
    /** online, offline, inactive, unknown: the platform's connectivity. */
    state: varchar('state', { length: 16 }).notNull(),
    /** The console device it feeds. */
    deviceId: integer('device_id').references(() => device.id, { onDelete: 'set null' }),
    syncedAt: tz('synced_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('iot_device_uq').on(t.configId, t.externalId), index('iot_device_product_idx').on(t.iotProductId), index('iot_device_device_idx').on(t.deviceId)],
);

/** What every relation has: where it applies (a platform product, or one of its devices) and the console product it maps to. */
const relationLevel = () => ({
  id: serial('id').primaryKey(),
  companyId: companyId(),
  configId: configId(),
  iotProductId: iotProductId(),
  /** Null: the product's relation; else one device's, overriding it. */
  iotDeviceId: integer('iot_device_id').references(() => iotDevice.id, { onDelete: 'cascade' }),
  productId: integer('product_id').notNull().references(() => product.id, { onDelete: 'cascade' }),
  identifier: varchar('identifier', { length: 64 }).notNull(),
  active: boolean('active').notNull().default(true),
  remark: varchar('remark', { length: 200 }),
  ...made(),
});
const levelKey = (t: { iotDeviceId: unknown }) => sql`coalesce(${t.iotDeviceId}, 0)`;

export const iotRelateProperty = pgTable(
  'iot_relate_property',
  {
    ...relationLevel(),
    iotPropertyId: integer('iot_property_id').notNull().references(() => iotProperty.id, { onDelete: 'cascade' }),
    scale: doublePrecision('scale').notNull().default(1),
    offset: doublePrecision('offset').notNull().default(0),
    valueMap: jsonb('value_map').$type<IotValueMap>().notNull().default([]),
  },
  (t) => [
    uniqueIndex('iot_relate_property_item_uq').on(t.iotProductId, levelKey(t), t.iotPropertyId),
    uniqueIndex('iot_relate_property_target_uq').on(t.iotProductId, levelKey(t), t.identifier),
  ],
);

export const iotRelateEvent = pgTable(
  'iot_relate_event',
  {
    ...relationLevel(),
    iotEventId: integer('iot_event_id').notNull().references(() => iotEvent.id, { onDelete: 'cascade' }),
    valueMap: jsonb('value_map').$type<IotValueMap>().notNull().default([]),
  },
  (t) => [
    uniqueIndex('iot_relate_event_item_uq').on(t.iotProductId, levelKey(t), t.iotEventId),
    uniqueIndex('iot_relate_event_target_uq').on(t.iotProductId, levelKey(t), t.identifier),
  ],
);

export const iotRelateCommand = pgTable(
  'iot_relate_command',
  {
    ...relationLevel(),
    iotCommandId: integer('iot_command_id').notNull().references(() => iotCommand.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('iot_relate_command_item_uq').on(t.iotProductId, levelKey(t), t.iotCommandId),
    uniqueIndex('iot_relate_command_target_uq').on(t.iotProductId, levelKey(t), t.identifier),
  ],
);

/** A command relation's parameter: the platform's input ← the console command's request parameter. */
export const iotRelateParam = pgTable(
  'iot_relate_param',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    relateCommandId: integer('relate_command_id').notNull().references(() => iotRelateCommand.id, { onDelete: 'cascade' }),
    iotParamId: integer('iot_param_id').notNull().references(() => iotParam.id, { onDelete: 'cascade' }),
    identifier: varchar('identifier', { length: 64 }).notNull(),
    scale: doublePrecision('scale').notNull().default(1),
    offset: doublePrecision('offset').notNull().default(0),
    valueMap: jsonb('value_map').$type<IotValueMap>().notNull().default([]),
    ...made(),
  },
  (t) => [uniqueIndex('iot_relate_param_uq').on(t.relateCommandId, t.iotParamId), uniqueIndex('iot_relate_param_target_uq').on(t.relateCommandId, t.identifier)],
);

/**
 * Telemetry keys a platform sent for a bound device that no active relation maps (the unmapped
 * keys inbox, decision 0051): per application, platform product and key, with the latest sample
 * values, the devices sending it, when it was first and last seen and how often. Relating it
 * (one call: a property relation of the product) removes it; dismissing hides it.
 */
export const iotUnmapped = pgTable(
  'iot_unmapped',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    configId: configId(),
    iotProductId: iotProductId(),
    key: varchar('key', { length: 128 }).notNull(),
    /** The latest sample values (at most 5, as text). */
    samples: jsonb('samples').$type<string[]>().notNull().default([]),
    /** The platform devices sending it (at most 20). */
    devices: jsonb('devices').$type<{ externalId: string; name: string }[]>().notNull().default([]),
    count: integer('count').notNull().default(0),
    firstSeenAt: tz('first_seen_at').notNull(),
    lastSeenAt: tz('last_seen_at').notNull(),
    dismissed: boolean('dismissed').notNull().default(false),
  },
  (t) => [uniqueIndex('iot_unmapped_uq').on(t.configId, t.iotProductId, t.key)],
);
