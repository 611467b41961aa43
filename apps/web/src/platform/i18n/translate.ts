import { DEFAULT_LOCALE, LOCALES, LOCALE_STORAGE_KEY, type Locale } from '@ess/contract/constants';
import { fillText, translateName } from '@ess/contract/pack-text';
import { create } from 'zustand';
import { noteSource } from './translate-mode.ts';

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

/**
 * Replaces `$1`, `$2`… with the given values (placeholders without a value stay as written),
 * after choosing the plural form of a translation that has them for the current locale
 * (`{{one}}$1 station{{other}}$1 stations`, contract plural.ts).
 */
export function fill(text: string, args: readonly unknown[], locale: string = useI18nStore.getState().locale): string {
  return fillText(text, args, locale);
}

/** Translates a source text with the current pack: `t('共 $1 条', 12)`. */
export function t(source: string, ...args: unknown[]): string {
  const { pack, locale } = useI18nStore.getState();
  noteSource(source);
  return fillText(pack.get(source) ?? source, args, locale);
}

/**
 * Built-in data in the current language (role names, seeded product models and parameters, the
 * demo's device names): the pack's translation of the name or of its numbered template
 * ("2#储能变流器" through "$1#储能变流器"); names users typed stay as they are.
 */
export function translateBuiltIn(name: string): string {
  const { pack, locale } = useI18nStore.getState();
  noteSource(name);
  return translateName(name, (k) => pack.get(k), locale);
}

export function translateWith(pack: LanguagePack, source: string, ...args: unknown[]): string {
  noteSource(source);
  return fillText(pack.get(source) ?? source, args, useI18nStore.getState().locale);
}
