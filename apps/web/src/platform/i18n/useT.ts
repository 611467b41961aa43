import { useCallback } from 'react';
import { translateWith, useI18nStore } from './translate.ts';

/** The `t` function bound to the current pack; components re-render when the pack changes. */
export function useT(): (source: string, ...args: unknown[]) => string {
  const pack = useI18nStore((s) => s.pack);
  return useCallback((source: string, ...args: unknown[]) => translateWith(pack, source, ...args), [pack]);
}

export function useLocale() {
  return useI18nStore((s) => s.locale);
}
