import { boolean, index, integer, jsonb, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { device, product, thingModelItem, type EnumValueJson } from './device.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Static properties: nameplate attributes a product declares (rated capacity, manufacturer,
 * commissioning date, …) whose values are set per device and do not change with telemetry.
 */
export const productStaticProperty = pgTable(
  'product_static_property',
  {
    ...thingModelItem(),
    /** string, float, int, enum, bool or date. */
    dataType: varchar('data_type', { length: 16 }).notNull(),
    unit: varchar('unit', { length: 16 }).notNull().default(''),
    enumValues: jsonb('enum_values').$type<EnumValueJson[]>(),
    required: boolean('required').notNull().default(false),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('product_static_property_uq').on(t.productId, t.identifier)],
);

/** One device's value of a static property of its product (text; typed by the property). */
export const deviceStaticValue = pgTable(
  'device_static_value',
  {
    deviceId: integer('device_id').notNull().references(() => device.id, { onDelete: 'cascade' }),
    propertyId: integer('property_id').notNull().references(() => productStaticProperty.id, { onDelete: 'cascade' }),
    value: varchar('value', { length: 256 }).notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('device_static_value_pk').on(t.deviceId, t.propertyId), index('device_static_value_property_idx').on(t.propertyId)],
);

/**
 * A product template: a named selection of one product's properties (in display order), the
 * column set of the data retrieval screens (latest values of many devices, history, export).
 * Shared like the products it selects from.
 */
export const productTemplate = pgTable(
  'product_template',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 64 }).notNull(),
    productId: integer('product_id').notNull().references(() => product.id, { onDelete: 'cascade' }),
    /** Property identifiers of the product, in display order. */
    identifiers: jsonb('identifiers').$type<string[]>().notNull(),
    description: varchar('description', { length: 500 }),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('product_template_name_uq').on(t.name), index('product_template_product_idx').on(t.productId)],
);
