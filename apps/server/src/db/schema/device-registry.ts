import { index, integer, jsonb, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core';
import { device } from './device.ts';
import { site } from './site.ts';

/**
 * A device replacement (product-spec /product/replace): the hardware at a position changed.
 * The device row keeps its id (so its telemetry, events and settings stay one history) and takes
 * the new code, barcode and firmware; this row records what it was before and after
 * (docs/decisions/0008-device-change.md).
 */
export const deviceChange = pgTable(
  'device_change',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id').notNull().references(() => device.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    productId: integer('product_id').notNull(),
    oldCode: varchar('old_code', { length: 64 }).notNull(),
    newCode: varchar('new_code', { length: 64 }).notNull(),
    oldBarcode: varchar('old_barcode', { length: 64 }),
    newBarcode: varchar('new_barcode', { length: 64 }),
    oldName: varchar('old_name', { length: 64 }).notNull(),
    newName: varchar('new_name', { length: 64 }).notNull(),
    oldFirmwareVersion: varchar('old_firmware_version', { length: 32 }),
    newFirmwareVersion: varchar('new_firmware_version', { length: 32 }),
    reason: varchar('reason', { length: 200 }),
    userId: integer('user_id').notNull(),
    username: varchar('username', { length: 64 }).notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('device_change_device_idx').on(t.deviceId, t.changedAt), index('device_change_site_idx').on(t.siteId, t.changedAt)],
);

export interface ImportErrorJson {
  /** 1-based sheet row (the header is row 1). */
  row: number;
  /** Header text of the column, '' when the error is about the whole row or file. */
  column: string;
  message: string;
}

/**
 * One device (or device product data) import: who, which file, the outcome and, when refused,
 * every row error. An import is all-or-nothing, so `status` is success or failed.
 */
export const deviceImport = pgTable(
  'device_import',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    userId: integer('user_id').notNull(),
    username: varchar('username', { length: 64 }).notNull(),
    /** device (the registry sheet) or product (static values of one product's devices). */
    kind: varchar('kind', { length: 16 }).notNull(),
    fileName: varchar('file_name', { length: 256 }).notNull(),
    /** success or failed. */
    status: varchar('status', { length: 16 }).notNull(),
    totalRows: integer('total_rows').notNull().default(0),
    createdCount: integer('created_count').notNull().default(0),
    updatedCount: integer('updated_count').notNull().default(0),
    errorCount: integer('error_count').notNull().default(0),
    errors: jsonb('errors').$type<ImportErrorJson[]>().notNull().default([]),
    /** Stations the file names (for filtering and scope), ids. */
    siteIds: jsonb('site_ids').$type<number[]>().notNull().default([]),
    durationMs: integer('duration_ms').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('device_import_company_idx').on(t.companyId, t.createdAt)],
);
