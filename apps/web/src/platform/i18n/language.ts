import { DEFAULT_LOCALE, LOCALE_STORAGE_KEY, type Locale } from '@ess/contract/constants';
import type { EndpointRef } from '@ess/contract/endpoint';
import type { i18nEndpoints, PackRow } from '@ess/contract/i18n';
import type { Locale as AntdLocale } from 'antd/es/locale';
import dayjs from 'dayjs';
import { create } from 'zustand';
import { callRef } from '../request.ts';
import { ANTD_LOCALES, DAYJS_LOCALES, directionOf } from './locales.ts';
import { useI18nStore, type LanguagePack } from './translate.ts';

/**
 * The language-pack fetch, i18nEndpoints.pack (GET, languageId). Bundle weight: the login page
 * loads its language, so this takes only the endpoint's types (a runtime import of a contract
 * endpoint brings zod into the login page); a test holds the path to the contract's.
 */
export const PACK: EndpointRef<typeof i18nEndpoints.pack> = { method: 'GET', path: '/i18n/text/translation/view' };

export type { PackRow };

interface UiLocaleState {
  /** antd's own locale for the current UI locale; undefined until loaded. */
  antd: AntdLocale | undefined;
  direction: 'ltr' | 'rtl';
}

export const useUiLocaleStore = create<UiLocaleState>(() => ({ antd: undefined, direction: 'ltr' }));

const packs = new Map<Locale, Promise<LanguagePack>>();

/**
 * The pack of a locale, fetched once. The default locale shows source text and needs none. On
 * failure it logs to the console and gives an empty pack (source text stays), and a later call
 * tries again.
 */
export function fetchPack(locale: Locale): Promise<LanguagePack> {
  if (locale === DEFAULT_LOCALE) return Promise.resolve(new Map());
  const cached = packs.get(locale);
  if (cached) return cached;
  const p = callRef(PACK, { languageId: locale }, { noMessage: true, loading: false })
    .then((rows: PackRow[] | null) => new Map((rows ?? []).filter((r) => r.translation).map((r) => [r.source, r.translation])) as LanguagePack)
    .catch((e: unknown) => {
      console.error(`language pack ${locale} failed to load; showing source text`, e);
      packs.delete(locale);
      return new Map() as LanguagePack;
    });
  packs.set(locale, p);
  return p;
}

/** Forgets fetched packs (tests; a translation edit). */
export function forgetPacks(): void {
  packs.clear();
}

/** Loads the pack of the current locale into the store (the guard's first step, §2). */
export async function loadLanguagePack(): Promise<void> {
  const { locale } = useI18nStore.getState();
  const pack = await fetchPack(locale);
  if (useI18nStore.getState().locale === locale && useI18nStore.getState().pack !== pack) useI18nStore.setState({ pack });
}

/** Points <html> at the locale: lang, and dir="rtl" for right-to-left locales (ar-EG). */
export function applyDocumentLocale(locale: Locale): void {
  document.documentElement.lang = locale;
  document.documentElement.dir = directionOf(locale);
}

/** Loads antd's and dayjs's own locale for a UI locale. */
export async function loadUiKitLocale(locale: Locale): Promise<void> {
  const [antd] = await Promise.all([
    ANTD_LOCALES[locale]().then((m) => m.default),
    DAYJS_LOCALES[locale][1]().catch(() => undefined),
  ]);
  if (useI18nStore.getState().locale !== locale) return;
  dayjs.locale(DAYJS_LOCALES[locale][0]);
  useUiLocaleStore.setState({ antd, direction: directionOf(locale) });
}

/** Switches the UI language: stores it, loads its pack and the UI kit's locale, sets the page direction. */
export async function setLocale(locale: Locale): Promise<void> {
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts for this page only.
  }
  useI18nStore.setState({ locale });
  applyDocumentLocale(locale);
  const [pack] = await Promise.all([fetchPack(locale), loadUiKitLocale(locale)]);
  if (useI18nStore.getState().locale === locale) useI18nStore.setState({ pack });
}

/** Applies the stored locale at start-up. */
export async function initLocale(): Promise<void> {
  const { locale } = useI18nStore.getState();
  applyDocumentLocale(locale);
  await Promise.all([loadLanguagePack(), loadUiKitLocale(locale)]);
}
