/**
 * What the screenshot scripts (e2e/*-screenshots.ts) share: where the pictures go, a signed-in
 * page, waiting until a page has drawn, the demo of `npm start`, and running a script to its end.
 */
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { loadDemo } from '../../apps/server/src/demo/load.ts';
import { LoginPage } from '../pages/LoginPage.ts';
import { seriousViolations } from './axe.ts';
import { launchBrowser } from './browser.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './server.ts';

export const SHOTS_DIR = resolve(import.meta.dirname, '../../docs/screenshots');
export const shotPath = (name: string) => join(SHOTS_DIR, `${name}.png`);
export const log = (m: string) => console.log(`${new Date().toISOString()} ${m}`);
/** The console build to photograph: E2E_WEB_DIST=<dir> for another build than apps/web/dist. */
export const webDistEnv = () => (process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {});

type Console = Awaited<ReturnType<typeof startConsole>>;

/** A browser page of the given size, signed in as the administrator on the login page. */
export async function signedInPage(server: Console, viewport = { width: 1440, height: 900 }) {
  const browser = await launchBrowser();
  const page = await (await browser.newContext({ viewport })).newPage();
  const login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
  await login.open();
  await login.signIn('admin', E2E_ADMIN_PASSWORD);
  await page.waitForURL((u) => u.pathname !== '/login');
  return { browser, page };
}

/** Waits until no spinner is left and every chart on the page has its canvas, then lets animations end. */
export async function settled(page: Page, animationMs = 1200): Promise<void> {
  // A full-page shot of a scrolled page draws the fixed header halfway down.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => document.querySelectorAll('main .ant-spin-spinning').length === 0);
  await page.waitForFunction(() => [...document.querySelectorAll('div[role=img] canvas')].length >= document.querySelectorAll('div[role=img]').length);
  await page.waitForTimeout(animationMs); // chart animations end; not a wait for data
}

/**
 * The console as `npm start` starts it the first time: the demo seeded, DEMO_HISTORY_DAYS (14) of
 * history written through the alarm engine, then the simulator playing the stations live.
 */
export async function startDemoShots(options: { historyDays?: number } = {}) {
  const days = process.env.DEMO_HISTORY_DAYS ?? String(options.historyDays ?? 14);
  const server = await startConsole({ SEED_DEMO: 'true', SIMULATOR: 'on', DEMO_HISTORY_DAYS: days, ...webDistEnv() });
  const demo = await loadDemo(server.ctx.log);
  if (!demo) throw new Error('the demo is not available');
  log('writing the demo history');
  const simulator = await demo.playDemo(server);
  log('live');
  return { server, stop: async () => { await simulator?.stop(); await server.close(); } };
}

/** Runs a script's main to its end: exit 0, or the error and exit 1 (a live simulator keeps the process up). */
export function runScript(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

/** Axe's serious violations on the page, added to `problems` under the shot's name. */
export async function check(page: Page, name: string, problems: string[]): Promise<void> {
  const violations = await seriousViolations(page);
  if (violations.length) problems.push(`${name}: ${JSON.stringify(violations)}`);
}

/** A full-page shot of `route` once `ready` shows (said in the log when it does not), axe-checked. */
export async function shoot(page: Page, base: string, route: string, name: string, problems: string[], ready = 'main .ant-table-row'): Promise<boolean> {
  await page.goto(`${base}${route}`);
  const found = await page.locator(ready).first().waitFor({ timeout: 30_000 }).then(() => true, () => false);
  if (!found) log(`${name}: nothing like ${ready} on ${route}`);
  await settled(page, 400);
  await check(page, name, problems);
  await page.screenshot({ path: shotPath(name), fullPage: true });
  log(`${name}.png`);
  return found;
}

/** A shot of the viewport with an overlay open (drawer, modal), axe-checked. */
export async function shootOverlay(page: Page, name: string, problems: string[]): Promise<void> {
  await settled(page, 600);
  await check(page, name, problems);
  await page.screenshot({ path: shotPath(name) });
  log(`${name}.png`);
}
