// @vitest-environment node
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope, json, mockFetch, recordUi } from '../test/http.ts';
import { clearUserInfo, loadUserInfo, refreshUserInfo, useUserStore } from './user-store.ts';

const profile = {
  id: 1, username: 'admin', name: '管理员', phone: null, email: null, companyId: 1, companyName: '总公司', buildIn: true,
  roles: [{ id: 1, name: '超级管理员' }],
  menuProfiles: [
    { path: '/system', name: '系统管理', icon: 'setting' },
    { path: '/system/user', parentPath: '/system', name: '用户管理' },
  ],
};

beforeEach(() => {
  recordUi();
  clearUserInfo();
});

describe('user store (§3, §4)', () => {
  it('starts with the loading-failed flag set and nothing cached', () => {
    expect(useUserStore.getState()).toMatchObject({ loadFailed: true, info: null, menuProfiles: [], authPaths: [], buildIn: false });
  });

  it('loads the profile, clears the flag and exposes authPaths, buildIn and menuProfiles', async () => {
    const { calls } = mockFetch(() => json(envelope(profile)));
    await loadUserInfo();
    expect(calls[0]!.url).toBe('/api/manager/system/user/profile/info');
    expect(useUserStore.getState()).toMatchObject({
      loadFailed: false, buildIn: true, authPaths: ['/system', '/system/user'], menuProfiles: profile.menuProfiles,
    });
  });

  it('requests again only while the flag is true', async () => {
    const { calls } = mockFetch(() => json(envelope(profile)));
    await Promise.all([loadUserInfo(), loadUserInfo()]);
    await loadUserInfo();
    expect(calls).toHaveLength(1);
  });

  it('sets the flag on failure and requests again next time', async () => {
    const { calls } = mockFetch(() => json(envelope(null, 'B0001', '服务器繁忙，请稍后再试'), 500));
    await expect(loadUserInfo()).resolves.toBeNull();
    expect(useUserStore.getState().loadFailed).toBe(true);
    mockFetch(() => json(envelope(profile)));
    await loadUserInfo();
    expect(useUserStore.getState().loadFailed).toBe(false);
    expect(calls).toHaveLength(1);
  });

  it('a failure after a success sets the flag again', async () => {
    mockFetch(() => json(envelope(profile)));
    await loadUserInfo();
    useUserStore.setState({ loadFailed: true });
    mockFetch(() => new Response('', { status: 502 }));
    await loadUserInfo();
    expect(useUserStore.getState().loadFailed).toBe(true);
  });

  it('gives an empty menu list when the profile has none', async () => {
    mockFetch(() => json(envelope({ ...profile, menuProfiles: undefined, buildIn: false })));
    await loadUserInfo();
    expect(useUserStore.getState()).toMatchObject({ menuProfiles: [], authPaths: [], buildIn: false });
    expect(useUserStore.getState().info?.menuProfiles).toEqual([]);
  });

  it('refresh clears the cached info and loads it again', async () => {
    const { calls } = mockFetch(() => json(envelope(profile)));
    await loadUserInfo();
    const renamed = { ...profile, name: '新名字' };
    mockFetch(() => json(envelope(renamed)));
    await refreshUserInfo();
    expect(useUserStore.getState().info?.name).toBe('新名字');
    expect(calls).toHaveLength(1);
  });
});
