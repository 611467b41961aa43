export { fill, isLocale, storedLocale, t, translateBuiltIn, translateWith, useI18nStore, type LanguagePack } from './translate.ts';
export { useLocale, useT } from './useT.ts';
export {
  PACK, applyDocumentLocale, fetchPack, forgetPacks, initLocale, loadLanguagePack, loadUiKitLocale, setLocale,
  useUiLocaleStore, type PackRow,
} from './language.ts';
export { LOCALE_NAMES, RTL_LOCALES, directionOf } from './locales.ts';
export { noteSource, seenSources, setTranslateMode, useTranslateMode } from './translate-mode.ts';
