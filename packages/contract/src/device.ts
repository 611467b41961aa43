import { z } from 'zod';
import { id, instant, pageRequest } from './common.ts';
import { QUERY_RANGE_LIMIT_MS } from './constants.ts';
import { deviceCodeSchema, deviceTypeSchema, identifierSchema, meterPurposeSchema, type TelemetryValue } from './telemetry.ts';

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

export interface DeviceRecord {
  id: number;
  code: string;
  name: string;
  barcode: string | null;
  siteId: number;
  siteCode: string;
  siteName: string;
  companyId: number;
  parentId: number | null;
  parentName: string | null;
  productId: number;
  productName: string;
  type: string;
  meterPurpose: string | null;
  cabinetId: number | null;
  cabinetName: string | null;
  ratedPower: number | null;
  no: number | null;
  subNo: number | null;
  firmwareName: string | null;
  firmwareVersion: string | null;
  disabled: boolean;
  status: DeviceStatus;
  /** Last telemetry or online status received (ISO), null when never. */
  lastSeenAt: string | null;
  createdAt: string;
}

export interface DeviceLatestRecord extends DeviceRecord {
  /** Measurement time of the latest report (ISO). */
  ts: string | null;
  values: Record<string, TelemetryValue>;
}

export interface DeviceTreeNode {
  /** `site-<id>` or `device-<id>`. */
  key: string;
  kind: 'site' | 'device';
  id: number;
  code: string;
  name: string;
  type?: string;
  status?: DeviceStatus;
  children: DeviceTreeNode[];
}

export interface DeviceProperty {
  identifier: string;
  name: string;
  unit: string;
  dataType: string;
  value: TelemetryValue | null;
  /** Enumerations: the label (and colour) of the value. */
  valueLabel?: string;
  colour?: string;
  cumulative: boolean;
  writable: boolean;
}

export interface DeviceProperties {
  device: DeviceRecord;
  ts: string | null;
  properties: DeviceProperty[];
}

export type HistoryPoint = [number, number | null];

export interface HistorySeries {
  identifier: string;
  name: string;
  unit: string;
  cumulative: boolean;
  /** Raw values, or the average of each bucket. */
  points: HistoryPoint[];
  /** Buckets only. */
  min?: HistoryPoint[];
  max?: HistoryPoint[];
  /** Cumulative registers: the increase since the previous point. */
  delta?: HistoryPoint[];
}

export interface DeviceHistory {
  deviceId: number;
  interval: Exclude<HistoryInterval, 'auto'>;
  start: string;
  end: string;
  series: HistorySeries[];
}

export interface DeviceFault {
  code: string;
  name: string;
  level: number | null;
  message: string;
  /** When it appeared (device time, ISO). */
  since: string;
}

export interface DeviceFaultWarning {
  active: DeviceFault[];
  /** The latest transitions, newest first. */
  recent: { code: string; name: string; active: boolean; message: string; ts: string }[];
}
