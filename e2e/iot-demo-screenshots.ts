/**
 * Screenshots of the IoT demo as a new user meets it (docs/screenshots/iot-demo-*.png; decision
 * 0055), each checked by axe: the console as `npm start` starts it (demo seeded, the simulator
 * playing the stations; no history, to be quick), whose simulator also plays a ThingsBoard
 * platform for station BE01. The demo's application, its first sync (made by the demo), the
 * synced products and devices, a platform device's detail, and the console's own device screen
 * of BE01's EMS with the live values that arrived through the platform.
 * The platform runs on a free port here (SIM_IOT_PLATFORM, IOT_DEMO_PLATFORM_URL), not 8629, so a
 * running `npm start` does not answer in its place.
 * Run: `npx tsx e2e/iot-demo-screenshots.ts` after `npm run build -w @ess/web`.
 */
import { createServer } from 'node:net';
import { ConsoleApi } from './support/api.ts';
import { E2E_ADMIN_PASSWORD } from './support/server.ts';
import type { Page } from 'playwright-core';
import { check, log, runScript, settled, shootOverlay, shotPath, signedInPage, startDemoShots } from './support/shots.ts';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Polls `check` every second until it answers something, up to `seconds`. */
async function eventually<T>(what: string, seconds: number, check: () => Promise<T | null | undefined>): Promise<T> {
  for (let i = 0; i < seconds; i++) {
    const v = await check().catch(() => null);
    if (v !== null && v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A full-page shot of `route` once `ready` shows, the live demo's firmware notices closed first (not part of these screens), axe-checked. */
async function shoot(page: Page, base: string, route: string, name: string, problems: string[], ready = 'main .ant-table-row'): Promise<boolean> {
  await page.goto(`${base}${route}`);
  const found = await page.locator(ready).first().waitFor({ timeout: 30_000 }).then(() => true, () => false);
  if (!found) log(`${name}: nothing like ${ready} on ${route}`);
  await settled(page, 400);
  for (const close of await page.locator('.ant-notification-notice-close').all()) await close.click().catch(() => undefined);
  await settled(page, 400);
  await check(page, name, problems);
  await page.screenshot({ path: shotPath(name), fullPage: true });
  log(`${name}.png`);
  return found;
}

runScript(async () => {
  const port = await freePort();
  process.env.SIM_IOT_PLATFORM = String(port);
  process.env.IOT_DEMO_PLATFORM_URL = `http://127.0.0.1:${port}`;
  process.env.SIM_HOOK_CATCHER ??= String(await freePort());
  process.env.SIM_INTERVAL_MS ??= '2000';
  const { server, stop } = await startDemoShots({ historyDays: 0 });
  const api = await ConsoleApi.signIn(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
  const problems: string[] = [];
  const run = await eventually('the demo\'s first sync', 180, async () =>
    (await api.post<{ records: { id: number; state: string }[] }>('/iot/sync/query/page', { current: 1, pageSize: 10 })).records.find((r) => r.state === 'applied'));
  log(`first sync applied (run ${run.id})`);
  const [ems] = (await api.post<{ records: { id: number; code: string }[] }>('/configure/device/query/page', { current: 1, pageSize: 10, code: 'BE01-EMS-01' })).records;
  if (!ems) throw new Error('no BE01-EMS-01');
  await eventually('a live value through the platform', 120, async () => {
    const res = await fetch(new URL(`/api/manager/monitor/device/properties?deviceId=${ems.id}`, api.base), { headers: { authorization: api.token } });
    const p = ((await res.json()) as { data: { ts: string | null; properties: { identifier: string; value: unknown }[] } }).data;
    return p.ts && p.properties.some((x) => x.identifier === 'soc' && x.value !== null) ? p : null;
  });
  const devices = await api.post<{ records: { id: number; name: string; state: string }[] }>('/iot/device/query/page', { current: 1, pageSize: 100 });
  const emsIot = devices.records.find((d) => d.name === 'BE01-EMS-01');
  log(`${devices.records.length} platform devices, ${devices.records.filter((d) => d.state === 'online').length} online`);

  const { browser, page } = await signedInPage(server);
  const base = server.url;
  if (await shoot(page, base, '/iot/appConfig', 'iot-demo-app-config', problems)) {
    await page.locator('main .ant-table-row').first().getByTestId('config-runs').click();
    await page.locator('.ant-drawer-open .ant-table-row').first().waitFor({ timeout: 30_000 }).catch(() => log('runs: none'));
    await shootOverlay(page, 'iot-demo-sync-runs', problems);
    await page.keyboard.press('Escape');
  }
  await shoot(page, base, '/iot/productManagement', 'iot-demo-products', problems);
  await shoot(page, base, '/iot/device', 'iot-demo-devices', problems);
  if (emsIot) await shoot(page, base, `/iot/deviceDetail?id=${emsIot.id}`, 'iot-demo-device-detail', problems, '[data-testid=iot-device-detail]');
  await shoot(page, base, `/monitor/deviceDetail?id=${ems.id}`, 'iot-demo-live-values', problems, 'main .ant-descriptions, main .ant-table-row');
  await browser.close();
  await stop();
  if (problems.length) throw new Error(`axe violations:\n${problems.join('\n')}`);
});
