// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { MenuProfile } from '../../platform/user-store.ts';
import { buildMenuTree } from './menu-tree.ts';

// As the profile sends them: in menu order, no parentPath at the top, `hidden` only when true.
const m = (path: string, parentPath: string | null, extra: Partial<MenuProfile> = {}): MenuProfile => ({
  path, ...(parentPath ? { parentPath } : {}), name: path, ...extra,
});

describe('layout menu', () => {
  it('keeps only pages with a screen, drops hidden pages and empty directories', () => {
    const menus = [
      m('/system', null, { icon: 'setting' }), m('/system/user', '/system'), m('/system/menu', '/system'),
      m('/system/detail', '/system', { hidden: true }),
      m('/alarm', null), m('/alarm/monitor', '/alarm'),
    ];
    const tree = buildMenuTree(menus, (p) => p === '/system/user' || p === '/system/detail');
    expect(tree).toEqual([{ path: '/system', name: '/system', icon: 'setting', children: [{ path: '/system/user', name: '/system/user' }] }]);
  });
});
