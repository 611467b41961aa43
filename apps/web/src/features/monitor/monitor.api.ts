import { deviceEndpoints, type DeviceStatus, type HistoryInterval } from '@ess/contract/device';
import type { EndpointInput } from '@ess/contract/endpoint';
import { monitorEndpoints, type MeterRegister, type MonitorChild, type MonitorDetail } from '@ess/contract/monitor';
import type { DeviceType } from '@ess/contract/telemetry';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, callFile } from '../../platform/request.ts';
import { isDeviceType } from '../../components/device-types.ts';
import { monitorKeys } from './monitor.keys.ts';
import type { DeviceSortField } from '@ess/contract/device';
import type { SortOrder } from '@ess/contract/common';
import { productTemplateEndpoints } from '@ess/contract/product';

/** How often live values and device states are read again (the simulator reports every 5 s). */
export const LIVE_REFRESH_MS = 5000;
/** Charts of the day are read again every minute. */
export const CHART_REFRESH_MS = 60_000;

/** Polling calls stay out of the full-screen spinner and do not toast on each failed round. */
const quiet = { loading: false } as const;

export interface LatestPageBody {
  current: number;
  pageSize: number;
  siteId?: number;
  type?: DeviceType;
  status?: DeviceStatus;
  keyword?: string;
  identifiers?: string[];
  sortField?: DeviceSortField;
  sortOrder?: SortOrder;
}

export interface HistoryBody {
  deviceId: number;
  identifiers: string[];
  start: string;
  end: string;
  interval?: HistoryInterval;
}

/** The filters of a device list (and of the latest values of a set of devices). */
export type DeviceListBody = NonNullable<EndpointInput<typeof deviceEndpoints.list>>;
export type LatestListBody = NonNullable<EndpointInput<typeof deviceEndpoints.latestList>>;

export const monitorApi = {
  tree: () => call(deviceEndpoints.tree, {}, quiet),
  deviceList: (body: DeviceListBody) => call(deviceEndpoints.list, body, quiet),
  deviceOne: (id: number) => call(deviceEndpoints.one, { id }, quiet),
  latestPage: (body: LatestPageBody) => call(deviceEndpoints.latestPage, body, quiet),
  latestList: (body: LatestListBody) => call(deviceEndpoints.latestList, body, quiet),
  faults: (deviceId: number) => call(monitorEndpoints.faultWarning, { deviceId }, quiet),
  history: (body: HistoryBody) => call(monitorEndpoints.history, body, quiet),
  energyOverview: (siteId: number) => call(monitorEndpoints.energyOverview, { siteId }, quiet),
  /** Several devices' history as xlsx (the catalogue's template data export), in the user's language and zone. */
  exportHistory: (body: { deviceIds: number[]; identifiers: string[]; start: string; end: string; interval: HistoryInterval }) =>
    callFile(productTemplateEndpoints.exportHistory, body),
  detail: (type: string, deviceId: number): Promise<TypeDetail> => call(detailEndpoint(type), { deviceId }, quiet),
};

const M = monitorEndpoints;
/** The per-type detail call of each device type (api-catalogue "Device monitoring"); others use /monitor/normal/one. */
export const DETAIL_ENDPOINTS = {
  ems: M.essOne,
  pcs: M.pcsOne,
  bms: M.bmsOne,
  batteryCluster: M.batteryClusterOne,
  batteryPack: M.batteryPackOne,
  airConditioner: M.airConditionerOne,
  dcdc: M.dcdcOne,
  pvInverter: M.pvOne,
  transformer: M.transformerOne,
  meter: M.electricMeterOne,
  chargingPile: M.chargingPileOne,
  chargingGun: M.chargingGunOne,
} satisfies Record<DeviceType, unknown>;
type DetailEndpoint = (typeof DETAIL_ENDPOINTS)[DeviceType] | typeof M.normalOne;
export const detailEndpoint = (type: string): DetailEndpoint => (isDeviceType(type) ? DETAIL_ENDPOINTS[type] : M.normalOne);

/**
 * What a per-type detail holds: every detail has the device, its latest values and the type's
 * summary; some add child devices (clusters, packs, guns, converters) or meter registers.
 */
export type TypeDetail = MonitorDetail & {
  clusters?: MonitorChild[];
  packs?: MonitorChild[];
  guns?: MonitorChild[];
  pcs?: MonitorChild[];
  bms?: MonitorChild[];
  airConditioners?: MonitorChild[];
  registers?: MeterRegister[];
};

/**
 * A station's energy picture, live: power, SOC, the station-local today's energy and the lifetime
 * totals — the station overview's own figures (one computation on the server).
 */
export function useEnergyOverview(siteId: number | undefined) {
  return useQuery({
    queryKey: monitorKeys.energyOverview(siteId ?? 0),
    queryFn: () => monitorApi.energyOverview(siteId!),
    enabled: siteId !== undefined,
    refetchInterval: LIVE_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

/** The stations in scope (the site nodes of the device tree), with their devices. */
export function useSiteTree() {
  return useQuery({ queryKey: monitorKeys.tree(), queryFn: monitorApi.tree, staleTime: 60_000 });
}

/** A page of devices with their latest values and live status, read again every LIVE_REFRESH_MS. */
export function useLatestPage(body: LatestPageBody) {
  return useQuery({
    queryKey: monitorKeys.latestPage(body),
    queryFn: () => monitorApi.latestPage(body),
    refetchInterval: LIVE_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

/** Latest values of a set of devices, live. */
export function useLatestList(body: LatestListBody, enabled = true) {
  return useQuery({
    queryKey: monitorKeys.latestList(body),
    queryFn: () => monitorApi.latestList(body),
    refetchInterval: LIVE_REFRESH_MS,
    enabled,
    placeholderData: keepPreviousData,
  });
}

/**
 * One device, live, from its type's detail call: the device's type is read once (its registry
 * record), then the type's detail every LIVE_REFRESH_MS.
 */
export function useDeviceDetail(deviceId: number | null) {
  const record = useQuery({
    queryKey: monitorKeys.device(deviceId ?? 0),
    queryFn: () => monitorApi.deviceOne(deviceId!),
    enabled: deviceId !== null,
    staleTime: Infinity,
  });
  const type = record.data?.type;
  const detail = useQuery({
    queryKey: monitorKeys.properties(deviceId ?? 0),
    queryFn: () => monitorApi.detail(type!, deviceId!),
    enabled: deviceId !== null && type !== undefined,
    refetchInterval: LIVE_REFRESH_MS,
  });
  return { record, detail };
}

export function useDeviceFaults(deviceId: number | null) {
  return useQuery({
    queryKey: monitorKeys.faults(deviceId ?? 0),
    queryFn: () => monitorApi.faults(deviceId!),
    enabled: deviceId !== null,
    refetchInterval: LIVE_REFRESH_MS * 2,
  });
}

/**
 * The body of a live history read: `slide` keeps the span and moves it to end now, `grow` keeps
 * the start and ends now; without a mode the body is sent as it is.
 */
export function liveHistoryBody(body: HistoryBody, mode: 'slide' | 'grow' | undefined, now: number): HistoryBody {
  if (!mode) return body;
  const start = Date.parse(body.start);
  const span = Date.parse(body.end) - start;
  return mode === 'slide'
    ? { ...body, start: new Date(now - span).toISOString(), end: new Date(now).toISOString() }
    : { ...body, end: new Date(Math.max(now, start + 1000)).toISOString() };
}

/** History of some identifiers of a device; with a live mode it is read again every CHART_REFRESH_MS up to now. */
export function useHistory(body: HistoryBody | null, live?: 'slide' | 'grow') {
  return useQuery({
    queryKey: monitorKeys.history({ ...(body ?? {}), live }),
    queryFn: () => monitorApi.history(liveHistoryBody(body!, live, Date.now())),
    enabled: body !== null && body.identifiers.length > 0,
    refetchInterval: live ? CHART_REFRESH_MS : false,
    placeholderData: keepPreviousData,
  });
}
