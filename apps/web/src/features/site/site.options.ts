import type { DataOption, EnumOption, OptionSource } from '../../components/crud/index.ts';
import { call } from '../../platform/request.ts';
import { PV_WORKING_MODE_LABELS, PV_WORKING_MODES, SITE_TYPE_LABELS, SITE_TYPES, siteEndpoints, type SiteType } from '@ess/contract/site';

/** Pickers and enumerations of the configuration screens. */

export const SITE_TYPE_OPTIONS: EnumOption[] = SITE_TYPES.map((v) => ({ value: v, label: SITE_TYPE_LABELS[v] }));
export const PV_MODE_OPTIONS: EnumOption[] = PV_WORKING_MODES.map((v) => ({ value: v, label: PV_WORKING_MODE_LABELS[v] }));

/** ISO 4217 codes offered for a station's settlement currency (the contract accepts any three-letter code). */
export const CURRENCIES = ['CNY', 'USD', 'EUR', 'GBP', 'JPY', 'HKD', 'AUD', 'CAD', 'SGD', 'KRW', 'THB', 'MYR', 'IDR', 'VND', 'KHR', 'SAR', 'AED', 'EGP', 'BRL', 'INR'] as const;
export const CURRENCY_OPTIONS: EnumOption[] = CURRENCIES.map((c) => ({ value: c, label: c, literal: true }));

/** IANA time zones of the browser, with the common station zones first when the list is unavailable. */
export function timeZoneOptions(): EnumOption[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['Asia/Shanghai', 'Europe/Berlin', 'America/Los_Angeles', 'UTC'];
  const list = zones.includes('UTC') ? zones : [...zones, 'UTC'];
  return list.map((z) => ({ value: z, label: z, literal: true }));
}

export interface SiteRef {
  id: number;
  name: string;
  code: string;
  companyId: number;
  companyName: string;
  timeZone: string;
  currency: string;
  siteType: SiteType;
}

/** Stations the caller may see, as options "name (code)". */
export const siteSource: OptionSource = {
  queryKey: ['configure', 'site', 'options', 'all'],
  load: async () => (await call(siteEndpoints.list, {}, { loading: false })).map((s): DataOption => ({ value: s.id, label: `${s.name} (${s.code})` })),
};

export const siteListQuery = {
  queryKey: ['configure', 'site', 'options', 'records'] as const,
  queryFn: () => call(siteEndpoints.list, {}, { loading: false }),
  staleTime: 30_000,
};
