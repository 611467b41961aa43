/**
 * Screenshots of the home page and the energy monitor with the demo of `npm start`
 * (docs/screenshots/home-demo.png, monitor-energy-demo.png): the demo stations, DEMO_HISTORY_DAYS
 * (14) days of history, then the simulator live, as main.ts plays it, in this process.
 * Run: `npx tsx e2e/figures-screenshots.ts` after `npm run build -w @ess/web`
 * (E2E_WEB_DIST=<dir> for another build).
 */
import { log, runScript, settled, shotPath, signedInPage, startDemoShots } from './support/shots.ts';

runScript(async () => {
  const { server, stop } = await startDemoShots();
  const { browser, page } = await signedInPage(server);
  // Every simulated device reports live a few times (and its rollups land).
  await page.waitForTimeout(20_000);

  const shot = async (name: string) => {
    await settled(page, 1500);
    await page.screenshot({ path: shotPath(name), fullPage: true });
    log(`${name}.png`);
  };

  await page.goto(`${server.url}/home/index`);
  await page.locator('[data-testid=home-top]').waitFor();
  await page.locator('[data-testid=income-table]').waitFor();
  await page.locator('[data-testid=energy-chart]').waitFor();
  await shot('home-demo');

  await page.goto(`${server.url}/monitor/energy`);
  await page.locator('[data-testid=energy-day] .ant-statistic-content-value').first().waitFor();
  await page.locator('[data-testid=energy-chart]').waitFor();
  await shot('monitor-energy-demo');

  await browser.close();
  await stop();
});
