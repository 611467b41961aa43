import { z } from 'zod';
import { id, idQuery, pageRequest } from './common.ts';
import { created, done, endpoint, FILE, isoTime, pageOf } from './endpoint.ts';

/**
 * Translation management (issue 24; api-catalogue "Translation"): languages, the UI text
 * catalogue and its translations (the language pack the console fetches is served from them),
 * business-data text nodes and their originals, translation engines (DeepL, Google Cloud
 * Translation, Baidu Translate, LibreTranslate) and machine completion, currencies.
 *
 * Identifiers: a language is named by its code everywhere a call takes `languageId` (the pack
 * fetch's `en-US`); engines, currencies, text nodes and originals by their numeric id. Every
 * object here is shared by the installation (not a company's): the menus of /globalization grant
 * the calls. Calls beyond the catalogue (routes only): the translation of one text or datum
 * (`…/translation/edit`) and the progress of a completion (`…/completion/query/one`).
 */

// ── Languages ────────────────────────────────────────────────────────────────────────

/** BCP 47 as the console's locales are written: language, optional script, optional region (zh-CN, sr-Latn-RS). */
export const LANGUAGE_CODE_PATTERN = /^[a-z]{2,3}(-[A-Z][a-z]{3})?(-[A-Z]{2}|-\d{3})?$/;
export const LANGUAGE_CODE_INVALID = '语言编码须为 BCP 47 格式（如 en-US、zh-CN）';
export const languageCode = z.string({ error: LANGUAGE_CODE_INVALID }).trim().max(16, LANGUAGE_CODE_INVALID).regex(LANGUAGE_CODE_PATTERN, LANGUAGE_CODE_INVALID);
export const TEXT_DIRECTIONS = ['ltr', 'rtl'] as const;

export const I18N_ERRORS = {
  languageUnknown: (code: string) => `语言不存在：${code}`,
  languageDuplicate: '该语言编码已存在',
  languageDisabled: (code: string) => `语言未启用：${code}`,
  defaultLanguage: '源语言（zh-CN）是原文，不能翻译、停用或修改编码',
  currencyDuplicate: '该币种代码已存在',
  currencyNotFound: '币种不存在',
  engineNotFound: '翻译引擎不存在',
  engineDuplicate: '已有同名翻译引擎',
  engineKeyRequired: '新增翻译引擎须填写密钥',
  engineAppIdRequired: '百度翻译须填写 APP ID',
  engineDisabled: '翻译引擎未启用',
  engineFailed: (reason: string) => `翻译引擎连接失败：${reason}`,
  engineLanguage: (code: string) => `翻译引擎不支持该语言：${code}`,
  originalNotFound: '原文不存在',
  nodeNotFound: '文本节点不存在',
  nodeDuplicate: '该字段已有文本节点',
  completionNotFound: '翻译任务不存在',
  completionBusy: '该语言已有进行中的翻译任务',
  nothingToTranslate: '没有需要翻译的文本',
  placeholderMissing: (p: string) => `译文缺少占位符 ${p}`,
  placeholderExtra: (p: string) => `译文多出原文没有的占位符 ${p}`,
  whitespace: '译文首尾空白须与原文一致',
  tooLong: (max: number) => `译文过长（此处空间有限，最多 ${max} 个字符宽度，全角字符计2）`,
} as const;

export const languageFields = {
  name: z.string({ error: '语言名称不能为空' }).trim().min(1, '语言名称不能为空').max(64, '语言名称不能超过64个字符'),
  nativeName: z.string({ error: '本地名称不能为空' }).trim().min(1, '本地名称不能为空').max(64, '本地名称不能超过64个字符'),
  direction: z.enum(TEXT_DIRECTIONS, { error: '文字方向须为 ltr 或 rtl' }).default('ltr'),
  /** The UI kit's locale (antd: en_US). */
  uiLocale: z.string().trim().max(16).regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'UI 组件语言须如 en_US').optional().nullable().transform((v) => v || null),
  dateFormat: z.string().trim().min(1).max(32).default('YYYY-MM-DD'),
  /** The locale numbers and dates are formatted in (Intl): usually the code itself. */
  numberLocale: languageCode.optional().nullable().transform((v) => v || null),
  enabled: z.boolean().default(true),
  sort: z.number().int().min(0).max(10_000).default(100),
};
export const languageAdd = z.object({ code: languageCode, ...languageFields });
export const languageEdit = z.object({ id, ...languageFields });
export const languageFilter = z.object({ keyword: z.string().trim().max(64).optional(), enabled: z.boolean().optional() });
export const languagePage = languageFilter.extend(pageRequest.shape);

export const TRANSLATION_STATES = ['untranslated', 'machine', 'translated', 'reviewed', 'outdated'] as const;
export type TranslationState = (typeof TRANSLATION_STATES)[number];
export const TRANSLATION_STATE_LABELS: Record<TranslationState, string> = {
  untranslated: '未翻译',
  machine: '机器翻译',
  translated: '已翻译',
  reviewed: '已审校',
  outdated: '待更新',
};

/** Counts per state of one language over the current (not obsolete) originals; percent: translated + reviewed of all. */
export const completionCounts = z.object({
  total: z.number().int(),
  untranslated: z.number().int(),
  machine: z.number().int(),
  translated: z.number().int(),
  reviewed: z.number().int(),
  outdated: z.number().int(),
  percent: z.number(),
});
export type CompletionCounts = z.infer<typeof completionCounts>;

export const languageRecord = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  nativeName: z.string(),
  direction: z.enum(TEXT_DIRECTIONS),
  uiLocale: z.string().nullable(),
  dateFormat: z.string(),
  numberLocale: z.string().nullable(),
  enabled: z.boolean(),
  builtIn: z.boolean(),
  isSource: z.boolean(),
  sort: z.number(),
  /** UI texts and business data of this language. */
  text: completionCounts,
  data: completionCounts,
  updatedAt: isoTime,
});
export type LanguageRecord = z.infer<typeof languageRecord>;

/** What the console's language switch offers. */
export const enabledLanguage = z.object({ code: z.string(), name: z.string(), nativeName: z.string(), direction: z.enum(TEXT_DIRECTIONS), uiLocale: z.string().nullable(), dateFormat: z.string(), numberLocale: z.string().nullable() });
export type EnabledLanguage = z.infer<typeof enabledLanguage>;

// ── Texts and data: originals and their translations ──────────────────────────────────

export const languagePackQuery = z.object({ languageId: languageCode });
export const packRow = z.object({ source: z.string(), translation: z.string() });
export type PackRow = z.infer<typeof packRow>;

const keyword = z.string().trim().max(200).optional();
export const originalFilter = z.object({
  languageId: languageCode,
  keyword,
  state: z.enum(TRANSLATION_STATES).optional(),
  /** UI texts: the pack area (shell, firmware-web…); data: ignored. */
  context: z.string().trim().max(64).optional(),
  /** Data: one text node's originals. */
  nodeId: id.optional(),
  /** Obsolete originals (no longer in the catalogue / the record is gone) too. */
  withObsolete: z.boolean().default(false),
});
export const originalPage = originalFilter.extend(pageRequest.shape);

export const originalRecord = z.object({
  id: z.number(),
  source: z.string(),
  context: z.string().nullable(),
  /** Data: the text node and the record the text is read from. */
  nodeId: z.number().nullable(),
  nodeName: z.string().nullable(),
  recordId: z.number().nullable(),
  obsolete: z.boolean(),
  /** Length limit of the translation (UI texts with little room), or null. */
  maxLength: z.number().nullable(),
  languageId: z.string(),
  translation: z.string().nullable(),
  state: z.enum(TRANSLATION_STATES),
  engineName: z.string().nullable(),
  translatedAt: isoTime.nullable(),
  sourceChangedAt: isoTime,
});
export type OriginalRecord = z.infer<typeof originalRecord>;

/** One translation written from the console: saving makes it translated, `reviewed` marks it reviewed. */
export const translationEdit = z.object({
  id,
  languageId: languageCode,
  translation: z.string().max(4000, '译文不能超过4000个字符'),
  reviewed: z.boolean().default(false),
});

export const refreshResult = z.object({ added: z.number().int(), changed: z.number().int(), obsoleted: z.number().int(), restored: z.number().int(), total: z.number().int() });
export type RefreshResult = z.infer<typeof refreshResult>;
export const refreshTip = z.object({ added: z.number().int(), changed: z.number().int(), removed: z.number().int(), lastRefreshAt: isoTime.nullable() });

export const exportRequest = z.object({ languageId: languageCode, state: z.enum(TRANSLATION_STATES).optional(), keyword, context: z.string().trim().max(64).optional(), nodeId: id.optional() });
export const importFields = z.object({ languageId: languageCode });
export const translationImportResult = z.object({ updated: z.number().int(), unchanged: z.number().int() });

/** The sheet translators fill: one row per original (the id keeps it exact), the translation and its state. */
export const TRANSLATION_SHEET_COLUMNS = [
  { key: 'id', header: '编号', required: true },
  { key: 'context', header: '上下文' },
  { key: 'source', header: '原文', required: true },
  { key: 'translation', header: '译文', required: true },
  { key: 'state', header: '状态' },
] as const;

export const completionRequest = z.object({
  languageId: languageCode,
  engineId: id,
  /** The originals to translate; empty: every untranslated and outdated one of the language. */
  ids: z.array(id).max(10_000).default([]),
});
export const COMPLETION_STATES = ['queued', 'running', 'done', 'failed'] as const;
export const completionRecord = z.object({
  id: z.number(),
  domain: z.enum(['text', 'data']),
  languageId: z.string(),
  engineId: z.number().nullable(),
  engineName: z.string().nullable(),
  state: z.enum(COMPLETION_STATES),
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  error: z.string().nullable(),
  createdAt: isoTime,
  finishedAt: isoTime.nullable(),
});
export type CompletionRecord = z.infer<typeof completionRecord>;

// ── Text nodes (business data) ─────────────────────────────────────────────────────────

/** The translatable fields of business data: entity.field → its source-text label. */
export const TEXT_NODE_FIELDS = {
  'product.name': '产品名称',
  'productProperty.name': '产品属性名称',
  'role.name': '角色名称',
  'alarmDict.description': '告警字典描述',
  'site.name': '站点名称',
  'device.name': '设备名称',
} as const;
export type TextNodeField = keyof typeof TEXT_NODE_FIELDS;
export const textNodeField = z.enum(Object.keys(TEXT_NODE_FIELDS) as [TextNodeField, ...TextNodeField[]], { error: '不支持的翻译字段' });

const nodeFields = {
  field: textNodeField,
  name: z.string({ error: '节点名称不能为空' }).trim().min(1, '节点名称不能为空').max(64, '节点名称不能超过64个字符'),
  enabled: z.boolean().default(true),
  remark: z.string().trim().max(200).optional().nullable().transform((v) => v || null),
};
export const textNodeAdd = z.object(nodeFields);
export const textNodeEdit = z.object({ id, ...nodeFields });
export const textNodeFilter = z.object({ keyword: z.string().trim().max(64).optional(), enabled: z.boolean().optional() });
export const textNodeRecord = z.object({ id: z.number(), field: textNodeField, fieldName: z.string(), name: z.string(), enabled: z.boolean(), remark: z.string().nullable(), originals: z.number().int(), updatedAt: isoTime });
export type TextNodeRecord = z.infer<typeof textNodeRecord>;

// ── Engines ──────────────────────────────────────────────────────────────────────────

export const ENGINE_KINDS = ['deepl', 'google', 'google-v3', 'baidu', 'libre'] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

export const engineOptional = z.object({
  kind: z.enum(ENGINE_KINDS),
  name: z.string(),
  defaultEndpoint: z.string(),
  /** Whether the kind needs an app id beside its key (Baidu). */
  needsAppId: z.boolean(),
  /** Whether the key may be left empty (a self-hosted LibreTranslate without keys). */
  keyOptional: z.boolean(),
  docs: z.string(),
});

const httpUrl = z.string().trim().max(300).url('接口地址须为 http(s) 地址').refine((u) => /^https?:\/\//i.test(u), '接口地址须为 http(s) 地址');
const engineFields = {
  name: z.string({ error: '引擎名称不能为空' }).trim().min(1, '引擎名称不能为空').max(64, '引擎名称不能超过64个字符'),
  kind: z.enum(ENGINE_KINDS, { error: '不支持的翻译引擎' }),
  /** The service's address; empty: the kind's published one. */
  endpoint: httpUrl.optional().nullable().or(z.literal('')).transform((v) => v || null),
  appId: z.string().trim().max(64).optional().nullable().transform((v) => v || null),
  /** Write-only: absent keeps the stored key (edit), null or '' clears it. */
  apiKey: z.string().trim().max(8192, '密钥不能超过8192个字符').optional().nullable(),
  enabled: z.boolean().default(true),
  /** Characters per request batch. */
  batchSize: z.number().int().min(1).max(128).default(20),
  remark: z.string().trim().max(200).optional().nullable().transform((v) => v || null),
};
export const engineAdd = z.object(engineFields);
export const engineEdit = z.object({ id, ...engineFields });
export const engineFilter = z.object({ keyword: z.string().trim().max(64).optional(), kind: z.enum(ENGINE_KINDS).optional(), enabled: z.boolean().optional() });
export const enginePage = engineFilter.extend(pageRequest.shape);
export const engineRecord = z.object({
  id: z.number(), name: z.string(), kind: z.enum(ENGINE_KINDS), endpoint: z.string().nullable(), appId: z.string().nullable(),
  keySet: z.boolean(), enabled: z.boolean(), batchSize: z.number(), remark: z.string().nullable(), lastCheckedAt: isoTime.nullable(), lastCheckOk: z.boolean().nullable(),
  createdAt: isoTime, updatedAt: isoTime,
});
export type EngineRecord = z.infer<typeof engineRecord>;
export const engineSupport = z.object({ languageId: z.string(), engineCode: z.string(), source: z.boolean(), target: z.boolean() });
export const engineConnect = z.object({ ok: z.literal(true), sample: z.string(), latencyMs: z.number() });

// ── Currencies ───────────────────────────────────────────────────────────────────────

const currencyFields = {
  code: z.string({ error: '币种代码须为3位大写字母（ISO 4217）' }).trim().regex(/^[A-Z]{3}$/, '币种代码须为3位大写字母（ISO 4217）'),
  symbol: z.string({ error: '货币符号不能为空' }).trim().min(1, '货币符号不能为空').max(8, '货币符号不能超过8个字符'),
  name: z.string({ error: '币种名称不能为空' }).trim().min(1, '币种名称不能为空').max(64, '币种名称不能超过64个字符'),
  minorUnits: z.number({ error: '小数位数须为0到4的整数' }).int('小数位数须为0到4的整数').min(0, '小数位数须为0到4的整数').max(4, '小数位数须为0到4的整数'),
  enabled: z.boolean().default(true),
};
export const currencyAdd = z.object(currencyFields);
export const currencyEdit = z.object({ id, ...currencyFields });
export const currencyFilter = z.object({ keyword: z.string().trim().max(64).optional(), enabled: z.boolean().optional() });
export const currencyPage = currencyFilter.extend(pageRequest.shape);
export const currencyRecord = z.object({ id: z.number(), code: z.string(), symbol: z.string(), name: z.string(), minorUnits: z.number(), enabled: z.boolean(), stations: z.number().int(), updatedAt: isoTime });
export type CurrencyRecord = z.infer<typeof currencyRecord>;

// ── Checks on every save and import (product-spec §3) ──────────────────────────────────

/** `$1`…`$n` in a text, sorted (a placeholder used twice counts twice). */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/\$\d+/g)].map((m) => m[0]).sort();
}

/**
 * What is wrong with a translation of a source text (empty: nothing): every placeholder of the
 * source present exactly (no missing, no extra), the same leading and trailing whitespace, and
 * at most `maxLength` characters when the original has a limit.
 */
/**
 * A text's display width: full-width characters (CJK, Hangul, full-width forms) count 2, others 1
 * (what a column, button or menu item has room for).
 */
export function textWidth(text: string): number {
  let w = 0;
  for (const c of text) w += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(c) ? 2 : 1;
  return w;
}

/**
 * The length rule of texts where the UI has little room (decision 0053): a translation of a text
 * marked short (column titles, form labels, menu and tab names, buttons: the catalogue marks them)
 * may be at most 3 times the source's display width plus 10. The shipped packs keep it.
 */
export const SHORT_TEXT_FACTOR = 3;
export const SHORT_TEXT_EXTRA = 10;
export const shortTextLimit = (source: string): number => SHORT_TEXT_FACTOR * textWidth(source) + SHORT_TEXT_EXTRA;

export function translationProblems(source: string, translation: string, maxLength?: number | null): string[] {
  const problems: string[] = [];
  const want = placeholdersOf(source);
  const have = placeholdersOf(translation);
  const rest = [...have];
  for (const p of want) {
    const i = rest.indexOf(p);
    if (i < 0) problems.push(I18N_ERRORS.placeholderMissing(p));
    else rest.splice(i, 1);
  }
  for (const p of rest) problems.push(I18N_ERRORS.placeholderExtra(p));
  const lead = (s: string) => /^\s*/.exec(s)![0];
  const trail = (s: string) => /\s*$/.exec(s)![0];
  if (lead(source) !== lead(translation) || trail(source) !== trail(translation)) problems.push(I18N_ERRORS.whitespace);
  if (maxLength && textWidth(translation) > maxLength) problems.push(I18N_ERRORS.tooLong(maxLength));
  return problems;
}

// ── Endpoints ────────────────────────────────────────────────────────────────────────

const blank = z.object({}).optional();

export const i18nEndpoints = {
  pack: endpoint({ method: 'GET', path: '/i18n/text/translation/view', query: languagePackQuery, response: z.array(packRow) }),
  textImport: endpoint({ method: 'POST', path: '/i18n/text/translation/import', body: importFields, multipart: true, response: translationImportResult }),
  textEdit: endpoint({ method: 'POST', path: '/i18n/text/translation/edit', body: translationEdit, response: done }),
  textRefresh: endpoint({ method: 'POST', path: '/i18n/text/original/refresh/view', body: blank, response: refreshResult }),
  textTip: endpoint({ method: 'GET', path: '/i18n/text/original/refresh/tip', response: refreshTip }),
  textExport: endpoint({ method: 'POST', path: '/i18n/text/original/export', body: exportRequest, response: FILE }),
  textCompletion: endpoint({ method: 'POST', path: '/i18n/text/original/completion', body: completionRequest, response: created }),
  textCompletionOne: endpoint({ method: 'POST', path: '/i18n/text/original/completion/query/one', body: z.object({ id }), response: completionRecord }),
  textPage: endpoint({ method: 'POST', path: '/i18n/text/original/query/page', body: originalPage, response: pageOf(originalRecord) }),

  dataRefresh: endpoint({ method: 'GET', path: '/i18n/data/original/refresh', response: refreshResult }),
  dataExport: endpoint({ method: 'POST', path: '/i18n/data/original/export', body: exportRequest, response: FILE }),
  dataCompletion: endpoint({ method: 'POST', path: '/i18n/data/original/completion', body: completionRequest, response: created }),
  dataCompletionOne: endpoint({ method: 'POST', path: '/i18n/data/original/completion/query/one', body: z.object({ id }), response: completionRecord }),
  dataPage: endpoint({ method: 'POST', path: '/i18n/data/original/query/page', body: originalPage, response: pageOf(originalRecord) }),
  dataImport: endpoint({ method: 'POST', path: '/i18n/data/translation/import', body: importFields, multipart: true, response: translationImportResult }),
  dataEdit: endpoint({ method: 'POST', path: '/i18n/data/translation/edit', body: translationEdit, response: done }),

  languageEnable: endpoint({ method: 'GET', path: '/i18n/language/query/enable', response: z.array(enabledLanguage) }),
  languageList: endpoint({ method: 'POST', path: '/i18n/language/query/list', body: languageFilter, response: z.array(languageRecord) }),
  languagePage: endpoint({ method: 'POST', path: '/i18n/language/query/page', body: languagePage, response: pageOf(languageRecord) }),
  languageAdd: endpoint({ method: 'POST', path: '/i18n/language/add', body: languageAdd, response: created }),
  languageEdit: endpoint({ method: 'POST', path: '/i18n/language/edit', body: languageEdit, response: done }),

  engineOptionals: endpoint({ method: 'GET', path: '/i18n/engine/optionals', response: z.array(engineOptional) }),
  engineSupports: endpoint({ method: 'GET', path: '/i18n/engine/supports', query: idQuery, response: z.array(engineSupport) }),
  engineConnect: endpoint({ method: 'GET', path: '/i18n/engine/connect', query: idQuery, response: engineConnect }),
  engineDelete: endpoint({ method: 'GET', path: '/i18n/engine/delete', query: idQuery, response: done }),
  engineList: endpoint({ method: 'POST', path: '/i18n/engine/query/list', body: engineFilter, response: z.array(engineRecord) }),
  enginePage: endpoint({ method: 'POST', path: '/i18n/engine/query/page', body: enginePage, response: pageOf(engineRecord) }),
  engineOne: endpoint({ method: 'POST', path: '/i18n/engine/query/one', body: z.object({ id }), response: engineRecord }),
  engineAdd: endpoint({ method: 'POST', path: '/i18n/engine/add', body: engineAdd, response: created }),
  engineEdit: endpoint({ method: 'POST', path: '/i18n/engine/edit', body: engineEdit, response: done }),

  currencyPage: endpoint({ method: 'POST', path: '/i18n/currency/query/page', body: currencyPage, response: pageOf(currencyRecord) }),
  currencyList: endpoint({ method: 'POST', path: '/i18n/currency/query/list', body: currencyFilter, response: z.array(currencyRecord) }),
  currencyAdd: endpoint({ method: 'POST', path: '/i18n/currency/add', body: currencyAdd, response: created }),
  currencyEdit: endpoint({ method: 'POST', path: '/i18n/currency/edit', body: currencyEdit, response: done }),

  nodeList: endpoint({ method: 'POST', path: '/configure/text/node/query/list', body: textNodeFilter, response: z.array(textNodeRecord) }),
  nodeAdd: endpoint({ method: 'POST', path: '/configure/text/node/add', body: textNodeAdd, response: created }),
  nodeEdit: endpoint({ method: 'POST', path: '/configure/text/node/edit', body: textNodeEdit, response: done }),
  nodeDelete: endpoint({ method: 'GET', path: '/configure/text/node/delete', query: idQuery, response: done }),
};
