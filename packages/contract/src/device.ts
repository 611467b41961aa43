import { z } from 'zod';
import { cell, cellNumber, cellText, cellYesNo, id, idBody, importRowError, instant, optionalText, pageRequest, sortRequest, trimmed } from './common.ts';
import { QUERY_RANGE_LIMIT_MS } from './constants.ts';
import { endpoint, FILE, isoTime, pageOf } from './endpoint.ts';
import { deviceCodeSchema, deviceTypeSchema, identifierSchema, METER_PURPOSES, meterPurposeSchema, telemetryValueSchema } from './telemetry.ts';

/**
 * Device registry, live values and history (api-catalogue "Configuration" → Device, "Device
 * monitoring"). Device states: product-spec §4; online/offline by the device's report timeout
 * (DOMAIN.md §1).
 */

export const DEVICE_STATUSES = ['online', 'offline', 'disabled', 'inactive'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];
export const deviceStatusSchema = z.enum(DEVICE_STATUSES);
export const DEVICE_STATUS_LABELS: Record<DeviceStatus, { label: string; colour: string }> = {
  online: { label: '在线', colour: '#52c41a' },
  offline: { label: '离线', colour: '#8c8c8c' },
  disabled: { label: '禁用', colour: '#f5222d' },
  inactive: { label: '未激活', colour: '#faad14' },
};

const text = (max: number) => z.string().trim().max(max).optional();

export const deviceFilter = z.object({
  /** Stations of this company and the companies under it. */
  companyId: id.optional(),
  siteId: id.optional(),
  siteIds: z.array(id).max(500).optional(),
  productId: id.optional(),
  type: deviceTypeSchema.optional(),
  types: z.array(deviceTypeSchema).max(20).optional(),
  parentId: id.optional(),
  cabinetId: id.optional(),
  meterPurpose: meterPurposeSchema.optional(),
  code: text(64),
  name: text(64),
  /** Code, name or barcode contains. */
  keyword: text(64),
  status: deviceStatusSchema.optional(),
  disabled: z.boolean().optional(),
});
export type DeviceFilter = z.infer<typeof deviceFilter>;
/** Device lists (registry and live) sort by these fields. */
export const deviceSort = sortRequest(['name', 'code', 'type', 'siteName', 'productName', 'parentName', 'cabinetName', 'meterPurpose', 'status', 'firmwareVersion', 'lastSeenAt', 'createdAt']);
export const devicePage = pageRequest.extend(deviceFilter.shape).extend(deviceSort.shape);
export type DeviceSortField = NonNullable<z.infer<typeof deviceSort>['sortField']>;

/** The site → device tree; without siteId every station in scope. */
export const deviceTreeBody = z
  .object({
    companyId: id.optional(),
    siteId: id.optional(),
    types: z.array(deviceTypeSchema).max(20).optional(),
  })
  .optional()
  .transform((v) => v ?? {});

/** Latest values: the device filter, plus which devices and identifiers to return. */
export const deviceLatestFilter = deviceFilter.extend({
  deviceIds: z.array(id).max(500).optional(),
  /** Only these identifiers in `values` (default: all). */
  identifiers: z.array(identifierSchema).max(200).optional(),
});
export const deviceLatestPage = pageRequest.extend(deviceLatestFilter.shape).extend(deviceSort.shape);

export const deviceIdQuery = z.object({ deviceId: id });

export const HISTORY_INTERVALS = ['auto', 'raw', '5m', '1h', '1d'] as const;
export type HistoryInterval = (typeof HISTORY_INTERVALS)[number];
/** Source-text names of the intervals (file names, captions). */
export const HISTORY_INTERVAL_LABELS: Record<HistoryInterval, string> = { auto: '自动', raw: '原始数据', '5m': '5分钟', '1h': '1小时', '1d': '1天' };
/**
 * Longest range per interval. Raw reports: the spec's 24-hour limit for large data queries
 * (product-spec §5); day values must stay within one station-local month ("daily statistics
 * across months are not open"). `auto` picks the finest of raw, 5 minutes and hours whose data covers the whole range.
 */
export const HISTORY_RANGE_LIMITS_MS = {
  raw: QUERY_RANGE_LIMIT_MS,
  '5m': 7 * 24 * 3_600_000,
  '1h': 93 * 24 * 3_600_000,
} as const;

export const deviceHistoryBody = z
  .object({
    deviceId: id,
    identifiers: z
      .array(identifierSchema)
      .min(1)
      .max(20)
      .refine((v) => new Set(v).size === v.length, '标识符不能重复'),
    start: instant,
    end: instant,
    interval: z.enum(HISTORY_INTERVALS).default('auto'),
  })
  .refine((v) => v.end.getTime() > v.start.getTime(), { message: '结束时间须晚于开始时间', path: ['end'] });

/** Latest values of one device, by id or by code. */
export const productLatestOneBody = z
  .object({
    deviceId: id.optional(),
    deviceCode: deviceCodeSchema.optional(),
    identifiers: z.array(identifierSchema).max(200).optional(),
  })
  .refine((v) => v.deviceId !== undefined || v.deviceCode !== undefined, { message: 'deviceId不能为空', path: ['deviceId'] });

// ── Responses ─────────────────────────────────────────────────────────────────────────

export const deviceRecord = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  barcode: z.string().nullable(),
  siteId: z.number(),
  siteCode: z.string(),
  siteName: z.string(),
  companyId: z.number(),
  parentId: z.number().nullable(),
  parentName: z.string().nullable(),
  productId: z.number(),
  productName: z.string(),
  type: z.string(),
  meterPurpose: z.string().nullable(),
  cabinetId: z.number().nullable(),
  cabinetName: z.string().nullable(),
  ratedPower: z.number().nullable(),
  no: z.number().nullable(),
  subNo: z.number().nullable(),
  firmwareName: z.string().nullable(),
  firmwareVersion: z.string().nullable(),
  disabled: z.boolean(),
  status: deviceStatusSchema,
  /** Last telemetry or online status received (ISO), null when never. */
  lastSeenAt: isoTime.nullable(),
  createdAt: isoTime,
});
export type DeviceRecord = z.infer<typeof deviceRecord>;

/** Latest values by identifier. */
export const telemetryValues = z.record(z.string(), telemetryValueSchema);

export const deviceLatestRecord = deviceRecord.extend({
  /** Measurement time of the latest report (ISO). */
  ts: isoTime.nullable(),
  values: telemetryValues,
});
export type DeviceLatestRecord = z.infer<typeof deviceLatestRecord>;

export const deviceTreeNode = z.object({
  /** `site-<id>` or `device-<id>`. */
  key: z.string(),
  kind: z.enum(['site', 'device']),
  id: z.number(),
  code: z.string(),
  name: z.string(),
  type: z.string().optional(),
  status: deviceStatusSchema.optional(),
  get children(): z.ZodArray<typeof deviceTreeNode> {
    return z.array(deviceTreeNode);
  },
});
export type DeviceTreeNode = z.infer<typeof deviceTreeNode>;

export const deviceProperty = z.object({
  identifier: z.string(),
  name: z.string(),
  unit: z.string(),
  dataType: z.string(),
  value: telemetryValueSchema.nullable(),
  /** Enumerations: the label (and colour) of the value. */
  valueLabel: z.string().optional(),
  colour: z.string().optional(),
  cumulative: z.boolean(),
  writable: z.boolean(),
});
export type DeviceProperty = z.infer<typeof deviceProperty>;

export const deviceProperties = z.object({
  device: deviceRecord,
  ts: isoTime.nullable(),
  properties: z.array(deviceProperty),
});
export type DeviceProperties = z.infer<typeof deviceProperties>;

/** [epoch ms, value or null]. */
export const historyPoint = z.tuple([z.number(), z.number().nullable()]);
export type HistoryPoint = z.infer<typeof historyPoint>;

export const historySeries = z.object({
  identifier: z.string(),
  name: z.string(),
  unit: z.string(),
  cumulative: z.boolean(),
  /** Raw values, or the average of each bucket. */
  points: z.array(historyPoint),
  /** Buckets only. */
  min: z.array(historyPoint).optional(),
  max: z.array(historyPoint).optional(),
  /** Cumulative registers: the increase since the previous point. */
  delta: z.array(historyPoint).optional(),
});
export type HistorySeries = z.infer<typeof historySeries>;

export const deviceHistory = z.object({
  deviceId: z.number(),
  interval: z.enum(HISTORY_INTERVALS).exclude(['auto']),
  start: isoTime,
  end: isoTime,
  series: z.array(historySeries),
});
export type DeviceHistory = z.infer<typeof deviceHistory>;

export const deviceFault = z.object({
  code: z.string(),
  name: z.string(),
  level: z.number().nullable(),
  message: z.string(),
  /** When it appeared (device time, ISO). */
  since: isoTime,
});
export type DeviceFault = z.infer<typeof deviceFault>;

export const deviceFaultWarning = z.object({
  active: z.array(deviceFault),
  /** The latest transitions, newest first. */
  recent: z.array(z.object({ code: z.string(), name: z.string(), active: z.boolean(), message: z.string(), ts: isoTime })),
});
export type DeviceFaultWarning = z.infer<typeof deviceFaultWarning>;

// ── The registry: edits, files and changes ───────────────────────────────────────────

/**
 * Device registry operations (api-catalogue "Configuration" → Device, Device change): edit,
 * xlsx export and import of devices and of their products' static values, the EMS check,
 * device replacement and the import history. Uploads must be xlsx (product-spec §5).
 */

/** Device codes are what a device publishes under (ess/{site}/{code}/…): topic-safe. */
export const registryCodeSchema = z
  .string()
  .trim()
  .min(1, '设备编码不能为空')
  .max(64, '设备编码不能超过64个字符')
  .regex(/^[A-Za-z0-9_.-]+$/, '设备编码只能包含字母、数字、_ . -');

const smallPosition = z.number().int().min(1).max(32_767).nullable().optional();

export const deviceEditBody = z.object({
  id,
  code: registryCodeSchema,
  name: trimmed(64),
  barcode: optionalText(64),
  parentId: id.nullable().optional(),
  cabinetId: id.nullable().optional(),
  meterPurpose: meterPurposeSchema.nullable().optional(),
  ratedPower: z.number().min(0).max(1_000_000).nullable().optional(),
  no: smallPosition,
  subNo: smallPosition,
  firmwareName: optionalText(64),
  firmwareVersion: optionalText(32),
  disabled: z.boolean().optional(),
  sort: z.number().int().min(0).max(1_000_000).optional(),
});
export type DeviceEditBody = z.infer<typeof deviceEditBody>;

/** Export: the device filter (at most DEVICE_EXPORT_MAX_ROWS rows). */
export const deviceExportBody = deviceFilter.extend(deviceSort.shape);
export const DEVICE_EXPORT_MAX_ROWS = 20_000;
/** Rows one import file may hold. */
export const DEVICE_IMPORT_MAX_ROWS = 5_000;

/**
 * Columns of the device sheet, export and import alike (source-text headers). `required`
 * columns must be present and filled; the others may be absent or empty.
 */
export const DEVICE_SHEET_COLUMNS = [
  { key: 'siteCode', header: '站点编码', required: true },
  { key: 'code', header: '设备编码', required: true },
  { key: 'name', header: '设备名称', required: true },
  { key: 'productCode', header: '产品编码', required: true },
  { key: 'barcode', header: '条码', required: false },
  { key: 'parentCode', header: '上级设备编码', required: false },
  { key: 'meterPurpose', header: '电表用途', required: false },
  { key: 'cabinetCode', header: '储能柜编码', required: false },
  { key: 'ratedPower', header: '额定功率', required: false },
  { key: 'no', header: '序号', required: false },
  { key: 'subNo', header: '子序号', required: false },
  { key: 'firmwareName', header: '固件名称', required: false },
  { key: 'firmwareVersion', header: '固件版本', required: false },
  { key: 'disabled', header: '禁用', required: false },
  { key: 'sort', header: '排序', required: false },
] as const;
export type DeviceSheetKey = (typeof DEVICE_SHEET_COLUMNS)[number]['key'];

const DEVICE_CODE_RE = /^[A-Za-z0-9_.-]{1,64}$/;
/** A row of the device sheet (its cells by column key); station, product, parent and cabinet are checked against the stored ones by the import. */
export const deviceSheetRow = z
  .object({
    siteCode: cellText(32, '站点编码'),
    code: cell((s, bad) => (!s ? bad('设备编码不能为空') : s.length > 64 ? bad('不能超过64个字符') : DEVICE_CODE_RE.test(s) ? s : bad('设备编码只能包含字母、数字、_ . -'))),
    name: cellText(64, '设备名称'),
    productCode: cellText(64, '产品编码'),
    barcode: cellText(64),
    parentCode: cellText(64),
    meterPurpose: cell((s, bad) => (!s ? null : (METER_PURPOSES as readonly string[]).includes(s) ? s : bad(`须为 ${METER_PURPOSES.join('、')} 之一`))),
    cabinetCode: cellText(64),
    ratedPower: cellNumber(0, 1_000_000, false),
    no: cellNumber(1, 32_767, true),
    subNo: cellNumber(1, 32_767, true),
    firmwareName: cellText(64),
    firmwareVersion: cellText(32),
    disabled: cellYesNo(false),
    sort: cellNumber(0, 1_000_000, true).transform((v) => v ?? 0),
  } satisfies Record<DeviceSheetKey, z.ZodType>)
  .refine((r) => r.parentCode !== r.code, { message: '上级设备不能是设备自身', path: ['parentCode'] });
export type DeviceSheetRow = z.output<typeof deviceSheetRow>;

/** Device product data: the static property values of one product's devices. */
export const deviceProductExportBody = z.object({ productId: id, siteId: id.optional() });
/** Fixed leading columns of the product data sheet; then one column per static property, "名称(identifier)". */
export const PRODUCT_SHEET_COLUMNS = [
  { key: 'code', header: '设备编码' },
  { key: 'name', header: '设备名称' },
  { key: 'siteCode', header: '站点编码' },
] as const;
/** A row of the product data sheet: the device by code; the property columns are checked against the device's product by the import. */
export const productDataSheetRow = z.object({ code: cellText(64, '设备编码'), name: cell((s) => s || null), siteCode: cell((s) => s || null) });

export const emsCheckBody = z.object({ siteId: id });

export const deviceChangeBody = z.object({
  /** The device (position) whose hardware is replaced. */
  deviceId: id,
  newCode: registryCodeSchema,
  newBarcode: optionalText(64),
  /** Default: the current name. */
  newName: optionalText(64),
  newFirmwareVersion: optionalText(32),
  reason: optionalText(200),
});
export type DeviceChangeBody = z.infer<typeof deviceChangeBody>;

export const deviceChangeFilter = z.object({
  siteId: id.optional(),
  deviceId: id.optional(),
  /** Old or new code or barcode contains. */
  keyword: z.string().trim().max(64).optional(),
  start: instant.optional(),
  end: instant.optional(),
});
export const deviceChangePage = pageRequest.extend(deviceChangeFilter.shape);
export const deviceChangeProductQuery = z.object({ siteId: id });

export const IMPORT_KINDS = ['device', 'product'] as const;
export const IMPORT_STATUSES = ['success', 'failed'] as const;
export const importHistoryPage = pageRequest.extend({
  kind: z.enum(IMPORT_KINDS).optional(),
  status: z.enum(IMPORT_STATUSES).optional(),
  fileName: z.string().trim().max(64).optional(),
});

// ── Registry responses ───────────────────────────────────────────────────────────────

/** The refusal of the device imports: the one import refusal (common.ts), with the history row's id. */
export { importRefusal, importRowError, type ImportRefusal, type ImportRowError } from './common.ts';

/** A successful import; a refused one answers 406 and its errorMsg is the JSON of ImportRefusal. */
export const importResult = z.object({
  historyId: z.number(),
  totalRows: z.number(),
  created: z.number(),
  updated: z.number(),
});
export type ImportResult = z.infer<typeof importResult>;


export const deviceImportRecord = z.object({
  id: z.number(),
  kind: z.enum(IMPORT_KINDS),
  fileName: z.string(),
  status: z.enum(IMPORT_STATUSES),
  totalRows: z.number(),
  createdCount: z.number(),
  updatedCount: z.number(),
  errorCount: z.number(),
  errors: z.array(importRowError),
  username: z.string(),
  durationMs: z.number(),
  createdAt: isoTime,
});
export type DeviceImportRecord = z.infer<typeof deviceImportRecord>;

export const emsCheckResult = z.object({
  siteId: z.number(),
  deviceId: z.number(),
  deviceCode: z.string(),
  /** Registry status from the last report (online, offline, disabled, inactive). */
  status: deviceStatusSchema,
  lastSeenAt: isoTime.nullable(),
  /** Whether the EMS answered the probe command over MQTT in time. */
  answered: z.boolean(),
  /** Round trip of the probe, ms (null when it did not answer). */
  latencyMs: z.number().nullable(),
  /** online: answered; otherwise why not (timeout, disabled, broker unreachable). */
  online: z.boolean(),
  message: z.string(),
});
export type EmsCheckResult = z.infer<typeof emsCheckResult>;

export const deviceChangeRecord = z.object({
  id: z.number(),
  deviceId: z.number(),
  siteId: z.number(),
  siteName: z.string(),
  productId: z.number(),
  productName: z.string(),
  deviceType: z.string(),
  oldCode: z.string(),
  newCode: z.string(),
  oldBarcode: z.string().nullable(),
  newBarcode: z.string().nullable(),
  oldName: z.string(),
  newName: z.string(),
  oldFirmwareVersion: z.string().nullable(),
  newFirmwareVersion: z.string().nullable(),
  reason: z.string().nullable(),
  username: z.string(),
  changedAt: isoTime,
});
export type DeviceChangeRecord = z.infer<typeof deviceChangeRecord>;

export const deviceChangeProduct = z.object({
  productId: z.number(),
  productCode: z.string(),
  productName: z.string(),
  type: z.string(),
  deviceCount: z.number(),
});
export type DeviceChangeProduct = z.infer<typeof deviceChangeProduct>;

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

export const deviceEndpoints = {
  page: endpoint({ method: 'POST', path: '/configure/device/query/page', body: devicePage, response: pageOf(deviceRecord) }),
  list: endpoint({ method: 'POST', path: '/configure/device/query/list', body: deviceFilter, response: z.array(deviceRecord) }),
  one: endpoint({ method: 'POST', path: '/configure/device/query/one', body: idBody, response: deviceRecord }),
  tree: endpoint({ method: 'POST', path: '/configure/device/query/tree', body: deviceTreeBody, response: z.array(deviceTreeNode) }),
  latestList: endpoint({ method: 'POST', path: '/configure/device/data/latest/list', body: deviceLatestFilter, response: z.array(deviceLatestRecord) }),
  latestPage: endpoint({ method: 'POST', path: '/configure/device/data/latest/page', body: deviceLatestPage, response: pageOf(deviceLatestRecord) }),
  latestOne: endpoint({ method: 'POST', path: '/template/product/data/query/latest/one', body: productLatestOneBody, response: deviceLatestRecord }),
  // The registry: edit, xlsx export and import, the EMS check, replacement, import history.
  edit: endpoint({ method: 'POST', path: '/configure/device/edit', body: deviceEditBody, response: deviceRecord }),
  export: endpoint({ method: 'POST', path: '/configure/device/export', body: deviceExportBody, response: FILE }),
  import: endpoint({ method: 'POST', path: '/configure/device/import', multipart: true, response: importResult }),
  productExport: endpoint({ method: 'POST', path: '/configure/device/product/export', body: deviceProductExportBody, response: FILE }),
  productImport: endpoint({ method: 'POST', path: '/configure/device/product/import', multipart: true, response: importResult }),
  checkEms: endpoint({ method: 'POST', path: '/configure/device/check/ems', body: emsCheckBody, response: emsCheckResult }),
  change: endpoint({ method: 'POST', path: '/configure/device/change/change', body: deviceChangeBody, response: deviceChangeRecord }),
  changePage: endpoint({ method: 'POST', path: '/configure/device/change/query/page', body: deviceChangePage, response: pageOf(deviceChangeRecord) }),
  changeOne: endpoint({ method: 'POST', path: '/configure/device/change/query/one', body: idBody, response: deviceChangeRecord }),
  changeProducts: endpoint({ method: 'GET', path: '/configure/device/change/product/list', query: deviceChangeProductQuery, response: z.array(deviceChangeProduct) }),
  importHistoryPage: endpoint({ method: 'POST', path: '/configure/device/import/history/query/page', body: importHistoryPage, response: pageOf(deviceImportRecord) }),
};
