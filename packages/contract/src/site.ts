import { z } from 'zod';
import { id, idBody, idQuery, isTimeZone, optionalEmail, optionalPhone, optionalText, pageRequest, sortRequest, trimmed } from './common.ts';
import { created, done, endpoint, FILE, isoTime, pageOf } from './endpoint.ts';
import { identifierSchema } from './telemetry.ts';
import { todayIn } from './time.ts';

/**
 * Station configuration (api-catalogue "Configuration": site, key values, cabinet, distribution
 * diagram, param, callback). Station fields: product-spec §3; rules: §5.
 */

/** Subsystems a station combines (DOMAIN.md §1). */
export const SITE_TYPES = ['storage', 'pv', 'charging', 'storagePv', 'storageCharging', 'storagePvCharging'] as const;
export type SiteType = (typeof SITE_TYPES)[number];
export const SITE_TYPE_LABELS: Record<SiteType, string> = {
  storage: '储能',
  pv: '光伏',
  charging: '充电桩',
  storagePv: '储能+光伏',
  storageCharging: '储能+充电桩',
  storagePvCharging: '光储充',
};

/** Today's date in a station's zone (the one station-local time implementation, time.ts). */
export { todayIn };

/** A time zone the runtime knows (IANA name): in common.ts, which the user's own zone uses too. */
export { isTimeZone };

/**
 * A station code is the second segment of its devices' MQTT topics (ess/{siteCode}/…): letters,
 * digits, dash and underscore only, so it can never hold a topic separator or wildcard.
 */
export const siteCodeSchema = z.string().trim().min(1).max(32).regex(/^[A-Za-z0-9_-]+$/, '站点编码只能包含字母、数字、下划线和短横线');
const timeZone = z.string().trim().min(1).max(64).refine(isTimeZone, '时区不正确');
const isoDate = z.iso.date('日期格式不正确');
const optionalDate = z.union([isoDate, z.literal('')]).optional().nullable().transform((v) => (v ? v : null));
const optionalNumber = (min: number, max: number) => z.number().min(min).max(max).optional().nullable().transform((v) => v ?? null);
/** JSON ids are numbers; a missing one is reported as "{field}不能为空" (no coercion of undefined). */
const ref = z.number().int().positive().max(2 ** 31 - 1);
/** Multipart fields arrive as text. */
const textRef = z.string().regex(/^\d{1,10}$/, '应为正整数').transform(Number).pipe(ref);
const currency = z.string().trim().regex(/^[A-Z]{3}$/, '币种应为三位大写字母代码');

const siteFields = {
  companyId: ref,
  name: trimmed(64),
  code: siteCodeSchema,
  timeZone,
  commissioningDate: optionalDate,
  serviceEndDate: optionalDate,
  regionCode: optionalText(12),
  address: optionalText(256),
  longitude: optionalNumber(-180, 180),
  latitude: optionalNumber(-90, 90),
  contact: optionalText(64),
  phone: optionalPhone,
  email: optionalEmail,
  currency,
  siteType: z.enum(SITE_TYPES),
  projectNo: optionalText(64),
  projectName: optionalText(128),
  investor: optionalText(128),
  powerUser: optionalText(128),
  reconciliationContact: optionalText(64),
  reconciliationPhone: optionalPhone,
  /** product-spec §5: 0 to 100. */
  investorShareRatio: z.number().min(0, '投资方分成比例应在0-100之间').max(100, '投资方分成比例应在0-100之间').optional().nullable().transform((v) => v ?? null),
  remark: optionalText(500),
};

interface DatedSite {
  commissioningDate: string | null;
  serviceEndDate: string | null;
  timeZone: string;
}

/** product-spec §5: the service end date is on or after the commissioning date. */
const endAfterStart = (v: DatedSite) => !v.serviceEndDate || !v.commissioningDate || v.serviceEndDate >= v.commissioningDate;
/** product-spec §5: the service end date is on or after today, in the station's time zone. */
export const serviceEndNotPast = (v: DatedSite, now = new Date()) => !v.serviceEndDate || !isTimeZone(v.timeZone) || v.serviceEndDate >= todayIn(v.timeZone, now);
export const SERVICE_END_BEFORE_START = '服务到期日期不能早于投运日期';
export const SERVICE_END_PAST = '服务到期日期不能早于今天';

const siteObject = z.object(siteFields);
export const siteAdd = siteObject
  .refine(endAfterStart, { message: SERVICE_END_BEFORE_START, path: ['serviceEndDate'] })
  .refine((v) => serviceEndNotPast(v), { message: SERVICE_END_PAST, path: ['serviceEndDate'] });
/**
 * Editing keeps the start/end rule; "not in the past" holds when the end date is changed (the
 * server compares with the stored one), so an expired station can still be corrected.
 */
export const siteEdit = siteObject.extend({ id }).refine(endAfterStart, { message: SERVICE_END_BEFORE_START, path: ['serviceEndDate'] });
export type SiteAdd = z.infer<typeof siteAdd>;
export type SiteEdit = z.infer<typeof siteEdit>;

export const siteFilter = z.object({
  companyId: id.optional(),
  /** Name or code contains. */
  keyword: z.string().trim().max(64).optional(),
  name: z.string().trim().max(64).optional(),
  code: z.string().trim().max(32).optional(),
  siteType: z.enum(SITE_TYPES).optional(),
  regionCode: z.string().trim().max(12).optional(),
});
/** The station list sorts by these fields. */
export const siteSort = sortRequest(['name', 'code', 'companyName', 'siteType', 'timeZone', 'currency', 'commissioningDate', 'serviceEndDate', 'deviceCount', 'createdAt']);
export const sitePage = pageRequest.extend(siteFilter.shape).extend(siteSort.shape);
export type SiteSortField = NonNullable<z.infer<typeof siteSort>['sortField']>;
/** The station list's xlsx export: the list's filter and order. */
export const siteExport = siteFilter.extend(siteSort.shape);
export type SiteFilter = z.infer<typeof siteFilter>;
/** The picker tree: companies with their stations; userId limits to that user's stations. */
export const siteTreeQuery = z.object({ companyId: id.optional(), userId: id.optional() });

export const siteRecord = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string(),
  name: z.string(),
  code: z.string(),
  timeZone: z.string(),
  /** Calendar dates, YYYY-MM-DD. */
  commissioningDate: z.string().nullable(),
  serviceEndDate: z.string().nullable(),
  regionCode: z.string().nullable(),
  address: z.string().nullable(),
  longitude: z.number().nullable(),
  latitude: z.number().nullable(),
  contact: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  currency: z.string(),
  siteType: z.enum(SITE_TYPES),
  projectNo: z.string().nullable(),
  projectName: z.string().nullable(),
  investor: z.string().nullable(),
  powerUser: z.string().nullable(),
  reconciliationContact: z.string().nullable(),
  reconciliationPhone: z.string().nullable(),
  investorShareRatio: z.number().nullable(),
  remark: z.string().nullable(),
  deviceCount: z.number(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type SiteRecord = z.infer<typeof siteRecord>;

export const siteTreeNode = z.object({
  /** `company-<id>` or `site-<id>`. */
  key: z.string(),
  kind: z.enum(['company', 'site']),
  id: z.number(),
  name: z.string(),
  /** Stations only. */
  code: z.string().optional(),
  get children() {
    return z.array(siteTreeNode);
  },
});
export type SiteTreeNode = z.infer<typeof siteTreeNode>;

// Key values
export const PV_WORKING_MODES = ['selfUse', 'surplusGrid', 'fullGrid'] as const;
export const PV_WORKING_MODE_LABELS: Record<(typeof PV_WORKING_MODES)[number], string> = {
  selfUse: '自发自用',
  surplusGrid: '自发自用余电上网',
  fullGrid: '全额上网',
};
const keyValueFields = {
  siteId: ref,
  /** kWh */
  installedCapacity: optionalNumber(0, 10_000_000),
  /** kV */
  voltageLevel: optionalNumber(0, 1000),
  /** kW */
  transformerProtectionPower: optionalNumber(0, 10_000_000),
  /** kW */
  installedPower: optionalNumber(0, 10_000_000),
  /** % of capacity */
  depthOfDischarge: z.number().gt(0, '放电深度应在0-100之间').max(100, '放电深度应在0-100之间').optional().nullable().transform((v) => v ?? null),
  pvModuleCount: z.number().int().min(0).max(10_000_000).optional().nullable().transform((v) => v ?? null),
  pvWorkingMode: z.enum(PV_WORKING_MODES).optional().nullable().transform((v) => v ?? null),
  /** kW */
  pilePower: optionalNumber(0, 10_000_000),
};
export const siteKeyValueBody = z.object(keyValueFields);
export const siteKeyValueQuery = z.object({ siteId: ref });
export type SiteKeyValue = z.infer<typeof siteKeyValueBody>;
export const siteKeyValueRecord = z.object({
  siteId: z.number(),
  siteName: z.string(),
  installedCapacity: z.number().nullable(),
  voltageLevel: z.number().nullable(),
  transformerProtectionPower: z.number().nullable(),
  installedPower: z.number().nullable(),
  depthOfDischarge: z.number().nullable(),
  pvModuleCount: z.number().nullable(),
  pvWorkingMode: z.enum(PV_WORKING_MODES).nullable(),
  pilePower: z.number().nullable(),
  /** False until the station's key values were first saved. */
  saved: z.boolean(),
  updatedAt: isoTime.nullable(),
});
export type SiteKeyValueRecord = z.infer<typeof siteKeyValueRecord>;

// Cabinet
const cabinetFields = {
  siteId: ref,
  code: z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_.-]+$/, '编码只能包含字母、数字、点、下划线和短横线'),
  name: trimmed(64),
};
export const cabinetAdd = z.object(cabinetFields);
export const cabinetEdit = z.object({ id, ...cabinetFields });
export const cabinetFilter = z.object({
  companyId: id.optional(),
  siteId: id.optional(),
  keyword: z.string().trim().max(64).optional(),
});
export const cabinetSort = sortRequest(['name', 'code', 'siteName', 'deviceCount', 'createdAt']);
export const cabinetPage = pageRequest.extend(cabinetFilter.shape).extend(cabinetSort.shape);
export type CabinetSortField = NonNullable<z.infer<typeof cabinetSort>['sortField']>;
export const cabinetRecord = z.object({
  id: z.number(),
  siteId: z.number(),
  siteName: z.string(),
  siteCode: z.string(),
  code: z.string(),
  name: z.string(),
  deviceCount: z.number(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type CabinetRecord = z.infer<typeof cabinetRecord>;

// Distribution diagram
/** An SVG element id a binding points at (XML Name, no quotes or spaces). */
export const svgElementId = z.string().min(1).max(128).regex(/^[A-Za-z_][\w.:-]*$/, '元素ID格式不正确');
export const diagramBinding = z.object({ elementId: svgElementId, deviceId: ref, identifier: identifierSchema });
export type DiagramBinding = z.infer<typeof diagramBinding>;
export const diagramBindings = z
  .array(diagramBinding)
  .max(500)
  .refine((v) => new Set(v.map((b) => b.elementId)).size === v.length, '同一元素只能绑定一个属性');
/** The text fields of the multipart upload; `file` is the SVG (optional when only bindings change). */
export const diagramUploadFields = z.object({
  siteId: textRef,
  bindings: z
    .string()
    .max(200_000)
    .optional()
    .transform((s, c) => {
      if (s === undefined || s === '') return undefined;
      try {
        return JSON.parse(s) as unknown;
      } catch {
        c.addIssue({ code: 'custom', message: '不是有效的 JSON' });
        return z.NEVER;
      }
    })
    .pipe(diagramBindings.optional()),
});
export const diagramLoadQuery = z.object({ siteId: id });
export const DIAGRAM_MAX_BYTES = 2 * 1024 * 1024;
/** Deepest nesting of elements a diagram may have (checked on the text before it is parsed). */
export const DIAGRAM_MAX_DEPTH = 100;
/** Most elements a diagram may have. */
export const DIAGRAM_MAX_ELEMENTS = 20_000;
export const diagramRecord = z.object({
  id: z.number(),
  siteId: z.number(),
  fileName: z.string(),
  /** Sanitised SVG markup. */
  svg: z.string(),
  bindings: z.array(diagramBinding),
  /** Element ids present in the SVG, for the binding picker. */
  elementIds: z.array(z.string()),
  updatedAt: isoTime,
});
export type DiagramRecord = z.infer<typeof diagramRecord>;

// Param: the settable parameters of products (writable properties), with a device's current values.
/** Parameters sort by these (the list's order without one: by product, then the thing model's order). */
export const paramSort = sortRequest(['productName', 'productType', 'identifier', 'name', 'dataType', 'unit']);
export type ParamSortField = NonNullable<z.infer<typeof paramSort>['sortField']>;
export const paramFilter = z.object({
  productId: id.optional(),
  deviceId: id.optional(),
  keyword: z.string().trim().max(64).optional(),
}).extend(paramSort.shape);
export const paramRecord = z.object({
  /** The property's id. */
  id: z.number(),
  productId: z.number(),
  productCode: z.string(),
  productName: z.string(),
  productType: z.string(),
  identifier: z.string(),
  name: z.string(),
  dataType: z.string(),
  unit: z.string(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  enumValues: z.array(z.object({ value: z.number(), label: z.string() })).nullable(),
  /** The device's latest value: present only when deviceId was given. */
  value: z.union([z.number(), z.string(), z.boolean()]).nullable().optional(),
});
export type ParamRecord = z.infer<typeof paramRecord>;

// Callback: operations registered by the platform, run on demand; each run is recorded.
export const CALLBACK_CODES = ['site.deviceStatus', 'site.diagramCheck', 'site.energyCheck'] as const;
export type CallbackCode = (typeof CALLBACK_CODES)[number];
export const callbackFilter = z.object({ keyword: z.string().trim().max(64).optional() });
export const callbackExecPage = pageRequest.extend({
  code: z.enum(CALLBACK_CODES).optional(),
  siteId: id.optional(),
  success: z.boolean().optional(),
});
export const callbackExecBody = z.object({ code: z.enum(CALLBACK_CODES), siteId: ref });
export const callbackDef = z.object({
  code: z.enum(CALLBACK_CODES),
  name: z.string(),
  description: z.string(),
  /** Parameters the run takes (all take the station). */
  params: z.array(z.string()),
  lastRun: z.object({ at: isoTime, success: z.boolean(), username: z.string().nullable() }).nullable(),
  runs: z.number(),
});
export type CallbackDef = z.infer<typeof callbackDef>;
export const callbackExecRecord = z.object({
  id: z.number(),
  code: z.enum(CALLBACK_CODES),
  siteId: z.number().nullable(),
  siteName: z.string().nullable(),
  username: z.string().nullable(),
  params: z.record(z.string(), z.unknown()),
  success: z.boolean(),
  /** What the run returned (JSON, its shape depends on the callback); null when it failed. */
  result: z.unknown(),
  error: z.string().nullable(),
  durationMs: z.number(),
  createdAt: isoTime,
});
export type CallbackExecRecord = z.infer<typeof callbackExecRecord>;

export { idBody as siteIdBody };

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

export const siteEndpoints = {
  tree: endpoint({ method: 'GET', path: '/configure/site/query/tree', query: siteTreeQuery, response: z.array(siteTreeNode) }),
  page: endpoint({ method: 'POST', path: '/configure/site/query/page', body: sitePage, response: pageOf(siteRecord) }),
  list: endpoint({ method: 'POST', path: '/configure/site/query/list', body: siteFilter, response: z.array(siteRecord) }),
  /** Not in the catalogue (issue 16): the station list as xlsx, in the caller's language. */
  export: endpoint({ method: 'POST', path: '/configure/site/export', body: siteExport, response: FILE }),
  one: endpoint({ method: 'POST', path: '/configure/site/query/one', body: idBody, response: siteRecord }),
  add: endpoint({ method: 'POST', path: '/configure/site/add', body: siteAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/configure/site/edit', body: siteEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/configure/site/delete', query: idQuery, response: done }),
  keyValueOne: endpoint({ method: 'POST', path: '/configure/site/key/value/query/one', body: siteKeyValueQuery, response: siteKeyValueRecord }),
  keyValueAdd: endpoint({ method: 'POST', path: '/configure/site/key/value/add', body: siteKeyValueBody, response: done }),
  keyValueEdit: endpoint({ method: 'POST', path: '/configure/site/key/value/edit', body: siteKeyValueBody, response: done }),
};

export const cabinetEndpoints = {
  list: endpoint({ method: 'POST', path: '/configure/cabinet/query/list', body: cabinetFilter, response: z.array(cabinetRecord) }),
  page: endpoint({ method: 'POST', path: '/configure/cabinet/query/page', body: cabinetPage, response: pageOf(cabinetRecord) }),
  one: endpoint({ method: 'POST', path: '/configure/cabinet/query/one', body: idBody, response: cabinetRecord }),
  add: endpoint({ method: 'POST', path: '/configure/cabinet/add', body: cabinetAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/configure/cabinet/edit', body: cabinetEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/configure/cabinet/delete', query: idQuery, response: done }),
};

export const diagramEndpoints = {
  upload: endpoint({ method: 'POST', path: '/configure/distribution/diagram/upload', multipart: true, body: diagramUploadFields, response: diagramRecord }),
  /** Null when the station has no diagram. */
  load: endpoint({ method: 'GET', path: '/configure/distribution/diagram/load', query: diagramLoadQuery, response: diagramRecord.nullable() }),
  delete: endpoint({ method: 'GET', path: '/configure/distribution/diagram/delete', query: idQuery, response: done }),
};

export const paramEndpoints = {
  list: endpoint({ method: 'POST', path: '/configure/param/query/list', body: paramFilter, response: z.array(paramRecord) }),
};

export const callbackEndpoints = {
  list: endpoint({ method: 'POST', path: '/configure/callback/query/list', body: callbackFilter, response: z.array(callbackDef) }),
  page: endpoint({ method: 'POST', path: '/configure/callback/query/page', body: callbackExecPage, response: pageOf(callbackExecRecord) }),
  exec: endpoint({ method: 'POST', path: '/configure/callback/exec', body: callbackExecBody, response: callbackExecRecord }),
};
