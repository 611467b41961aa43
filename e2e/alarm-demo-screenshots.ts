/**
 * Screenshots of the alarm kanban and the fault analysis on a fresh demo, for
 * docs/screenshots/alarm-kanban-demo.png and alarm-analysis-demo.png: the console started as
 * `npm start` starts it on a first start (demo seeded, DEMO_HISTORY_DAYS of history written through
 * the alarm engine, then the simulator process playing the stations live with its operating life).
 * Run: `npx tsx e2e/alarm-demo-screenshots.ts` after `npm run build -w @ess/web`
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

async function settled(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => document.querySelectorAll('main .ant-spin-spinning').length === 0);
  await page.waitForFunction(() => [...document.querySelectorAll('div[role=img] canvas')].length >= document.querySelectorAll('div[role=img]').length);
  await page.waitForTimeout(1200); // chart animations end; not a wait for data
}

async function main() {
  const server = await startConsole({
    SEED_DEMO: 'true', SIMULATOR: 'auto', DEMO_HISTORY_DAYS: '14',
    ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
  });
  const demo = await loadDemo(server.ctx.log);
  if (!demo) throw new Error('the demo is not available');
  log('writing the demo history');
  const sim = await demo.playDemo(server);
  log('simulator started');

  const browser = await launchBrowser();
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  const login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
  await login.open();
  await login.signIn('admin', E2E_ADMIN_PASSWORD);
  await page.waitForURL((u) => u.pathname !== '/login');
  // Every device reports live once.
  await page.waitForTimeout(10_000);

  await page.goto(`${server.url}/alarm/alarmKanban`);
  await page.locator('[data-testid=alarm-kanban]').waitFor();
  await settled(page);
  await page.screenshot({ path: join(OUT, 'alarm-kanban-demo.png'), fullPage: true });
  log('alarm-kanban-demo.png');

  await page.goto(`${server.url}/alarm/analysis`);
  await page.locator('[data-testid=alarm-analysis]').waitFor();
  // The two weeks of the demo: the 30-day preset.
  await page.locator('[data-testid=alarm-analysis] .ant-picker-range').click();
  await page.getByText('近30天', { exact: true }).click();
  await page.locator('[data-testid=analysis-devices] .ant-table-row').first().waitFor();
  await settled(page);
  await page.screenshot({ path: join(OUT, 'alarm-analysis-demo.png'), fullPage: true });
  log('alarm-analysis-demo.png');

  await browser.close();
  await sim?.stop();
  await server.close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
