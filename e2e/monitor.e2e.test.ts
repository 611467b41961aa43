import { createFleet, runSimulator, type SimulatorHandle } from '@ess/simulator';
import type { Browser, Page } from 'playwright-core';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApp } from '../apps/server/src/app.ts';
import { LoginPage } from './pages/LoginPage.ts';
import { DeviceDetailScreen, DeviceListScreen } from './pages/MonitorScreens.ts';
import { seriousViolations } from './support/axe.ts';
import { launchBrowser } from './support/browser.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

const PCS = 'SH01-PCS-01';
const EMS = 'SH01-EMS-01';

/**
 * Device monitoring against live devices: the Shanghai demo station is played in this process
 * (one report a second) so a test can silence a device; the server is told that a device
 * silent for 3 s is offline. No sleeps: every step waits for what a person would see.
 */
describe('device monitoring with a live station in Chromium', () => {
  let server: RunningApp & { captchaCode(id: string): Promise<string> };
  let sim: SimulatorHandle;
  let browser: Browser;
  let page: Page;
  let list: DeviceListScreen;
  let detail: DeviceDetailScreen;

  beforeAll(async () => {
    server = await startConsole({
      SIMULATOR: 'off', DEVICE_OFFLINE_TIMEOUT_MS: '3000', LATEST_FLUSH_MS: '200', INGEST_BATCH_MS: '50',
      // A private build to test against (default: apps/web/dist).
      ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
    });
    sim = await runSimulator({ mqttUrl: server.ctx.mqtt.url, fleet: createFleet(1), intervalMs: 1000 });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    list = new DeviceListScreen(page, server.url);
    detail = new DeviceDetailScreen(page);
    const login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
    await login.open();
    await login.signIn('admin', E2E_ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname !== '/login');
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    await page?.screenshot({ path: join(tmpdir(), `monitor-e2e-${task.name.replace(/\W+/g, '-').slice(0, 40)}.png`) }).catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await sim?.stop();
    await server?.close();
  });

  it('lists the station devices with their live state and opens a device page from its row', async () => {
    await list.open();
    await list.search(PCS);
    await list.waitForStatus(PCS, 'online');
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await list.row(PCS).getByRole('link').click();
    await page.waitForURL((u) => u.pathname === '/monitor/deviceDetail' && u.searchParams.has('id'));
    await detail.loaded();
    await detail.waitForStatus('online');
  });

  it('shows the simulator values changing on the device page without a reload', async () => {
    // A marker in the page's window survives only as long as the page is not reloaded.
    await page.evaluate(() => ((window as unknown as { __kept: boolean }).__kept = true));
    expect(await detail.value('activePower')).toMatch(/kW$/);
    // Active power may hold still for minutes (idle, or at the power limit); the grid voltage the
    // converter measures moves with every report.
    const before = (await detail.value('voltageA')) ?? '';
    expect(before).toMatch(/V$/);
    const after = await detail.waitForChange('voltageA', before);
    expect(after).not.toBe(before);
    await expect(page.evaluate(() => (window as unknown as { __kept?: boolean }).__kept)).resolves.toBe(true);
    await expect(seriousViolations(page)).resolves.toEqual([]);
  });

  it('switches the converter off with the secondary password and sees its state change', async () => {
    await page.locator('[data-testid=key-onOff]').getByText('是').waitFor({ timeout: 20_000 });
    await detail.control('off', E2E_ADMIN_PASSWORD);
    await page.locator('[data-testid=key-onOff]').getByText('否').waitFor({ timeout: 20_000 });
    await page.locator('[data-testid=key-state]').getByText('停机').waitFor({ timeout: 20_000 });
    // Within the password window the next control asks only for confirmation.
    await detail.control('on', 'not-asked');
    await page.locator('[data-testid=key-onOff]').getByText('是').waitFor({ timeout: 20_000 });
  });

  it('turns a device that stops publishing offline, on its page and in the list', async () => {
    const emsId = await page.evaluate(async (code) => {
      const res = await fetch('/api/manager/configure/device/query/list', {
        method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: localStorage.getItem('Token') ?? '' }, body: JSON.stringify({ code }),
      });
      return ((await res.json()) as { data: { id: number }[] }).data[0]!.id;
    }, EMS);
    await page.goto(`${server.url}/product/equipmentDetail?id=${emsId}`);
    await detail.loaded();
    await detail.waitForStatus('online');
    sim.silence(EMS);
    await detail.waitForStatus('offline');
    await list.open();
    await list.search(EMS);
    await list.waitForStatus(EMS, 'offline');
    sim.unsilence(EMS);
    await list.waitForStatus(EMS, 'online');
  });
});
