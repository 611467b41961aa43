import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';

/**
 * Translation management (packages/contract/src/i18n.ts; issue 24): languages, the originals
 * (UI texts of the console's catalogue, domain `text`; business-data values read through text
 * nodes, domain `data`) and their translations per language with a state, text nodes, engines
 * (the key sealed by platform/secrets.ts, never answered), completion jobs, currencies.
 */

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const language = pgTable('language', {
  id: serial('id').primaryKey(),
  /** BCP 47 (en-US): the `languageId` of every call. */
  code: varchar('code', { length: 16 }).notNull().unique(),
  name: varchar('name', { length: 64 }).notNull(),
  nativeName: varchar('native_name', { length: 64 }).notNull(),
  direction: varchar('direction', { length: 3 }).notNull().default('ltr'),
  uiLocale: varchar('ui_locale', { length: 16 }),
  dateFormat: varchar('date_format', { length: 32 }).notNull().default('YYYY-MM-DD'),
  numberLocale: varchar('number_locale', { length: 16 }),
  enabled: boolean('enabled').notNull().default(true),
  builtIn: boolean('built_in').notNull().default(false),
  sort: integer('sort').notNull().default(100),
  createdAt: tz('created_at').notNull().defaultNow(),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});

/** Fields of business data that are translated (product.name, role.name …). */
export const textNode = pgTable('text_node', {
  id: serial('id').primaryKey(),
  field: varchar('field', { length: 64 }).notNull().unique(),
  name: varchar('name', { length: 64 }).notNull(),
  enabled: boolean('enabled').notNull().default(true),
  remark: varchar('remark', { length: 200 }),
  createdAt: tz('created_at').notNull().defaultNow(),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});

/**
 * A text to translate. `text`: the key is the source text itself (the pack's key), `context` the
 * catalogue area; `data`: the key is `<node id>:<record id>`, the source the record's value.
 */
export const i18nOriginal = pgTable(
  'i18n_original',
  {
    id: serial('id').primaryKey(),
    domain: varchar('domain', { length: 8 }).notNull(),
    key: text('key').notNull(),
    source: text('source').notNull(),
    context: varchar('context', { length: 64 }),
    nodeId: integer('node_id').references(() => textNode.id, { onDelete: 'cascade' }),
    recordId: integer('record_id'),
    maxLength: integer('max_length'),
    obsolete: boolean('obsolete').notNull().default(false),
    sourceChangedAt: tz('source_changed_at').notNull().defaultNow(),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('i18n_original_domain_key').on(t.domain, t.key), index('i18n_original_node').on(t.nodeId, t.recordId)],
);

export const i18nTranslation = pgTable(
  'i18n_translation',
  {
    originalId: integer('original_id').notNull().references(() => i18nOriginal.id, { onDelete: 'cascade' }),
    languageCode: varchar('language_code', { length: 16 }).notNull().references(() => language.code, { onDelete: 'cascade', onUpdate: 'cascade' }),
    translation: text('translation').notNull(),
    /** machine, translated, reviewed, outdated (untranslated: no row). */
    state: varchar('state', { length: 12 }).notNull(),
    engineId: integer('engine_id'),
    updatedBy: integer('updated_by'),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.originalId, t.languageCode] }), index('i18n_translation_language').on(t.languageCode, t.updatedAt)],
);

/** The catalogue merges: when, and what they changed. */
export const i18nRefresh = pgTable('i18n_refresh', {
  id: serial('id').primaryKey(),
  domain: varchar('domain', { length: 8 }).notNull(),
  added: integer('added').notNull(),
  changed: integer('changed').notNull(),
  obsoleted: integer('obsoleted').notNull(),
  userId: integer('user_id'),
  at: tz('at').notNull().defaultNow(),
});

export const translationEngine = pgTable('translation_engine', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 64 }).notNull().unique(),
  kind: varchar('kind', { length: 16 }).notNull(),
  endpoint: varchar('endpoint', { length: 300 }),
  appId: varchar('app_id', { length: 64 }),
  /** The key sealed by platform/secrets.ts (purpose `i18n.engine`); null: none. */
  keyEnc: text('key_enc'),
  enabled: boolean('enabled').notNull().default(true),
  batchSize: smallint('batch_size').notNull().default(20),
  remark: varchar('remark', { length: 200 }),
  lastCheckedAt: tz('last_checked_at'),
  lastCheckOk: boolean('last_check_ok'),
  createdBy: integer('created_by'),
  createdAt: tz('created_at').notNull().defaultNow(),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});

export const i18nCompletion = pgTable(
  'i18n_completion',
  {
    id: serial('id').primaryKey(),
    domain: varchar('domain', { length: 8 }).notNull(),
    languageCode: varchar('language_code', { length: 16 }).notNull(),
    engineId: integer('engine_id').references(() => translationEngine.id, { onDelete: 'set null' }),
    /** The originals chosen; empty: every untranslated and outdated one. */
    ids: jsonb('ids').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    state: varchar('state', { length: 8 }).notNull().default('queued'),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    error: text('error'),
    createdBy: integer('created_by'),
    createdAt: tz('created_at').notNull().defaultNow(),
    finishedAt: tz('finished_at'),
  },
  (t) => [index('i18n_completion_language').on(t.languageCode, t.state)],
);

export const currency = pgTable('currency', {
  id: serial('id').primaryKey(),
  /** ISO 4217. */
  code: varchar('code', { length: 3 }).notNull().unique(),
  symbol: varchar('symbol', { length: 8 }).notNull(),
  name: varchar('name', { length: 64 }).notNull(),
  minorUnits: smallint('minor_units').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: tz('created_at').notNull().defaultNow(),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});
