import { Menu, type MenuProps } from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Deferred } from '../../components/Deferred.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { ancestorsOf } from '../../platform/menu.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { hasScreen } from '../screens.ts';
import { menuIcon } from './menu-icons.tsx';
import { buildMenuTree, type MenuNode } from './menu-tree.ts';

type Item = Required<MenuProps>['items'][number];

/** Menu items keyed by path: directories open and close, pages are links. */
function toItems(nodes: MenuNode[], t: (s: string) => string): Item[] {
  return nodes.map((n) =>
    n.children
      ? { key: n.path, icon: menuIcon(n.icon), label: t(n.name), children: toItems(n.children, t) }
      : { key: n.path, icon: menuIcon(n.icon), label: <Link to={n.path}>{t(n.name)}</Link> },
  );
}

/** The side menu from the user's menu profile; the current page's directory opens with it. */
export function SideMenu({ path, collapsed }: { path: string; collapsed: boolean }) {
  const t = useT();
  const menus = useUserStore((s) => s.menuProfiles);
  const tree = useMemo(() => buildMenuTree(menus, hasScreen), [menus]);
  const items = useMemo(() => toItems(tree, t), [tree, t]);
  // The open directories, and the page they were last adjusted for: going to a page in another
  // directory (tabs, links, redirects) opens that directory too.
  const dirsAbove = (page: string) => ancestorsOf(menus, page).map((m) => m.path);
  const [open, setOpen] = useState(() => ({ path, keys: dirsAbove(path) }));
  let openKeys = open.keys;
  if (open.path !== path) {
    const dirs = dirsAbove(path);
    openKeys = dirs.every((d) => open.keys.includes(d)) ? open.keys : [...new Set([...open.keys, ...dirs])];
    setOpen({ path, keys: openKeys });
  }

  return (
    <nav aria-label={t('菜单')}>
      {/* Drawn in a turn of its own after the layout (components/Deferred.tsx). */}
      <Deferred>
        <Menu
          mode="inline"
          items={items}
          selectedKeys={[path]}
          {...(collapsed ? {} : { openKeys, onOpenChange: (keys: string[]) => setOpen({ path, keys }) })}
          inlineCollapsed={collapsed}
          style={{ borderInlineEnd: 'none' }}
        />
      </Deferred>
    </nav>
  );
}
