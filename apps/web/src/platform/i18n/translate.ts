import { DEFAULT_LOCALE, LOCALES, LOCALE_STORAGE_KEY, type Locale } from '@ess/contract/constants';
import { create } from 'zustand';

/**
 * The language-pack model of product-spec §3/§9: source text (Simplified Chinese) → translation,
 * with `$1`, `$2`… placeholders. A missing entry shows the source text.
 */
export type LanguagePack = ReadonlyMap<string, string>;

export interface I18nState {
  locale: Locale;
  pack: LanguagePack;
}

export const isLocale = (v: unknown): v is Locale => typeof v === 'string' && (LOCALES as readonly string[]).includes(v);

/** The locale kept in local storage, or the default (zh-CN) when none or an unknown one is stored. */
export function storedLocale(): Locale {
  try {
    const v = localStorage.getItem(LOCALE_STORAGE_KEY);
    return isLocale(v) ? v : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

export const useI18nStore = create<I18nState>(() => ({ locale: storedLocale(), pack: new Map() }));

/** Replaces `$1`, `$2`… with the given values; placeholders without a value stay as written. */
export function fill(text: string, args: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (whole, n: string) => {
    const i = Number(n) - 1;
    return i >= 0 && i < args.length ? String(args[i]) : whole;
  });
}

/** Translates a source text with the current pack: `t('共 $1 条', 12)`. */
export function t(source: string, ...args: unknown[]): string {
  const { pack } = useI18nStore.getState();
  return fill(pack.get(source) ?? source, args);
}

export function translateWith(pack: LanguagePack, source: string, ...args: unknown[]): string {
  return fill(pack.get(source) ?? source, args);
}
