import type { Browser, Page } from 'playwright-core';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApp } from '../apps/server/src/app.ts';
import { ConsoleShell } from './pages/ConsoleShell.ts';
import { LoginPage } from './pages/LoginPage.ts';
import { ResourceScreen } from './pages/ResourceScreen.ts';
import { seriousViolations } from './support/axe.ts';
import { launchBrowser } from './support/browser.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

const TITLE: Record<string, string> = {
  '/system/messageConfig': '消息配置',
  '/system/messagePush': '消息推送',
  '/system/company': '公司管理',
  '/system/menu': '菜单管理',
  '/system/role': '角色管理',
  '/system/user': '用户管理',
  '/log/login': '登录日志',
};

/**
 * Every action of the tab strip through the real UI: the actions menu beside the tabs (acting on
 * the active tab) and each tab's context menu (right click), plus the close button of a tab.
 * After each action the remaining tabs, the active one and the address are checked.
 */
describe('tab strip actions in Chromium', { timeout: 120_000 }, () => {
  let server: RunningApp & { captchaCode(id: string): Promise<string> };
  let browser: Browser;
  let page: Page;
  let shell: ConsoleShell;
  let landing: string;

  const path = () => new URL(page.url()).pathname;
  const open = async (...paths: string[]) => {
    for (const p of paths) {
      await shell.navigate(p);
      await new ResourceScreen(page, server.url, p).loaded();
    }
  };
  /** The tabs left, the active one and the page shown all agree. */
  const expectTabs = async (titles: string[], active: string) => {
    await page.waitForFunction(
      ([want, on]) =>
        [...document.querySelectorAll('.ess-tab-strip .ant-tabs-tab-btn')].map((e) => e.textContent?.trim()).join('|') === want &&
        document.querySelector('.ess-tab-strip .ant-tabs-tab-active')?.textContent?.trim() === on,
      [titles.join('|'), active],
    );
    expect(await shell.tabTitles()).toEqual(titles);
    expect(await shell.activeTabTitle()).toBe(active);
    expect(TITLE[path()] ?? path()).toBe(active);
    await expect(shell.breadcrumb().textContent()).resolves.toContain(active);
  };

  beforeAll(async () => {
    server = await startConsole();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    shell = new ConsoleShell(page);
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') await page?.screenshot({ path: join(tmpdir(), 'tabs-e2e-failure.png') }).catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('signs in and opens six pages from the side menu, one tab each', async () => {
    const login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
    await login.open();
    await login.signIn('admin', E2E_ADMIN_PASSWORD);
    await shell.landed();
    // The first menu page the administrator may open, whichever it is.
    landing = path();
    TITLE[landing] ??= await shell.activeTabTitle();
    const rest = ['/system/messagePush', '/system/company', '/system/menu', '/system/role', '/system/user'].filter((p) => p !== landing);
    await open(...rest);
    await expectTabs([landing, ...rest].map((p) => TITLE[p]!), '用户管理');
    // Choosing a tab shows its page.
    await shell.tab('公司管理').click();
    await shell.activeTab('/system/company').waitFor();
    await expectTabs([landing, ...rest].map((p) => TITLE[p]!), '公司管理');
    await open('/system/user');
  });

  it('refresh reloads the active page: its list is fetched again and it starts afresh', async () => {
    const users = new ResourceScreen(page, server.url, '/system/user');
    await page.locator('main .ess-resource-search #search_username').fill('adm');
    const refetch = page.waitForRequest((r) => r.url().endsWith('/api/manager/system/user/query/page') && r.method() === 'POST');
    await shell.tabAction('刷新');
    const request = await refetch;
    // A remounted page: the search form is empty again, and the list asks for the first page unfiltered.
    expect(request.postDataJSON()).toMatchObject({ current: 1 });
    expect(request.postDataJSON()).not.toHaveProperty('username');
    await users.loaded();
    await expect(page.locator('main .ess-resource-search #search_username').inputValue()).resolves.toBe('');
    await expect.poll(() => users.row('admin').count(), { timeout: 10_000 }).toBe(1);
    await expectTabs(await shell.tabTitles(), '用户管理');

    // The same from the tab's own menu.
    const again = page.waitForRequest((r) => r.url().endsWith('/api/manager/system/user/query/page'));
    await shell.tabContextAction('用户管理', '刷新');
    await again;
    await users.loaded();
  });

  it('the menus have no serious accessibility violation', async () => {
    await shell.openTabActions();
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await page.keyboard.press('Escape');
    await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').waitFor({ state: 'hidden' });
  });

  it('close left (context menu of a tab) keeps that tab and those to its right; the active page stays', async () => {
    await shell.tabContextAction('角色管理', '关闭左侧');
    await expectTabs(['角色管理', '用户管理'], '用户管理');
  });

  it('close right (context menu) closes the active page too and shows the tab acted on', async () => {
    await open('/system/company', '/system/menu');
    await expectTabs(['角色管理', '用户管理', '公司管理', '菜单管理'], '菜单管理');
    await shell.tabContextAction('用户管理', '关闭右侧');
    await expectTabs(['角色管理', '用户管理'], '用户管理');
  });

  it('close current (actions menu) shows the neighbour; a tab\'s close button closes it', async () => {
    await open('/system/messagePush');
    await shell.tab('用户管理').click();
    await shell.activeTab('/system/user').waitFor();
    await expectTabs(['角色管理', '用户管理', '消息推送'], '用户管理');
    await shell.tabAction('关闭当前');
    await expectTabs(['角色管理', '消息推送'], '消息推送');
    // The × of an inactive tab closes it without leaving the active page.
    await shell.tab('角色管理').locator('.ant-tabs-tab-remove').click();
    await expectTabs(['消息推送'], '消息推送');
  });

  it('close others (context menu of an inactive tab) keeps only that tab and shows it', async () => {
    await open('/system/company', '/log/login');
    await expectTabs(['消息推送', '公司管理', '登录日志'], '登录日志');
    await shell.tabContextAction('公司管理', '关闭其他');
    await expectTabs(['公司管理'], '公司管理');
  });

  it('close all (actions menu) leaves only the first menu page open', async () => {
    await open('/system/role', '/system/user');
    await shell.tabAction('关闭全部');
    await expectTabs([TITLE[landing]!], TITLE[landing]!);
    // The open tabs are kept across a reload of the browser tab.
    await open('/system/user');
    await page.reload();
    await new ResourceScreen(page, server.url, '/system/user').loaded();
    await expectTabs([TITLE[landing]!, '用户管理'], '用户管理');
  });
});
