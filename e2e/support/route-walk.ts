import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { animationsSettled } from './animations.ts';
import { seriousViolations, type Violation } from './axe.ts';
import { launchBrowser } from './browser.ts';
import { signInAdmin, startDemoConsole, type DemoConsole } from './demo-console.ts';
import { pageOverflow } from './layout.ts';
import { closeOtherTabs } from './tabs.ts';

export const SHOTS = resolve(import.meta.dirname, '../../docs/screenshots');
/**
 * E2E_ROUTES=/mail,/sms walks only the routes under those prefixes (a feature's screens while it is
 * built); unset, every built route.
 */
const ONLY_ROUTES = (process.env.E2E_ROUTES ?? '').split(',').map((p) => p.trim()).filter(Boolean);
/** Every built route: the keys of the console's screens table (apps/web/src/app/screens.ts). */
export const ROUTES = [...readFileSync(resolve(import.meta.dirname, '../../apps/web/src/app/screens.ts'), 'utf8').matchAll(/^\s*'(\/[\w/-]+)':/gm)]
  .map((m) => m[1]!)
  .filter((r) => !ONLY_ROUTES.length || ONLY_ROUTES.some((p) => r.startsWith(p)));
/**
 * Known, not these tests' to fix: a table with tick boxes and horizontal scrolling has antd's
 * hidden measuring row holding a focusable element (as in screens.e2e.test.ts).
 */
export const KNOWN = (v: Violation) => v.id === 'aria-hidden-focus' && v.targets.every((t) => t === '.ant-table-measure-row');

export interface DemoWalk {
  readonly server: DemoConsole;
  readonly page: Page;
  /** Goes to a screen inside the app (no reload) and waits until it is drawn with its data. */
  visit(path: string): Promise<void>;
  /** No page, chunk or data still loading; every chart drawn. */
  settled(): Promise<void>;
  /** Switches the console's language (stored choice, then a reload) and waits for the page. */
  useLocale(locale: string, path: string): Promise<void>;
  /** Closes every tab but the current one: the strip stays short (one that overflows has its own test). */
  fewTabs(): Promise<void>;
}

/**
 * The console as `npm start` shows it (the three demo stations, days of their history and their
 * revenue, then played live) and one signed-in browser page for the whole file, resized per test;
 * screens are reached inside the single-page app. Registers the file's hooks; a failing test
 * leaves a screenshot named after it in the temporary directory.
 */
export function demoWalk(name: string): DemoWalk {
  let server: DemoConsole;
  let browser: Browser;
  let page: Page;

  const settled = async () => {
    await page.waitForFunction(() => {
      if (document.querySelector('.ess-page-fallback, main .ant-spin-spinning, main .ant-skeleton-active')) return false;
      return [...document.querySelectorAll('main div[role=img][aria-describedby]')].every((c) => c.querySelector('canvas'));
    });
    await animationsSettled(page);
  };
  const walk: DemoWalk = {
    get server() {
      return server;
    },
    get page() {
      return page;
    },
    settled,
    visit: async (path) => {
      await page.evaluate((p) => {
        if (window.location.pathname === p) return;
        window.history.pushState(null, '', p);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, path);
      await page.locator(`.ess-tab-strip .ant-tabs-tab-active[data-node-key^="${path}"]`).waitFor();
      await settled();
      await closeNotices(page);
    },
    useLocale: async (locale, path) => {
      await page.evaluate((l) => localStorage.setItem('locale', l), locale);
      await page.goto(`${server.url}${path}`);
      await page.waitForFunction((l) => document.documentElement.lang === l, locale);
      await page.locator('.ess-tab-strip .ant-tabs-tab-active').waitFor();
      await settled();
    },
    fewTabs: async () => {
      await closeNotices(page);
      await closeOtherTabs(page);
    },
  };

  beforeAll(async () => {
    const started = Date.now();
    [server, browser] = await Promise.all([startDemoConsole(), launchBrowser()]);
    console.log(`${name}: demo console ready in ${Math.round((Date.now() - started) / 1000)} s`);
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await signInAdmin(page, server.url, (id) => server.captchaCode(id));
  }, 300_000);
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    await page?.screenshot({ path: join(tmpdir(), `${name}-${task.name.replace(/\W+/g, '-').slice(0, 40)}.png`) }).catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return walk;
}

/**
 * Closes the popup notices a live demo raises while it is walked (PopupWindow: an alarm rule's
 * console message, a hook paused by its circuit breaker, …), as the user reading them would: they
 * sit over the header's right side and would take the clicks and the measures meant for the page.
 */
async function closeNotices(page: Page): Promise<void> {
  const closed = await page.evaluate(() => {
    const buttons = document.querySelectorAll<HTMLElement>('.ant-notification-notice-close');
    buttons.forEach((b) => b.click());
    return buttons.length;
  });
  // Gone once their leave animation ends (until then they still take the pointer).
  if (closed) await page.waitForFunction(() => !document.querySelector('.ant-notification-notice'), null, { timeout: 5000 });
}

/** What a walk found at one width: the routes whose page scrolls sideways (with what sticks out), and the routes whose header title is cut. */
export interface WidthFindings {
  overflowing: string[];
  titleCut: string[];
}
export interface WalkFindings {
  byWidth: Record<number, WidthFindings>;
  /** axe-core's serious and critical violations per route, at the width `axeAt` (known ones left out). */
  violations: Record<string, Violation[]>;
}

/** Two animation frames: a resize's re-render (breakpoints, the menu becoming a drawer) has begun before anything is measured. */
const frames = (page: Page) => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

/**
 * Walks every built route once in a language and looks at each at several widths by resizing the
 * window (as a user turning a tablet or narrowing a window does; a page that only fits when loaded
 * at a width is a fault): whether the page scrolls sideways, whether the header's title is cut (it
 * was cut to one letter on a phone), and, at the width `axeAt`, axe-core's serious and critical
 * violations with the demo's data in the page. The widths go up on one route and down on the next,
 * so no resize is wasted; one visit per route instead of one per width (decision 0019).
 */
export async function layoutWalk(walk: DemoWalk, locale: string, widths: number[], axeAt?: number): Promise<WalkFindings> {
  const { page } = walk;
  const byWidth: Record<number, WidthFindings> = Object.fromEntries(widths.map((w) => [w, { overflowing: [], titleCut: [] }]));
  const violations: Record<string, Violation[]> = {};
  let order = [...widths];
  await page.setViewportSize({ width: order[0]!, height: 900 });
  await walk.useLocale(locale, ROUTES[0]!);
  for (const path of ROUTES) {
    await walk.fewTabs();
    await walk.visit(path);
    for (const [i, width] of order.entries()) {
      if (i > 0) {
        await page.mouse.move(0, 0);
        await page.setViewportSize({ width, height: 900 });
        await frames(page);
        await walk.settled();
      }
      // A hover tooltip left from the width before (placed for it, sometimes stuck leaving) is not part of the page's layout.
      await page.evaluate(() => document.querySelectorAll<HTMLElement>('.ant-tooltip').forEach((e) => (e.style.display = 'none')));
      const o = await pageOverflow(page);
      if (o.scrollWidth > o.viewport) byWidth[width]!.overflowing.push(`${path}: ${o.scrollWidth} px wide in ${o.viewport} px: ${o.culprits.join(' | ')}`);
      const title = await page.locator('h1.ess-title').evaluate((h) => ({ text: h.textContent, cut: h.scrollWidth > h.clientWidth || h.scrollHeight > h.clientHeight }));
      if (title.cut) byWidth[width]!.titleCut.push(`${path}: ${title.text}`);
      if (width === axeAt) {
        const v = (await seriousViolations(page)).filter((x) => !KNOWN(x));
        if (v.length) violations[path] = v;
      }
    }
    order = order.reverse();
  }
  return { byWidth, violations };
}
