/**
 * Screenshots of the demand and strategy screens on a fresh demo (docs/screenshots/demand-*.png,
 * strategy-*.png), each checked by axe (serious and critical violations are printed and fail the
 * script): the console started as `npm start` starts it the first time — demo seeded, its history
 * with the 15-minute demand windows, the demo targets and strategies — then the simulator playing
 * the stations live. Also the phone (390 px): the track page and the strategy.
 * Run: `npx tsx e2e/demand-strategy-screenshots.ts` after `npm run build -w @ess/web`
 * (E2E_WEB_DIST=<dir> for another build; DEMO_HISTORY_DAYS=<n> for another history than the
 * month-long one it writes). Needs the server's demand and strategy modules (issue 19).
 */
import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe.ts';
import { log, runScript, settled, shotPath, signedInPage, startDemoShots } from './support/shots.ts';

/** Opens a screen, waits for what proves its data is there (else takes it as it is and says so), checks it with axe and takes its picture. */
async function shoot(page: Page, base: string, route: string, ready: string, name: string, problems: string[], fullPage = true): Promise<void> {
  await page.goto(`${base}${route}`);
  const found = await page.locator(ready).first().waitFor({ timeout: 30_000 }).then(() => true, () => false);
  if (!found) log(`${name}: no data (${ready}) on ${route}`);
  await settled(page);
  const violations = await seriousViolations(page);
  if (violations.length) problems.push(`${name}: ${JSON.stringify(violations)}`);
  await page.screenshot({ path: shotPath(name), fullPage });
  log(`${name}.png${violations.length ? ` (${violations.length} axe violations)` : ''}`);
}

/** Over a month: the track's month and the analysis's saving come from a whole month of windows. */
const HISTORY_DAYS = 35;

runScript(async () => {
  // A month-long history (and the days of this month so far): the month's curve, its targets held, a few pre-alarms.
  const { server, stop } = await startDemoShots({ historyDays: HISTORY_DAYS });
  const problems: string[] = [];
  const { browser, page } = await signedInPage(server);
  const base = server.url;

  await shoot(page, base, '/demand/track', '[data-testid=track-days] .ant-table-row', 'demand-track-month', problems);
  // The latest day with windows (the month's later days are still to come).
  const withData = page.locator('[data-testid=track-days] .ant-table-row').filter({ has: page.locator('td:nth-child(2)', { hasText: /\d/ }) });
  await withData.last().getByTestId('track-day-link').click();
  await page.locator('[data-testid=track-windows] .ant-table-row').first().waitFor({ timeout: 30_000 }).catch(() => log('track day: no windows'));
  await settled(page);
  await page.screenshot({ path: shotPath('demand-track-day'), fullPage: true });
  log('demand-track-day.png');
  await shoot(page, base, '/demand/analysis', '[data-testid=analysis-measures] .ant-table-row', 'demand-analysis', problems);
  if (await page.getByTestId('measure-open').count()) {
    await page.getByTestId('measure-open').first().click();
    await page.getByTestId('measure-detail').waitFor({ timeout: 30_000 });
    await settled(page);
    await page.screenshot({ path: shotPath('demand-measure-detail') });
    log('demand-measure-detail.png');
    await page.keyboard.press('Escape');
  }
  await shoot(page, base, '/demand/reconcile', '[data-testid=reconcile-table] .ant-table-row', 'demand-reconcile', problems);
  if (await page.getByTestId('bill-edit').count()) {
    await page.getByTestId('bill-edit').first().click();
    await page.getByTestId('bill-form').waitFor();
    await settled(page, 300);
    await page.screenshot({ path: shotPath('demand-reconcile-bill') });
    log('demand-reconcile-bill.png');
    await page.keyboard.press('Escape');
  }
  await shoot(page, base, '/demand/setting', '.ant-table-row', 'demand-setting', problems);
  await shoot(page, base, '/operatecfg/strategy', '[data-testid=strategy-bar]', 'strategy', problems);
  // Yesterday simulated with the saved strategy: its figures beside the measured ones.
  await page.getByTestId('simulate-run').click();
  await page.getByTestId('simulate-summary').waitFor({ timeout: 60_000 }).catch(() => log('strategy: no simulation'));
  await settled(page);
  await page.getByTestId('strategy-simulate').screenshot({ path: shotPath('strategy-simulate') });
  log('strategy-simulate.png');
  // A window overlapping the next: the rules name it before anything is sent.
  const ends = page.getByTestId('window-end');
  if (await ends.count() > 1) {
    await ends.first().click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').last().click();
    await page.getByTestId('strategy-save').click();
    await page.getByTestId('strategy-issues').waitFor({ timeout: 10_000 }).catch(() => log('strategy: no issues shown'));
    await settled(page, 300);
    await page.getByTestId('strategy-issues').scrollIntoViewIfNeeded().catch(() => undefined);
    await page.screenshot({ path: shotPath('strategy-issues') });
    log('strategy-issues.png');
  }
  await browser.close();

  const phone = await signedInPage(server, { width: 390, height: 844 });
  await shoot(phone.page, base, '/demand/track', '[data-testid=track-max]', 'demand-track-phone', problems);
  await shoot(phone.page, base, '/operatecfg/strategy', '[data-testid=strategy-bar]', 'strategy-phone', problems);
  await phone.browser.close();
  await stop();
  if (problems.length) throw new Error(`axe violations:\n${problems.join('\n')}`);
});
