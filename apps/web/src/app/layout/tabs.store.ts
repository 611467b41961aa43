import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** One open page in the tab strip; `key` is the full location (path and query). */
export interface PageTab {
  key: string;
  path: string;
}

interface TabsState {
  tabs: PageTab[];
  /** Bumped to remount a tab's page (the refresh action). */
  refreshSeq: Record<string, number>;
}

/** Open tabs survive a page reload within the browser tab (session storage), not a sign-out. */
export const useTabsStore = create<TabsState>()(
  persist((): TabsState => ({ tabs: [], refreshSeq: {} }), {
    name: 'ess-tabs',
    storage: createJSONStorage(() => sessionStorage),
    partialize: (s) => ({ tabs: s.tabs }),
  }),
);

/** Closes every tab (the login page: the next user starts afresh). */
export function clearTabs(): void {
  useTabsStore.setState({ tabs: [], refreshSeq: {} });
}

export type TabAction = 'current' | 'others' | 'left' | 'right' | 'all';

/** Adds the tab for a location (or updates it in place when its path is already open). */
export function openTab(tab: PageTab): void {
  useTabsStore.setState((s) => {
    const i = s.tabs.findIndex((t) => t.path === tab.path);
    if (i === -1) return { tabs: [...s.tabs, tab] };
    if (s.tabs[i]!.key === tab.key) return s;
    const tabs = [...s.tabs];
    tabs[i] = tab;
    return { tabs };
  });
}

/**
 * Applies a close action relative to `key` and returns the tab to show afterwards (undefined when
 * none is left). Closing the active tab moves to its right neighbour, else the left one.
 */
export function closeTabs(action: TabAction, key: string, activeKey: string): PageTab | undefined {
  const { tabs } = useTabsStore.getState();
  const i = tabs.findIndex((t) => t.key === key);
  if (i === -1) return tabs.find((t) => t.key === activeKey);
  let kept: PageTab[];
  switch (action) {
    case 'current':
      kept = tabs.filter((_, j) => j !== i);
      break;
    case 'others':
      kept = [tabs[i]!];
      break;
    case 'left':
      kept = tabs.slice(i);
      break;
    case 'right':
      kept = tabs.slice(0, i + 1);
      break;
    case 'all':
      kept = [];
      break;
  }
  useTabsStore.setState({ tabs: kept });
  const stillActive = kept.find((t) => t.key === activeKey);
  if (stillActive) return stillActive;
  if (action === 'current') return tabs[i + 1] ?? tabs[i - 1];
  return kept.find((t) => t.key === key) ?? kept[kept.length - 1];
}

/** Remounts the page of a tab. */
export function refreshTab(key: string): void {
  useTabsStore.setState((s) => ({ refreshSeq: { ...s.refreshSeq, [key]: (s.refreshSeq[key] ?? 0) + 1 } }));
}
