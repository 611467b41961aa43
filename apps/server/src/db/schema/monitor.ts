import { bigserial, boolean, index, integer, jsonb, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';

/**
 * The operation journal of device control (api-catalogue "Device monitoring" → Control): one row
 * per control call that reached a device of the caller's scope, whatever came of it — refused
 * for a wrong or missing secondary password, answered by the device (ok or error), or timed out.
 * Also the secondary-password checks, whose successes open a short window for the session and
 * whose failures count towards the lock (docs/decisions/0007-secondary-password.md).
 * Kept without foreign keys so the journal outlives deleted users and devices.
 */
export const deviceOperation = pgTable(
  'device_operation',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    username: varchar('username', { length: 64 }).notNull(),
    companyId: integer('company_id').notNull(),
    sessionId: integer('session_id'),
    /** Null for a password check without a device. */
    deviceId: integer('device_id'),
    deviceCode: varchar('device_code', { length: 64 }),
    siteId: integer('site_id'),
    /** The catalogue path called. */
    path: varchar('path', { length: 128 }).notNull(),
    /** The MQTT command (reboot, setProperty, …) or checkPassword. */
    command: varchar('command', { length: 32 }).notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    requestId: varchar('request_id', { length: 64 }),
    /** ok, error (the device refused), timeout, refused (secondary password) or failed (not sent). */
    result: varchar('result', { length: 16 }).notNull(),
    error: varchar('error', { length: 500 }),
    /** The device's reply result. */
    response: jsonb('response').$type<Record<string, unknown>>(),
    /** Whether a secondary password was entered and right; null when none was entered. */
    passwordOk: boolean('password_ok'),
    durationMs: integer('duration_ms').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('device_operation_device_idx').on(t.deviceId, t.createdAt),
    index('device_operation_user_idx').on(t.userId, t.createdAt),
    index('device_operation_created_idx').on(t.createdAt),
  ],
);
