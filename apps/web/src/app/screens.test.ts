// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { navigableMenus } from './screens.ts';

describe('navigableMenus', () => {
  const menus = [
    { path: '/home', parentPath: null },
    { path: '/home/index', parentPath: '/home' },
    { path: '/system', parentPath: null },
    { path: '/system/user', parentPath: '/system' },
    { path: '/system/role', parentPath: '/system' },
  ];

  it('keeps screens that exist and the directories above them, drops the rest', () => {
    const built = new Set(['/system/role']);
    expect(navigableMenus(menus, (p) => built.has(p)).map((m) => m.path)).toEqual(['/system', '/system/role']);
  });

  it('keeps nothing when no screen is built, so the guard falls back to the welcome page', () => {
    expect(navigableMenus(menus, () => false)).toEqual([]);
  });
});
