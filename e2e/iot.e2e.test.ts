import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformPeer } from '../apps/server/test/iot-peers.ts';
import { LoginPage } from './pages/LoginPage.ts';
import { animationsSettled } from './support/animations.ts';
import { ConsoleApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { launchBrowser } from './support/browser.ts';
import { IOT_PASSWORD, IOT_USER, startIotPlatform } from './support/iot-world.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

/**
 * IoT platform sync (issue 23) end to end through the screens: the administrator opens the empty
 * application list (which says how to add one), adds a JetLinks application — first with a wrong
 * password, which the server refuses after trying to sign in (nothing is stored), then with the
 * right one (shown as "set", never echoed) — tests the connection, syncs (a dry-run diff that
 * writes nothing until approved), approves it, finds the platform's products and devices (a demo
 * device bound by its code), and switches a property relation off and on. The platform is the
 * JetLinks protocol peer of the server tests, started here.
 */

async function pickTree(page: Page, scope: ReturnType<Page['locator']>, label: string, text: string): Promise<void> {
  await scope.locator('.ant-form-item').filter({ hasText: label }).locator('.ant-select').first().click();
  await page.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper').filter({ hasText: text }).first().click();
}

describe('IoT: an application added, tested, synced with approval; products, devices and relations on their screens', () => {
  let server: Awaited<ReturnType<typeof startConsole>>;
  let browser: Browser;
  let page: Page;
  let api: ConsoleApi;
  let peer: PlatformPeer;
  let companyName = '';

  const axeClean = async () => expect(await seriousViolations(page)).toEqual([]);

  beforeAll(async () => {
    server = await startConsole({ SEED_DEMO: 'true', SIMULATOR: 'off' });
    api = await ConsoleApi.signIn(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
    const [group] = await api.post<{ id: number; name: string }[]>('/system/company/query/tree', {});
    companyName = group!.name;
    peer = await startIotPlatform(api);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    const login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
    await login.open();
    await login.signIn('admin', E2E_ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname !== '/login');
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await peer?.close();
  });

  it('adds an application: a wrong password is refused with the platform\'s reason and nothing is stored; the right one is kept and never shown', async () => {
    await page.goto(`${server.url}/iot/appConfig`);
    const existing = await api.post<{ total: number }>('/iot/config/query/page', { current: 1, pageSize: 10 });
    if (existing.total === 0) {
      await page.locator('main .ant-table-placeholder').getByText(/还没有物联网应用。点击“新增”/).waitFor({ timeout: 30_000 });
      await axeClean();
    }
    await page.getByRole('button', { name: /新\s*增/ }).first().click();
    const drawer = page.locator('.ant-drawer-open');
    await drawer.getByTestId('config-platform').waitFor();
    await pickTree(page, drawer, '所属公司', companyName);
    await drawer.getByLabel('应用名称').fill('JetLinks 平台');
    await drawer.getByTestId('config-platform').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'JetLinks' }).click();
    await drawer.getByTestId('platform-fields').waitFor();
    await drawer.getByTestId('config-baseUrl').fill(peer.url);
    await drawer.getByTestId('config-username').fill(IOT_USER);
    await drawer.getByLabel('密码').fill('wrong-password');
    await animationsSettled(page);
    await axeClean();
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await page.locator('.ant-message').getByText(/^连接失败：/).first().waitFor({ timeout: 30_000 });
    expect((await api.post<{ total: number }>('/iot/config/query/page', { current: 1, pageSize: 10, name: 'JetLinks 平台' })).total).toBe(0);

    await drawer.getByLabel('密码').fill(IOT_PASSWORD);
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    const row = page.locator('main .ant-table-row').filter({ hasText: 'JetLinks 平台' });
    await row.waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toContain('已设置');
    expect(await page.content()).not.toContain(IOT_PASSWORD);
  }, 120_000);

  it('tests the connection, and syncs as a dry run that writes nothing until approved', async () => {
    const row = page.locator('main .ant-table-row').filter({ hasText: 'JetLinks 平台' });
    await row.getByTestId('config-connect').click();
    await page.locator('[data-testid=outcome-message]:visible').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=outcome-message]:visible').textContent()).toBe('连接成功');
    await page.getByRole('button', { name: /确\s*定/ }).click();

    await row.getByTestId('config-sync').click();
    const view = page.getByTestId('sync-view');
    await view.getByTestId('sync-diff').waitFor({ timeout: 30_000 });
    expect(await view.getByTestId('sync-state-planned').count()).toBe(1);
    expect(await view.getByTestId('diff-added').count()).toBeGreaterThan(5);
    await axeClean();
    expect((await api.post<{ total: number }>('/iot/product/query/page', { current: 1, pageSize: 10 })).total).toBe(0);
    await page.getByTestId('sync-approve').click();
    await view.getByTestId('sync-state-applied').waitFor({ timeout: 30_000 });
    await page.getByTestId('sync-close').click();
    expect((await api.post<{ total: number }>('/iot/product/query/page', { current: 1, pageSize: 10 })).total).toBe(2);
  }, 120_000);

  it('lists the platform\'s products and devices; a device named after a demo device is bound to it', async () => {
    await page.goto(`${server.url}/iot/productManagement`);
    const product = page.locator('main .ant-table-row').filter({ hasText: '电池簇 BMS' });
    await product.waitFor({ timeout: 30_000 });
    expect(await product.textContent()).toContain('4 / 1 / 1');
    await axeClean();
    await page.goto(`${server.url}/iot/device`);
    const online = page.locator('main .ant-table-row').filter({ hasText: 'jl-bms-1' });
    await online.waitFor({ timeout: 30_000 });
    expect(await online.textContent()).toContain('在线');
    expect(await online.textContent()).not.toContain('未绑定');
    await axeClean();
  }, 120_000);

  it('switches a property relation off and on from the product\'s detail', async () => {
    const [bms] = (await api.post<{ records: { id: number }[] }>('/iot/product/query/page', { current: 1, pageSize: 10, name: '电池簇' })).records;
    const props = await api.post<{ id: number; identifier: string }[]>('/iot/property/query/list', { iotProductId: bms!.id });
    const products = await api.post<{ id: number; propertyCount: number }[]>('/configure/product/query/list', {});
    const target = products.find((p) => p.propertyCount > 0)!;
    const [property] = await api.post<{ identifier: string }[]>('/configure/property/query/list', { productId: target.id });
    await api.post('/iot/relate/property/add', { iotProductId: bms!.id, iotPropertyId: props.find((p) => p.identifier === 'soc')!.id, productId: target.id, identifier: property!.identifier, scale: 0.1 });
    await page.goto(`${server.url}/iot/productDetail?id=${bms!.id}`);
    await page.getByRole('tab', { name: '属性关联' }).click();
    const row = page.getByTestId('relations-property').locator('.ant-table-row').first();
    await row.waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toContain('× 0.1 + 0');
    await row.getByTestId('relation-active').click();
    await row.getByText('已停用').waitFor({ timeout: 30_000 });
    const [stored] = (await api.post<{ records: { active: boolean }[] }>('/iot/relate/property/query/page', { current: 1, pageSize: 10, iotProductId: bms!.id })).records;
    expect(stored!.active).toBe(false);
    await row.getByTestId('relation-active').click();
    await row.getByText('已启用').waitFor({ timeout: 30_000 });
    await axeClean();
  }, 120_000);
});
