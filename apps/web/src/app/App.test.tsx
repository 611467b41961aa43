import { TOKEN_STORAGE_KEY } from '@ess/contract/constants';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, json, mockFetch } from '../test/http.ts';
import { useI18nStore } from '../platform/i18n/translate.ts';
import { liveEvents } from '../platform/live-events.ts';
import { clearUserInfo } from '../platform/user-store.ts';
import { detailHref } from '../features/monitor/DeviceListPage.tsx';
import { App } from './App.tsx';
import { clearTabs } from './layout/tabs.store.ts';

const profile = (menuProfiles: { path: string; parentPath?: string; name: string }[]) => ({
  id: 1, username: 'op', name: '运维员', phone: null, email: null, companyId: 1, companyName: '储能集团', buildIn: false,
  roles: [], menuProfiles,
});

const MENUS = [
  { path: '/system', name: '系统管理' },
  { path: '/system/user', parentPath: '/system', name: '用户管理' },
];

function server(menus: typeof MENUS | null) {
  return mockFetch((c) => {
    if (c.url.startsWith('/api/manager/basic/sse/connect')) return new Promise<Response>(() => undefined);
    if (c.url.startsWith('/api/manager/basic/user/login/options')) return json(envelope({ captcha: true }));
    if (c.url.startsWith('/api/manager/system/user/profile/info')) {
      return menus ? json(envelope(profile(menus))) : json(envelope(null, 'A0100', '未登录或登录已过期'), 401);
    }
    return json(envelope({ unread: 0, total: 0 }));
  });
}

// Each test loads the real pages (lazy chunks, antd, the layout) in jsdom.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => {
  clearUserInfo();
  clearTabs();
  useI18nStore.setState({ locale: 'zh-CN', pack: new Map() });
});
afterEach(() => {
  cleanup();
  liveEvents.stop();
  window.history.replaceState(null, '', '/');
});

describe('the app with its navigation guard (§2)', () => {
  it('a first visit (no token stored) goes to the login page plainly: no profile request, no error toast', async () => {
    const { calls } = server(null);
    window.history.replaceState(null, '', '/system/user');
    render(<App />);
    await waitFor(() => expect(window.location.pathname).toBe('/login'), { timeout: 15_000 });
    expect(await screen.findByRole('button', { name: /登\s*录/ }, { timeout: 15_000 })).toBeTruthy();
    // The login page is up and has asked whether to show the captcha: by then a 401's toast would be drawn.
    expect(await screen.findByAltText('验证码', undefined, { timeout: 15_000 })).toBeTruthy();
    expect(calls.some((c) => c.url.startsWith('/api/manager/system/user/profile/info'))).toBe(false);
    expect(screen.queryByText('未登录或登录已过期')).toBeNull();
    expect(document.querySelector('.ant-message-notice')).toBeNull();
  });

  it('with a stored token that has expired, a page sends the user to the login page with the 401 toast', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'expired-token-0000000000');
    server(null);
    window.history.replaceState(null, '', '/system/user');
    render(<App />);
    await waitFor(() => expect(window.location.pathname).toBe('/login'), { timeout: 15_000 });
    expect(await screen.findByRole('button', { name: /登\s*录/ }, { timeout: 15_000 })).toBeTruthy();
    expect(await screen.findByText('未登录或登录已过期')).toBeTruthy();
    expect((await screen.findByAltText('验证码')).getAttribute('src')).toMatch(/^\/api\/manager\/basic\/captcha\?t=\d+$/);
    expect(screen.getByAltText('验证码').getAttribute('src')).toMatch(/^\/api\/manager\/basic\/captcha\?t=\d+$/);
  });

  it('menu entries whose screen is not built are not navigable: the guard sends the user to welcome, never to a placeholder', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'tok');
    // Every screen of the spec's menus is built now: a menu entry this console has no screen for
    // (say, from a newer server) stands for one.
    server([{ path: '/planning', name: '规划' }, { path: '/planning/capacity', parentPath: '/planning', name: '容量规划' }]);
    const start = vi.spyOn(liveEvents, 'start');
    window.history.replaceState(null, '', '/planning/capacity');
    render(<App />);
    await waitFor(() => expect(window.location.pathname).toBe('/home/welcome'), { timeout: 15_000 });
    expect(await screen.findByText('欢迎使用储能运维平台', undefined, { timeout: 15_000 })).toBeTruthy();
    expect(start).toHaveBeenCalled();
  });

  it('a path outside the user\'s menus redirects to the first built leaf (/system/user) and shows it', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'tok');
    const { calls } = mockFetch((c) => {
      if (c.url.startsWith('/api/manager/basic/sse/connect')) return new Promise<Response>(() => undefined);
      if (c.url.startsWith('/api/manager/system/user/profile/info')) return json(envelope(profile(MENUS)));
      if (c.url.startsWith('/api/manager/system/user/query/page')) return json(envelope({ records: [], total: 0, current: 1, pageSize: 10 }));
      if (c.url.includes('/query/tree') || c.url.includes('/query/list')) return json(envelope([]));
      return json(envelope({ unread: 0, total: 0 }));
    });
    window.history.replaceState(null, '', '/log/login');
    render(<App />);
    await waitFor(() => expect(window.location.pathname).toBe('/system/user'), { timeout: 15_000 });
    expect(await screen.findByText('用户列表', undefined, { timeout: 15_000 })).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/manager/system/user/query/page'))).toBe(true));
    expect(calls.some((c) => c.url.startsWith('/api/manager/system/loginLog'))).toBe(false);
  });

  it('a user without menus lands on the welcome page; the person center is open to them', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'tok');
    server([]);
    window.history.replaceState(null, '', '/system/user');
    const { unmount } = render(<App />);
    await waitFor(() => expect(window.location.pathname).toBe('/home/welcome'), { timeout: 15_000 });
    expect(await screen.findByText('您暂无菜单权限，请联系管理员分配', undefined, { timeout: 15_000 })).toBeTruthy();
    unmount();
    window.history.replaceState(null, '', '/system/person');
    render(<App />);
    expect(await screen.findByText('修改信息', undefined, { timeout: 15_000 })).toBeTruthy();
    expect(window.location.pathname).toBe('/system/person');
  });

  it('the layout has one banner and one main landmark, and the side menu is a navigation landmark', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'tok');
    server(MENUS);
    window.history.replaceState(null, '', '/home/welcome');
    render(<App />);
    expect(await screen.findByText('欢迎使用储能运维平台', undefined, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getAllByRole('main')).toHaveLength(1);
    expect(screen.getAllByRole('banner')).toHaveLength(1);
    expect(await within(screen.getByRole('navigation', { name: '菜单' })).findByText('系统管理')).toBeTruthy();
    expect(within(screen.getByRole('banner')).getByText('储能运维平台')).toBeTruthy();
    expect(within(screen.getByRole('main')).getByText('欢迎使用储能运维平台')).toBeTruthy();
  });

  it("the side menu opens the current page's directory and marks the page as selected", async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'tok');
    server(MENUS);
    window.history.replaceState(null, '', '/system/user');
    render(<App />);
    const nav = await screen.findByRole('navigation', { name: '菜单' }, { timeout: 15_000 });
    const link = await within(nav).findByRole('link', { name: '用户管理' }, { timeout: 15_000 });
    expect(link.getAttribute('href')).toBe('/system/user');
    expect(link.closest('li')?.className).toContain('ant-menu-item-selected');
  });

  it('the login page stops the live stream', async () => {
    server(MENUS);
    const stop = vi.spyOn(liveEvents, 'stop');
    window.history.replaceState(null, '', '/login');
    render(<App />);
    await screen.findByRole('button', { name: /登\s*录/ }, { timeout: 15_000 });
    expect(stop).toHaveBeenCalled();
  });

  it('a device opened from the monitor keeps the user in the monitor section: URL, breadcrumb and side menu', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'tok');
    const menus = [
      { path: '/monitor', name: '设备监控' },
      { path: '/monitor/device', parentPath: '/monitor', name: '设备列表' },
      { path: '/monitor/deviceDetail', parentPath: '/monitor', name: '设备详情', hidden: true },
      { path: '/product', name: '产品设备' },
      { path: '/product/equipment', parentPath: '/product', name: '设备管理' },
      { path: '/product/equipmentDetail', parentPath: '/product', name: '设备详情', hidden: true },
    ];
    const pcs = {
      id: 7, code: 'PCS-7', name: '七号变流器', barcode: null, siteId: 1, siteCode: 'S1', siteName: '一号站', companyId: 1, parentId: null, parentName: null,
      productId: 1, productName: 'PCS', type: 'pcs', meterPurpose: null, cabinetId: null, cabinetName: null, ratedPower: 100, no: null, subNo: null,
      firmwareName: null, firmwareVersion: null, disabled: false, status: 'online', lastSeenAt: null, createdAt: '2026-01-01T00:00:00Z', ts: null, values: {},
    };
    mockFetch((c) => {
      if (c.url.startsWith('/api/manager/basic/sse/connect')) return new Promise<Response>(() => undefined);
      if (c.url.startsWith('/api/manager/system/user/profile/info')) return json(envelope({ ...profile(menus), permissions: [] }));
      if (c.url.startsWith('/api/manager/configure/device/data/latest/page')) return json(envelope({ records: [pcs], total: 1, current: 1, pageSize: 10 }));
      if (c.url.includes('/query/tree') || c.url.includes('/query/list')) return json(envelope([]));
      return json(envelope({ unread: 0, total: 0 }));
    });
    // The monitor's device list links into the monitor section, not Products › Device details.
    expect(detailHref(7)).toBe('/monitor/deviceDetail?id=7');
    window.history.replaceState(null, '', detailHref(7));
    render(<App />);
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}`).toBe('/monitor/deviceDetail?id=7'), { timeout: 15_000 });
    const crumbs = () => [...document.querySelectorAll('.ant-breadcrumb li')].map((li) => li.textContent).filter((x) => x && x !== '/');
    await waitFor(() => expect(crumbs()).toEqual(['设备监控', '设备详情']), { timeout: 10_000 });
    expect(crumbs().join('')).not.toContain('产品设备');
    // The side menu keeps the monitor directory open (its list page shows), not Products'.
    const nav = document.querySelector<HTMLElement>('.ess-sider')!;
    expect(await within(nav).findByText('设备列表')).toBeTruthy();
    expect(within(nav).queryByText('设备管理')).toBeNull();
  });
});
