import { z } from 'zod';
import { id, idBody, instant, pageRequest } from './common.ts';
import { QUERY_RANGE_LIMIT_MS } from './constants.ts';
import { endpoint, isoTime, pageOf } from './endpoint.ts';
import { deviceCodeSchema, deviceTypeSchema, identifierSchema, meterPurposeSchema, telemetryValueSchema } from './telemetry.ts';

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
export const devicePage = pageRequest.extend(deviceFilter.shape);

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
export const deviceLatestPage = pageRequest.extend(deviceLatestFilter.shape);

export const deviceIdQuery = z.object({ deviceId: id });

export const HISTORY_INTERVALS = ['auto', 'raw', '5m', '1h', '1d'] as const;
export type HistoryInterval = (typeof HISTORY_INTERVALS)[number];
/**
 * Longest range per interval. Raw reports: the spec's 24-hour limit for large data queries
 * (product-spec §5); day values must stay within one station-local month ("daily statistics
 * across months are not open"). `auto` picks raw, then 5 minutes, then hours.
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

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

/** The device registry's reads: devices, the station tree and latest values (edits, files and changes: equipmentEndpoints). */
export const deviceEndpoints = {
  page: endpoint({ method: 'POST', path: '/configure/device/query/page', body: devicePage, response: pageOf(deviceRecord) }),
  list: endpoint({ method: 'POST', path: '/configure/device/query/list', body: deviceFilter, response: z.array(deviceRecord) }),
  one: endpoint({ method: 'POST', path: '/configure/device/query/one', body: idBody, response: deviceRecord }),
  tree: endpoint({ method: 'POST', path: '/configure/device/query/tree', body: deviceTreeBody, response: z.array(deviceTreeNode) }),
  latestList: endpoint({ method: 'POST', path: '/configure/device/data/latest/list', body: deviceLatestFilter, response: z.array(deviceLatestRecord) }),
  latestPage: endpoint({ method: 'POST', path: '/configure/device/data/latest/page', body: deviceLatestPage, response: pageOf(deviceLatestRecord) }),
  latestOne: endpoint({ method: 'POST', path: '/template/product/data/query/latest/one', body: productLatestOneBody, response: deviceLatestRecord }),
};
