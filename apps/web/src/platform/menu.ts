/** A menu entry as the profile returns it: a flat list linked by parentPath (product-spec §2, §3). */
export interface MenuEntry {
  path: string;
  parentPath?: string | null;
  sort?: number;
  hidden?: boolean;
}

const byOrder = <M extends MenuEntry>(a: M, b: M) => (a.sort ?? 0) - (b.sort ?? 0);

/** Entries whose parent is `parentPath`; for no parent, the top-level entries (no parentPath). */
export function childrenOf<M extends MenuEntry>(menus: readonly M[], parentPath?: string | null): M[] {
  return menus.filter((m) => (parentPath ? m.parentPath === parentPath : !m.parentPath)).sort(byOrder);
}

/**
 * The first leaf (an entry with no children) under `parentPath`, depth first in menu order;
 * hidden entries (detail pages) are never chosen. Without a parent it searches the whole tree.
 */
export function firstLeaf<M extends MenuEntry>(menus: readonly M[], parentPath?: string | null): M | undefined {
  const visible = menus.filter((m) => !m.hidden);
  const seen = new Set<string>();
  const walk = (parent: string | null | undefined): M | undefined => {
    for (const child of childrenOf(visible, parent)) {
      if (seen.has(child.path)) continue;
      seen.add(child.path);
      if (!visible.some((m) => m.parentPath === child.path)) return child;
      const leaf = walk(child.path);
      if (leaf) return leaf;
    }
    return undefined;
  };
  return walk(parentPath);
}

/** Every ancestor of an entry, the root first and the direct parent last; the entry itself is not included. */
export function ancestorsOf<M extends MenuEntry>(menus: readonly M[], entry: M | string): M[] {
  const index = new Map(menus.map((m) => [m.path, m]));
  const start = typeof entry === 'string' ? index.get(entry) : entry;
  const chain: M[] = [];
  const seen = new Set<string>(start ? [start.path] : []);
  let parent = start?.parentPath ? index.get(start.parentPath) : undefined;
  while (parent && !seen.has(parent.path)) {
    seen.add(parent.path);
    chain.unshift(parent);
    parent = parent.parentPath ? index.get(parent.parentPath) : undefined;
  }
  return chain;
}

/** The top-level entry above a path (the entry itself when it is top-level); undefined when the path is not in the menu. */
export function rootOf<M extends MenuEntry>(menus: readonly M[], path: string): M | undefined {
  const entry = menus.find((m) => m.path === path);
  if (!entry) return undefined;
  return ancestorsOf(menus, entry)[0] ?? entry;
}
