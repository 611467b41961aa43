/**
 * Screenshots of the alarm kanban and the fault analysis on a fresh demo, for
 * docs/screenshots/alarm-kanban-demo.png and alarm-analysis-demo.png: the console started as
 * `npm start` starts it on a first start (demo seeded, DEMO_HISTORY_DAYS of history written through
 * the alarm engine, then the simulator playing the stations live with its operating life).
 * Run: `npx tsx e2e/alarm-demo-screenshots.ts` after `npm run build -w @ess/web`
 * (E2E_WEB_DIST=<dir> for another build).
 */
import { log, runScript, settled, shotPath, signedInPage, startDemoShots } from './support/shots.ts';

runScript(async () => {
  const { server, stop } = await startDemoShots();
  const { browser, page } = await signedInPage(server);
  // Every device reports live once.
  await page.waitForTimeout(10_000);

  await page.goto(`${server.url}/alarm/alarmKanban`);
  await page.locator('[data-testid=alarm-kanban]').waitFor();
  await settled(page);
  await page.screenshot({ path: shotPath('alarm-kanban-demo'), fullPage: true });
  log('alarm-kanban-demo.png');

  await page.goto(`${server.url}/alarm/analysis`);
  await page.locator('[data-testid=alarm-analysis]').waitFor();
  // The two weeks of the demo: the 30-day preset.
  await page.locator('[data-testid=alarm-analysis] .ant-picker-range').click();
  await page.getByText('近30天', { exact: true }).click();
  await page.locator('[data-testid=analysis-devices] .ant-table-row').first().waitFor();
  await settled(page);
  await page.screenshot({ path: shotPath('alarm-analysis-demo'), fullPage: true });
  log('alarm-analysis-demo.png');

  await browser.close();
  await stop();
});
