import { describe, expect, it } from 'vitest';
import type { MenuProfile } from '../../platform/user-store.ts';
import { buildMenuTree } from './menu-tree.ts';

const m = (id: number, path: string, parentPath: string | null, extra: Partial<MenuProfile> = {}): MenuProfile => ({
  id, path, parentPath, name: path, icon: null, sort: id, hidden: false, ...extra,
});

describe('layout menu', () => {
  it('keeps only pages with a screen, drops hidden pages and empty directories', () => {
    const menus = [
      m(1, '/system', null), m(2, '/system/user', '/system'), m(3, '/system/menu', '/system'),
      m(4, '/system/detail', '/system', { hidden: true }),
      m(5, '/alarm', null), m(6, '/alarm/monitor', '/alarm'),
    ];
    const tree = buildMenuTree(menus, (p) => p === '/system/user' || p === '/system/detail');
    expect(tree).toEqual([{ path: '/system', name: '/system', icon: null, children: [{ path: '/system/user', name: '/system/user', icon: null }] }]);
  });
});
