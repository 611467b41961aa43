import {
  comprehensiveEndpoints as api, type ChargingStatusList, type ChargingSummary, type GenerationType, type InverterStatusList, type MainMeterView,
  type PowerCurves, type SiteHandleAction, type SiteInfo, type SiteOverview, type SitePerformance, type SiteTopology, type SolarSummary,
} from '@ess/contract/comprehensive';
import { MAX_PAGE_SIZE } from '@ess/contract/constants';
import type { DeviceType } from '@ess/contract/telemetry';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../platform/request.ts';
import { dashboardKeys } from './dashboard.keys.ts';

/** How often live figures are read again (the stations report every 5 s). */
export const DASHBOARD_LIVE_MS = 5000;
/** Curves and energy charts are read again every minute (their buckets are 5 minutes or more). */
export const DASHBOARD_CHART_MS = 60_000;

/** Polling calls stay out of the full-screen spinner. */
const quiet = { loading: false } as const;

export interface LiveSiteQuery {
  current: number;
  pageSize: number;
  companyId?: number;
}

export const dashboardApi = {
  list: (q: LiveSiteQuery) => call(api.list, q, quiet),
  info: (siteId: number) => call(api.info, { siteId }, quiet),
  overview: (siteId: number) => call(api.overview, { siteId }, quiet),
  topology: (siteId: number) => call(api.topology, { siteId }, quiet),
  mainMeter: (siteId: number) => call(api.mainMeter, { siteId }, quiet),
  performance: (siteId: number) => call(api.performance, { siteId }, quiet),
  powerData: (siteId: number) => call(api.powerData, { siteId }, quiet),
  solarSummary: (siteId: number) => call(api.solarSummary, { siteId }, quiet),
  inverterStatus: (siteId: number) => call(api.inverterStatus, { siteId }, quiet),
  chargingSummary: (siteId: number) => call(api.chargingSummary, { siteId }, quiet),
  chargingStatus: (siteId: number) => call(api.chargingStatus, { siteId }, quiet),
  generation: (kind: GenerationKind, siteId: number, type: GenerationType) =>
    call(kind === 'solar' ? api.solarGeneration : api.chargingGeneration, { siteId, type }, quiet),
  deviceStatus: (q: DeviceStatusFilter) => call(api.deviceStatus, q, quiet),
  handle: (body: { siteId: number; action: SiteHandleAction; note?: string }) => call(api.handle, body),
};

export type GenerationKind = 'solar' | 'charging';

/** The device-status overview of one station or all, one device type or all. */
export interface DeviceStatusFilter {
  siteId?: number;
  type?: DeviceType;
}

/** A page of stations with live status and power, read every DASHBOARD_LIVE_MS. */
export function useLiveSites(q: LiveSiteQuery) {
  return useQuery({ queryKey: dashboardKeys.list(q), queryFn: () => dashboardApi.list(q), refetchInterval: DASHBOARD_LIVE_MS, placeholderData: keepPreviousData });
}

/**
 * Every station the user sees with its live picture (one page of the largest size), for the
 * operations board; read every DASHBOARD_LIVE_MS.
 */
export function useBoardSites() {
  const q = { current: 1, pageSize: MAX_PAGE_SIZE };
  return useQuery({ queryKey: dashboardKeys.list(q), queryFn: () => dashboardApi.list(q), refetchInterval: DASHBOARD_LIVE_MS, placeholderData: keepPreviousData });
}

/** What each per-station part answers. */
interface SiteParts {
  info: SiteInfo;
  overview: SiteOverview;
  topology: SiteTopology;
  mainMeter: MainMeterView;
  performance: SitePerformance;
  powerData: PowerCurves;
  solarSummary: SolarSummary;
  inverterStatus: InverterStatusList;
  chargingSummary: ChargingSummary;
  chargingStatus: ChargingStatusList;
}

/** One part of a station's picture; live parts every DASHBOARD_LIVE_MS, the rest as asked. */
export function useSitePart<P extends keyof SiteParts>(part: P, siteId: number | undefined, every: number | false = DASHBOARD_LIVE_MS, enabled = true) {
  return useQuery<SiteParts[P]>({
    queryKey: dashboardKeys.site(siteId ?? 0, part),
    queryFn: () => (dashboardApi[part] as (id: number) => Promise<SiteParts[P]>)(siteId!),
    enabled: siteId !== undefined && enabled,
    refetchInterval: every,
    placeholderData: keepPreviousData,
  });
}

export function useGeneration(kind: GenerationKind, siteId: number | undefined, type: GenerationType, enabled = true) {
  return useQuery({
    queryKey: dashboardKeys.site(siteId ?? 0, `generation-${kind}`, { type }),
    queryFn: () => dashboardApi.generation(kind, siteId!, type),
    enabled: siteId !== undefined && enabled,
    refetchInterval: DASHBOARD_CHART_MS,
    placeholderData: keepPreviousData,
  });
}

export function useDeviceStatus(q: DeviceStatusFilter) {
  return useQuery({ queryKey: dashboardKeys.deviceStatus(q), queryFn: () => dashboardApi.deviceStatus(q), refetchInterval: DASHBOARD_LIVE_MS * 2, placeholderData: keepPreviousData });
}

/** Handles a station; its info and the station lists are read again. */
export function useHandleSite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: dashboardApi.handle,
    onSuccess: () => client.invalidateQueries({ queryKey: dashboardKeys.all }),
  });
}

/** The station id of `?siteId=`, or undefined. */
export function siteIdParam(search: URLSearchParams): number | undefined {
  const raw = search.get('siteId');
  if (!raw || !/^\d{1,10}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id > 0 ? id : undefined;
}

/** The single-station view of a station. */
export const stationHref = (siteId: number) => `/overview/station?siteId=${siteId}`;
