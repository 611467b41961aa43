// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ancestorsOf, childrenOf, firstLeaf, rootOf, type MenuEntry } from './menu.ts';

const menus: MenuEntry[] = [
  { path: '/system', sort: 20 },
  { path: '/system/user', parentPath: '/system', sort: 2 },
  { path: '/system/role', parentPath: '/system', sort: 1 },
  { path: '/home', sort: 10 },
  { path: '/home/secret', parentPath: '/home', sort: 0, hidden: true },
  { path: '/home/index', parentPath: '/home', sort: 1 },
  { path: '/deep', sort: 30 },
  { path: '/deep/a', parentPath: '/deep', sort: 1 },
  { path: '/deep/a/b', parentPath: '/deep/a', sort: 1 },
];

describe('menu utilities (§2)', () => {
  it('lists children in menu order', () => {
    expect(childrenOf(menus).map((m) => m.path)).toEqual(['/home', '/system', '/deep']);
    expect(childrenOf(menus, '/system').map((m) => m.path)).toEqual(['/system/role', '/system/user']);
  });

  it('finds the first leaf under a parent, skipping hidden entries, depth first', () => {
    expect(firstLeaf(menus)?.path).toBe('/home/index');
    expect(firstLeaf(menus, '/system')?.path).toBe('/system/role');
    expect(firstLeaf(menus, '/deep')?.path).toBe('/deep/a/b');
    expect(firstLeaf(menus, '/system/role')).toBeUndefined();
    expect(firstLeaf([])).toBeUndefined();
  });

  it('lists every ancestor of an entry, root first', () => {
    expect(ancestorsOf(menus, '/deep/a/b').map((m) => m.path)).toEqual(['/deep', '/deep/a']);
    expect(ancestorsOf(menus, menus[1]!).map((m) => m.path)).toEqual(['/system']);
    expect(ancestorsOf(menus, '/home')).toEqual([]);
    expect(ancestorsOf(menus, '/nope')).toEqual([]);
  });

  it('survives a cycle in parent links', () => {
    const loop: MenuEntry[] = [
      { path: '/a', parentPath: '/b' },
      { path: '/b', parentPath: '/a' },
    ];
    expect(ancestorsOf(loop, '/a').map((m) => m.path)).toEqual(['/b']);
  });

  it('finds the root entry for a path', () => {
    expect(rootOf(menus, '/deep/a/b')?.path).toBe('/deep');
    expect(rootOf(menus, '/home')?.path).toBe('/home');
    expect(rootOf(menus, '/missing')).toBeUndefined();
  });
});
