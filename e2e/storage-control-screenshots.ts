/**
 * Screenshot of the storage control on a PCS page for docs/screenshots/device-storage-control.png:
 * a running console with the demo fleet played in this process (the last hour in 5-minute steps,
 * then live), the operator sends a manual discharge of 100 kW for 15 minutes through the page
 * (secondary password dialog) and the device's reply is shown. Run:
 * `npx tsx e2e/storage-control-screenshots.ts` after `npm run build -w @ess/web`
 * (E2E_WEB_DIST=<dir> for another build).
 */
import { demoFleet, manualClock, runSimulator } from '@ess/simulator';
import { DeviceDetailScreen } from './pages/MonitorScreens.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';
import { log, runScript, shotPath, signedInPage, webDistEnv } from './support/shots.ts';

async function main() {
  const server = await startConsole({ SIMULATOR: 'off', ROLLUP_FLUSH_MS: '1000', ...webDistEnv() });
  const from = Date.now() - 3_600_000;
  const clock = manualClock(from);
  const sim = await runSimulator({ mqttUrl: server.ctx.mqtt.url, fleet: demoFleet(1), intervalMs: 0, clock });
  for (let t = from; t < Date.now(); t += 5 * 60_000) {
    clock.set(t);
    await sim.tick();
  }
  const timer = setInterval(() => {
    clock.set(Date.now());
    void sim.tick();
  }, 5000);
  log('live');

  const { browser, page } = await signedInPage(server);
  await page.waitForTimeout(6000);
  const id = await page.evaluate(async () => {
    const res = await fetch('/api/manager/configure/device/query/list', {
      method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: localStorage.getItem('Token') ?? '' }, body: JSON.stringify({ code: 'SH01-PCS-01' }),
    });
    return ((await res.json()) as { data: { id: number }[] }).data[0]!.id;
  });
  await page.goto(`${server.url}/monitor/deviceDetail?id=${id}`);
  await new DeviceDetailScreen(page).loaded();
  const card = page.locator('[data-testid=storage-control]');
  await card.waitFor();
  await page.locator('[data-testid=storage-current-mode]', { hasText: /自动/ }).waitFor();
  await card.getByText('手动', { exact: true }).click();
  await page.locator('[data-testid=storage-power]').fill('100');
  await page.locator('[data-testid=storage-duration]').fill('15');
  await page.locator('[data-testid=storage-send]').click();
  await page.locator('[data-testid=storage-password]').fill(E2E_ADMIN_PASSWORD);
  await page.locator('#storage-confirm').click();
  await page.locator('[data-testid=storage-reply]').waitFor();
  // Two reports later the PCS shows the discharge and the EMS the manual mode.
  await page.waitForTimeout(11_000);
  await page.locator('[data-testid=storage-current-mode]', { hasText: '手动' }).waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(800);
  await page.screenshot({ path: shotPath('device-storage-control') });
  log('device-storage-control');

  clearInterval(timer);
  await browser.close();
  await sim.stop();
  await server.close();
}

runScript(main);
