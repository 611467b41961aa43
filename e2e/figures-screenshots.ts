/**
 * Screenshots of the home page and the energy monitor with the demo of `npm start`
 * (docs/screenshots/home-demo.png, monitor-energy-demo.png): the demo stations, DEMO_HISTORY_DAYS
 * (14) days of history written as rollups, then the simulator live — as main.ts plays it, in
 * this process. Run: `npx tsx e2e/figures-screenshots.ts` after `npm run build -w @ess/web`
 * (E2E_WEB_DIST=<dir> for another build).
 */
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { loadDemo } from '../apps/server/src/demo/load.ts';
import { LoginPage } from './pages/LoginPage.ts';
import { launchBrowser } from './support/browser.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

const OUT = resolve(import.meta.dirname, '../docs/screenshots');
const log = (m: string) => console.log(`${new Date().toISOString()} ${m}`);

/** Waits until no spinner is left and every chart on the page has its canvas. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => document.querySelectorAll('main .ant-spin-spinning').length === 0);
  await page.waitForFunction(() => [...document.querySelectorAll('div[role=img] canvas')].length >= document.querySelectorAll('div[role=img]').length);
  await page.waitForTimeout(1500); // chart animations end; not a wait for data
}

async function main() {
  const server = await startConsole({
    SEED_DEMO: 'true', SIMULATOR: 'on', DEMO_HISTORY_DAYS: process.env.DEMO_HISTORY_DAYS ?? '14',
    ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
  });
  log('writing the demo history');
  const demo = await loadDemo(server.ctx.log);
  const simulator = demo ? await demo.playDemo(server) : null;
  log('live');

  const browser = await launchBrowser();
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  const login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
  await login.open();
  await login.signIn('admin', E2E_ADMIN_PASSWORD);
  await page.waitForURL((u) => u.pathname !== '/login');
  // Every simulated device reports live a few times (and its rollups land).
  await page.waitForTimeout(20_000);

  const shot = async (name: string) => {
    await settled(page);
    await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
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
  await simulator?.stop();
  await server.close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
