import type { SizeType } from 'antd/es/config-provider/SizeContext';
import { useCallback, useState } from 'react';
import { useUserStore } from '../../platform/user-store.ts';

/** What a user chose for one table: row density and the columns they hid. */
export interface TablePrefs {
  density: NonNullable<SizeType>;
  hidden: string[];
}

const DEFAULT: TablePrefs = { density: 'large', hidden: [] };
const DENSITIES: readonly string[] = ['large', 'middle', 'small'];

/** Local-storage key of a table's choices for a user (per user: people share browsers). */
export const tablePrefsKey = (table: string, userId: number | string) => `ess.table.${userId}.${table}`;

/** The stored choices, or the defaults when none (or unreadable ones) are stored. */
export function readTablePrefs(table: string, userId: number | string): TablePrefs {
  try {
    const raw = localStorage.getItem(tablePrefsKey(table, userId));
    if (!raw) return DEFAULT;
    const v = JSON.parse(raw) as Partial<TablePrefs>;
    return {
      density: typeof v.density === 'string' && DENSITIES.includes(v.density) ? v.density : DEFAULT.density,
      hidden: Array.isArray(v.hidden) ? v.hidden.filter((k): k is string => typeof k === 'string') : [],
    };
  } catch {
    return DEFAULT;
  }
}

export function writeTablePrefs(table: string, userId: number | string, prefs: TablePrefs): void {
  try {
    localStorage.setItem(tablePrefsKey(table, userId), JSON.stringify(prefs));
  } catch {
    // Storage full or blocked: the choice holds for this visit only.
  }
}

/**
 * A table's density and hidden columns, remembered per signed-in user in local storage and read
 * again when the user (or the table) changes.
 */
export function useTablePrefs(table: string) {
  const userId = useUserStore((s) => s.info?.id ?? 'anonymous');
  const [state, setState] = useState(() => ({ owner: `${userId}|${table}`, prefs: readTablePrefs(table, userId) }));
  const owner = `${userId}|${table}`;
  // Another user signed in on this tab (or another table reuses the component): their own choices.
  const prefs = state.owner === owner ? state.prefs : readTablePrefs(table, userId);
  if (state.owner !== owner) setState({ owner, prefs });
  const update = useCallback(
    (change: Partial<TablePrefs>) => {
      setState((s) => {
        const next = { ...(s.owner === owner ? s.prefs : readTablePrefs(table, userId)), ...change };
        writeTablePrefs(table, userId, next);
        return { owner, prefs: next };
      });
    },
    [owner, table, userId],
  );
  return {
    density: prefs.density,
    hidden: prefs.hidden,
    setDensity: (density: SizeType) => update({ density: density ?? 'large' }),
    setHidden: (hidden: string[]) => update({ hidden }),
  };
}
