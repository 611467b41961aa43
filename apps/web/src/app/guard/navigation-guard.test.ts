// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import type { MenuEntry } from '../../platform/menu.ts';
import { guardNavigation, type GuardDeps } from './navigation-guard.ts';

function deps(menuProfiles: MenuEntry[] | null, log: string[] = []): GuardDeps {
  return {
    loadLanguagePack: vi.fn(() => {
      log.push('pack');
      return Promise.resolve();
    }),
    stopLiveEvents: vi.fn(() => log.push('stop')),
    clearUserInfo: vi.fn(() => log.push('clear')),
    loadUserInfo: vi.fn(() => {
      log.push('user');
      return Promise.resolve(menuProfiles ? { menuProfiles } : null);
    }),
    startLiveEvents: vi.fn(() => log.push('start')),
  };
}

const menus: MenuEntry[] = [
  { path: '/alarm', sort: 2 },
  { path: '/alarm/monitor', parentPath: '/alarm', sort: 1 },
  { path: '/system', sort: 3 },
  { path: '/system/user', parentPath: '/system', sort: 1 },
];

describe('navigation guard (§2)', () => {
  it('on the login path: pack first, then stops the stream and clears user info, and proceeds', async () => {
    const log: string[] = [];
    const d = deps(menus, log);
    await expect(guardNavigation('/login', d)).resolves.toEqual({ action: 'proceed' });
    expect(log).toEqual(['pack', 'stop', 'clear']);
  });

  it('elsewhere: pack first, then user info, then starts the stream; a menu path proceeds', async () => {
    const log: string[] = [];
    await expect(guardNavigation('/system/user', deps(menus, log))).resolves.toEqual({ action: 'proceed' });
    expect(log).toEqual(['pack', 'user', 'start']);
  });

  it('freeAuth routes proceed without being in the menu', async () => {
    await expect(guardNavigation('/home/welcome', deps([]))).resolves.toEqual({ action: 'proceed' });
    await expect(guardNavigation('/system/person', deps([]))).resolves.toEqual({ action: 'proceed' });
    await expect(guardNavigation('/system/person/', deps([]))).resolves.toEqual({ action: 'proceed' });
  });

  it('redirects elsewhere to the first leaf menu entry', async () => {
    await expect(guardNavigation('/system/role', deps(menus))).resolves.toEqual({ action: 'redirect', to: '/alarm/monitor' });
    await expect(guardNavigation('/', deps(menus))).resolves.toEqual({ action: 'redirect', to: '/alarm/monitor' });
  });

  it('redirects to the welcome page when the user has no menu', async () => {
    await expect(guardNavigation('/system/user', deps([]))).resolves.toEqual({ action: 'redirect', to: '/home/welcome' });
  });

  it('with no token stored, goes to the login page at once: no profile request (no 401 toast), no stream', async () => {
    const log: string[] = [];
    const d = { ...deps(menus, log), hasToken: () => false };
    await expect(guardNavigation('/system/user', d)).resolves.toEqual({ action: 'redirect', to: '/login' });
    await expect(guardNavigation('/', d)).resolves.toEqual({ action: 'redirect', to: '/login' });
    expect(d.loadUserInfo).not.toHaveBeenCalled();
    expect(d.startLiveEvents).not.toHaveBeenCalled();
    // The login page itself is reached as before.
    await expect(guardNavigation('/login', d)).resolves.toEqual({ action: 'proceed' });
    // With a token the guard loads the profile as the spec says.
    const withToken = { ...deps(menus), hasToken: () => true };
    await expect(guardNavigation('/system/user', withToken)).resolves.toEqual({ action: 'proceed' });
    expect(withToken.loadUserInfo).toHaveBeenCalledTimes(1);
  });

  it('proceeds when user info cannot be loaded, without starting the stream', async () => {
    const d = deps(null);
    await expect(guardNavigation('/system/role', d)).resolves.toEqual({ action: 'proceed' });
    expect(d.startLiveEvents).not.toHaveBeenCalled();
  });
});
