import type { FastifyRequest } from 'fastify';
import { and, eq, ne } from 'drizzle-orm';
import { DEFAULT_LOCALE } from '@ess/contract';
import type { TextNodeField } from '@ess/contract/i18n';
import { i18nOriginal, i18nTranslation, textNode } from '../../db/schema/i18n.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Db } from '../../platform/db/database.ts';
import type { AnyRoute } from '../../platform/http/route.ts';
import { localeOf } from './i18n.language.ts';

/**
 * Business data in the caller's language (issue 24, item 3; decision 0053): the one pass over
 * every JSON answer that replaces the values of the text nodes' fields by their translation in
 * the Client-Language of the request, falling back to the source.
 *
 * Where the fields are shown is said here once, by the contract's naming: a related record's name
 * sits beside its id (`siteId`/`siteName`, `deviceId`/`deviceName`, `productId`/`productName`,
 * `roleId`/`roleName`, `cabinetId`/`cabinetName`, an alarm's `dictId`/`description`, a user's
 * `roles` as `{ id, name }`), a tree node names its kind (`{ kind: 'site' | 'device', id, name }`),
 * and the lists and pages of an entity's own records carry its `name` (its `description` for the
 * alarm dictionary) beside `id`: OWN_RECORDS maps their paths. The form of one record
 * (`…/query/one`) keeps its own name as stored, so an edit never writes a translation back as the
 * source; names of related records are translated there too.
 *
 * A translation is used only while the record's value is still the source it was made from, and
 * not once outdated: a renamed record is another name (unlike a corrected UI text), so it shows its
 * new name until it is translated again. Translations are cached per language and dropped on every change of translations,
 * originals or nodes (the bus's `reload translation`, heard by every instance); 60 s at most.
 */

type Tables = Map<TextNodeField, Map<number, { source: string; translation: string }>>;

/** `<id key>` beside `<value key>` → field, anywhere in an answer. */
const PAIRS: readonly (readonly [string, string, TextNodeField])[] = [
  ['siteId', 'siteName', 'site.name'],
  ['deviceId', 'deviceName', 'device.name'],
  ['cabinetId', 'cabinetName', 'device.name'],
  ['productId', 'productName', 'product.name'],
  ['roleId', 'roleName', 'role.name'],
  ['propertyId', 'propertyName', 'productProperty.name'],
  ['dictId', 'description', 'alarmDict.description'],
];

/** Keys holding `{ id, name }` references. */
const REF_ARRAYS: Readonly<Record<string, TextNodeField>> = { roles: 'role.name' };

/** Tree nodes: `{ kind, id, name }`. */
const TREE_KINDS: Readonly<Record<string, TextNodeField>> = { site: 'site.name', device: 'device.name' };

/** Lists, pages and trees of an entity's own records (path prefix → the field its `id` names). */
const OWN_RECORDS: readonly { prefix: string; key: string; field: TextNodeField }[] = [
  { prefix: '/configure/device/query/', key: 'name', field: 'device.name' },
  { prefix: '/configure/site/query/', key: 'name', field: 'site.name' },
  { prefix: '/configure/product/query/', key: 'name', field: 'product.name' },
  { prefix: '/configure/property/query/', key: 'name', field: 'productProperty.name' },
  { prefix: '/template/product/query/property', key: 'name', field: 'productProperty.name' },
  { prefix: '/system/role/query/', key: 'name', field: 'role.name' },
  { prefix: '/alarm/dict/query/', key: 'description', field: 'alarmDict.description' },
];

/** A device's parent is a device (its `parentId`/`parentName`) on the device calls only. */
const DEVICE_PARENT_PREFIX = '/configure/device/';

const TTL_MS = 60_000;

interface Held {
  at: number;
  tables: Promise<Tables>;
}
const caches = new WeakMap<Db, Map<string, Held>>();
const generations = new WeakMap<Db, number>();

/** Drops this instance's cached translations (every instance hears the bus message). */
export function dropDataTranslations(db: Db): void {
  caches.get(db)?.clear();
  generations.set(db, (generations.get(db) ?? 0) + 1);
}

/** After a write of translations, originals or nodes: every instance drops its cache. */
export async function dataTranslationsChanged(ctx: AppContext): Promise<void> {
  dropDataTranslations(ctx.db);
  await ctx.bus.publish({ type: 'reload', what: 'translation' });
}

async function load(db: Db, code: string): Promise<Tables> {
  const rows = await db
    .select({ field: textNode.field, recordId: i18nOriginal.recordId, source: i18nOriginal.source, translation: i18nTranslation.translation })
    .from(i18nTranslation)
    .innerJoin(i18nOriginal, eq(i18nOriginal.id, i18nTranslation.originalId))
    .innerJoin(textNode, eq(textNode.id, i18nOriginal.nodeId))
    .where(and(eq(i18nTranslation.languageCode, code), eq(i18nOriginal.domain, 'data'), eq(i18nOriginal.obsolete, false), eq(textNode.enabled, true), ne(i18nTranslation.state, 'outdated')));
  const tables: Tables = new Map();
  for (const r of rows) {
    if (r.recordId === null) continue;
    let t = tables.get(r.field as TextNodeField);
    if (!t) tables.set(r.field as TextNodeField, (t = new Map<number, { source: string; translation: string }>()));
    t.set(r.recordId, { source: r.source, translation: r.translation });
  }
  return tables;
}

/** A language's data translations by field and record id (cached). */
export function dataTranslations(db: Db, code: string, now = Date.now()): Promise<Tables> {
  let byLang = caches.get(db);
  if (!byLang) caches.set(db, (byLang = new Map<string, Held>()));
  const held = byLang.get(code);
  if (held && now - held.at < TTL_MS) return held.tables;
  const generation = generations.get(db) ?? 0;
  const tables = load(db, code);
  const entry = { at: now, tables };
  byLang.set(code, entry);
  // A change heard while loading: not kept (it may predate the change); a failure: not kept.
  void tables.then(
    () => { if ((generations.get(db) ?? 0) !== generation && byLang.get(code) === entry) byLang.delete(code); },
    () => { if (byLang.get(code) === entry) byLang.delete(code); },
  );
  return tables;
}

const isPlain = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

/** The rules of one answer: the pairs everywhere, the own records of its path. */
interface Rules {
  pairs: readonly (readonly [string, string, TextNodeField])[];
  own: { key: string; field: TextNodeField } | null;
}

export function rulesOf(path: string): Rules {
  const pairs = path.startsWith(DEVICE_PARENT_PREFIX) ? [...PAIRS, ['parentId', 'parentName', 'device.name'] as const] : PAIRS;
  const own = path.endsWith('/query/one') ? undefined : OWN_RECORDS.find((o) => path.startsWith(o.prefix));
  return { pairs, own: own ? { key: own.key, field: own.field } : null };
}

/**
 * `data` with the fields of the tables translated: a copy where something changed (answers may be
 * shared by caches of their module), the same value where nothing did.
 */
export function translateData(data: unknown, tables: Tables, rules: Rules): unknown {
  const swap = (field: TextNodeField, id: unknown, value: unknown): string | undefined => {
    if (typeof id !== 'number' || typeof value !== 'string') return undefined;
    const hit = tables.get(field)?.get(id);
    return hit && hit.source === value ? hit.translation : undefined;
  };
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      let out: unknown[] | null = null;
      for (let i = 0; i < v.length; i++) {
        const w = walk(v[i]);
        if (w !== v[i]) (out ??= v.slice())[i] = w;
      }
      return out ?? v;
    }
    if (!isPlain(v)) return v;
    let out: Record<string, unknown> | null = null;
    const set = (k: string, value: unknown) => {
      (out ??= { ...v })[k] = value;
    };
    for (const [idKey, valueKey, field] of rules.pairs) {
      if (idKey in v) {
        const t = swap(field, v[idKey], v[valueKey]);
        if (t !== undefined) set(valueKey, t);
      }
    }
    if ('id' in v) {
      const tree = typeof v.kind === 'string' ? TREE_KINDS[v.kind] : undefined;
      if (tree) {
        const t = swap(tree, v.id, v.name);
        if (t !== undefined) set('name', t);
      } else if (rules.own) {
        const t = swap(rules.own.field, v.id, v[rules.own.key]);
        if (t !== undefined) set(rules.own.key, t);
      }
    }
    for (const k of Object.keys(v)) {
      const child = v[k];
      if (child === null || typeof child !== 'object') continue;
      const refField = REF_ARRAYS[k];
      const inner: Rules = refField && Array.isArray(child) ? { pairs: rules.pairs, own: { key: 'name', field: refField } } : rules;
      const w = inner === rules ? walk(child) : translateData(child, tables, inner);
      if (w !== child) set(k, w);
    }
    return out ?? v;
  };
  return walk(data);
}

/**
 * The response pass of the i18n module: the answers of every route but the translation area's own
 * (its screens show the sources beside the translations), in the caller's language.
 */
export async function translateAnswer(ctx: AppContext, route: AnyRoute, req: FastifyRequest, data: unknown): Promise<unknown> {
  if (data === null || typeof data !== 'object' || route.path.startsWith('/i18n/')) return data;
  const code = localeOf(req);
  if (code === DEFAULT_LOCALE) return data;
  const tables = await dataTranslations(ctx.db, code);
  if (!tables.size) return data;
  return translateData(data, tables, rulesOf(route.path));
}
