import { z } from 'zod';
import { cell, fromLabel, id, idBody, idQuery, instant, optionalText, pageRequest, sortRequest, trimmed } from './common.ts';
import { deviceHistory, deviceLatestRecord, deviceStatusSchema, HISTORY_INTERVALS } from './device.ts';
import { created, done, endpoint, FILE, isoTime, pageOf } from './endpoint.ts';
import { deviceTypeSchema, identifierSchema, telemetryValueSchema } from './telemetry.ts';

/**
 * Thing models (api-catalogue "Configuration" → Product, Product command, Product event and
 * property, Static property, Product template) and template data. Rules of product-spec §5:
 * identifiers in lower camel case; enumeration (status) values numeric and unique, their labels
 * and colours unique; the cumulative flag marks registers that only grow.
 */

export const PROPERTY_DATA_TYPES = ['float', 'int', 'enum', 'bool', 'string'] as const;
export type PropertyDataType = (typeof PROPERTY_DATA_TYPES)[number];
export const PROPERTY_DATA_TYPE_LABELS: Record<PropertyDataType, string> = {
  float: '浮点数', int: '整数', enum: '枚举', bool: '布尔', string: '文本',
};
export const STATIC_DATA_TYPES = ['string', 'float', 'int', 'enum', 'bool', 'date'] as const;
export type StaticDataType = (typeof STATIC_DATA_TYPES)[number];
export const STATIC_DATA_TYPE_LABELS: Record<StaticDataType, string> = { ...PROPERTY_DATA_TYPE_LABELS, date: '日期' };
export const PARAM_DATA_TYPES = ['float', 'int', 'enum', 'bool', 'string', 'object'] as const;
export const EVENT_LEVELS = [1, 2, 3, 4, 5] as const;

/** Product codes name a model (ESS-PCS, …): letters, digits, _ . -. */
export const productCodeSchema = z.string().trim().regex(/^[A-Za-z0-9_.-]{1,64}$/, '编码只能包含字母、数字、_ . -');
/** product-spec §5: identifiers use lower camel case (pcsState, todayChargeEnergy). */
export const camelIdentifier = z
  .string()
  .trim()
  .min(1, '标识符不能为空')
  .max(64)
  .regex(/^[a-z][a-zA-Z0-9]*$/, '标识符须为小驼峰格式（如 activePower）');
/**
 * Event codes are what devices publish: lower camel case, or the upper snake case fault codes
 * devices commonly send (PCS_IGBT_FAULT).
 */
export const eventIdentifier = z
  .string()
  .trim()
  .min(1, '标识符不能为空')
  .max(64)
  .regex(/^([a-z][a-zA-Z0-9]*|[A-Z][A-Z0-9]*(_[A-Z0-9]+)*)$/, '事件标识须为小驼峰或大写下划线格式');

const colourSchema = z.string().trim().regex(/^#[0-9a-fA-F]{6}$/, '颜色须为 #RRGGBB');

export const enumValueSchema = z.object({
  /** The status value a device reports. */
  value: z.number().int('状态值须为整数').min(-2_147_483_648).max(2_147_483_647),
  label: trimmed(32),
  colour: z.union([colourSchema, z.literal('')]).optional().transform((v) => (v ? v.toLowerCase() : undefined)),
});
/** An enumeration value as stored and answered (colour absent when none was chosen). */
export const enumValue = z.object({ value: z.number(), label: z.string(), colour: z.string().optional() });
export type EnumValue = z.infer<typeof enumValue>;

/** Values, labels and colours each unique (product-spec §5). */
export const enumValuesSchema = z
  .array(enumValueSchema)
  .max(64)
  .superRefine((list, c) => {
    const seen = { value: new Set<number>(), label: new Set<string>(), colour: new Set<string>() };
    list.forEach((e, i) => {
      if (seen.value.has(e.value)) c.addIssue({ code: 'custom', path: [i, 'value'], message: `状态值 ${e.value} 重复` });
      if (seen.label.has(e.label)) c.addIssue({ code: 'custom', path: [i, 'label'], message: `名称 ${e.label} 重复` });
      if (e.colour && seen.colour.has(e.colour)) c.addIssue({ code: 'custom', path: [i, 'colour'], message: `颜色 ${e.colour} 重复` });
      seen.value.add(e.value);
      seen.label.add(e.label);
      if (e.colour) seen.colour.add(e.colour);
    });
  });

const optionalNumber = z.number().finite().nullable().optional().transform((v) => v ?? null);
const sortSchema = z.number().int().min(0).max(100_000).optional().default(0);

// ── Product ───────────────────────────────────────────────────────────────────────────

export const productFilter = z.object({
  type: deviceTypeSchema.optional(),
  code: z.string().trim().max(64).optional(),
  name: z.string().trim().max(64).optional(),
  /** Code or name contains. */
  keyword: z.string().trim().max(64).optional(),
});
export type ProductFilter = z.infer<typeof productFilter>;
export const productSort = sortRequest(['name', 'code', 'type', 'propertyCount', 'deviceCount', 'createdAt']);
export const productPage = pageRequest.extend(productFilter.shape).extend(productSort.shape);
export type ProductSortField = NonNullable<z.infer<typeof productSort>['sortField']>;

export const productAdd = z.object({
  code: productCodeSchema,
  name: trimmed(64),
  type: deviceTypeSchema,
  description: optionalText(500),
});
export type ProductAdd = z.infer<typeof productAdd>;
export const productEdit = productAdd.extend({ id });
export type ProductEdit = z.infer<typeof productEdit>;

/** GET /configure/product/export/model: one product's model, or every product's (optionally of a type). */
export const productExportModelQuery = z.object({ id: id.optional(), type: deviceTypeSchema.optional() });

/**
 * The model sheet (export and import): one row per product followed by one row per property,
 * event, command and static property of it; lists (enumeration values, command parameters) as
 * JSON text.
 */
export const PRODUCT_MODEL_KIND_LABELS = { product: '产品', property: '属性', event: '事件', command: '命令', static: '静态属性' } as const;
export type ProductModelKind = keyof typeof PRODUCT_MODEL_KIND_LABELS;
export const PRODUCT_MODEL_SHEET_COLUMNS = [
  { key: 'kind', header: '类别', required: true },
  { key: 'identifier', header: '标识符', required: true },
  { key: 'name', header: '名称', required: true },
  { key: 'dataType', header: '数据类型' },
  { key: 'unit', header: '单位' },
  { key: 'enumValues', header: '枚举值' },
  { key: 'cumulative', header: '累计量' },
  { key: 'writable', header: '可写' },
  { key: 'min', header: '最小值' },
  { key: 'max', header: '最大值' },
  { key: 'level', header: '等级' },
  { key: 'required', header: '必填' },
  { key: 'requestParams', header: '请求参数' },
  { key: 'responseParams', header: '响应参数' },
  { key: 'sort', header: '排序' },
  { key: 'description', header: '描述' },
] as const;
export type ProductModelSheetKey = (typeof PRODUCT_MODEL_SHEET_COLUMNS)[number]['key'];
export const PRODUCT_MODEL_IMPORT_MAX_ROWS = 20_000;

const modelText = cell((s) => s);
const modelNumber = cell((s, bad) => {
  if (s === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : bad('应为数字');
});
/** Yes/no cells of the model sheet: 是/true/1/y/yes are yes, anything else no. */
const modelFlag = cell((s) => ['是', 'true', '1', 'y', 'yes'].includes(s.toLowerCase()));
const modelJson = cell((s, bad): unknown => {
  if (s === '') return undefined;
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return bad('不是有效的 JSON');
  }
});
/**
 * A row of the model sheet (its cells by column key). The import then applies the rules of the
 * row's kind (productAdd, propertyAdd, eventAdd, commandAdd, staticPropertyAdd), refuses
 * repeated identifiers of a product and product codes already taken.
 */
export const productModelSheetRow = z.object({
  kind: cell((s, bad) =>
    s === '' ? null : (fromLabel(s, PRODUCT_MODEL_KIND_LABELS) ?? bad(`须为 ${Object.values(PRODUCT_MODEL_KIND_LABELS).join('、')} 之一`)),
  ),
  identifier: modelText,
  name: modelText,
  dataType: modelText,
  unit: modelText,
  enumValues: modelJson,
  cumulative: modelFlag,
  writable: modelFlag,
  min: modelNumber,
  max: modelNumber,
  level: modelNumber,
  required: modelFlag,
  requestParams: modelJson,
  responseParams: modelJson,
  sort: modelNumber,
  description: modelText,
} satisfies Record<ProductModelSheetKey, z.ZodType>);
export type ProductModelSheetRow = z.output<typeof productModelSheetRow>;
/** Fields of POST /configure/product/import besides the file: a new code and name for a single-product file. */
export const productImportFields = z.object({ code: productCodeSchema.optional(), name: trimmed(64).optional() });

// ── Properties ────────────────────────────────────────────────────────────────────────

const propertyFields = {
  identifier: camelIdentifier,
  name: trimmed(64),
  dataType: z.enum(PROPERTY_DATA_TYPES),
  unit: z.string().trim().max(16).optional().default(''),
  enumValues: enumValuesSchema.nullable().optional().transform((v) => v ?? null),
  cumulative: z.boolean().optional().default(false),
  writable: z.boolean().optional().default(false),
  min: optionalNumber,
  max: optionalNumber,
  sort: sortSchema,
};

type PropertyShape = {
  dataType: PropertyDataType;
  enumValues: EnumValue[] | null;
  cumulative: boolean;
  min: number | null;
  max: number | null;
};
function checkProperty(v: PropertyShape, c: z.RefinementCtx) {
  if (v.dataType === 'enum' && !v.enumValues?.length) c.addIssue({ code: 'custom', path: ['enumValues'], message: '枚举类型须至少有一个枚举值' });
  if (v.dataType !== 'enum' && v.enumValues?.length) c.addIssue({ code: 'custom', path: ['enumValues'], message: '只有枚举类型可以设置枚举值' });
  if (v.cumulative && v.dataType !== 'float' && v.dataType !== 'int') c.addIssue({ code: 'custom', path: ['cumulative'], message: '只有数值类型可以是累计量' });
  if (v.min !== null && v.max !== null && v.min > v.max) c.addIssue({ code: 'custom', path: ['max'], message: '最大值不能小于最小值' });
}

export const propertyAdd = z.object({ productId: id, ...propertyFields }).superRefine(checkProperty);
export type PropertyAdd = z.infer<typeof propertyAdd>;
/** The product of a property does not change; its identifier and type may (see the service's rules). */
export const propertyEdit = z.object({ id, ...propertyFields }).superRefine(checkProperty);
export type PropertyEdit = z.infer<typeof propertyEdit>;
export const propertyFilter = z.object({
  productId: id.optional(),
  keyword: z.string().trim().max(64).optional(),
  dataType: z.enum(PROPERTY_DATA_TYPES).optional(),
});
export const propertyPage = pageRequest.extend(propertyFilter.shape);

// ── Events ────────────────────────────────────────────────────────────────────────────

const eventFields = {
  identifier: eventIdentifier,
  name: trimmed(64),
  level: z.number().int().min(1, '等级为1到5').max(5, '等级为1到5'),
  sort: sortSchema,
};
export const eventAdd = z.object({ productId: id, ...eventFields });
export type EventAdd = z.infer<typeof eventAdd>;
export const eventEdit = z.object({ id, ...eventFields });
export type EventEdit = z.infer<typeof eventEdit>;
export const eventFilter = z.object({
  productId: id.optional(),
  keyword: z.string().trim().max(64).optional(),
  level: z.number().int().min(1).max(5).optional(),
});
export const eventPage = pageRequest.extend(eventFilter.shape);

// ── Commands ──────────────────────────────────────────────────────────────────────────

export const commandParamSchema = z
  .object({
    identifier: camelIdentifier,
    name: trimmed(64),
    dataType: z.enum(PARAM_DATA_TYPES),
    required: z.boolean().optional(),
    unit: z.string().trim().max(16).optional(),
    min: z.number().finite().optional(),
    max: z.number().finite().optional(),
    enumValues: enumValuesSchema.optional(),
  })
  .superRefine((v, c) => {
    if (v.min !== undefined && v.max !== undefined && v.min > v.max) c.addIssue({ code: 'custom', path: ['max'], message: '最大值不能小于最小值' });
  });
export type CommandParam = z.infer<typeof commandParamSchema>;
const paramList = z
  .array(commandParamSchema)
  .max(32)
  .optional()
  .default([])
  .superRefine((list, c) => {
    const seen = new Set<string>();
    list.forEach((p, i) => {
      if (seen.has(p.identifier)) c.addIssue({ code: 'custom', path: [i, 'identifier'], message: `参数标识 ${p.identifier} 重复` });
      seen.add(p.identifier);
    });
  });

const commandFields = {
  identifier: camelIdentifier,
  name: trimmed(64),
  requestParams: paramList,
  responseParams: paramList,
  sort: sortSchema,
};
export const commandAdd = z.object({ productId: id, ...commandFields });
export type CommandAdd = z.infer<typeof commandAdd>;
export const commandEdit = z.object({ id, ...commandFields });
export type CommandEdit = z.infer<typeof commandEdit>;
export const commandFilter = z.object({ productId: id.optional(), keyword: z.string().trim().max(64).optional() });
export const commandPage = pageRequest.extend(commandFilter.shape);
/** One product's command by identifier (null when there is none): the form's uniqueness check. */
export const commandUniqueBody = z.object({ productId: id, identifier: z.string().trim().min(1).max(64), excludeId: id.optional() });

// ── Static properties ─────────────────────────────────────────────────────────────────

const staticFields = {
  identifier: camelIdentifier,
  name: trimmed(64),
  dataType: z.enum(STATIC_DATA_TYPES),
  unit: z.string().trim().max(16).optional().default(''),
  enumValues: enumValuesSchema.nullable().optional().transform((v) => v ?? null),
  required: z.boolean().optional().default(false),
  sort: sortSchema,
};
function checkStatic(v: { dataType: StaticDataType; enumValues: EnumValue[] | null }, c: z.RefinementCtx) {
  if (v.dataType === 'enum' && !v.enumValues?.length) c.addIssue({ code: 'custom', path: ['enumValues'], message: '枚举类型须至少有一个枚举值' });
  if (v.dataType !== 'enum' && v.enumValues?.length) c.addIssue({ code: 'custom', path: ['enumValues'], message: '只有枚举类型可以设置枚举值' });
}
export const staticPropertyAdd = z.object({ productId: id, ...staticFields }).superRefine(checkStatic);
export type StaticPropertyAdd = z.infer<typeof staticPropertyAdd>;
export const staticPropertyEdit = z.object({ id, ...staticFields }).superRefine(checkStatic);
export type StaticPropertyEdit = z.infer<typeof staticPropertyEdit>;
export const staticPropertyPage = pageRequest.extend({ productId: id.optional(), keyword: z.string().trim().max(64).optional() });

// ── Templates ─────────────────────────────────────────────────────────────────────────

const identifierList = z
  .array(identifierSchema)
  .min(1, '至少选择一个属性')
  .max(50)
  .refine((v) => new Set(v).size === v.length, '属性不能重复');

export const templateAdd = z.object({
  name: trimmed(64),
  productId: id,
  identifiers: identifierList,
  description: optionalText(500),
  sort: sortSchema,
});
export type TemplateAdd = z.infer<typeof templateAdd>;
export const templateEdit = templateAdd.extend({ id });
export type TemplateEdit = z.infer<typeof templateEdit>;
export const templateAddBatch = z
  .object({ items: z.array(templateAdd).min(1, '至少新增一个模板').max(50) })
  .superRefine((v, c) => {
    const seen = new Set<string>();
    v.items.forEach((t, i) => {
      if (seen.has(t.name)) c.addIssue({ code: 'custom', path: ['items', i, 'name'], message: `模板名称 ${t.name} 重复` });
      seen.add(t.name);
    });
  });
export const templateFilter = z.object({
  productId: id.optional(),
  type: deviceTypeSchema.optional(),
  keyword: z.string().trim().max(64).optional(),
});
export const templateSort = sortRequest(['name', 'productName', 'productType', 'description', 'sort', 'createdAt']);
export type TemplateSortField = NonNullable<z.infer<typeof templateSort>['sortField']>;
export const templatePage = pageRequest.extend(templateFilter.shape).extend(templateSort.shape);
/** A template's properties (in its order), or the properties a template of a product may select. */
export const templatePropertyBody = z
  .object({ id: id.optional(), productId: id.optional() })
  .refine((v) => v.id !== undefined || v.productId !== undefined, { message: 'productId不能为空', path: ['productId'] });

// ── Template data ─────────────────────────────────────────────────────────────────────

const templateDeviceFilter = {
  templateId: id,
  companyId: id.optional(),
  siteId: id.optional(),
  siteIds: z.array(id).max(500).optional(),
  deviceIds: z.array(id).max(500).optional(),
  keyword: z.string().trim().max(64).optional(),
};
export const templateLatestPage = pageRequest.extend(templateDeviceFilter);
export const templateLatestTree = z.object({ templateId: id, companyId: id.optional(), siteId: id.optional() });

/** Most series one history query returns: devices × identifiers. */
export const TEMPLATE_HISTORY_MAX_SERIES = 100;

export const templateHistoryBody = z
  .object({
    templateId: id.optional(),
    deviceIds: z
      .array(id)
      .min(1, '至少选择一个设备')
      .max(20)
      .refine((v) => new Set(v).size === v.length, '设备不能重复'),
    /** Default: the template's identifiers. */
    identifiers: identifierList.optional(),
    start: instant,
    end: instant,
    interval: z.enum(HISTORY_INTERVALS).default('auto'),
  })
  .refine((v) => v.templateId !== undefined || v.identifiers !== undefined, { message: 'identifiers不能为空', path: ['identifiers'] })
  .refine((v) => v.end.getTime() > v.start.getTime(), { message: '结束时间须晚于开始时间', path: ['end'] });
export type TemplateHistoryBody = z.infer<typeof templateHistoryBody>;

// ── Responses ─────────────────────────────────────────────────────────────────────────

export const productRecord = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  type: deviceTypeSchema,
  description: z.string().nullable(),
  propertyCount: z.number(),
  eventCount: z.number(),
  commandCount: z.number(),
  deviceCount: z.number(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type ProductRecord = z.infer<typeof productRecord>;

/** POST /configure/product/import: the new products' ids. */
export const productImportResult = z.object({ ids: z.array(z.number()), count: z.number() });
export type ProductImportResult = z.infer<typeof productImportResult>;

export const propertyRecord = z.object({
  id: z.number(),
  productId: z.number(),
  identifier: z.string(),
  name: z.string(),
  dataType: z.enum(PROPERTY_DATA_TYPES),
  unit: z.string(),
  enumValues: z.array(enumValue).nullable(),
  cumulative: z.boolean(),
  writable: z.boolean(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  sort: z.number(),
  /** 1-based position in stored telemetry arrays; null for text properties. */
  slot: z.number().nullable(),
});
export type PropertyRecord = z.infer<typeof propertyRecord>;
/** A new property's id and its storage slot (null for text properties). */
export const propertyCreated = created.extend({ slot: z.number().nullable() });

export const eventRecord = z.object({
  id: z.number(),
  productId: z.number(),
  identifier: z.string(),
  name: z.string(),
  level: z.number(),
  sort: z.number(),
});
export type EventRecord = z.infer<typeof eventRecord>;

/** A command parameter as stored (checked by commandParamSchema when it was saved). */
export const commandParam = z.object({
  identifier: z.string(),
  name: z.string(),
  dataType: z.enum(PARAM_DATA_TYPES),
  required: z.boolean().optional(),
  unit: z.string().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  enumValues: z.array(enumValue).optional(),
});

export const commandRecord = z.object({
  id: z.number(),
  productId: z.number(),
  identifier: z.string(),
  name: z.string(),
  requestParams: z.array(commandParam),
  responseParams: z.array(commandParam),
  sort: z.number(),
});
export type CommandRecord = z.infer<typeof commandRecord>;

export const staticPropertyRecord = z.object({
  id: z.number(),
  productId: z.number(),
  identifier: z.string(),
  name: z.string(),
  dataType: z.enum(STATIC_DATA_TYPES),
  unit: z.string(),
  enumValues: z.array(enumValue).nullable(),
  required: z.boolean(),
  sort: z.number(),
});
export type StaticPropertyRecord = z.infer<typeof staticPropertyRecord>;

export const templateRecord = z.object({
  id: z.number(),
  name: z.string(),
  productId: z.number(),
  productName: z.string(),
  productType: deviceTypeSchema,
  identifiers: z.array(z.string()),
  description: z.string().nullable(),
  sort: z.number(),
  createdAt: isoTime,
});
export type TemplateRecord = z.infer<typeof templateRecord>;

/** Stations in scope, each with the template product's devices and their latest values. */
export const templateTreeNode = z.object({
  key: z.string(),
  kind: z.enum(['site', 'device']),
  id: z.number(),
  code: z.string(),
  name: z.string(),
  status: deviceStatusSchema.optional(),
  ts: isoTime.nullable().optional(),
  values: z.record(z.string(), telemetryValueSchema).optional(),
  get children(): z.ZodArray<typeof templateTreeNode> {
    return z.array(templateTreeNode);
  },
});
export type TemplateTreeNode = z.infer<typeof templateTreeNode>;

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

export const productEndpoints = {
  page: endpoint({ method: 'POST', path: '/configure/product/query/page', body: productPage, response: pageOf(productRecord) }),
  list: endpoint({ method: 'POST', path: '/configure/product/query/list', body: productFilter, response: z.array(productRecord) }),
  one: endpoint({ method: 'POST', path: '/configure/product/query/one', body: idBody, response: productRecord }),
  add: endpoint({ method: 'POST', path: '/configure/product/add', body: productAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/configure/product/edit', body: productEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/configure/product/delete', query: idQuery, response: done }),
  exportModel: endpoint({ method: 'GET', path: '/configure/product/export/model', query: productExportModelQuery, response: FILE }),
  exportData: endpoint({ method: 'GET', path: '/configure/product/export/data', query: idQuery, response: FILE }),
  /** Multipart: file, and optionally code and name to import a single-product file as a new product. */
  import: endpoint({ method: 'POST', path: '/configure/product/import', multipart: true, body: productImportFields, response: productImportResult }),
};

export const productCommandEndpoints = {
  page: endpoint({ method: 'POST', path: '/configure/product/command/query/page', body: commandPage, response: pageOf(commandRecord) }),
  list: endpoint({ method: 'POST', path: '/configure/product/command/query/list', body: commandFilter, response: z.array(commandRecord) }),
  one: endpoint({ method: 'POST', path: '/configure/product/command/query/one', body: idBody, response: commandRecord }),
  unique: endpoint({ method: 'POST', path: '/configure/product/command/query/unique', body: commandUniqueBody, response: commandRecord.nullable() }),
  add: endpoint({ method: 'POST', path: '/configure/product/command/add', body: commandAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/configure/product/command/edit', body: commandEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/configure/product/command/delete', query: idQuery, response: done }),
};

export const productEventEndpoints = {
  page: endpoint({ method: 'POST', path: '/configure/product/event/query/page', body: eventPage, response: pageOf(eventRecord) }),
  list: endpoint({ method: 'POST', path: '/configure/product/event/query/list', body: eventFilter, response: z.array(eventRecord) }),
  one: endpoint({ method: 'POST', path: '/configure/product/event/query/one', body: idBody, response: eventRecord }),
  add: endpoint({ method: 'POST', path: '/configure/product/event/add', body: eventAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/configure/product/event/edit', body: eventEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/configure/product/event/delete', query: idQuery, response: done }),
};

export const productPropertyEndpoints = {
  page: endpoint({ method: 'POST', path: '/configure/property/query/page', body: propertyPage, response: pageOf(propertyRecord) }),
  list: endpoint({ method: 'POST', path: '/configure/property/query/list', body: propertyFilter, response: z.array(propertyRecord) }),
  one: endpoint({ method: 'POST', path: '/configure/property/query/one', body: idBody, response: propertyRecord }),
  add: endpoint({ method: 'POST', path: '/configure/property/add', body: propertyAdd, response: propertyCreated }),
  edit: endpoint({ method: 'POST', path: '/configure/property/edit', body: propertyEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/configure/property/delete', query: idQuery, response: done }),
};

export const staticPropertyEndpoints = {
  page: endpoint({ method: 'POST', path: '/configure/static/property/query/page', body: staticPropertyPage, response: pageOf(staticPropertyRecord) }),
  one: endpoint({ method: 'POST', path: '/configure/static/property/query/one', body: idBody, response: staticPropertyRecord }),
  add: endpoint({ method: 'POST', path: '/configure/static/property/add', body: staticPropertyAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/configure/static/property/edit', body: staticPropertyEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/configure/static/property/delete', query: idQuery, response: done }),
};

export const productTemplateEndpoints = {
  list: endpoint({ method: 'POST', path: '/template/product/query/list', body: templateFilter, response: z.array(templateRecord) }),
  page: endpoint({ method: 'POST', path: '/template/product/query/page', body: templatePage, response: pageOf(templateRecord) }),
  one: endpoint({ method: 'POST', path: '/template/product/query/one', body: idBody, response: templateRecord }),
  properties: endpoint({ method: 'POST', path: '/template/product/query/property', body: templatePropertyBody, response: z.array(propertyRecord) }),
  add: endpoint({ method: 'POST', path: '/template/product/add', body: templateAdd, response: created }),
  addBatch: endpoint({ method: 'POST', path: '/template/product/add/batch', body: templateAddBatch, response: z.object({ ids: z.array(z.number()) }) }),
  edit: endpoint({ method: 'POST', path: '/template/product/edit', body: templateEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/template/product/delete', query: idQuery, response: done }),
  latestPage: endpoint({ method: 'POST', path: '/template/product/data/latest/more/page', body: templateLatestPage, response: pageOf(deviceLatestRecord) }),
  latestTree: endpoint({ method: 'POST', path: '/template/product/data/latest/more/tree', body: templateLatestTree, response: z.array(templateTreeNode) }),
  history: endpoint({ method: 'POST', path: '/template/product/data/query/history', body: templateHistoryBody, response: z.array(deviceHistory) }),
  exportHistory: endpoint({ method: 'POST', path: '/template/product/data/export/history', body: templateHistoryBody, response: FILE }),
};
