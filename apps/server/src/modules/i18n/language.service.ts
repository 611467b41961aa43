import { and, asc, count, eq, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract';
import { I18N_ERRORS, type CompletionCounts, type currencyAdd, type currencyEdit, type currencyFilter, type CurrencyRecord, type EnabledLanguage, type languageAdd, type languageEdit, type languageFilter, type LanguageRecord, type TranslationState } from '@ess/contract/i18n';
import { currency, i18nOriginal, i18nTranslation, language } from '../../db/schema/i18n.ts';
import { site } from '../../db/schema/site.ts';
import type { Db, DbOrTx } from '../../platform/db/database.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../platform/db/errors.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { likeEscaped } from '../../platform/http/scope.ts';

/**
 * Languages and currencies (issue 24, items 1 and 8): the 16 locales of product-spec §9 seeded
 * with their UI-kit locale, direction and formats; completion per language from the
 * translations; currencies (ISO 4217) with their minor units.
 */

const NATIVE: Record<string, [string, string]> = {
  'zh-CN': ['简体中文', '简体中文'], 'zh-TW': ['繁体中文', '繁體中文'], 'en-US': ['英语', 'English'], 'es-ES': ['西班牙语', 'Español'],
  'ja-JP': ['日语', '日本語'], 'id-ID': ['印尼语', 'Bahasa Indonesia'], 'fr-FR': ['法语', 'Français'], 'pt-PT': ['葡萄牙语', 'Português'],
  'de-DE': ['德语', 'Deutsch'], 'ko-KR': ['韩语', '한국어'], 'it-IT': ['意大利语', 'Italiano'], 'th-TH': ['泰语', 'ไทย'],
  'vi-VN': ['越南语', 'Tiếng Việt'], 'ms-MY': ['马来语', 'Bahasa Melayu'], 'km-KH': ['高棉语', 'ខ្មែរ'], 'ar-EG': ['阿拉伯语', 'العربية'],
};
const DATE_FORMATS: Record<string, string> = { 'en-US': 'MM/DD/YYYY', 'de-DE': 'DD.MM.YYYY', 'fr-FR': 'DD/MM/YYYY', 'es-ES': 'DD/MM/YYYY', 'it-IT': 'DD/MM/YYYY', 'pt-PT': 'DD/MM/YYYY', 'id-ID': 'DD/MM/YYYY', 'ms-MY': 'DD/MM/YYYY', 'vi-VN': 'DD/MM/YYYY', 'th-TH': 'DD/MM/YYYY', 'km-KH': 'DD/MM/YYYY', 'ar-EG': 'DD/MM/YYYY', 'ko-KR': 'YYYY.MM.DD', 'ja-JP': 'YYYY/MM/DD', 'zh-TW': 'YYYY/MM/DD' };

/** Currencies seeded at first start: code, symbol, source-text name, minor units (ISO 4217). */
const CURRENCIES: [string, string, string, number][] = [
  ['CNY', '¥', '人民币', 2], ['USD', '$', '美元', 2], ['EUR', '€', '欧元', 2], ['GBP', '£', '英镑', 2], ['JPY', '¥', '日元', 0], ['KRW', '₩', '韩元', 0],
  ['HKD', 'HK$', '港元', 2], ['TWD', 'NT$', '新台币', 2], ['AUD', 'A$', '澳元', 2], ['THB', '฿', '泰铢', 2], ['VND', '₫', '越南盾', 0], ['IDR', 'Rp', '印尼盾', 2],
  ['MYR', 'RM', '马来西亚林吉特', 2], ['KHR', '៛', '柬埔寨瑞尔', 2], ['EGP', 'E£', '埃及镑', 2], ['SAR', '﷼', '沙特里亚尔', 2], ['AED', 'د.إ', '阿联酋迪拉姆', 2],
  ['INR', '₹', '印度卢比', 2], ['BRL', 'R$', '巴西雷亚尔', 2], ['KWD', 'د.ك', '科威特第纳尔', 3],
];

/** The 16 locales and the currencies, once (idempotent). */
export async function seedLanguages(db: Db): Promise<void> {
  await db.insert(language).values(LOCALES.map((code, i) => ({
    code, name: NATIVE[code]![0], nativeName: NATIVE[code]![1], direction: code === 'ar-EG' ? 'rtl' : 'ltr', uiLocale: code.replace('-', '_'),
    dateFormat: DATE_FORMATS[code] ?? 'YYYY-MM-DD', numberLocale: code, enabled: true, builtIn: true, sort: i + 1,
  }))).onConflictDoNothing();
  await db.insert(currency).values(CURRENCIES.map(([code, symbol, name, minorUnits]) => ({ code, symbol, name, minorUnits }))).onConflictDoNothing();
}

// ── Completion ───────────────────────────────────────────────────────────────────────

const empty = (total: number): CompletionCounts => ({ total, untranslated: total, machine: 0, translated: 0, reviewed: 0, outdated: 0, percent: 0 });

/** Counts per language and domain over current originals. */
export async function completionOf(db: DbOrTx): Promise<Map<string, { text: CompletionCounts; data: CompletionCounts }>> {
  const totals = await db.select({ domain: i18nOriginal.domain, n: count() }).from(i18nOriginal).where(eq(i18nOriginal.obsolete, false)).groupBy(i18nOriginal.domain);
  const total = (d: string) => totals.find((t) => t.domain === d)?.n ?? 0;
  const rows = await db.select({ code: i18nTranslation.languageCode, domain: i18nOriginal.domain, state: i18nTranslation.state, n: count() })
    .from(i18nTranslation).innerJoin(i18nOriginal, eq(i18nOriginal.id, i18nTranslation.originalId))
    .where(eq(i18nOriginal.obsolete, false))
    .groupBy(i18nTranslation.languageCode, i18nOriginal.domain, i18nTranslation.state);
  const out = new Map<string, { text: CompletionCounts; data: CompletionCounts }>();
  const of = (code: string) => {
    let v = out.get(code);
    if (!v) out.set(code, (v = { text: empty(total('text')), data: empty(total('data')) }));
    return v;
  };
  for (const r of rows) {
    const c = of(r.code)[r.domain as 'text' | 'data'];
    c[r.state as Exclude<TranslationState, 'untranslated'>] += r.n;
    c.untranslated -= r.n;
  }
  for (const v of out.values()) for (const c of [v.text, v.data]) c.percent = c.total ? Math.round(((c.translated + c.reviewed) / c.total) * 1000) / 10 : 100;
  return out;
}

// ── Languages ────────────────────────────────────────────────────────────────────────

type LanguageRow = typeof language.$inferSelect;

function languageWhere(f: z.output<typeof languageFilter>) {
  return and(
    f.keyword ? or(likeEscaped(language.code, f.keyword), likeEscaped(language.name, f.keyword), likeEscaped(language.nativeName, f.keyword)) : undefined,
    f.enabled === undefined ? undefined : eq(language.enabled, f.enabled),
  );
}

async function languageRecords(db: DbOrTx, rows: LanguageRow[]): Promise<LanguageRecord[]> {
  const done = await completionOf(db);
  const totals = await db.select({ domain: i18nOriginal.domain, n: count() }).from(i18nOriginal).where(eq(i18nOriginal.obsolete, false)).groupBy(i18nOriginal.domain);
  const total = (d: string) => totals.find((t) => t.domain === d)?.n ?? 0;
  return rows.map((l) => {
    const isSource = l.code === DEFAULT_LOCALE;
    const full = (n: number): CompletionCounts => ({ ...empty(n), untranslated: 0, reviewed: n, percent: 100 });
    const c = isSource ? { text: full(total('text')), data: full(total('data')) } : done.get(l.code) ?? { text: empty(total('text')), data: empty(total('data')) };
    return {
      id: l.id, code: l.code, name: l.name, nativeName: l.nativeName, direction: l.direction as 'ltr' | 'rtl', uiLocale: l.uiLocale, dateFormat: l.dateFormat,
      numberLocale: l.numberLocale, enabled: l.enabled, builtIn: l.builtIn, isSource, sort: l.sort, text: c.text, data: c.data, updatedAt: l.updatedAt.toISOString(),
    };
  });
}

export async function languageList(db: Db, f: z.output<typeof languageFilter>): Promise<LanguageRecord[]> {
  const rows = await db.select().from(language).where(languageWhere(f)).orderBy(asc(language.sort), asc(language.id));
  return languageRecords(db, rows);
}

export async function languagePage(db: Db, f: z.output<typeof languageFilter> & { current: number; pageSize: number }) {
  const w = languageWhere(f);
  const [{ n }] = (await db.select({ n: count() }).from(language).where(w)) as [{ n: number }];
  const rows = n ? await db.select().from(language).where(w).orderBy(asc(language.sort), asc(language.id)).limit(f.pageSize).offset((f.current - 1) * f.pageSize) : [];
  return { records: await languageRecords(db, rows), total: n, current: f.current, pageSize: f.pageSize };
}

export async function enabledLanguages(db: Db): Promise<EnabledLanguage[]> {
  const rows = await db.select().from(language).where(eq(language.enabled, true)).orderBy(asc(language.sort), asc(language.id));
  return rows.map((l) => ({ code: l.code, name: l.name, nativeName: l.nativeName, direction: l.direction as 'ltr' | 'rtl', uiLocale: l.uiLocale, dateFormat: l.dateFormat, numberLocale: l.numberLocale }));
}

/** A known language (any, or enabled only), or 400 naming the code. */
export async function languageByCode(db: DbOrTx, code: string, translatable = false): Promise<LanguageRow> {
  const [row] = await db.select().from(language).where(eq(language.code, code));
  if (!row) throw new AppError('INVALID_PARAM', I18N_ERRORS.languageUnknown(code));
  if (translatable && code === DEFAULT_LOCALE) throw new AppError('INVALID_PARAM', I18N_ERRORS.defaultLanguage);
  return row;
}

async function uniqueWrite<T>(write: () => Promise<T>, duplicate: string): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (pgErrorCode(e) === UNIQUE_VIOLATION) throw new AppError('DUPLICATE', duplicate);
    throw e;
  }
}

export async function addLanguage(db: Db, v: z.output<typeof languageAdd>): Promise<{ id: number }> {
  return uniqueWrite(async () => {
    const [row] = await db.insert(language).values({ ...v, builtIn: false }).returning({ id: language.id });
    return { id: row!.id };
  }, I18N_ERRORS.languageDuplicate);
}

/** The code stays; the source language stays enabled. */
export async function editLanguage(db: Db, v: z.output<typeof languageEdit>): Promise<void> {
  const [row] = await db.select().from(language).where(eq(language.id, v.id));
  const current = found(row, I18N_ERRORS.languageUnknown(String(v.id)));
  if (current.code === DEFAULT_LOCALE && !v.enabled) throw new AppError('RULE_VIOLATION', I18N_ERRORS.defaultLanguage);
  const { id, ...fields } = v;
  await db.update(language).set({ ...fields, updatedAt: sql`now()` }).where(eq(language.id, id));
}

// ── Currencies ───────────────────────────────────────────────────────────────────────

const currencyWhere = (f: z.output<typeof currencyFilter>) =>
  and(f.keyword ? or(likeEscaped(currency.code, f.keyword), likeEscaped(currency.name, f.keyword)) : undefined, f.enabled === undefined ? undefined : eq(currency.enabled, f.enabled));

async function currencyRecords(db: Db, rows: (typeof currency.$inferSelect)[]): Promise<CurrencyRecord[]> {
  const used = await db.select({ code: site.currency, n: count() }).from(site).groupBy(site.currency);
  return rows.map((c) => ({ id: c.id, code: c.code, symbol: c.symbol, name: c.name, minorUnits: c.minorUnits, enabled: c.enabled, stations: used.find((u) => u.code === c.code)?.n ?? 0, updatedAt: c.updatedAt.toISOString() }));
}

export async function currencyList(db: Db, f: z.output<typeof currencyFilter>) {
  return currencyRecords(db, await db.select().from(currency).where(currencyWhere(f)).orderBy(asc(currency.id)));
}

export async function currencyPage(db: Db, f: z.output<typeof currencyFilter> & { current: number; pageSize: number }) {
  const w = currencyWhere(f);
  const [{ n }] = (await db.select({ n: count() }).from(currency).where(w)) as [{ n: number }];
  const rows = n ? await db.select().from(currency).where(w).orderBy(asc(currency.id)).limit(f.pageSize).offset((f.current - 1) * f.pageSize) : [];
  return { records: await currencyRecords(db, rows), total: n, current: f.current, pageSize: f.pageSize };
}

export const addCurrency = (db: Db, v: z.output<typeof currencyAdd>) =>
  uniqueWrite(async () => {
    const [row] = await db.insert(currency).values(v).returning({ id: currency.id });
    return { id: row!.id };
  }, I18N_ERRORS.currencyDuplicate);

/** A currency some station uses keeps its code (the stations name it by code). */
export async function editCurrency(db: Db, v: z.output<typeof currencyEdit>): Promise<void> {
  const [row] = await db.select().from(currency).where(eq(currency.id, v.id));
  const current = found(row, I18N_ERRORS.currencyNotFound);
  if (current.code !== v.code) {
    const [{ n }] = (await db.select({ n: count() }).from(site).where(eq(site.currency, current.code))) as [{ n: number }];
    if (n > 0) throw new AppError('RULE_VIOLATION', `币种 ${current.code} 已被 ${n} 个站点使用，不能修改代码`);
  }
  const { id, ...fields } = v;
  await uniqueWrite(() => db.update(currency).set({ ...fields, updatedAt: sql`now()` }).where(eq(currency.id, id)), I18N_ERRORS.currencyDuplicate);
}
