import { PRICE_PERIODS } from '@ess/contract/constants';
import {
  BILLING_SYSTEM_LABELS, BILLING_SYSTEMS, ELECTRICITY_TYPE_LABELS, ELECTRICITY_TYPES, PRICE_PERIOD_LABELS, priceCycleEndpoints,
} from '@ess/contract/pricing';
import type { DataOption, EnumOption, OptionSource } from '../../components/crud/index.ts';
import { call } from '../../platform/request.ts';
import { pricingKeys } from './pricing.keys.ts';

/** Enumerations, colours, units and pickers of the pricing screens. */

export const ELECTRICITY_TYPE_OPTIONS: EnumOption[] = ELECTRICITY_TYPES.map((v) => ({ value: v, label: ELECTRICITY_TYPE_LABELS[v] }));
export const BILLING_SYSTEM_OPTIONS: EnumOption[] = BILLING_SYSTEMS.map((v) => ({ value: v, label: BILLING_SYSTEM_LABELS[v] }));
export const PERIOD_OPTIONS: EnumOption[] = PRICE_PERIODS.map((v) => ({ value: v, label: PRICE_PERIOD_LABELS[v] }));

/** Unit of an energy price in a currency: "CNY/kWh". */
export const perKwh = (currency: string) => `${currency}/kWh`;

/** Price with up to 6 decimals as written (no rounding away of significant digits). */
export function formatPrice(v: number | null | undefined): string {
  if (v === null || v === undefined) return '-';
  return String(Number(v.toFixed(6)));
}

export const MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;

/** An entered price kept to the 6 decimals the contract allows (the input shows no padding zeros). */
export const priceOf = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v * 1e6) / 1e6 : null);

/** Months as runs of consecutive months: [1,2,3,7] → [[1,3],[7,7]]. */
export function monthRuns(months: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const m of [...months].sort((a, b) => a - b)) {
    const last = runs[runs.length - 1];
    if (last && last[1] === m - 1) last[1] = m;
    else runs.push([m, m]);
  }
  return runs;
}

/** Templates a station may use (its company or above, its currency), with their cycles. */
export const usableTemplatesQuery = (siteId: number | null) => ({
  queryKey: pricingKeys.templatesForSite(siteId),
  queryFn: () => call(priceCycleEndpoints.templates, { siteId }, { loading: false }),
  enabled: siteId !== null,
  staleTime: 30_000,
});

/** The template picker of a station's configuration form. */
export const templateSourceFor = (siteId: number): OptionSource => ({
  queryKey: pricingKeys.templateOptions(siteId),
  load: async () =>
    (await call(priceCycleEndpoints.templates, { siteId }, { loading: false })).map(
      (t): DataOption => ({ value: t.id, label: `${t.name} (${t.currency}, ${t.voltageLevel})` }),
    ),
});
