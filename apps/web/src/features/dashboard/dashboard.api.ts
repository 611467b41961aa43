import type { Page } from '@ess/contract/common';
import type {
  ChargingStatusList, ChargingSummary, DeviceStatusOverview, GenerationChart, GenerationType, InverterStatusList, LiveSite, MainMeterView,
  PowerCurves, SiteHandleAction, SiteHandleResult, SiteInfo, SiteOption, SiteOverview, SitePerformance, SiteTopology, SolarSummary,
} from '@ess/contract/comprehensive';
import { MAX_PAGE_SIZE } from '@ess/contract/constants';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post } from '../../platform/request.ts';

/** How often live figures are read again (the stations report every 5 s). */
export const DASHBOARD_LIVE_MS = 5000;
/** Curves and energy charts are read again every minute (their buckets are 5 minutes or more). */
export const DASHBOARD_CHART_MS = 60_000;

/** Polling calls stay out of the full-screen spinner. */
const quiet = { loading: false } as const;

export const dashboardKeys = {
  all: ['dashboard'] as const,
  list: (q: object) => ['dashboard', 'list', q] as const,
  down: () => ['dashboard', 'down'] as const,
  site: (siteId: number, part: string, extra: object = {}) => ['dashboard', 'site', siteId, part, extra] as const,
  deviceStatus: (q: object) => ['dashboard', 'device-status', q] as const,
};

export interface LiveSiteQuery {
  current: number;
  pageSize: number;
  companyId?: number;
}

export const dashboardApi = {
  list: (q: LiveSiteQuery) => get<Page<LiveSite>>('/comprehensive/site/list', q, quiet),
  down: () => get<SiteOption[]>('/comprehensive/site/down', {}, quiet),
  info: (siteId: number) => get<SiteInfo>('/comprehensive/site/info', { siteId }, quiet),
  overview: (siteId: number) => get<SiteOverview>('/comprehensive/site/overview', { siteId }, quiet),
  topology: (siteId: number) => get<SiteTopology>('/comprehensive/site/topology', { siteId }, quiet),
  mainMeter: (siteId: number) => get<MainMeterView>('/comprehensive/site/mainMeter', { siteId }, quiet),
  performance: (siteId: number) => get<SitePerformance>('/comprehensive/site/performance', { siteId }, quiet),
  powerData: (siteId: number) => get<PowerCurves>('/comprehensive/site/powerData', { siteId }, quiet),
  solarSummary: (siteId: number) => get<SolarSummary>('/comprehensive/solar/summary', { siteId }, quiet),
  inverterStatus: (siteId: number) => get<InverterStatusList>('/comprehensive/solar/inverter-status', { siteId }, quiet),
  chargingSummary: (siteId: number) => get<ChargingSummary>('/comprehensive/charging/summary', { siteId }, quiet),
  chargingStatus: (siteId: number) => get<ChargingStatusList>('/comprehensive/charging/inverter/status', { siteId }, quiet),
  generation: (kind: GenerationKind, siteId: number, type: GenerationType) =>
    get<GenerationChart>(kind === 'solar' ? '/comprehensive/solar/total-generation' : '/comprehensive/charging/total/generation', { siteId, type }, quiet),
  deviceStatus: (q: { siteId?: number; type?: string }) => get<DeviceStatusOverview>('/comprehensive/site/device-status', q, quiet),
  handle: (body: { siteId: number; action: SiteHandleAction; note?: string }) => post<SiteHandleResult>('/comprehensive/site/handle', body),
};

export type GenerationKind = 'solar' | 'charging';

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

/** The stations the user sees, for pickers. */
export function useSiteOptions() {
  return useQuery({ queryKey: dashboardKeys.down(), queryFn: dashboardApi.down, staleTime: 60_000 });
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

export function useDeviceStatus(q: { siteId?: number; type?: string }) {
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
