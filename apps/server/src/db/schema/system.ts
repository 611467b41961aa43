import { sql } from 'drizzle-orm';
import {
  bigserial, boolean, index, integer, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex, varchar,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** Company tree; `path` is the materialised id path ("/1/3/") used for data scope. */
export const company = pgTable(
  'company',
  {
    id: serial('id').primaryKey(),
    parentId: integer('parent_id'),
    path: text('path').notNull().default(''),
    name: varchar('name', { length: 64 }).notNull(),
    code: varchar('code', { length: 32 }),
    contact: varchar('contact', { length: 64 }),
    phone: varchar('phone', { length: 32 }),
    email: varchar('email', { length: 128 }),
    regionCode: varchar('region_code', { length: 12 }),
    address: varchar('address', { length: 256 }),
    remark: varchar('remark', { length: 500 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('company_path_idx').on(t.path), index('company_parent_idx').on(t.parentId)],
);

export const apiInterface = pgTable('api_interface', {
  id: serial('id').primaryKey(),
  method: varchar('method', { length: 8 }).notNull(),
  path: varchar('path', { length: 256 }).notNull().unique(),
  area: varchar('area', { length: 64 }).notNull(),
  kind: varchar('kind', { length: 16 }).notNull(),
  access: varchar('access', { length: 8 }).notNull(),
  name: varchar('name', { length: 128 }).notNull().default(''),
});

export const menu = pgTable('menu', {
  id: serial('id').primaryKey(),
  path: varchar('path', { length: 128 }).notNull().unique(),
  parentPath: varchar('parent_path', { length: 128 }),
  name: varchar('name', { length: 64 }).notNull(),
  icon: varchar('icon', { length: 64 }),
  sort: integer('sort').notNull().default(0),
  hidden: boolean('hidden').notNull().default(false),
  /** Set once an administrator edits the entry, so that a refresh keeps the edit. */
  edited: boolean('edited').notNull().default(false),
  updatedAt: updatedAt(),
});

export const menuInterface = pgTable(
  'menu_interface',
  {
    menuId: integer('menu_id').notNull().references(() => menu.id, { onDelete: 'cascade' }),
    interfaceId: integer('interface_id').notNull().references(() => apiInterface.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.menuId, t.interfaceId] }), index('menu_interface_if_idx').on(t.interfaceId)],
);

export const role = pgTable(
  'role',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => company.id),
    name: varchar('name', { length: 64 }).notNull(),
    code: varchar('code', { length: 64 }),
    remark: varchar('remark', { length: 500 }),
    buildIn: boolean('build_in').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('role_company_name_uq').on(t.companyId, t.name)],
);

export const roleMenu = pgTable(
  'role_menu',
  {
    roleId: integer('role_id').notNull().references(() => role.id, { onDelete: 'cascade' }),
    menuId: integer('menu_id').notNull().references(() => menu.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.menuId] })],
);

export const roleInterface = pgTable(
  'role_interface',
  {
    roleId: integer('role_id').notNull().references(() => role.id, { onDelete: 'cascade' }),
    interfaceId: integer('interface_id').notNull().references(() => apiInterface.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.interfaceId] })],
);

export const appUser = pgTable(
  'app_user',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => company.id),
    username: varchar('username', { length: 32 }).notNull(),
    name: varchar('name', { length: 64 }).notNull(),
    phone: varchar('phone', { length: 32 }),
    email: varchar('email', { length: 128 }),
    passwordHash: text('password_hash').notNull(),
    /** 1 enabled, 0 disabled. */
    status: smallint('status').notNull().default(1),
    buildIn: boolean('build_in').notNull().default(false),
    failedCount: integer('failed_count').notNull().default(0),
    failedSince: timestamp('failed_since', { withTimezone: true }),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    /** Sees every station of their companies, those created later too (the user form's "all stations"). */
    allSites: boolean('all_sites').notNull().default(false),
    /** The language the user last signed in with (the console's Client-Language): what the server writes to them in (notices). */
    language: varchar('language', { length: 8 }),
    /** The user's own IANA time zone (personal center): quiet hours of messages to them are judged in it; null: the station's. */
    timeZone: varchar('time_zone', { length: 64 }),
    /** Set when the user was deleted but journals name them: the row stays, anonymised and disabled (decision 0033). */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('app_user_username_uq').on(sql`lower(${t.username})`), index('app_user_company_idx').on(t.companyId)],
);

export const userRole = pgTable(
  'user_role',
  {
    userId: integer('user_id').notNull().references(() => appUser.id, { onDelete: 'cascade' }),
    roleId: integer('role_id').notNull().references(() => role.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('user_role_role_idx').on(t.roleId)],
);

export const session = pgTable(
  'session',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull().unique(),
    userId: integer('user_id').notNull().references(() => appUser.id, { onDelete: 'cascade' }),
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 256 }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('session_user_idx').on(t.userId)],
);

export const captcha = pgTable('captcha', {
  id: varchar('id', { length: 64 }).primaryKey(),
  code: varchar('code', { length: 16 }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

export const loginLog = pgTable(
  'login_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id'),
    companyId: integer('company_id'),
    username: varchar('username', { length: 64 }).notNull(),
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 256 }),
    success: boolean('success').notNull(),
    reason: varchar('reason', { length: 128 }),
    createdAt: createdAt(),
  },
  (t) => [index('login_log_created_idx').on(t.createdAt), index('login_log_company_idx').on(t.companyId)],
);

export const accessLog = pgTable(
  'access_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    requestId: varchar('request_id', { length: 64 }),
    userId: integer('user_id'),
    companyId: integer('company_id'),
    username: varchar('username', { length: 64 }),
    method: varchar('method', { length: 8 }).notNull(),
    path: varchar('path', { length: 256 }).notNull(),
    query: text('query'),
    status: smallint('status').notNull(),
    durationMs: integer('duration_ms').notNull(),
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 256 }),
    errorCode: varchar('error_code', { length: 8 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('access_log_created_idx').on(t.createdAt), index('access_log_company_idx').on(t.companyId)],
);

export const notificationSetting = pgTable('notification_setting', {
  id: serial('id').primaryKey(),
  companyId: integer('company_id').notNull().references(() => company.id),
  title: varchar('title', { length: 100 }).notNull(),
  content: text('content').notNull(),
  pushMode: varchar('push_mode', { length: 16 }).notNull(),
  pushAt: timestamp('push_at', { withTimezone: true }),
  targetType: varchar('target_type', { length: 8 }).notNull(),
  targetIds: integer('target_ids').array().notNull(),
  /** pending → sent (or failed). */
  status: varchar('status', { length: 16 }).notNull().default('pending'),
  createdBy: integer('created_by').notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const notification = pgTable(
  'notification',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull().references(() => appUser.id, { onDelete: 'cascade' }),
    settingId: integer('setting_id').references(() => notificationSetting.id, { onDelete: 'set null' }),
    title: varchar('title', { length: 100 }).notNull(),
    content: text('content').notNull(),
    read: boolean('read').notNull().default(false),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('notification_user_idx').on(t.userId, t.read)],
);

export const notificationLog = pgTable('notification_log', {
  id: serial('id').primaryKey(),
  settingId: integer('setting_id').notNull().references(() => notificationSetting.id, { onDelete: 'cascade' }),
  companyId: integer('company_id').notNull(),
  title: varchar('title', { length: 100 }).notNull(),
  recipientCount: integer('recipient_count').notNull(),
  status: varchar('status', { length: 16 }).notNull(),
  error: text('error'),
  createdAt: createdAt(),
});
