import type { RunningApp } from '../apps/server/src/app.ts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConsoleShell } from './pages/ConsoleShell.ts';
import { LoginPage } from './pages/LoginPage.ts';
import { launchBrowser } from './support/browser.ts';
import { signInToken } from './support/api.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

describe('console shell in Chromium', () => {
  let server: RunningApp & { captchaCode(id: string): Promise<string> };
  let browser: Browser;
  let page: Page;
  let login: LoginPage;
  let shell: ConsoleShell;

  beforeAll(async () => {
    server = await startConsole();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    page = await context.newPage();
    login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
    shell = new ConsoleShell(page);
  });

  it('sends a first visitor (no token stored) to the login page plainly, and one whose token expired with the 401 message', async () => {
    await page.goto(`${server.url}/system/user`);
    await page.waitForURL('**/login');
    await page.locator('#username').waitFor();
    // Nobody tried to sign in yet: no "not signed in or expired" error (issue 16 §6).
    expect(await page.locator('.ant-message').getByText('未登录或登录已过期').count()).toBe(0);
    await page.evaluate(() => localStorage.setItem('Token', 'a-token-the-server-no-longer-knows'));
    await page.goto(`${server.url}/system/user`);
    await page.waitForURL('**/login');
    await page.locator('.ant-message').getByText('未登录或登录已过期').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.evaluate(() => localStorage.removeItem('Token'));
  });

  it("the login page uses antd's prebuilt styles instead of making them while it loads", async () => {
    // Styles antd makes at run time are <style data-css-hash> tags; the prebuilt ones are linked.
    await login.open();
    await expect(page.evaluate(() => document.querySelectorAll('link[rel=stylesheet][data-ess-antd]').length)).resolves.toBeGreaterThan(0);
    // Without them the login page made 11.
    await expect(page.evaluate(() => document.querySelectorAll('style[data-css-hash]').length)).resolves.toBeLessThanOrEqual(2);
  });

  it('refuses a wrong captcha with a clear error and a fresh image', async () => {
    await login.open();
    const before = await page.getAttribute('[data-testid=captcha-image]', 'src');
    await login.signIn('admin', E2E_ADMIN_PASSWORD, 'zzzz');
    await expect(login.error().textContent()).resolves.toContain('验证码错误或已过期');
    expect(await page.getAttribute('[data-testid=captcha-image]', 'src')).not.toBe(before);
    await page.fill('#username', 'admin ');
    await expect.poll(() => login.error().count(), { timeout: 10_000 }).toBe(0);
  });

  it('signs in, lands on the first menu page with the live stream open, switches language and direction, signs out', async () => {
    await login.open();
    const stream = page.waitForResponse((r) => r.url().endsWith('/api/manager/basic/sse/connect'));
    await login.signIn('admin', E2E_ADMIN_PASSWORD);
    // The first menu page with a screen, whichever is built first in the menu order.
    await page.waitForURL((u) => u.pathname !== '/login');
    expect((await stream).status()).toBe(200);
    const first = new URL(page.url()).pathname;
    await shell.activeTab(first).waitFor();
    await expect(shell.breadcrumb().textContent()).resolves.toContain(await shell.activeTabTitle());
    await expect(page.evaluate(() => localStorage.getItem('Token'))).resolves.toMatch(/.{20,}/);

    await page.goto(`${server.url}/system/person`);
    await page.getByText('修改密码').first().waitFor();
    await expect.poll(() => shell.tabs().count(), { timeout: 10_000 }).toBe(2);

    await shell.chooseLanguage('English');
    await page.getByText('Energy Storage Operations Console').waitFor();
    await expect(shell.breadcrumb().textContent()).resolves.toBe('Personal center');
    await shell.chooseLanguage('العربية');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await expect(page.locator('.ant-layout-header, header').first().evaluate((el) => getComputedStyle(el).direction)).resolves.toBe('rtl');
    await shell.chooseLanguage('简体中文');
    await page.waitForFunction(() => document.documentElement.dir === 'ltr');

    await shell.tabAction('关闭其他');
    await expect.poll(() => shell.tabs().count(), { timeout: 10_000 }).toBe(1);

    await shell.signOut();
    await page.waitForURL('**/login');
    await expect(page.evaluate(() => localStorage.getItem('Token'))).resolves.toBeNull();
  });

  it('draws a list page in turns (layout parts, then the table) without moving anything', async () => {
    const token = await signInToken(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
    await page.addInitScript((t) => {
      localStorage.setItem('Token', t);
      const w = window as unknown as { shifts: number[] };
      w.shifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!e.hadRecentInput) w.shifts.push(e.value);
      }).observe({ type: 'layout-shift', buffered: true });
    }, token);
    await page.goto(`${server.url}/system/user`);
    await page.locator('main .ant-table-row').first().waitFor();
    await page.locator('nav .ant-menu-root').waitFor();
    await shell.activeTab('/system/user').waitFor();
    // The late parts too: the search form's three selects (after their read-only stand-ins) and the pager.
    await expect.poll(() => page.locator('main .ess-resource-search .ant-select').count()).toBe(3);
    await page.locator('main .ess-table-pagination').waitFor();
    await page.waitForTimeout(500);
    // Layout shifts while the page was drawn: the placeholders keep the deferred parts' places.
    await expect(page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).resolves.toEqual([]);
  });

  it("preloads the layout's and the page's chunks from index.html alone, a few links a task", async () => {
    const token = await signInToken(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
    await page.addInitScript((t) => localStorage.setItem('Token', t), token);
    // The console's own script held back: whatever is preloaded comes from index.html's inline script.
    await page.route(/\/assets\/index-[^/]*\.js$/, (route) => route.abort());
    await page.goto(`${server.url}/system/user`);
    const preloads = () =>
      page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel=modulepreload]')].map((l) => new URL(l.href).pathname));
    await expect.poll(async () => (await preloads()).some((p) => /\/assets\/UserPage-/.test(p))).toBe(true);
    const all = await preloads();
    expect(all.some((p) => /\/assets\/SignedInShell-/.test(p))).toBe(true);
    expect(all.length).toBeGreaterThan(30);
    await page.unrouteAll();
  });
});
