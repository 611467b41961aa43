/**
 * Screenshots of the site-monitoring screens for docs/screenshots/dashboard-*.png, from a running
 * console with the demo fleet played in this process: the last 25 days every 30 minutes (the
 * month's energy bars), the last two days every 5 minutes (every station's local today), then
 * live. Run: `npx tsx e2e/dashboard-screenshots.ts` after `npm run build -w @ess/web`
 * (E2E_WEB_DIST=<dir> for another build).
 */
import { demoFleet, manualClock, runSimulator } from '@ess/simulator';
import { startConsole } from './support/server.ts';
import { log, runScript, settled, shotPath, signedInPage, webDistEnv } from './support/shots.ts';

const DAY = 86_400_000;

async function main() {
  const server = await startConsole({
    SIMULATOR: 'off', ROLLUP_FLUSH_MS: '1000', ROLLUP_SNAPSHOT_MS: '5000',
    ...webDistEnv(),
  });
  const clock = manualClock(Date.now() - 25 * DAY);
  const sim = await runSimulator({ mqttUrl: server.ctx.mqtt.url, fleet: demoFleet(1), intervalMs: 0, clock });
  log('backfilling 25 days');
  for (let t = clock.now(); t < Date.now(); t += t < Date.now() - 2 * DAY ? 30 * 60_000 : 5 * 60_000) {
    clock.set(t);
    await sim.tick();
  }
  const timer = setInterval(() => {
    clock.set(Date.now());
    void sim.tick();
  }, 5000);
  timer.unref();
  log('live');

  const { browser, page } = await signedInPage(server);
  // Let the backfill's rollups land and every device report live once.
  await page.waitForTimeout(15_000);
  const api = async (path: string, body?: object) =>
    page.evaluate(async ([p, b]) => {
      const res = await fetch(`/api/manager${p}`, {
        method: b ? 'POST' : 'GET', headers: { 'Content-Type': 'application/json', Authorization: localStorage.getItem('Token') ?? '' }, body: b ? JSON.stringify(b) : undefined,
      });
      return (await res.json()) as { data: unknown };
    }, [path, body] as const);
  const sites = (await api('/comprehensive/site/down')).data as { id: number; code: string }[];
  const siteOf = (code: string) => sites.find((s) => s.code === code)!.id;
  await api('/comprehensive/site/handle', { siteId: siteOf('BE01'), action: 'maintenanceStart', note: '更换1#空调压缩机' });

  const shot = async (name: string, fullPage = true) => {
    await settled(page);
    // A page scrolled by a click would draw the sticky header and menu mid-page in a full-page shot.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: shotPath(`dashboard-${name}`), fullPage });
    log(`dashboard-${name}`);
  };

  await page.goto(`${server.url}/synthesis/realTime`);
  await page.locator('[data-testid=live-site]').nth(2).waitFor();
  await shot('realtime');

  await page.goto(`${server.url}/overview/station?siteId=${siteOf('LA01')}`);
  await page.locator('[data-testid=flow-node-piles]').waitFor();
  await page.locator('[data-testid=solar-card]').waitFor();
  await shot('station');

  await page.goto(`${server.url}/overview/station?siteId=${siteOf('BE01')}`);
  await page.locator('[data-testid=no-piles]').waitFor();
  await shot('station-berlin');

  await page.goto(`${server.url}/overview/station?siteId=${siteOf('SH01')}`);
  await page.locator('[data-testid=no-pv]').waitFor();
  await page.locator('[data-testid=handle-maintenance-start]').click();
  await page.locator('.ant-modal textarea').fill('2#簇接触器更换');
  await shot('station-handle', false);
  await page.keyboard.press('Escape');

  await page.goto(`${server.url}/synthesis/running`);
  await page.locator('[data-testid=station-select]').click();
  await page.locator('.ant-select-item-option', { hasText: '洛杉矶' }).click();
  await page.locator('[data-testid=gun-state]').first().waitFor();
  await shot('running');

  await page.goto(`${server.url}/overview/apparatus`);
  await page.locator('[data-testid=apparatus-total]').waitFor();
  await shot('apparatus');

  await browser.close();
  clearInterval(timer);
  await sim.stop();
  await server.close();
}

runScript(main);
