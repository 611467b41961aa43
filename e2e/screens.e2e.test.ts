import type { Browser, Page } from 'playwright-core';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApp } from '../apps/server/src/app.ts';
import { ConsoleShell } from './pages/ConsoleShell.ts';
import { LoginPage } from './pages/LoginPage.ts';
import { ResourceScreen } from './pages/ResourceScreen.ts';
import { animationsSettled } from './support/animations.ts';
import { seriousViolations, type Violation } from './support/axe.ts';
import { launchBrowser } from './support/browser.ts';
import type { ConsoleApi } from './support/api.ts';
import { fillConsole, RECORDS } from './support/records.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

/**
 * Known, not yet fixed: a table with tick boxes and horizontal scrolling has antd's hidden
 * measuring row holding a focusable element (/system/messageNotification).
 */
const KNOWN = (v: Violation) => v.id === 'aria-hidden-focus' && v.targets.every((t) => t === '.ant-table-measure-row');
const violations = async (page: Page) => (await seriousViolations(page)).filter((v) => !KNOWN(v));
const CLOSE_OTHERS = { 'zh-CN': '关闭其他', 'ar-EG': 'إغلاق الأخرى', 'en-US': 'Close others' };
const SHOTS = resolve(import.meta.dirname, '../docs/screenshots');

/** A form or detail opened from a list row, by the icon of its row button (the same in every language). */
interface Opened {
  row: string;
  icon: 'edit' | 'eye';
  shot?: string;
}
interface ScreenCase {
  path: string;
  shot: string;
  /** A list: rows must be shown (at least this many). */
  rows?: number;
  /** Other pages: what shows that the page is complete. */
  ready?: (page: Page) => Promise<unknown>;
  open?: Opened[];
}

/** Every built screen (apps/web/src/app/screens.ts, system and log areas) with data in it. */
const SCREENS: ScreenCase[] = [
  { path: '/home/welcome', shot: 'home-welcome', ready: (p) => p.locator('main .ant-result-title').waitFor() },
  { path: '/system/person', shot: 'system-person', ready: (p) => p.locator('main form #name[value]').first().waitFor() },
  {
    path: '/system/messageConfig', shot: 'system-message-config', rows: 5,
    open: [{ row: RECORDS.scheduled, icon: 'edit', shot: 'system-message-config-form' }],
  },
  { path: '/system/messagePush', shot: 'system-message-push', rows: 4, open: [{ row: RECORDS.pushed, icon: 'eye', shot: 'system-message-push-detail' }] },
  {
    path: '/system/messageNotification', shot: 'system-message-notification', rows: 3,
    open: [{ row: RECORDS.notice, icon: 'eye', shot: 'system-message-notification-detail' }],
  },
  { path: '/system/company', shot: 'system-company', rows: 4, open: [{ row: RECORDS.company, icon: 'edit', shot: 'system-company-edit' }] },
  { path: '/system/menu', shot: 'system-menu', rows: 5, open: [{ row: '消息配置', icon: 'edit', shot: 'system-menu-edit' }] },
  { path: '/system/role', shot: 'system-role', rows: 5, open: [{ row: RECORDS.role, icon: 'edit', shot: 'system-role-edit' }, { row: RECORDS.role, icon: 'eye' }] },
  { path: '/system/user', shot: 'system-user', rows: 6, open: [{ row: RECORDS.user, icon: 'edit', shot: 'system-user-edit' }, { row: RECORDS.user, icon: 'eye' }] },
  { path: '/log/login', shot: 'log-login', rows: 6 },
  { path: '/log/api', shot: 'log-api', rows: 10, open: [{ row: '/system/user/query/page', icon: 'eye', shot: 'log-api-detail' }] },
];

/**
 * Every screen of the console as a person finds it in a running installation (records made
 * through the API first): each list with rows, its forms and details open, checked with axe-core
 * for serious and critical violations in Simplified Chinese and in Arabic (right to left), and
 * photographed at 1440×900 into docs/screenshots/ (the same names on every run).
 */
describe('every screen, populated, in Chromium', { timeout: 180_000 }, () => {
  let server: RunningApp & { captchaCode(id: string): Promise<string> };
  let browser: Browser;
  let page: Page;
  let shell: ConsoleShell;
  let api: ConsoleApi;

  const snap = async (name: string) => {
    // No pointer over a button, no blinking caret, animations at their end.
    await page.mouse.move(0, 899);
    await page.screenshot({ path: `${SHOTS}/${name}.png`, animations: 'disabled', caret: 'hide' });
  };
  const settled = () => animationsSettled(page);
  const overlay = () => page.locator('.ant-modal-wrap:visible .ant-modal-content, .ant-drawer-open .ant-drawer-content').last();

  /** Opens a row's form or detail, waits for its record, checks it, photographs it and closes it. */
  const openFromRow = async (screen: ResourceScreen, o: Opened, shot: boolean) => {
    await screen.row(o.row).first().locator(`button:has(.anticon-${o.icon})`).click();
    const box = overlay();
    await box.waitFor();
    await page.waitForFunction(() => !document.querySelector('.ant-drawer-open .ant-spin-spinning, .ant-modal-wrap .ant-spin-spinning'));
    // An edit form shows the record's values; a detail its fields.
    if (o.icon === 'edit') await box.locator('input[value]:not([value=""])').first().waitFor();
    else await box.locator('.ant-descriptions-item-content').first().waitFor();
    // The drawer or modal has finished opening.
    await settled();
    expect.soft(await violations(page), `${screen.path} ${o.icon} ${o.row}`).toEqual([]);
    if (shot && o.shot) await snap(o.shot);
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'hidden' });
  };

  /** Goes to a screen by the side menu, waits for it complete, checks it; returns its list. */
  const visit = async (s: ScreenCase, lang: 'zh-CN' | 'ar-EG' | 'en-US', shot: boolean) => {
    // A few tabs at a time: the strip keeps to one row (its overflow menu is checked nowhere else).
    if ((await shell.tabs().count()) >= 5) await shell.tabAction(CLOSE_OTHERS[lang]);
    if (s.path === '/system/person') {
      await page.hover('[data-testid=user-menu]');
      await page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item').first().click();
      await shell.activeTab(s.path).waitFor();
    } else if (s.path === '/home/welcome') {
      await page.goto(`${server.url}${s.path}`);
    } else await shell.navigate(s.path);
    const screen = new ResourceScreen(page, server.url, s.path);
    if (s.rows) {
      await screen.loaded();
      await page.waitForFunction((n) => document.querySelectorAll('main .ant-table-tbody tr.ant-table-row').length >= n, s.rows);
    } else await s.ready?.(page);
    await page.waitForFunction(() => !document.querySelector('main .ant-spin-spinning'));
    expect.soft(await violations(page), `${s.path} (${lang})`).toEqual([]);
    if (shot) await snap(s.shot);
    return screen;
  };

  beforeAll(async () => {
    server = await startConsole();
    [browser, api] = await Promise.all([launchBrowser(), fillConsole(server.url, (id) => server.captchaCode(id))]);
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    shell = new ConsoleShell(page);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the login page, then signing in with the captcha', async () => {
    const login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
    await login.open();
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await page.fill('#username', 'admin');
    await snap('login');
    await login.signIn('admin', E2E_ADMIN_PASSWORD);
    await shell.landed();
  });

  for (const s of SCREENS) {
    it(`${s.path} in Simplified Chinese: populated, no serious accessibility violation${s.open ? ', with its forms and details' : ''}`, async () => {
      const screen = await visit(s, 'zh-CN', true);
      for (const o of s.open ?? []) await openFromRow(screen, o, true);
    });
  }

  it('a pushed notice pops up over the page and the unread count rises', async () => {
    const me = await api.post<{ records: { id: number }[] }>('/system/user/query/page', { current: 1, pageSize: 1, username: 'admin' });
    await api.post('/system/notification/set/add', {
      title: '1 号储能柜温度偏高', content: '上海临港站 1 号储能柜电池簇温度 41℃，请尽快安排现场检查。', pushMode: 'immediate',
      targetType: 'user', targetIds: me.records.map((u) => u.id),
    });
    const notice = shell.popup('1 号储能柜温度偏高');
    await notice.waitFor({ timeout: 15_000 });
    await settled();
    expect.soft(await violations(page), 'popup notice').toEqual([]);
    await snap('system-message-popup');
    await shell.closePopup('1 号储能柜温度偏高');
  });

  it('every screen in Arabic, right to left, with the role and user forms', async () => {
    await shell.chooseLanguage('العربية');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    for (const s of SCREENS) {
      const screen = await visit(s, 'ar-EG', false);
      if (s.path === '/system/user') await snap('system-user-ar');
      for (const o of (s.open ?? []).filter((x) => x.icon === 'edit' && (s.path === '/system/role' || s.path === '/system/user'))) {
        await openFromRow(screen, o, false);
      }
    }
  });

  it('the role form in English', async () => {
    await shell.chooseLanguage('English');
    await page.getByText('Energy Storage Operations Console').waitFor();
    await expect(page.evaluate(() => document.documentElement.dir)).resolves.not.toBe('rtl');
    const s = SCREENS.find((x) => x.path === '/system/role')!;
    const screen = await visit(s, 'en-US', false);
    await openFromRow(screen, { ...s.open![0]!, shot: 'system-role-edit-en' }, true);
    await shell.chooseLanguage('简体中文');
  });
});
