import { demoFleet, manualClock, runSimulator, type SimulatorHandle } from '@ess/simulator';
import type { Browser, Page } from 'playwright-core';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApp } from '../apps/server/src/app.ts';
import { refreshAll } from '../apps/server/src/modules/dashboard/revenue.jobs.ts';
import { LoginPage } from './pages/LoginPage.ts';
import { animationsSettled } from './support/animations.ts';
import { ConsoleApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { launchBrowser } from './support/browser.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

const SHOTS = resolve(import.meta.dirname, '../docs/screenshots');
const HOUR = 3_600_000;
/** History played before the browser opens: yesterday and today of every station, a report an hour. */
const BACKFILL_MS = 30 * HOUR;
const STEP_MS = HOUR;

/**
 * The operations board, the home page, the energy-arbitrage overview and a station's earnings,
 * on the three demo stations played in this process: a day and a half of history (so the
 * stations have revenue computed from their meters and time-of-use prices), then live. The
 * Shanghai PCS has a fault raised and Berlin is in maintenance, so the board has lanes to fill.
 * Each screen is checked for populated figures with units, with axe-core, and photographed.
 */
describe('home, operations board, arbitrage overview and station earnings in Chromium', { timeout: 120_000 }, () => {
  let server: RunningApp & { captchaCode(id: string): Promise<string> };
  let sim: SimulatorHandle;
  let browser: Browser;
  let page: Page;
  let timer: NodeJS.Timeout | undefined;
  const siteIds = new Map<string, number>();

  const snap = async (name: string) => {
    await animationsSettled(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(() => [...document.querySelectorAll('div[role=img] canvas')].length >= document.querySelectorAll('div[role=img]').length);
    await page.mouse.move(0, 899);
    await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled', caret: 'hide' });
  };

  beforeAll(async () => {
    server = await startConsole({
      SIMULATOR: 'off', LATEST_FLUSH_MS: '200', INGEST_BATCH_MS: '50', ROLLUP_FLUSH_MS: '300', ROLLUP_SNAPSHOT_MS: '500',
      ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
    });
    const clock = manualClock(Date.now() - BACKFILL_MS);
    sim = await runSimulator({ mqttUrl: server.ctx.mqtt.url, fleet: demoFleet(1), intervalMs: 0, clock });
    for (let t = clock.now(); t < Date.now(); t += STEP_MS) {
      clock.set(t);
      await sim.tick();
    }
    const live = () => {
      clock.set(Date.now());
      void sim.tick();
    };
    live();
    timer = setInterval(live, 1000);
    const api = await ConsoleApi.signIn(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
    for (const s of await api.post<{ id: number; code: string }[]>('/configure/site/query/list', {})) siteIds.set(s.code, s.id);
    await api.post('/comprehensive/site/handle', { siteId: siteIds.get('BE01'), action: 'maintenanceStart', note: '更换1#空调压缩机' });
    await sim.injectFault('SH01-PCS-01', 'PCS_IGBT_FAULT');
    // The revenue job runs every 5 minutes; here once the history's rollups have landed (the
    // Los Angeles station's storage has charged and discharged by then).
    const la = siteIds.get('LA01')!;
    const computed = async () => {
      await refreshAll(server.ctx);
      const { rows } = await server.ctx.database.sql.query<{ n: number }>(`select count(*)::int as n from revenue_daily where site_id = ${la} and discharge > 0`);
      return (rows[0]?.n ?? 0) > 0;
    };
    for (const deadline = Date.now() + 30_000; !(await computed());) {
      if (Date.now() > deadline) throw new Error('no revenue computed from the history');
      await new Promise((r) => setTimeout(r, 1000)); // the rollup writers' next flush
    }

    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    const login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
    await login.open();
    await login.signIn('admin', E2E_ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname !== '/login');
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    await page?.screenshot({ path: join(tmpdir(), `overview-e2e-${task.name.replace(/\W+/g, '-').slice(0, 40)}.png`) }).catch(() => undefined);
  });
  afterAll(async () => {
    if (timer) clearInterval(timer);
    await browser?.close();
    await sim?.stop();
    await server?.close();
  });

  it('lands on the home page with the company’s stations, energy and money in units', async () => {
    await page.goto(`${server.url}/home/index`);
    await page.locator('[data-testid=top-stations]').getByText('3').waitFor({ timeout: 30_000 });
    await expect(page.locator('[data-testid=top-capacity]').textContent()).resolves.toMatch(/\d ?kWh/);
    await expect(page.locator('[data-testid=top-discharge]').textContent()).resolves.toMatch(/[1-9][\d,.]* ?kWh/);
    // Money per currency (the demo stations bill in CNY, EUR and USD), never added across them.
    await expect(page.locator('[data-testid=top-total-revenue]').textContent()).resolves.toMatch(/\d\.\d\d [A-Z]{3}/);
    await page.locator('[data-testid=income-table]').getByText(/\d\.\d\d [A-Z]{3}/).first().waitFor();
    await page.locator('[data-testid=home-error] [data-testid=recent-alarms]').getByText('SH01', { exact: false }).or(page.locator('[data-testid=home-error] [data-testid=alarm-level]')).first().waitFor({ timeout: 30_000 });
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await snap('home-index');
  });

  it('puts each station in its lane on the operations board, live', async () => {
    await page.goto(`${server.url}/overview/kanban`);
    const tile = (code: string) => page.locator(`[data-testid=kanban-station][data-code=${code}]`);
    await tile('SH01').and(page.locator('[data-lane=alarm]')).waitFor({ timeout: 30_000 });
    await tile('BE01').and(page.locator('[data-lane=maintenance]')).waitFor();
    await expect(tile('SH01').locator('[data-testid=tile-alarm]').first().textContent()).resolves.toMatch(/\d/);
    await expect(tile('LA01').locator('[data-testid=tile-load]').textContent()).resolves.toMatch(/\d kW$/);
    await expect(page.locator('[data-testid=total-devices]').textContent()).resolves.toMatch(/\d+\/114/);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await snap('overview-kanban');
  });

  it('shows the arbitrage overview with curves and a station-day table that exports to xlsx', async () => {
    await page.goto(`${server.url}/synthesis/businessOverview`);
    await expect.poll(() => page.locator('[data-testid=sum-discharge]').textContent(), { timeout: 30_000 }).toMatch(/[1-9][\d.]* kWh/);
    await page.locator('[data-testid=sum-arbitrage]').first().getByText(/\d\.\d\d [A-Z]{3}/).waitFor();
    await page.locator('[data-testid=arbitrage-detail] tbody tr.ant-table-row').first().waitFor();
    await page.locator('[data-testid=quantity-curve] canvas').waitFor();
    const [file] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=arbitrage-export]').click()]);
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    await page.locator('[data-testid=arbitrage-export]:not(.ant-btn-loading)').waitFor();
    await page.mouse.move(0, 899); // a hovered button's lighter green is not what is checked
    await animationsSettled(page);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await snap('synthesis-business-overview');
  });

  it('shows a station’s earnings in its currency on the station view', async () => {
    await page.goto(`${server.url}/overview/station?siteId=${siteIds.get('LA01')}`);
    const card = page.locator('[data-testid=earnings-card]');
    await card.locator('[data-testid=earnings-table]').getByText(/\d\.\d\d USD/).first().waitFor({ timeout: 30_000 });
    await card.locator('[data-testid=earnings-chart] canvas').waitFor();
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await card.scrollIntoViewIfNeeded();
    await animationsSettled(page);
    await card.screenshot({ path: `${SHOTS}/dashboard-station-earnings.png`, animations: 'disabled' });
  });
});
