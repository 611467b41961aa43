import { create } from 'zustand';

/**
 * Translate mode (in-context editing, issue 24): while it is on, every source text that goes
 * through the pack function is noted, so that a click on a shown text can be traced back to its
 * source (features/globalization/TranslateMode.tsx opens the editor). It lasts for the browser tab
 * (session storage), so a reload keeps it.
 */
const STORAGE_KEY = 'ess.translateMode';

function stored(): boolean {
  try {
    return sessionStorage.getItem(STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

export const useTranslateMode = create<{ on: boolean }>(() => ({ on: stored() }));

/** The source texts the pack function was asked for since translate mode went on. */
export const seenSources = new Set<string>();

/** Notes a source text when translate mode is on (the pack function calls this). */
export function noteSource(source: string): void {
  if (useTranslateMode.getState().on) seenSources.add(source);
}

export function setTranslateMode(on: boolean): void {
  try {
    if (on) sessionStorage.setItem(STORAGE_KEY, '1');
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage may be unavailable: the mode then lasts for this page only.
  }
  if (!on) seenSources.clear();
  useTranslateMode.setState({ on });
}
