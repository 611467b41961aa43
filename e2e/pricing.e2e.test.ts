import type { PriceTemplateDetail, PriceTemplateRecord } from '@ess/contract/pricing';
import type { Browser, Page } from 'playwright-core';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApp } from '../apps/server/src/app.ts';
import { LoginPage } from './pages/LoginPage.ts';
import { PriceDetailScreen } from './pages/PricingScreens.ts';
import { ResourceScreen } from './pages/ResourceScreen.ts';
import { animationsSettled } from './support/animations.ts';
import { ConsoleApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { launchBrowser } from './support/browser.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

const SHOTS = resolve(import.meta.dirname, '../docs/screenshots');
const TEMPLATE = '华东一般工商业 1-10kV 两部制分时电价';

/**
 * Time-of-use prices as an operator sets them, on the demo stations: the template list, a
 * template's cycles drawn as 24 h bars with a new cycle made in the band editor (which refuses to
 * save what the server would refuse), and a station's price configuration, where the server's
 * refusal of overlapping dates reaches the person. Photographs the three screens at 1440×900.
 */
describe('time-of-use pricing in Chromium', { timeout: 60_000 }, () => {
  let server: RunningApp & { captchaCode(id: string): Promise<string> };
  let browser: Browser;
  let page: Page;
  let api: ConsoleApi;
  let templateId: number;

  const snap = async (name: string) => {
    await animationsSettled(page);
    await page.mouse.move(0, 899);
    await page.screenshot({ path: `${SHOTS}/${name}.png`, animations: 'disabled', caret: 'hide' });
  };

  beforeAll(async () => {
    server = await startConsole({ SIMULATOR: 'off', ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}) });
    api = await ConsoleApi.signIn(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
    // A summer/non-summer tariff of the Shanghai station's company, with its summer cycle; the rest is made in the browser.
    const [east] = await api.post<PriceTemplateRecord[]>('/operation/price/template/query/list', { keyword: '上海临港' });
    ({ id: templateId } = await api.post<{ id: number }>('/operation/price/template/add', {
      name: TEMPLATE, type: 'generalCommercial', billingSystem: 'twoPart', voltageLevel: '1-10kV', companyId: east!.companyId, currency: 'CNY', regionCode: '310000',
    }));
    await api.post('/operation/price/cycle/add/batch', {
      templateId,
      cycles: [{
        name: '夏季', months: [7, 8, 9],
        periods: [
          { start: '00:00', end: '06:00', period: 'deepValley' }, { start: '06:00', end: '08:00', period: 'valley' }, { start: '08:00', end: '11:00', period: 'peak' },
          { start: '11:00', end: '13:00', period: 'flat' }, { start: '13:00', end: '15:00', period: 'peak' }, { start: '15:00', end: '17:00', period: 'tip' },
          { start: '17:00', end: '22:00', period: 'peak' }, { start: '22:00', end: '24:00', period: 'valley' },
        ],
        tipPrice: 1.4231, peakPrice: 1.1452, flatPrice: 0.6921, valleyPrice: 0.3187, deepValleyPrice: 0.2401, demandPrice: 38.4,
      }],
    });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    const login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
    await login.open();
    await login.signIn('admin', E2E_ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname !== '/login');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists the templates with their use, and leads from a row to its cycles', async () => {
    const list = new ResourceScreen(page, server.url, '/operatecfg/price');
    await list.open();
    await list.row('洛杉矶光储充电站分时电价').waitFor();
    expect(await list.rows().count()).toBe(4);
    // A template a station uses offers no delete; a new one does.
    await expect.poll(() => list.row('上海临港储能电站分时电价').getByRole('button', { name: /删\s*除/ }).count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => list.row(TEMPLATE).getByRole('button', { name: /删\s*除/ }).count(), { timeout: 10_000 }).toBe(1);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await snap('pricing-price');
    await list.row(TEMPLATE).getByRole('link', { name: /时段与电价/ }).click();
    await page.waitForURL((u) => u.pathname === '/operatecfg/pricedetail' && u.searchParams.get('id') === String(templateId));
  });

  it('adds a cycle in the band editor, which blocks saving until the rules hold', async () => {
    const detail = new PriceDetailScreen(page);
    await detail.loaded();
    await page.getByText('未设置电价周期', { exact: false }).waitFor();
    expect(await detail.bands('夏季')).toContain('15:00–17:00 尖 1.4231 CNY/kWh');

    await page.getByRole('button', { name: /新增周期/ }).click();
    await animationsSettled(page);
    const editor = detail.editor();
    await editor.getByLabel('周期名称').fill('非夏季');
    // Split the day at noon and make the afternoon peak.
    await detail.band(0).getByRole('button', { name: /拆分/ }).click();
    await detail.setBandType(1, '峰');
    await editor.getByLabel('平时段电价').fill('0.6612');
    expect(await detail.issues()).toEqual(['峰时段未设置电价', '两部制电价需设置需量电价或容量电价']);
    await editor.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => editor.locator('[data-testid="cycle-issues"].ant-alert-error').count(), { timeout: 10_000 }).toBe(1);

    await editor.getByLabel('峰时段电价').fill('1.0982');
    await editor.getByLabel('需量电价').fill('38.4');
    await editor.locator('[data-testid="cycle-issues"]').waitFor({ state: 'detached' });
    await snap('pricing-cycle-editor');
    await editor.getByRole('button', { name: /保\s*存/ }).click();
    await detail.cycle('非夏季').waitFor();
    expect(await detail.bands('非夏季')).toEqual(['00:00–12:00 平 0.6612 CNY/kWh', '12:00–24:00 峰 1.0982 CNY/kWh']);
    // Every month now has a cycle: no warning, no room for another.
    await expect.poll(() => page.getByText('未设置电价周期', { exact: false }).count(), { timeout: 10_000 }).toBe(0);
    await expect(page.getByRole('button', { name: /新增周期/ }).isDisabled()).resolves.toBe(true);
    const stored = await api.post<PriceTemplateDetail>('/operation/price/template/query/one', { id: templateId });
    expect(stored.cycles.find((c) => c.name === '非夏季')).toMatchObject({ months: [1, 2, 3, 4, 5, 6, 10, 11, 12], peakPrice: 1.0982, demandPrice: 38.4 });
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await snap('pricing-detail');
  });

  it("shows a station's price configuration and feed-in prices, and the refusal of overlapping dates", async () => {
    const rate = new ResourceScreen(page, server.url, '/operatecfg/rate');
    await rate.open();
    await page.locator('main .ant-select:has(#rate-site)').click();
    await page.keyboard.type('LA01');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'LA01' }).click();
    await rate.row('洛杉矶光储充电站分时电价').waitFor();
    await expect(rate.row('洛杉矶光储充电站分时电价').textContent()).resolves.toContain('0.18 USD/kWh');
    await rate.row('2024-09-10').filter({ hasText: '0.075 USD/kWh' }).waitFor();
    await expect(rate.row('0.075 USD/kWh').textContent()).resolves.toMatch(/尖 0\.312.*峰 0\.184/);

    await page.locator('main .ess-resource-toolbar').first().getByRole('button', { name: /新\s*增/ }).click();
    await animationsSettled(page);
    await rate.choose('选用模板', '洛杉矶光储充电站分时电价');
    const start = rate.form().locator('#field-startDate');
    await start.click();
    await start.fill('2025-01-01');
    await start.press('Enter');
    await rate.save();
    await rate.toast('日期范围与该站点已有的电价配置重叠').waitFor();
    await rate.form().getByRole('button', { name: /取\s*消/ }).click();
    await rate.form().waitFor({ state: 'detached' });
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await snap('pricing-rate');
  });
});
