import dayjs from 'dayjs';
import { useI18nStore } from '../platform/i18n/translate.ts';

/**
 * The console's one number and date formatter: numbers and instants as the reader's locale
 * writes them (de-DE 19.679,54; en-US 19,679.54; thousands separators everywhere), in the
 * language the user picked, not the browser's. Formatters are kept per locale and options.
 */

const numberFormats = new Map<string, Intl.NumberFormat>();

export interface NumberOptions {
  /** Exactly this many decimals (money: 2). Default: up to `maxDecimals`. */
  decimals?: number;
  /** At most this many decimals, trailing zeros dropped (default 3). */
  maxDecimals?: number;
  locale?: string;
}

const currentLocale = () => useI18nStore.getState().locale;

function numberFormat(locale: string, o: NumberOptions): Intl.NumberFormat {
  const key = `${locale}|${o.decimals ?? ''}|${o.maxDecimals ?? ''}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(
      locale,
      o.decimals !== undefined
        ? { minimumFractionDigits: o.decimals, maximumFractionDigits: o.decimals }
        : { maximumFractionDigits: o.maxDecimals ?? 3 },
    );
    numberFormats.set(key, f);
  }
  return f;
}

/** A number for the reader: grouped, up to 3 decimals (or as asked); '-' for no number. */
export function formatNumber(v: number | null | undefined, o: NumberOptions = {}): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '-';
  return numberFormat(o.locale ?? currentLocale(), o).format(v);
}

const minorUnits = new Map<string, number>();

/** Tells the money formatter the minor units of the installation's currencies (/globalization/currency). */
export function rememberCurrencies(list: readonly { code: string; minorUnits: number }[]): void {
  for (const c of list) minorUnits.set(c.code, c.minorUnits);
}

/**
 * The decimals money of a currency is shown to: as /globalization/currency sets it when the console
 * has loaded the currencies, else ISO 4217's (Intl knows them: JPY 0, KWD 3), else 2.
 */
export function minorUnitsOf(currency: string): number {
  const known = minorUnits.get(currency);
  if (known !== undefined) return known;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** An amount with its currency as the locale writes it, to the currency's minor units ("1,234.50 CNY", "1,235 JPY", "1,234.500 KWD"); '-' for none. */
export function formatMoney(amount: number | null | undefined, currency: string): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return '-';
  return `${formatNumber(amount, { decimals: minorUnitsOf(currency) })} ${currency}`.trim();
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
const SOURCE_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/**
 * An instant (ISO text, epoch ms or Date) in the browser's zone as the locale writes it, 24-hour
 * clock; the default language keeps the product's own YYYY-MM-DD HH:mm:ss. '-' for none.
 */
export function formatDateTime(v: string | number | Date | null | undefined, locale: string = currentLocale()): string {
  if (v === null || v === undefined || v === '') return '-';
  const d = dayjs(v);
  if (!d.isValid()) return String(v);
  if (locale === 'zh-CN') return d.format(SOURCE_FORMAT);
  let f = dateFormats.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
    });
    dateFormats.set(locale, f);
  }
  return f.format(d.toDate());
}
