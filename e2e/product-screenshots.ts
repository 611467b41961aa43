/**
 * Screenshots of the product screens for docs/screenshots/product-*.png, from a running console
 * with the demo seed (one standard product per device type). Two templates are added through
 * the API first, as an operator would. Run: `npx tsx e2e/product-screenshots.ts` after
 * `npm run build -w @ess/web` (E2E_WEB_DIST=<dir> for another build).
 */
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { LoginPage } from './pages/LoginPage.ts';
import { launchBrowser } from './support/browser.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

const OUT = resolve(import.meta.dirname, '../docs/screenshots');

async function api<T>(page: Page, path: string, body: unknown): Promise<T> {
  return page.evaluate(
    async ([p, b]) => {
      const res = await fetch(`/api/manager${p}`, {
        method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: localStorage.getItem('Token') ?? '' }, body: JSON.stringify(b),
      });
      return ((await res.json()) as { data: unknown }).data;
    },
    [path, body] as const,
  ) as Promise<T>;
}

async function main() {
  const server = await startConsole({ SIMULATOR: 'off', ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}) });
  const browser = await launchBrowser();
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  const login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
  await login.open();
  await login.signIn('admin', E2E_ADMIN_PASSWORD);
  await page.waitForURL((u) => u.pathname !== '/login');

  const products = await api<{ id: number; code: string }[]>(page, '/configure/product/query/list', {});
  const id = (code: string) => products.find((p) => p.code === code)!.id;
  await api(page, '/template/product/add/batch', {
    items: [
      { name: 'PCS功率与状态', productId: id('ESS-PCS'), identifiers: ['state', 'activePower', 'reactivePower', 'dcVoltage', 'dcCurrent'] },
      { name: 'BMS电池概览', productId: id('ESS-BMS'), identifiers: ['soc', 'soh', 'voltage', 'current', 'maxCellVoltage', 'minCellVoltage'] },
    ],
  });
  await api(page, '/configure/static/property/add', { productId: id('ESS-PCS'), identifier: 'manufacturer', name: '制造商', dataType: 'string', required: true });
  await api(page, '/configure/static/property/add', { productId: id('ESS-PCS'), identifier: 'ratedPower', name: '额定功率', dataType: 'float', unit: 'kW' });

  const shot = async (name: string, fullPage = false) => {
    // The live-event stream keeps the network busy: wait for spinners to end instead.
    await page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' }).catch(() => undefined);
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(OUT, `product-${name}.png`), fullPage });
    console.log(`product-${name}.png`);
  };

  await page.goto(`${server.url}/product/management`);
  await page.locator('.ant-table-row').first().waitFor();
  await shot('management');

  const pcsRow = page.locator('.ant-table-row', { hasText: 'ESS-PCS' });
  await pcsRow.getByText('物模型', { exact: true }).click();
  await page.locator('.ant-drawer .ant-table-row').first().waitFor();
  await shot('model-properties');
  // The enum editor: edit the PCS state property.
  await page.locator('.ant-drawer .ant-table-row', { hasText: 'state' }).first().getByText('编辑', { exact: true }).click();
  await page.locator('.ant-drawer-content').last().getByText('添加枚举值').waitFor();
  await shot('property-enum-form');
  await page.keyboard.press('Escape');
  await page.waitForTimeout(300);
  await page.locator('.ant-drawer .ant-tabs-tab', { hasText: '命令' }).click();
  await page.waitForTimeout(600);
  await shot('model-commands');
  await page.locator('.ant-drawer .ant-tabs-tab', { hasText: '静态属性' }).click();
  await page.waitForTimeout(600);
  await shot('model-static');
  await page.keyboard.press('Escape');

  await page.goto(`${server.url}/product/template`);
  await page.locator('.ant-table-row').first().waitFor();
  await shot('template');
  await page.getByRole('button', { name: '批量新增' }).click();
  const modal = page.locator('.ant-modal');
  await modal.waitFor();
  await modal.getByPlaceholder('模板名称').fill('电表电量');
  await modal.locator('.ant-select').nth(0).click();
  await page.locator('.ant-select-item-option', { hasText: 'ESS-METER' }).click();
  await modal.locator('.ant-select').nth(1).click();
  for (const name of ['正向有功电能（总）', '反向有功电能（总）']) {
    await page.keyboard.type(name);
    await page.locator('.ant-select-item-option', { hasText: name }).first().click();
  }
  await page.keyboard.press('Escape');
  await shot('template-batch');

  await browser.close();
  await server.close();
}

await main();
