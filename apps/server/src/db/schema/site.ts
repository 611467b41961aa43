import { boolean, date, doublePrecision, index, integer, jsonb, numeric, pgTable, primaryKey, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core';
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
    email: varchar('email', { length: 128 }),
    projectNo: varchar('project_no', { length: 64 }),
    projectName: varchar('project_name', { length: 128 }),
    investor: varchar('investor', { length: 128 }),
    powerUser: varchar('power_user', { length: 128 }),
    reconciliationContact: varchar('reconciliation_contact', { length: 64 }),
    reconciliationPhone: varchar('reconciliation_phone', { length: 32 }),
    /** Investor's share of a statement's revenue, 0–100 % (product-spec §5). */
    investorShareRatio: numeric('investor_share_ratio', { precision: 5, scale: 2 }),
    remark: varchar('remark', { length: 500 }),
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

/** A station's key values (product-spec §3), one row per station. Units: kWh, kV, kW, %. */
export const siteKeyValue = pgTable('site_key_value', {
  siteId: integer('site_id').primaryKey().references(() => site.id, { onDelete: 'cascade' }),
  /** Storage capacity, kWh. */
  installedCapacity: doublePrecision('installed_capacity'),
  /** Grid connection voltage level, kV. */
  voltageLevel: doublePrecision('voltage_level'),
  /** Import limit the strategy must respect, kW. */
  transformerProtectionPower: doublePrecision('transformer_protection_power'),
  /** Storage rated power, kW. */
  installedPower: doublePrecision('installed_power'),
  /** Usable share of capacity, %. */
  depthOfDischarge: doublePrecision('depth_of_discharge'),
  pvModuleCount: integer('pv_module_count'),
  /** self_use, surplus_grid or full_grid. */
  pvWorkingMode: varchar('pv_working_mode', { length: 16 }),
  /** Charging piles' total rated power, kW. */
  pilePower: doublePrecision('pile_power'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export interface DiagramBindingJson {
  /** id attribute of the SVG element showing the value. */
  elementId: string;
  deviceId: number;
  identifier: string;
}

/** A station's distribution diagram: the sanitised SVG and the element → device property bindings. */
export const distributionDiagram = pgTable('distribution_diagram', {
  id: serial('id').primaryKey(),
  siteId: integer('site_id').notNull().unique().references(() => site.id, { onDelete: 'cascade' }),
  fileName: varchar('file_name', { length: 256 }).notNull(),
  svg: text('svg').notNull(),
  bindings: jsonb('bindings').$type<DiagramBindingJson[]>().notNull().default([]),
  uploadedBy: integer('uploaded_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One run of a registered callback (product-spec §3: callback, execution record). */
export const callbackExec = pgTable(
  'callback_exec',
  {
    id: serial('id').primaryKey(),
    code: varchar('code', { length: 64 }).notNull(),
    companyId: integer('company_id').notNull().references(() => company.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').references(() => site.id, { onDelete: 'set null' }),
    userId: integer('user_id'),
    username: varchar('username', { length: 64 }),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    success: boolean('success').notNull(),
    result: jsonb('result').$type<unknown>(),
    error: varchar('error', { length: 500 }),
    durationMs: integer('duration_ms').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('callback_exec_company_idx').on(t.companyId, t.createdAt), index('callback_exec_code_idx').on(t.code)],
);
