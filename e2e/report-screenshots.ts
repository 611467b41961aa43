/**
 * Screenshots of the report centre (docs/screenshots/report-*.png) at 1440 px on the demo as
 * `npm start` makes it (a few days of history): each shipped template previewed for every demo
 * station over the last 30 days, and the export list with an xlsx and a PDF made; each checked by
 * axe (serious and critical violations are printed and fail the script).
 * Run: `npx tsx e2e/report-screenshots.ts` after `npm run build -w @ess/web`.
 */
import type { Page } from 'playwright-core';
import { REPORT_TEMPLATES, REPORT_TEMPLATE_LABELS, type ReportTemplate } from '@ess/contract/report';
import { seriousViolations } from './support/axe.ts';
import { log, runScript, settled, shotPath, signedInPage, startDemoShots } from './support/shots.ts';

async function pickTemplate(page: Page, template: ReportTemplate) {
  await page.locator('#report-template').click({ force: true });
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: REPORT_TEMPLATE_LABELS[template] }).first().click();
}

async function pickAllStations(page: Page) {
  await page.locator('#report-sites').click({ force: true });
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await options.first().waitFor();
  const n = await options.count();
  for (let i = 0; i < n; i++) await options.nth(i).click();
  await page.keyboard.press('Escape');
}

runScript(async () => {
  const { server, stop } = await startDemoShots({ historyDays: 5 });
  const problems: string[] = [];
  const { browser, page } = await signedInPage(server);
  await page.goto(`${server.url}/report/jimu`);
  await page.getByTestId('report-page').waitFor();
  await pickAllStations(page);
  for (const template of REPORT_TEMPLATES) {
    await pickTemplate(page, template);
    await page.getByTestId('report-preview-button').click();
    await page.getByTestId('report-preview').waitFor({ timeout: 60_000 });
    await page.locator('.ant-card-head-title').filter({ hasText: REPORT_TEMPLATE_LABELS[template] }).first().waitFor({ timeout: 60_000 });
    await settled(page, 2500);
    // The live demo's notices (firmware rollouts) are not part of the report centre.
    for (const close of await page.locator('.ant-notification-notice-close').all()) await close.click().catch(() => undefined);
    await settled(page, 500);
    const violations = await seriousViolations(page);
    if (violations.length) problems.push(`${template}: ${JSON.stringify(violations)}`);
    await page.screenshot({ path: shotPath(`report-${template}`), fullPage: true });
    log(`report-${template}.png`);
  }
  await pickTemplate(page, 'operations');
  await page.getByTestId('report-export-xlsx').click();
  await page.getByTestId('report-export-pdf').click();
  await page.locator('[data-testid="report-exports"] [data-testid="report-download"]:not([disabled])').nth(1).waitFor({ timeout: 120_000 });
  await settled(page, 800);
  const violations = await seriousViolations(page);
  if (violations.length) problems.push(`exports: ${JSON.stringify(violations)}`);
  await page.getByTestId('report-exports').screenshot({ path: shotPath('report-exports') });
  log('report-exports.png');
  await browser.close();
  await stop();
  if (problems.length) throw new Error(`axe:\n${problems.join('\n')}`);
});
