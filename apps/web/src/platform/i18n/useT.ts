import { useCallback } from 'react';
import { useTranslateMode } from './translate-mode.ts';
import { translateWith, useI18nStore } from './translate.ts';

/** The `t` function bound to the current pack; components re-render when the pack changes. */
export function useT(): (source: string, ...args: unknown[]) => string {
  const pack = useI18nStore((s) => s.pack);
  // Translate mode on: a new function, so that every shown text goes through the pack function again and is noted.
  const translating = useTranslateMode((s) => s.on);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useCallback((source: string, ...args: unknown[]) => translateWith(pack, source, ...args), [pack, translating]);
}

export function useLocale() {
  return useI18nStore((s) => s.locale);
}
