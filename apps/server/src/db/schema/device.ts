import {
  boolean, doublePrecision, index, integer, jsonb, pgTable, serial, smallint, timestamp, uniqueIndex, varchar, type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { site } from './site.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * A product is a thing model: what one kind of device reports (properties), raises (events)
 * and accepts (commands). Products are shared by every company (a model is not owned data);
 * the demo seed creates one per device type from the contract's THING_MODEL.
 */
export const product = pgTable('product', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 64 }).notNull().unique(),
  name: varchar('name', { length: 64 }).notNull(),
  /** A DeviceType of the contract (ems, pcs, bms, …). */
  type: varchar('type', { length: 32 }).notNull(),
  description: varchar('description', { length: 500 }),
  /**
   * Highest telemetry slot ever given to a property of this product (deleted ones included):
   * a new property takes greatest(slotCount, max(slot)) + 1, so a slot is never reused.
   */
  slotCount: integer('slot_count').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export interface EnumValueJson {
  value: number;
  label: string;
  colour?: string;
}

/** The columns every item of a thing model starts with: its product, identifier and name. */
export const thingModelItem = () => ({
  id: serial('id').primaryKey(),
  productId: integer('product_id').notNull().references(() => product.id, { onDelete: 'cascade' }),
  identifier: varchar('identifier', { length: 64 }).notNull(),
  name: varchar('name', { length: 64 }).notNull(),
});

export const productProperty = pgTable(
  'product_property',
  {
    ...thingModelItem(),
    /** float, int, enum, bool or string. */
    dataType: varchar('data_type', { length: 16 }).notNull(),
    unit: varchar('unit', { length: 16 }).notNull().default(''),
    enumValues: jsonb('enum_values').$type<EnumValueJson[]>(),
    cumulative: boolean('cumulative').notNull().default(false),
    writable: boolean('writable').notNull().default(false),
    min: doublePrecision('min'),
    max: doublePrecision('max'),
    sort: integer('sort').notNull().default(0),
    /**
     * 1-based position of this property in the stored telemetry arrays (telemetry.v and the
     * rollups) of the product's devices; null for text properties, which are kept only as
     * latest values. Slots are only ever appended, so stored rows keep their meaning.
     */
    slot: integer('slot'),
  },
  (t) => [uniqueIndex('product_property_uq').on(t.productId, t.identifier)],
);

export const productEvent = pgTable(
  'product_event',
  {
    /** identifier: the event code a device publishes (PCS_IGBT_FAULT, …). */
    ...thingModelItem(),
    /** Suggested alarm level 1–5, 1 most severe. */
    level: smallint('level').notNull().default(3),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('product_event_uq').on(t.productId, t.identifier)],
);

export const productCommand = pgTable(
  'product_command',
  {
    ...thingModelItem(),
    /** Request parameters: [{ identifier, name, dataType, … }]. */
    requestParams: jsonb('request_params').$type<unknown[]>().notNull().default([]),
    responseParams: jsonb('response_params').$type<unknown[]>().notNull().default([]),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('product_command_uq').on(t.productId, t.identifier)],
);

/** Energy cabinets of a station; clusters, packs and air conditioners stand in one. */
export const cabinet = pgTable(
  'cabinet',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    code: varchar('code', { length: 64 }).notNull().unique(),
    name: varchar('name', { length: 64 }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('cabinet_site_idx').on(t.siteId)],
);

/** A registered device. Its code is what it publishes under: ess/{siteCode}/{code}/…. */
export const device = pgTable(
  'device',
  {
    id: serial('id').primaryKey(),
    code: varchar('code', { length: 64 }).notNull().unique(),
    name: varchar('name', { length: 64 }).notNull(),
    barcode: varchar('barcode', { length: 64 }),
    siteId: integer('site_id').notNull().references(() => site.id),
    parentId: integer('parent_id').references((): AnyPgColumn => device.id, { onDelete: 'set null' }),
    productId: integer('product_id').notNull().references(() => product.id),
    /** The product's device type, copied for filtering. */
    type: varchar('type', { length: 32 }).notNull(),
    /** Meters only: main, storage, pv or pile. */
    meterPurpose: varchar('meter_purpose', { length: 16 }),
    cabinetId: integer('cabinet_id').references(() => cabinet.id, { onDelete: 'set null' }),
    /** Rated power kW (PCS, DCDC, PV inverter, pile, gun) or rated capacity kVA (transformer). */
    ratedPower: doublePrecision('rated_power'),
    /** 1-based position: cluster number of clusters and packs, pile number of piles and guns. */
    no: smallint('no'),
    /** 1-based position within the parent: pack within cluster, gun within pile. */
    subNo: smallint('sub_no'),
    firmwareName: varchar('firmware_name', { length: 64 }),
    firmwareVersion: varchar('firmware_version', { length: 32 }),
    disabled: boolean('disabled').notNull().default(false),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('device_site_idx').on(t.siteId),
    index('device_parent_idx').on(t.parentId),
    index('device_product_idx').on(t.productId),
    index('device_cabinet_idx').on(t.cabinetId),
  ],
);

/**
 * A device's presence as last judged (online or offline), so that a change of it is a written
 * transition with its domain event (device.online / device.offline). The status the screens show
 * is still computed from the ingest's last-seen times at read time (statusExpr); this row follows
 * it, a sweep at a time (modules/device/presence.jobs.ts).
 */
export const devicePresence = pgTable('device_presence', {
  deviceId: integer('device_id').primaryKey().references(() => device.id, { onDelete: 'cascade' }),
  online: boolean('online').notNull(),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
});
