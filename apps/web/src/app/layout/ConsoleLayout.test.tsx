import { TOKEN_STORAGE_KEY } from '@ess/contract/constants';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, json, mockFetch } from '../../test/http.ts';
import { useI18nStore } from '../../platform/i18n/translate.ts';
import { liveEvents } from '../../platform/live-events.ts';
import { clearUserInfo } from '../../platform/user-store.ts';
import { App } from '../App.tsx';
import { clearTabs } from './tabs.store.ts';

const MENUS = [
  { path: '/system', name: '系统管理' },
  { path: '/system/user', parentPath: '/system', name: '用户管理' },
  { path: '/system/role', parentPath: '/system', name: '角色管理' },
];

function server() {
  return mockFetch((c) => {
    if (c.url.startsWith('/api/manager/basic/sse/connect')) return new Promise<Response>(() => undefined);
    if (c.url.startsWith('/api/manager/system/user/profile/info')) {
      return json(envelope({
        id: 1, username: 'op', name: '运维员', phone: null, email: null, companyId: 1, companyName: '储能集团', buildIn: false, roles: [], menuProfiles: MENUS,
      }));
    }
    if (c.url.includes('/query/page')) return json(envelope({ records: [], total: 0, current: 1, pageSize: 10 }));
    if (c.url.includes('/query/tree') || c.url.includes('/query/list')) return json(envelope([]));
    return json(envelope({ unread: 0, total: 0 }));
  });
}

/** The window's width for the media queries (test/setup.ts answers them from innerWidth). */
function screenWidth(px: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: px });
}

// Each test loads the real pages (lazy chunks, antd, the layout) in jsdom: slow on a busy machine.
vi.setConfig({ testTimeout: 90_000 });

beforeEach(() => {
  clearUserInfo();
  clearTabs();
  useI18nStore.setState({ locale: 'zh-CN', pack: new Map() });
  localStorage.setItem(TOKEN_STORAGE_KEY, 'tok');
  server();
});
afterEach(() => {
  cleanup();
  liveEvents.stop();
  screenWidth(1024);
  window.history.replaceState(null, '', '/');
});

const menuButton = () => screen.getByTestId('menu-button');

describe('the layout on a phone and on a desktop', () => {
  it('below 768 px the side menu is a drawer: closed at first, opened by the menu button, closed by a choice in it', async () => {
    screenWidth(390);
    window.history.replaceState(null, '', '/system/user');
    render(<App />);
    await screen.findByTestId('menu-button', undefined, { timeout: 30_000 });
    // No menu column beside the page.
    expect(document.querySelector('.ess-sider')).toBeNull();
    expect(screen.queryByRole('navigation', { name: '菜单' })).toBeNull();
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
    expect(menuButton().getAttribute('aria-label')).toBe('展开菜单');

    fireEvent.click(menuButton());
    const drawer = await screen.findByRole('dialog', {}, { timeout: 30_000 });
    expect(drawer.closest('.ess-menu-drawer-root.ant-drawer-open')).not.toBeNull();
    expect(menuButton().getAttribute('aria-expanded')).toBe('true');
    const nav = await within(drawer).findByRole('navigation', { name: '菜单' }, { timeout: 30_000 });
    // The whole menu, labels and all (not the folded, icon-only one).
    const link = await within(nav).findByRole('link', { name: '角色管理' }, { timeout: 30_000 });

    fireEvent.click(link);
    await waitFor(() => expect(window.location.pathname).toBe('/system/role'));
    await waitFor(() => expect(menuButton().getAttribute('aria-expanded')).toBe('false'));
    await waitFor(() => expect(document.querySelector('.ess-menu-drawer-root.ant-drawer-open')).toBeNull());
  });

  it('from 768 px the side menu is a column beside the page, which the menu button folds', async () => {
    screenWidth(1024);
    window.history.replaceState(null, '', '/system/user');
    render(<App />);
    const nav = await screen.findByRole('navigation', { name: '菜单' }, { timeout: 30_000 });
    expect(nav.closest('.ess-sider')).not.toBeNull();
    expect(document.querySelector('.ess-menu-drawer-root')).toBeNull();
    expect(menuButton().getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(menuButton());
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
    expect(document.querySelector('.ess-sider')?.className).toContain('ant-layout-sider-collapsed');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('the first stop of the keyboard is a skip link that moves the focus to the page', async () => {
    window.history.replaceState(null, '', '/system/user');
    render(<App />);
    await screen.findByText('用户列表', undefined, { timeout: 30_000 });
    const skip = screen.getByRole('link', { name: '跳到主要内容' });
    // Before the header and the side menu in the document's order.
    const focusable = document.querySelectorAll('a[href], button, input, [tabindex="0"]');
    expect(focusable[0]).toBe(skip);
    expect(skip.getAttribute('href')).toBe('#main-content');
    const main = screen.getByRole('main');
    expect(main.id).toBe('main-content');
    act(() => skip.focus());
    fireEvent.click(skip);
    expect(document.activeElement).toBe(main);
    // The page was not navigated away from (no #main-content route).
    expect(window.location.pathname).toBe('/system/user');
  });
});
