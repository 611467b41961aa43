import { childrenOf } from '../../platform/menu.ts';
import type { MenuProfile } from '../../platform/user-store.ts';

export interface MenuNode {
  path: string;
  name: string;
  icon?: string | null;
  children?: MenuNode[];
}

/**
 * The navigation tree from the profile's flat menu list: hidden entries are left out, and so are
 * pages the console has no screen for yet and directories left empty by that.
 */
export function buildMenuTree(menus: readonly MenuProfile[], hasScreen: (path: string) => boolean, parent?: string): MenuNode[] {
  const nodes: MenuNode[] = [];
  for (const m of childrenOf(menus.filter((x) => !x.hidden), parent)) {
    const isDir = menus.some((x) => x.parentPath === m.path);
    if (isDir) {
      const children = buildMenuTree(menus, hasScreen, m.path);
      if (children.length > 0) nodes.push({ path: m.path, name: m.name, icon: m.icon, children });
    } else if (hasScreen(m.path)) {
      nodes.push({ path: m.path, name: m.name, icon: m.icon });
    }
  }
  return nodes;
}
