/**
 * Screenshots of the monitoring screens for docs/screenshots/monitor-*.png, from a running
 * console with the demo fleet played in this process: Shanghai with 30 days of history (one
 * report per 30 minutes, then live), Berlin and Los Angeles from local midnight (5 minutes, then
 * live). Run: `npx tsx e2e/monitor-screenshots.ts` after `npm run build -w @ess/web`
 * (E2E_WEB_DIST=<dir> for another build).
 */
import { demoFleet, manualClock, runSimulator, type Fleet, type SimulatorHandle } from '@ess/simulator';
import type { Page } from 'playwright-core';
import { DeviceDetailScreen } from './pages/MonitorScreens.ts';
import { startConsole } from './support/server.ts';
import { log, runScript, shotPath, signedInPage, webDistEnv } from './support/shots.ts';

const DAY = 86_400_000;

async function play(url: string, fleet: Fleet, from: number, stepMs: number): Promise<{ sim: SimulatorHandle; live: () => void }> {
  const clock = manualClock(from);
  const sim = await runSimulator({ mqttUrl: url, fleet, intervalMs: 0, clock });
  for (let t = from; t < Date.now(); t += stepMs) {
    clock.set(t);
    await sim.tick();
  }
  let timer: NodeJS.Timeout | null = null;
  return {
    sim,
    live: () => {
      timer = setInterval(() => {
        clock.set(Date.now());
        void sim.tick();
      }, 5000);
      timer.unref();
    },
  };
}

async function deviceId(page: Page, code: string): Promise<number> {
  return page.evaluate(async (c) => {
    const res = await fetch('/api/manager/configure/device/query/list', {
      method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: localStorage.getItem('Token') ?? '' }, body: JSON.stringify({ code: c }),
    });
    return ((await res.json()) as { data: { id: number }[] }).data[0]!.id;
  }, code);
}

/** Waits until every chart on the page has its canvas (a live device list may keep a spinner: named, not waited for). */
async function settled(page: Page): Promise<void> {
  const spinners = await page.evaluate(() => [...document.querySelectorAll('main .ant-spin-spinning')].map((e) => e.parentElement?.className ?? ''));
  if (spinners.length) log(`spinning: ${spinners.join(' | ')}`);
  await page.waitForFunction(() => [...document.querySelectorAll('div[role=img] canvas')].length >= document.querySelectorAll('div[role=img]').length);
  await page.waitForTimeout(800); // chart animations end; not a wait for data
}

async function main() {
  const server = await startConsole({
    SIMULATOR: 'off', ROLLUP_FLUSH_MS: '1000', ROLLUP_SNAPSHOT_MS: '5000',
    ...webDistEnv(),
  });
  const url = server.ctx.mqtt.url;
  const demo = demoFleet(1);
  const midnight = new Date().setHours(0, 0, 0, 0);
  log('backfilling Shanghai 30 days');
  const sh = await play(url, { seed: 1, stations: demo.stations.slice(0, 1) }, Date.now() - 30 * DAY, 30 * 60_000);
  log('backfilling Berlin and Los Angeles from midnight');
  const rest = await play(url, { seed: 1, stations: demo.stations.slice(1) }, midnight, 5 * 60_000);
  sh.live();
  rest.live();
  log('live');

  const { browser, page } = await signedInPage(server);
  // Let rollups of the backfill land and every device report live once.
  await page.waitForTimeout(12_000);
  const shot = async (name: string, fullPage = true) => {
    await settled(page);
    // A page scrolled by a click would draw the sticky header and menu mid-page in a full-page shot.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: shotPath(`monitor-${name}`), fullPage });
    log(`monitor-${name}`);
  };
  const detail = new DeviceDetailScreen(page);
  const openDevice = async (code: string) => {
    await page.goto(`${server.url}/product/equipmentDetail?id=${await deviceId(page, code)}`);
    await detail.loaded();
  };

  await page.goto(`${server.url}/monitor/device`);
  await page.locator('[data-testid=device-table] .ant-table-row').first().waitFor();
  await shot('device-list', false);

  await openDevice('SH01-PCS-01');
  await page.getByText('近30天').click();
  await shot('device-pcs-30-days');

  await openDevice('SH01-BP-01-03');
  await shot('device-battery-pack');

  await openDevice('SH01-BC-01');
  await shot('device-battery-cluster');

  await openDevice('SH01-EMS-01');
  await shot('device-ems');

  await openDevice('LA01-CP-01');
  await page.locator('[data-testid=control-off]').click();
  await page.locator('[data-testid=secondary-password]').waitFor();
  await shot('device-control', false);
  await page.keyboard.press('Escape');

  await page.goto(`${server.url}/monitor/energy`);
  await page.locator('[data-testid=station-select]').click();
  await page.locator('.ant-select-item-option', { hasText: '洛杉矶' }).click();
  await page.locator('[data-testid=energy-piles]').waitFor();
  await shot('energy');

  await page.goto(`${server.url}/analysis/retrieval`);
  await page.locator('[data-testid=station-select]').click();
  await page.locator('.ant-select-item-option', { hasText: '柏林' }).click();
  const choose = async (select: string, texts: string[]) => {
    await page.locator(`[data-testid=${select}]`).click();
    for (const text of texts) {
      await page.keyboard.type(text);
      await page.locator('.ant-select-item-option-active', { hasText: text }).waitFor();
      await page.keyboard.press('Enter');
    }
    await page.keyboard.press('Escape');
  };
  await choose('retrieval-devices', ['储能变流器', 'EMS']);
  // Typed as a search: the start of the option's label is enough (full-width brackets typed
  // into the search box did not match).
  await choose('retrieval-properties', ['有功功率', 'SOC']);
  await page.locator('[data-testid=retrieval-search]').click();
  await page.locator('[data-testid=retrieval-table] .ant-table-row').first().waitFor();
  await shot('retrieval');

  await browser.close();
  await sh.sim.stop();
  await rest.sim.stop();
  await server.close();
}

runScript(main);
