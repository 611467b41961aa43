import { demoFleet } from '@ess/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportPreview } from '@ess/contract/report';
import { seedDemoHistory } from '../apps/server/src/demo/demo-history.ts';
import { refreshAll } from '../apps/server/src/modules/dashboard/revenue.jobs.ts';
import { LoginPage } from './pages/LoginPage.ts';
import { animationsSettled } from './support/animations.ts';
import { ConsoleApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { launchBrowser } from './support/browser.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/**
 * The report centre (issue 25) end to end: the administrator picks the operations template and a
 * demo station, previews it (the figure on screen is the preview call's, which the server test
 * compares with the energy-arbitrage overview), pages a table, exports an xlsx that the export
 * list shows made in the background and downloads it; the page is axe clean.
 */
describe('report centre: preview, paging, background export and download', () => {
  let server: Awaited<ReturnType<typeof startConsole>>;
  let browser: Browser;
  let page: Page;
  let api: ConsoleApi;
  let station = { id: 0, name: '' };

  beforeAll(async () => {
    server = await startConsole({ SEED_DEMO: 'true', SIMULATOR: 'off', DEVICE_OFFLINE_TIMEOUT_MS: '600000' });
    await seedDemoHistory(server.ctx, demoFleet(), 3, '', Date.now(), 0.2);
    await refreshAll(server.ctx);
    api = await ConsoleApi.signIn(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
    const sites = await api.post<{ id: number; name: string; code: string }[]>('/configure/site/query/list', {});
    station = sites.find((s) => s.code === 'SH01') ?? sites[0]!;
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })).newPage();
    const login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
    await login.open();
    await login.signIn('admin', E2E_ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname !== '/login');
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('previews the operations report of a station with the preview call’s figures, pages a table, and is axe clean', async () => {
    await page.goto(`${server.url}/report/jimu`);
    await page.getByTestId('report-page').waitFor();
    await page.locator('#report-sites').click({ force: true });
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: station.name }).first().click();
    await page.keyboard.press('Escape');
    await page.getByTestId('report-preview-button').click();
    await page.getByTestId('report-preview').waitFor({ timeout: 60_000 });
    const expected = await api.post<ReportPreview>('/report/preview', {
      template: 'operations', siteIds: [station.id], start: daysAgo(29), end: today(), granularity: 'day', current: 1, pageSize: 10,
    });
    const charge = expected.figures.find((f) => f.key === 'charge')!;
    expect(charge.value).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('report-figure-charge').textContent()).toContain('kWh');
    const shown = (await page.getByTestId('report-figure-charge').locator('.ant-statistic-content').textContent())!;
    expect(Number(shown.replace(/[^\d.]/g, ''))).toBeCloseTo(charge.value!, 3);
    await page.getByTestId('report-chart-energy').locator('canvas').waitFor();
    // The 30 days of the period table: page 2 holds days 11–20.
    const byPeriod = page.getByTestId('report-table-byPeriod');
    await byPeriod.locator('.ant-pagination-item-2').click();
    await expect.poll(() => byPeriod.locator('tbody tr.ant-table-row').first().textContent()).toContain(daysAgo(19));
    await page.mouse.move(0, 899);
    await animationsSettled(page);
    await expect(seriousViolations(page)).resolves.toEqual([]);
  });

  it('exports xlsx in the background, shows its progress done, and downloads it', async () => {
    await page.getByTestId('report-export-xlsx').click();
    const row = page.getByTestId('report-exports').locator('tbody tr.ant-table-row').first();
    await row.locator('[data-testid=report-download]:not([disabled])').waitFor({ timeout: 60_000 });
    await expect.poll(() => row.locator('.ant-progress').getAttribute('aria-valuenow')).toBe('100');
    const [file] = await Promise.all([page.waitForEvent('download'), row.getByTestId('report-download').click()]);
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    await animationsSettled(page);
    await expect(seriousViolations(page)).resolves.toEqual([]);
  });
});
