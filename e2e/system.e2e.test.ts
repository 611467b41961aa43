import type { Browser, BrowserContext, Page } from 'playwright-core';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApp } from '../apps/server/src/app.ts';
import { ConsoleShell } from './pages/ConsoleShell.ts';
import { LoginPage } from './pages/LoginPage.ts';
import { MessagePushScreen, RoleScreen, UserScreen } from './pages/SystemScreens.ts';
import { seriousViolations } from './support/axe.ts';
import { launchBrowser } from './support/browser.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

const ROLE = '日志审计员';
const USERNAME = 'auditor';
const PASSWORD = 'Audit12345';
const NAME = '审计员';

/**
 * System administration as two people would use it, captcha on: the administrator creates a
 * role limited to the log menus and a user with it; the user sees only those menus, is sent
 * from a forbidden page to the first one, and gets the administrator's push in the open tab.
 * Every page visited is checked with axe-core for serious and critical violations.
 */
describe('system administration in Chromium', () => {
  let server: RunningApp & { captchaCode(id: string): Promise<string> };
  let browser: Browser;
  let adminContext: BrowserContext;
  let admin: Page;
  let userContext: BrowserContext;
  let user: Page;

  beforeAll(async () => {
    server = await startConsole();
    browser = await launchBrowser();
    adminContext = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    admin = await adminContext.newPage();
  });
  // A failed step leaves pictures of both browsers to look at.
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    const name = task.name.replace(/\W+/g, '-').slice(0, 40);
    await admin?.screenshot({ path: join(tmpdir(), `system-e2e-admin-${name}.png`) }).catch(() => undefined);
    if (user && !user.isClosed()) await user.screenshot({ path: join(tmpdir(), `system-e2e-user-${name}.png`) }).catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the administrator signs in with the captcha; the login page has no serious accessibility violation', async () => {
    const login = new LoginPage(admin, server.url, (id) => server.captchaCode(id));
    await login.open();
    await expect(seriousViolations(admin)).resolves.toEqual([]);
    await login.signIn('admin', E2E_ADMIN_PASSWORD);
    await new ConsoleShell(admin).landed();
  });

  it('creates a role limited to the log menus; an empty permission configuration is refused first', async () => {
    const roles = new RoleScreen(admin, server.url);
    await roles.open();
    await expect(seriousViolations(admin)).resolves.toEqual([]);
    await roles.toolbar(/新\s*增/);
    await roles.fill('角色名称', ROLE);
    await roles.save();
    await expect.poll(() => roles.fieldErrors().filter({ hasText: '权限配置不能为空' }).count(), { timeout: 10_000 }).toBe(1);
    await roles.tickMenus('登录日志', '接口日志');
    await expect(roles.menuCount().textContent()).resolves.toBe('已选 2 个菜单');
    await roles.save();
    await roles.toast('保存成功').waitFor();
    await roles.row(ROLE).waitFor();
    await expect(roles.row(ROLE).textContent()).resolves.toContain('储能集团');
  });

  it('creates a user with that role', async () => {
    const users = new UserScreen(admin, server.url);
    await users.open();
    await expect(seriousViolations(admin)).resolves.toEqual([]);
    await users.toolbar(/新\s*增/);
    await users.fill('用户名', USERNAME);
    await users.fill('密码', PASSWORD);
    await users.fill('姓名', NAME);
    await users.choose('所属公司', '储能集团');
    await users.choose('角色', ROLE);
    await users.save();
    await users.toast('保存成功').waitFor();
    const row = users.row(USERNAME);
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(ROLE);
    await expect(row.getByRole('switch').getAttribute('aria-checked')).resolves.toBe('true');
  });

  it('the user, in a browser of their own, sees only the granted menus and is sent from a forbidden page to the first one', async () => {
    userContext = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    user = await userContext.newPage();
    const login = new LoginPage(user, server.url, (id) => server.captchaCode(id));
    await login.open();
    await login.signIn(USERNAME, PASSWORD);
    await user.waitForURL('**/log/login');
    await user.locator('main .ant-table').first().waitFor();
    const shell = new ConsoleShell(user);
    await expect(shell.menuNames()).resolves.toEqual(['日志管理', '登录日志', '接口日志']);
    await expect(seriousViolations(user)).resolves.toEqual([]);

    await user.goto(`${server.url}/system/user`);
    await user.waitForURL('**/log/login');
    await expect(shell.breadcrumb().textContent()).resolves.toBe('日志管理/登录日志');
    // The user's own sign-in is in the log they may read.
    await user.locator('main .ant-table-row').filter({ hasText: USERNAME }).first().waitFor();
  });

  it('the administrator pushes an immediate notification; it pops up in the user\'s open tab without a reload', async () => {
    await user.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    const shell = new ConsoleShell(user);
    await expect.poll(() => shell.unreadBadge().count(), { timeout: 10_000 }).toBe(0);

    const push = new MessagePushScreen(admin, server.url);
    await push.open();
    await expect(seriousViolations(admin)).resolves.toEqual([]);
    await push.pushNow('设备巡检提醒', '请于今日 18:00 前完成 1 号储能柜巡检。', [NAME]);
    await push.toast('保存成功').waitFor();
    await push.row('设备巡检提醒').waitFor();
    await expect(push.row('设备巡检提醒').textContent()).resolves.toContain('成功');

    await shell.popup('设备巡检提醒').waitFor({ timeout: 15_000 });
    await expect(shell.popup('设备巡检提醒').textContent()).resolves.toContain('请于今日 18:00 前完成 1 号储能柜巡检。');
    await expect(shell.unreadBadge().getAttribute('title')).resolves.toBe('1');
    await expect(user.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).resolves.toBe(true);
    await expect(seriousViolations(user)).resolves.toEqual([]);
  });

  it('the user closes the notice and signs out', async () => {
    const shell = new ConsoleShell(user);
    await shell.closePopup('设备巡检提醒');
    await shell.signOut();
    await user.waitForURL('**/login');
    await expect(user.evaluate(() => localStorage.getItem('Token'))).resolves.toBeNull();
    await userContext.close();
  });
});
