/**
 * Screenshots of every metering and statement screen on a fresh demo (docs/screenshots/metering-*.png),
 * each checked by axe (serious and critical violations are printed and fail the script): the
 * console started as `npm start` starts it the first time — demo seeded, its history with the
 * readings and statements — then the simulator playing the stations live. Also the phone (390 px):
 * a subsystem's readings and a statement's detail.
 * Run: `npx tsx e2e/metering-demo-screenshots.ts` after `npm run build -w @ess/web`
 * (E2E_WEB_DIST=<dir> for another build; DEMO_HISTORY_DAYS=<n> for a shorter history).
 */
import type { Page } from 'playwright-core';
import { sweepReadings } from '../apps/server/src/modules/meter/index.ts';
import { seriousViolations } from './support/axe.ts';
import { log, runScript, settled, shotPath, signedInPage, startDemoShots } from './support/shots.ts';

/**
 * Opens a screen, waits for what proves its demo data is there (else takes it as it is and says
 * so), checks it with axe and takes its picture.
 */
async function shoot(page: Page, base: string, route: string, ready: string, name: string, problems: string[]): Promise<void> {
  await page.goto(`${base}${route}`);
  const found = await page.locator(ready).first().waitFor({ timeout: 30_000 }).then(() => true, () => false);
  if (!found) log(`${name}: no data (${ready}) on ${route}`);
  await settled(page);
  const violations = await seriousViolations(page);
  if (violations.length) problems.push(`${name}: ${JSON.stringify(violations)}`);
  await page.screenshot({ path: shotPath(`metering-${name}`), fullPage: true });
  log(`metering-${name}.png${violations.length ? ` (${violations.length} axe violations)` : ''}`);
}

runScript(async () => {
  const { server, stop } = await startDemoShots();
  // The readings sweep ran at start, before the history was written: once more now, as its next tick would.
  log(`readings: ${JSON.stringify(await sweepReadings(server.ctx))}`);
  const problems: string[] = [];
  const { browser, page } = await signedInPage(server);
  const base = server.url;
  const row = '.ant-table-row';

  await shoot(page, base, '/meter/data', '[data-testid=meter-data-table] .ant-table-row', 'meter-data', problems);
  await shoot(page, base, '/meter/time', row, 'zero-data', problems);
  await shoot(page, base, '/meter/reading', row, 'timing-readings', problems);
  await shoot(page, base, '/operation/meter', row, 'storage-readings', problems);
  // The period detail of the first storage reading: registers side by side.
  if (await page.getByTestId('period-open').count()) {
    await page.getByTestId('period-open').first().click();
    await page.getByTestId('period-lines').waitFor({ timeout: 30_000 });
    await settled(page);
    await page.screenshot({ path: shotPath('metering-storage-period') });
    log('metering-storage-period.png');
    await page.keyboard.press('Escape');
  }
  // Re-meter a meter and period: the form with the 5–10 minutes hint.
  await page.getByTestId('remeter-open').click();
  await page.getByTestId('remeter-meter').click();
  await page.locator('.ant-select-item-option').first().click();
  await settled(page, 300);
  await page.screenshot({ path: shotPath('metering-remeter') });
  log('metering-remeter.png');
  await page.keyboard.press('Escape');
  await shoot(page, base, '/operation/solar', row, 'pv-readings', problems);
  await shoot(page, base, '/operation/pile', row, 'pile-readings', problems);
  // A statement in each state of its lifecycle: the demo makes them (the latest of each state).
  const states = await server.ctx.database.sql.query<{ id: number; state: string }>(
    `select distinct on (state) id, state from statement order by state, id desc`,
  );
  const missing = ['draft', 'investor_confirmed', 'power_user_confirmed', 'locked'].filter((s) => !states.rows.some((r) => r.state === s));
  if (missing.length) problems.push(`no demo statement in state ${missing.join(', ')}`);
  if (states.rows.length) await shoot(page, base, '/operation/statement', row, 'statements', problems);

  for (const s of states.rows) {
    await shoot(page, base, `/operation/statementDetail?id=${s.id}`, '[data-testid=statement-lines]', `statement-${s.state.replace(/_/g, '-')}`, problems);
  }
  const draft = states.rows.find((s) => s.state === 'draft');
  if (draft) {
    await page.goto(`${base}/operation/statementDetail?id=${draft.id}`);
    await page.getByTestId('statement-lines').waitFor({ timeout: 60_000 });
    // Another template of the statement's own company (one of another company is not the caller's to price with).
    const [tpl] = (await server.ctx.database.sql.query<{ name: string }>(
      `select t.name from price_template t join statement s on s.id = $1 join site on site.id = s.site_id where t.company_id = site.company_id order by t.id desc limit 1`, [draft.id],
    )).rows;
    try {
      await page.getByTestId('whatif-template').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: tpl?.name ?? '' }).first().click();
      await page.getByTestId('whatif-run').click();
      await page.getByTestId('whatif-result').waitFor({ timeout: 60_000 });
      await settled(page);
      await page.screenshot({ path: shotPath('metering-statement-whatif'), fullPage: true });
      log('metering-statement-whatif.png');
    } catch (err) {
      await page.screenshot({ path: shotPath('metering-statement-whatif-failed'), fullPage: true });
      problems.push(`what-if with template ${tpl?.name}: ${String(err)}`);
    }
  }
  if (states.rows.length) {
    await page.goto(`${base}/operation/statement`);
    await page.getByTestId('statement-settings').click();
    await page.getByTestId('settings-form').waitFor({ timeout: 30_000 });
    await settled(page);
    await page.screenshot({ path: shotPath('metering-statement-settings') });
    log('metering-statement-settings.png');
  }

  // The phone: a subsystem's readings and a statement.
  const phone = await signedInPage(server, { width: 390, height: 844 });
  await shoot(phone.page, base, '/operation/meter', row, 'phone-storage-readings', problems);
  if (states.rows[0]) await shoot(phone.page, base, `/operation/statementDetail?id=${states.rows[0].id}`, '[data-testid=statement-lines]', 'phone-statement', problems);
  await phone.browser.close();

  await browser.close();
  await stop();
  if (problems.length) throw new Error(`problems:\n${problems.join('\n')}`);
});
