import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { and, asc, count, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { translateName } from '@ess/contract/pack-text';
import { DEFAULT_LOCALE, LOCALES, type Locale, type PackRow } from '@ess/contract';
import {
  I18N_ERRORS, shortTextLimit, TEXT_NODE_FIELDS, TRANSLATION_SHEET_COLUMNS, TRANSLATION_STATE_LABELS, TRANSLATION_STATES, translationProblems,
  type exportRequest, type OriginalRecord, type originalPage, type RefreshResult, type TextNodeField, type textNodeAdd, type textNodeEdit, type textNodeFilter,
  type TextNodeRecord, type translationEdit, type TranslationState,
} from '@ess/contract/i18n';
import { alarmDict } from '../../db/schema/alarm.ts';
import { device, product, productProperty } from '../../db/schema/device.ts';
import { i18nOriginal, i18nRefresh, i18nTranslation, textNode, translationEngine } from '../../db/schema/i18n.ts';
import { site } from '../../db/schema/site.ts';
import { role } from '../../db/schema/system.ts';
import type { Db, DbOrTx, Tx } from '../../platform/db/database.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../platform/db/errors.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { likeEscaped } from '../../platform/http/scope.ts';
import type { XlsxColumn, XlsxFile } from '../../platform/xlsx/xlsx.ts';
import { languageByCode } from './language.service.ts';

/**
 * Originals and translations (issue 24, items 2–5 and 7). Domain `text`: the console's UI texts,
 * the catalogue being the source texts of the shipped packs (every text that goes through the
 * pack function has its pack entry: the packs' tests hold the code to that), keyed by the source
 * text; the shipped translations seed the database at first start as reviewed. Domain `data`:
 * values of business data read through the text nodes, keyed by node and record; a changed value
 * makes its translations outdated.
 */

export type Domain = 'text' | 'data';

export interface CatalogueEntry {
  source: string;
  context: string;
  /** Where the UI has little room (column titles, labels, menu items, tabs): the length rule of shortTextLimit. */
  short?: boolean;
}

const limitOf = (e: { source: string; short?: boolean }): number | null => (e.short ? shortTextLimit(e.source) : null);

export type Catalogue = () => Promise<CatalogueEntry[]>;

/** The source texts of the shipped packs (one locale's files name them all), with their area as context. */
export function packCatalogue(packsDir: URL): Catalogue {
  return async () => {
    const dir = new URL('en-US/', packsDir);
    const seen = new Map<string, string>();
    for (const f of (await readdir(dir)).filter((x) => x.endsWith('.json')).sort()) {
      const map = JSON.parse(await readFile(new URL(f, dir), 'utf8')) as Record<string, string>;
      for (const source of Object.keys(map)) if (!seen.has(source)) seen.set(source, f.replace(/\.json$/, ''));
    }
    return [...seen].map(([source, context]) => ({ source, context }));
  };
}

/**
 * The console's catalogue (decision 0053): the texts scripts/scan-texts.mjs finds in the code (the
 * pack function's literal arguments, the screens' and the contract's Chinese literals, the server
 * modules' refusals; `packs/catalogue.json`, kept current by the static checks), with the shipped
 * packs' source texts (texts that reach the pack in ways a scan of literals cannot see: built-in
 * data names, units, the platform's messages). A text in neither is obsolete on the next refresh.
 */
export function shippedCatalogue(packsDir: URL): Catalogue {
  const packs = packCatalogue(packsDir);
  return async () => {
    const scanned = await scannedCatalogue(packsDir);
    const short = new Set(scanned.filter((e) => e.short).map((e) => e.source));
    const seen = new Map((await packs()).map((e) => [e.source, e.context]));
    for (const e of scanned) if (!seen.has(e.source)) seen.set(e.source, e.context);
    return [...seen].map(([source, context]) => (short.has(source) ? { source, context, short: true } : { source, context }));
  };
}

const scannedCatalogue = async (packsDir: URL) => JSON.parse(await readFile(new URL('catalogue.json', packsDir), 'utf8')) as CatalogueEntry[];

/** The shipped packs' source texts, marked short as the scan marks them: what the first start seeds. */
export function seedCatalogue(packsDir: URL): Catalogue {
  const packs = packCatalogue(packsDir);
  return async () => {
    const short = new Set((await scannedCatalogue(packsDir)).filter((e) => e.short).map((e) => e.source));
    return (await packs()).map((e) => (short.has(e.source) ? { ...e, short: true } : e));
  };
}

/**
 * The shipped packs into an empty database: the catalogue as originals, each locale's
 * translations as reviewed. One statement per locale (jsonb), so a first start stays quick.
 */
export async function seedTexts(db: Db, catalogue: Catalogue, shipped: (locale: Locale) => Promise<PackRow[]>): Promise<void> {
  const [{ n }] = (await db.select({ n: count() }).from(i18nOriginal).where(eq(i18nOriginal.domain, 'text'))) as [{ n: number }];
  if (n > 0) return;
  const entries = (await catalogue()).map((e) => ({ ...e, maxLength: limitOf(e) }));
  await db.execute(sql`insert into i18n_original (domain, key, source, context, max_length)
    select 'text', e->>'source', e->>'source', e->>'context', (e->>'maxLength')::int from jsonb_array_elements(${JSON.stringify(entries)}::jsonb) e
    on conflict do nothing`);
  for (const locale of LOCALES) {
    if (locale === DEFAULT_LOCALE) continue;
    const rows = await shipped(locale);
    if (!rows.length) continue;
    await db.execute(sql`insert into i18n_translation (original_id, language_code, translation, state)
      select o.id, ${locale}, p->>'translation', 'reviewed' from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) p
      join i18n_original o on o.domain = 'text' and o.key = p->>'source'
      on conflict do nothing`);
  }
  await db.insert(i18nRefresh).values({ domain: 'text', added: entries.length, changed: 0, obsoleted: 0 });
}

// ── The pack fetch ───────────────────────────────────────────────────────────────────

interface CachedPack {
  stamp: string;
  etag: string;
  rows: PackRow[];
}
const packs = new WeakMap<Db, Map<string, CachedPack>>();

/**
 * A language's pack from the database: the current UI texts' translations (outdated ones too:
 * better than the source until updated), and the business data's (the console shows names of
 * records through the pack, falling back to the source; a UI text wins over a datum of the same
 * source). Cached per language by a stamp of the translations (count and latest change) and of
 * the originals, so an edit shows on the next load; the ETag is the content's.
 */
export async function packOf(db: Db, code: string): Promise<CachedPack> {
  await languageByCode(db, code);
  if (code === DEFAULT_LOCALE) return { stamp: '', etag: '"source"', rows: [] };
  const [s] = (await db.execute(sql`select count(*)::int as n, coalesce(max(t.updated_at), 'epoch')::text as t,
      (select count(*) from i18n_original where not obsolete)::int as o
    from i18n_translation t join i18n_original o on o.id = t.original_id
    where t.language_code = ${code} and not o.obsolete`)).rows as [{ n: number; t: string; o: number }];
  const stamp = `${s.n}|${s.t}|${s.o}`;
  let byLang = packs.get(db);
  if (!byLang) packs.set(db, (byLang = new Map<string, CachedPack>()));
  const cached = byLang.get(code);
  if (cached?.stamp === stamp) return cached;
  const translated = await db.select({ source: i18nOriginal.source, translation: i18nTranslation.translation })
    .from(i18nTranslation).innerJoin(i18nOriginal, eq(i18nOriginal.id, i18nTranslation.originalId))
    .where(and(eq(i18nTranslation.languageCode, code), eq(i18nOriginal.obsolete, false)))
    // Data first, UI texts after: a text overwrites a datum of the same source.
    .orderBy(asc(i18nOriginal.domain), asc(i18nOriginal.id));
  const merged = new Map(translated.map((r) => [r.source, r.translation]));
  const rows = [...merged].map(([source, translation]) => ({ source, translation }));
  const etag = `"${createHash('sha1').update(JSON.stringify(rows)).digest('base64url')}"`;
  const fresh = { stamp, etag, rows };
  byLang.set(code, fresh);
  return fresh;
}

// ── Refresh ──────────────────────────────────────────────────────────────────────────

interface Current {
  key: string;
  source: string;
  context: string | null;
  maxLength?: number | null;
  nodeId?: number;
  recordId?: number;
}

async function diff(db: DbOrTx, domain: Domain, current: Current[]) {
  const stored = await db.select({ id: i18nOriginal.id, key: i18nOriginal.key, source: i18nOriginal.source, obsolete: i18nOriginal.obsolete, maxLength: i18nOriginal.maxLength }).from(i18nOriginal).where(eq(i18nOriginal.domain, domain));
  const byKey = new Map(stored.map((s) => [s.key, s]));
  const keys = new Set(current.map((c) => c.key));
  const added = current.filter((c) => !byKey.has(c.key));
  const changed = current.filter((c) => byKey.has(c.key) && byKey.get(c.key)!.source !== c.source).map((c) => ({ ...c, id: byKey.get(c.key)!.id }));
  const restored = current.filter((c) => byKey.get(c.key)?.obsolete).map((c) => byKey.get(c.key)!.id);
  const removed = stored.filter((s) => !s.obsolete && !keys.has(s.key)).map((s) => s.id);
  // The length rule follows the catalogue (a text newly marked short, or no longer): no state change.
  const limits = current.filter((c) => c.maxLength !== undefined && byKey.has(c.key) && byKey.get(c.key)!.maxLength !== c.maxLength).map((c) => ({ id: byKey.get(c.key)!.id, maxLength: c.maxLength ?? null }));
  return { added, changed, restored, removed, limits, total: current.length };
}

/**
 * Merges the current originals into the database: new ones appear, removed ones become obsolete
 * (their translations kept, should they come back), changed sources make their translations outdated.
 */
async function merge(db: Db, domain: Domain, current: Current[], userId: number | null): Promise<RefreshResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`i18n.refresh.${domain}`}))`);
    const d = await diff(tx, domain, current);
    for (let i = 0; i < d.added.length; i += 1000) {
      await tx.insert(i18nOriginal).values(d.added.slice(i, i + 1000).map((c) => ({ domain, key: c.key, source: c.source, context: c.context, maxLength: c.maxLength ?? null, nodeId: c.nodeId ?? null, recordId: c.recordId ?? null })));
    }
    for (const c of d.changed) {
      await tx.update(i18nOriginal).set({ source: c.source, sourceChangedAt: sql`now()` }).where(eq(i18nOriginal.id, c.id));
      await tx.update(i18nTranslation).set({ state: 'outdated', updatedAt: sql`now()` }).where(eq(i18nTranslation.originalId, c.id));
    }
    for (const l of d.limits) await tx.update(i18nOriginal).set({ maxLength: l.maxLength }).where(eq(i18nOriginal.id, l.id));
    if (d.restored.length) await tx.update(i18nOriginal).set({ obsolete: false }).where(inArray(i18nOriginal.id, d.restored));
    if (d.removed.length) await tx.update(i18nOriginal).set({ obsolete: true }).where(inArray(i18nOriginal.id, d.removed));
    await tx.insert(i18nRefresh).values({ domain, added: d.added.length, changed: d.changed.length, obsoleted: d.removed.length, userId });
    return { added: d.added.length, changed: d.changed.length, obsoleted: d.removed.length, restored: d.restored.length, total: d.total };
  });
}

const catalogueNow = async (catalogue: Catalogue): Promise<Current[]> => (await catalogue()).map((e) => ({ key: e.source, source: e.source, context: e.context, maxLength: limitOf(e) }));

export const refreshTexts = async (db: Db, catalogue: Catalogue, userId: number) => merge(db, 'text', await catalogueNow(catalogue), userId);

/** How many texts a refresh would add, change and retire, and when the last one ran. */
export async function refreshTip(db: Db, catalogue: Catalogue) {
  const d = await diff(db, 'text', await catalogueNow(catalogue));
  const [last] = await db.select({ at: i18nRefresh.at }).from(i18nRefresh).where(eq(i18nRefresh.domain, 'text')).orderBy(desc(i18nRefresh.id)).limit(1);
  return { added: d.added.length, changed: d.changed.length, removed: d.removed.length, lastRefreshAt: last?.at.toISOString() ?? null };
}

// ── Business data: text nodes and their originals ─────────────────────────────────────

/** Where each translatable field is read: table, id and value columns. */
const FIELD_SOURCES: Record<TextNodeField, (db: DbOrTx) => Promise<{ id: number; value: string | null }[]>> = {
  'product.name': (db) => db.select({ id: product.id, value: product.name }).from(product),
  'productProperty.name': (db) => db.select({ id: productProperty.id, value: productProperty.name }).from(productProperty),
  'role.name': (db) => db.select({ id: role.id, value: role.name }).from(role),
  'alarmDict.description': (db) => db.select({ id: alarmDict.id, value: alarmDict.description }).from(alarmDict),
  'site.name': (db) => db.select({ id: site.id, value: site.name }).from(site),
  'device.name': (db) => db.select({ id: device.id, value: device.name }).from(device),
};

/** The built-in text nodes (the issue's list), enabled, once. */
export async function seedTextNodes(db: Db): Promise<void> {
  await db.insert(textNode).values((Object.keys(TEXT_NODE_FIELDS) as TextNodeField[]).map((field) => ({ field, name: TEXT_NODE_FIELDS[field] }))).onConflictDoNothing();
}

export async function refreshData(db: Db, userId: number | null): Promise<RefreshResult> {
  const nodes = await db.select().from(textNode).where(eq(textNode.enabled, true));
  const current: Current[] = [];
  for (const n of nodes) {
    const values = await FIELD_SOURCES[n.field as TextNodeField](db);
    for (const v of values) if (v.value?.trim()) current.push({ key: `${n.id}:${v.id}`, source: v.value, context: n.field, nodeId: n.id, recordId: v.id });
  }
  return merge(db, 'data', current, userId);
}

/**
 * First start (no business-data refresh yet), after every module's seed: the built-in data's
 * values collected as originals, and their translations in every shipped language where the
 * shipped pack knows the name (role names, the standard product models and their properties, the
 * alarm dictionary's descriptions, the demo's station and device names, numbered ones by their
 * template) as reviewed, so built-in data shows translated from the start.
 */
export async function seedDataTranslations(db: Db, shipped: (locale: Locale) => Promise<PackRow[]>): Promise<void> {
  const [done] = await db.select({ id: i18nRefresh.id }).from(i18nRefresh).where(eq(i18nRefresh.domain, 'data')).limit(1);
  if (done) return;
  await refreshData(db, null);
  const originals = await db.select({ id: i18nOriginal.id, source: i18nOriginal.source }).from(i18nOriginal).where(and(eq(i18nOriginal.domain, 'data'), eq(i18nOriginal.obsolete, false)));
  for (const locale of LOCALES) {
    if (locale === DEFAULT_LOCALE) continue;
    const pack = new Map((await shipped(locale)).map((r) => [r.source, r.translation]));
    if (!pack.size) continue;
    const rows = originals.flatMap((o) => {
      const translation = translateName(o.source, (k) => pack.get(k), locale);
      return translation !== o.source && translationProblems(o.source, translation).length === 0 ? [{ originalId: o.id, translation }] : [];
    });
    if (!rows.length) continue;
    await db.execute(sql`insert into i18n_translation (original_id, language_code, translation, state)
      select (r->>'originalId')::int, ${locale}, r->>'translation', 'reviewed' from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) r
      on conflict do nothing`);
  }
}

export async function nodeList(db: Db, f: z.output<typeof textNodeFilter>): Promise<TextNodeRecord[]> {
  // The node's id written out qualified: drizzle renders a column inside a select's field unqualified, and `o.id` would answer.
  const rows = await db.select({ n: textNode, originals: sql<number>`(select count(*)::int from i18n_original o where o.node_id = "text_node"."id" and not o.obsolete)` })
    .from(textNode)
    .where(and(f.keyword ? or(likeEscaped(textNode.name, f.keyword), likeEscaped(textNode.field, f.keyword)) : undefined, f.enabled === undefined ? undefined : eq(textNode.enabled, f.enabled)))
    .orderBy(asc(textNode.id));
  return rows.map(({ n, originals }) => ({ id: n.id, field: n.field as TextNodeField, fieldName: TEXT_NODE_FIELDS[n.field as TextNodeField], name: n.name, enabled: n.enabled, remark: n.remark, originals, updatedAt: n.updatedAt.toISOString() }));
}

async function nodeWrite<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (pgErrorCode(e) === UNIQUE_VIOLATION) throw new AppError('DUPLICATE', I18N_ERRORS.nodeDuplicate);
    throw e;
  }
}

export const addNode = (db: Db, v: z.output<typeof textNodeAdd>) =>
  nodeWrite(async () => {
    const [row] = await db.insert(textNode).values(v).returning({ id: textNode.id });
    return { id: row!.id };
  });

export async function editNode(db: Db, v: z.output<typeof textNodeEdit>): Promise<void> {
  const [row] = await db.select({ id: textNode.id, field: textNode.field }).from(textNode).where(eq(textNode.id, v.id));
  found(row, I18N_ERRORS.nodeNotFound);
  const { id, ...fields } = v;
  await nodeWrite(() => db.transaction(async (tx) => {
    await tx.update(textNode).set({ ...fields, updatedAt: sql`now()` }).where(eq(textNode.id, id));
    // Another field: the old field's originals are no longer this node's.
    if (row!.field !== v.field) await tx.update(i18nOriginal).set({ obsolete: true }).where(eq(i18nOriginal.nodeId, id));
  }));
}

/** Deleting a node deletes its originals and their translations. */
export async function deleteNode(db: Db, id: number): Promise<void> {
  const [row] = await db.select({ id: textNode.id }).from(textNode).where(eq(textNode.id, id));
  found(row, I18N_ERRORS.nodeNotFound);
  await db.delete(textNode).where(eq(textNode.id, id));
}

// ── Originals with a language's translations ──────────────────────────────────────────

type OriginalFilter = z.output<typeof originalPage> | z.output<typeof exportRequest>;

/** A state filter in SQL: untranslated is "no row". */
function stateCondition(state: TranslationState | undefined): SQL | undefined {
  if (!state) return undefined;
  return state === 'untranslated' ? isNull(i18nTranslation.state) : eq(i18nTranslation.state, state);
}

function originalsQuery(db: DbOrTx, domain: Domain, f: OriginalFilter) {
  const w = and(
    eq(i18nOriginal.domain, domain),
    'withObsolete' in f && f.withObsolete ? undefined : eq(i18nOriginal.obsolete, false),
    f.keyword ? or(likeEscaped(i18nOriginal.source, f.keyword), likeEscaped(i18nTranslation.translation, f.keyword)) : undefined,
    f.context ? eq(i18nOriginal.context, f.context) : undefined,
    f.nodeId ? eq(i18nOriginal.nodeId, f.nodeId) : undefined,
    stateCondition(f.state),
  );
  const joinOn = and(eq(i18nTranslation.originalId, i18nOriginal.id), eq(i18nTranslation.languageCode, f.languageId));
  return { w, joinOn };
}

const originalColumns = {
  o: i18nOriginal,
  translation: i18nTranslation.translation,
  state: i18nTranslation.state,
  translatedAt: i18nTranslation.updatedAt,
  engineName: translationEngine.name,
  nodeName: textNode.name,
};

function toRecord(languageId: string, r: { o: typeof i18nOriginal.$inferSelect; translation: string | null; state: string | null; translatedAt: Date | null; engineName: string | null; nodeName: string | null }): OriginalRecord {
  return {
    id: r.o.id, source: r.o.source, context: r.o.context, nodeId: r.o.nodeId, nodeName: r.nodeName, recordId: r.o.recordId, obsolete: r.o.obsolete, maxLength: r.o.maxLength,
    languageId, translation: r.translation, state: (r.state ?? 'untranslated') as TranslationState, engineName: r.state === 'machine' ? r.engineName : null,
    translatedAt: r.translatedAt?.toISOString() ?? null, sourceChangedAt: r.o.sourceChangedAt.toISOString(),
  };
}

async function originalRows(db: DbOrTx, domain: Domain, f: OriginalFilter, limit: number, offset = 0) {
  const { w, joinOn } = originalsQuery(db, domain, f);
  const rows = await db.select(originalColumns).from(i18nOriginal)
    .leftJoin(i18nTranslation, joinOn)
    .leftJoin(translationEngine, eq(translationEngine.id, i18nTranslation.engineId))
    .leftJoin(textNode, eq(textNode.id, i18nOriginal.nodeId))
    .where(w).orderBy(asc(i18nOriginal.id)).limit(limit).offset(offset);
  return rows.map((r) => toRecord(f.languageId, r));
}

export async function originalPageOf(db: Db, domain: Domain, f: z.output<typeof originalPage>) {
  await languageByCode(db, f.languageId);
  const { w, joinOn } = originalsQuery(db, domain, f);
  const [{ n }] = (await db.select({ n: count() }).from(i18nOriginal).leftJoin(i18nTranslation, joinOn).where(w)) as [{ n: number }];
  const records = n ? await originalRows(db, domain, f, f.pageSize, (f.current - 1) * f.pageSize) : [];
  return { records, total: n, current: f.current, pageSize: f.pageSize };
}

/** Every check of a translation of an original, as a 400 naming the first problem. */
function assertTranslation(source: string, translation: string, maxLength: number | null) {
  const problems = translationProblems(source, translation, maxLength);
  if (problems.length) throw new AppError('INVALID_PARAM', problems[0]);
}

/** Saving makes a translation translated (a reviewed one edited too), `reviewed` marks it reviewed; an empty one removes it. */
export async function editTranslation(db: Db, domain: Domain, userId: number, v: z.output<typeof translationEdit>): Promise<void> {
  await languageByCode(db, v.languageId, true);
  const [o] = await db.select().from(i18nOriginal).where(and(eq(i18nOriginal.id, v.id), eq(i18nOriginal.domain, domain)));
  const original = found(o, I18N_ERRORS.originalNotFound);
  if (v.translation === '') {
    await db.delete(i18nTranslation).where(and(eq(i18nTranslation.originalId, v.id), eq(i18nTranslation.languageCode, v.languageId)));
    return;
  }
  assertTranslation(original.source, v.translation, original.maxLength);
  const state: TranslationState = v.reviewed ? 'reviewed' : 'translated';
  await db.insert(i18nTranslation).values({ originalId: v.id, languageCode: v.languageId, translation: v.translation, state, updatedBy: userId })
    .onConflictDoUpdate({ target: [i18nTranslation.originalId, i18nTranslation.languageCode], set: { translation: v.translation, state, engineId: null, updatedBy: userId, updatedAt: sql`now()` } });
}

// ── Export and import ────────────────────────────────────────────────────────────────

const EXPORT_LIMIT = 100_000;

export function sheetOf(domain: Domain, languageName: string): XlsxFile<OriginalRecord> {
  const header = (key: string) => TRANSLATION_SHEET_COLUMNS.find((c) => c.key === key)!.header;
  const columns: XlsxColumn<OriginalRecord>[] = [
    { header: header('id'), width: 10, value: (r) => r.id },
    { header: header('context'), width: 18, value: (r) => (domain === 'data' ? r.nodeName : r.context) },
    { header: header('source'), width: 50, value: (r) => r.source },
    { header: header('translation'), width: 50, value: (r) => r.translation ?? '' },
    { header: header('state'), width: 12, kind: 'label', value: (r) => TRANSLATION_STATE_LABELS[r.state] },
  ];
  return { fileName: domain === 'text' ? '界面文本-$1' : '业务数据-$1', fileArgs: [languageName], sheet: domain === 'text' ? '界面文本' : '业务数据', columns };
}

export async function exportRows(db: Db, domain: Domain, f: z.output<typeof exportRequest>) {
  const lang = await languageByCode(db, f.languageId, true);
  return { lang, rows: await originalRows(db, domain, f, EXPORT_LIMIT) };
}

export interface ImportRow {
  id: number;
  source: string;
  translation: string;
  state?: string;
}

/**
 * Checks an imported sheet's rows against the stored originals (the id names the original, the
 * source must still be its source, the translation passes the checks) and returns what to write.
 */
export async function checkImport(tx: Tx, domain: Domain, languageId: string, rows: { row: number; data: ImportRow }[], refuse: (row: number, column: string, message: string) => void) {
  const header = (key: string) => TRANSLATION_SHEET_COLUMNS.find((c) => c.key === key)!.header;
  const ids = [...new Set(rows.map((r) => r.data.id))];
  const originals = ids.length ? await tx.select().from(i18nOriginal).where(and(eq(i18nOriginal.domain, domain), inArray(i18nOriginal.id, ids))) : [];
  const byId = new Map(originals.map((o) => [o.id, o]));
  const existing = ids.length ? await tx.select().from(i18nTranslation).where(and(eq(i18nTranslation.languageCode, languageId), inArray(i18nTranslation.originalId, ids))) : [];
  const current = new Map(existing.map((t) => [t.originalId, t]));
  const writes: { originalId: number; translation: string; state: TranslationState }[] = [];
  let unchanged = 0;
  const labels = Object.entries(TRANSLATION_STATE_LABELS) as [TranslationState, string][];
  for (const { row, data } of rows) {
    const o = byId.get(data.id);
    if (!o) {
      refuse(row, header('id'), I18N_ERRORS.originalNotFound);
      continue;
    }
    if (o.source !== data.source) {
      refuse(row, header('source'), '原文与系统中的原文不一致（原文已变更，请重新导出）');
      continue;
    }
    const problems = translationProblems(o.source, data.translation, o.maxLength);
    if (problems.length) {
      refuse(row, header('translation'), problems.join('；'));
      continue;
    }
    const named = data.state ? labels.find(([k, label]) => label === data.state || k === data.state)?.[0] : undefined;
    if (data.state && !named) {
      refuse(row, header('state'), `状态须为：${TRANSLATION_STATES.map((s) => TRANSLATION_STATE_LABELS[s]).join('、')}`);
      continue;
    }
    const state: TranslationState = named === 'reviewed' ? 'reviewed' : 'translated';
    const was = current.get(o.id);
    if (was && was.translation === data.translation && (was.state === state || (!data.state && was.state !== 'outdated'))) {
      unchanged++;
      continue;
    }
    writes.push({ originalId: o.id, translation: data.translation, state });
  }
  return { writes, unchanged };
}

export async function writeImport(tx: Tx, languageId: string, userId: number, checked: Awaited<ReturnType<typeof checkImport>>) {
  for (let i = 0; i < checked.writes.length; i += 1000) {
    await tx.insert(i18nTranslation).values(checked.writes.slice(i, i + 1000).map((w) => ({ ...w, languageCode: languageId, updatedBy: userId })))
      .onConflictDoUpdate({ target: [i18nTranslation.originalId, i18nTranslation.languageCode], set: { translation: sql`excluded.translation`, state: sql`excluded.state`, engineId: null, updatedBy: userId, updatedAt: sql`now()` } });
  }
  return { updated: checked.writes.length, unchanged: checked.unchanged };
}
