import {
  homeEndpoints, revenueEndpoints as api, type ArbitrageFeeCurve, type ArbitrageFilter, type ArbitrageQuantityCurve, type ArbitrageSummary,
  type EarningsChartType, type HomeCharge, type HomeEnergy, type HomeError, type HomeIncome, type HomeTop,
} from '@ess/contract/dashboard';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, callFile } from '../../platform/request.ts';
import { DASHBOARD_CHART_MS } from './comprehensive.api.ts';
import { revenueKeys } from './dashboard.keys.ts';

/**
 * The money calls (contract revenue.ts): the home page per company, a station's earnings, and the
 * energy-arbitrage overview. Revenue is stored per station-day and recomputed as days go on, so
 * these are read again every DASHBOARD_CHART_MS; the home page's live parts (devices, alarms)
 * every HOME_LIVE_MS.
 */
export const HOME_LIVE_MS = 15_000;

const quiet = { loading: false } as const;

interface HomeParts {
  top: HomeTop;
  energy: HomeEnergy;
  charge: HomeCharge;
  error: HomeError;
  income: HomeIncome;
}
export type HomePart = keyof HomeParts;

/** One call per part of the home page. */
const homeCalls: { [P in HomePart]: (companyId: number) => Promise<HomeParts[P]> } = {
  top: (companyId) => call(homeEndpoints.top, { companyId }, quiet),
  energy: (companyId) => call(homeEndpoints.energy, { companyId }, quiet),
  charge: (companyId) => call(homeEndpoints.charge, { companyId }, quiet),
  error: (companyId) => call(homeEndpoints.error, { companyId }, quiet),
  income: (companyId) => call(homeEndpoints.income, { companyId }, quiet),
};

/** The arbitrage calls' body without paging (contract arbitrageFilter's input). */
export type ArbitrageBody = Pick<ArbitrageFilter, 'start' | 'end'> & { companyId?: number; siteIds?: number[]; bucket?: 'day' | 'month' };

export const revenueApi = {
  home: <P extends HomePart>(part: P, companyId: number) => homeCalls[part](companyId),
  earnings: (siteId: number, date?: string) => call(api.earnings, { siteId, ...(date ? { date } : {}) }, quiet),
  earningsChart: (siteId: number, type: EarningsChartType, date?: string) => call(api.earningsChart, { siteId, type, ...(date ? { date } : {}) }, quiet),
  summary: (b: ArbitrageBody) => call(api.arbitrageSummary, b, quiet),
  fee: (b: ArbitrageBody) => call(api.arbitrageFee, b, quiet),
  quantity: (b: ArbitrageBody) => call(api.arbitrageQuantity, b, quiet),
  detail: (b: ArbitrageBody & { current: number; pageSize: number }) => call(api.arbitrageDetail, b, quiet),
  /** Saves the station-days of the filter as an xlsx (the file name comes from the server). */
  exportDetail: (b: ArbitrageBody, fileName: string) => callFile(api.arbitrageExport, b, { fileName }),
};

/** One part of the home page for a company; the live parts more often than the money. */
export function useHomePart<P extends HomePart>(part: P, companyId: number | undefined) {
  const every = part === 'top' || part === 'error' || part === 'charge' ? HOME_LIVE_MS : DASHBOARD_CHART_MS;
  return useQuery<HomeParts[P]>({
    queryKey: revenueKeys.home(part, companyId ?? 0),
    queryFn: () => revenueApi.home(part, companyId!),
    enabled: companyId !== undefined,
    refetchInterval: every,
    placeholderData: keepPreviousData,
  });
}

export function useEarnings(siteId: number | undefined, date?: string) {
  return useQuery({
    queryKey: revenueKeys.earnings(siteId ?? 0, date),
    queryFn: () => revenueApi.earnings(siteId!, date),
    enabled: siteId !== undefined,
    refetchInterval: DASHBOARD_CHART_MS,
    placeholderData: keepPreviousData,
  });
}

export function useEarningsChart(siteId: number | undefined, type: EarningsChartType, date?: string) {
  return useQuery({
    queryKey: revenueKeys.earningsChart(siteId ?? 0, type, date),
    queryFn: () => revenueApi.earningsChart(siteId!, type, date),
    enabled: siteId !== undefined,
    refetchInterval: DASHBOARD_CHART_MS,
    placeholderData: keepPreviousData,
  });
}

interface ArbitrageParts {
  summary: ArbitrageSummary;
  fee: ArbitrageFeeCurve;
  quantity: ArbitrageQuantityCurve;
}

export function useArbitrage<P extends keyof ArbitrageParts>(part: P, body: ArbitrageBody | null) {
  return useQuery<ArbitrageParts[P]>({
    queryKey: revenueKeys.arbitrage(part, body ?? {}),
    queryFn: () => (revenueApi[part] as (b: ArbitrageBody) => Promise<ArbitrageParts[P]>)(body!),
    enabled: body !== null,
    refetchInterval: DASHBOARD_CHART_MS,
    placeholderData: keepPreviousData,
  });
}

export function useArbitrageDetail(body: (ArbitrageBody & { current: number; pageSize: number }) | null) {
  return useQuery({
    queryKey: revenueKeys.arbitrage('detail', body ?? {}),
    queryFn: () => revenueApi.detail(body!),
    enabled: body !== null,
    placeholderData: keepPreviousData,
  });
}
