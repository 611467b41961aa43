import { i18nEndpoints } from '@ess/contract/i18n';
import { siteEndpoints, type SiteType } from '@ess/contract/site';
import { rememberCurrencies } from '../number-format.ts';
import type { DataOption, OptionSource } from '../crud/crud.types.ts';
import { call } from '../../platform/request.ts';
import { sharedKeys } from './keys.ts';

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

/** "name (code)", the way every picker names a station. */
export const siteLabel = (s: Pick<SiteRef, 'name' | 'code'>) => (s.code ? `${s.name} (${s.code})` : s.name);

/** Stations the caller may see, as options "name (code)". */
export const siteSource: OptionSource = {
  queryKey: sharedKeys.site.list({ as: 'options' }),
  load: async () => (await call(siteEndpoints.list, {}, { loading: false })).map((s): DataOption => ({ value: s.id, label: siteLabel(s) })),
};

/** The stations the caller may see, as records. */
export const siteListQuery = {
  queryKey: sharedKeys.site.list({ as: 'records' }),
  queryFn: () => call(siteEndpoints.list, {}, { loading: false }),
  staleTime: 30_000,
};

/** Stations of one company (or all the caller may see). */
export const siteQuery = (companyId: number | undefined) => ({
  queryKey: sharedKeys.site.list({ as: 'records', companyId: companyId ?? null }),
  queryFn: () => call(siteEndpoints.list, companyId ? { companyId } : {}, { loading: false, noMessage: true }),
  staleTime: 60_000,
  retry: false,
});

/**
 * The enabled currencies of /globalization/currency as options "CNY ¥ 人民币" (a station picks its
 * currency from them, and so do price templates and report parameters); loading them also tells the money formatter their minor units.
 */
export const currencySource: OptionSource = {
  queryKey: sharedKeys.currency.list({ as: 'options', enabled: true }),
  load: async () => {
    const rows = await call(i18nEndpoints.currencyList, { enabled: true }, { loading: false });
    rememberCurrencies(rows);
    return rows.map((c): DataOption => ({ value: c.code, label: `${c.code} ${c.symbol} ${c.name}` }));
  },
};
