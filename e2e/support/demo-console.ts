import { demoFleet, runSimulator, type SimulatorHandle } from '@ess/simulator';
import type { Page } from 'playwright-core';
import { seedDemoHistory } from '../../apps/server/src/demo/demo-history.ts';
import { refreshRevenue } from '../../apps/server/src/modules/dashboard/index.ts';
import { LoginPage } from '../pages/LoginPage.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './server.ts';

export type DemoConsole = Awaited<ReturnType<typeof startConsole>> & { sim: SimulatorHandle; stop(): Promise<void> };

/**
 * The console as `npm start` shows it: the three demo stations (seeded at start), `days` of their
 * history written into the rollups with the revenue it earned (the demo's own path, demo-history.ts),
 * then the stations played live in this process, a report every `intervalMs`.
 */
export async function startDemoConsole(days = 3, intervalMs = 2000): Promise<DemoConsole> {
  const server = await startConsole({
    SIMULATOR: 'off', DEVICE_OFFLINE_TIMEOUT_MS: '600000', LATEST_FLUSH_MS: '200', INGEST_BATCH_MS: '100', ROLLUP_FLUSH_MS: '1000',
  });
  const fleet = demoFleet(1);
  const t0 = Date.now();
  await seedDemoHistory(server.ctx, fleet, days, '');
  const t1 = Date.now();
  await refreshRevenue(server.ctx);
  console.log(`demo console: ${days} days of history ${t1 - t0} ms, revenue ${Date.now() - t1} ms`);
  const sim = await runSimulator({ mqttUrl: server.ctx.mqtt.url, fleet, intervalMs });
  return {
    ...server,
    sim,
    stop: async () => {
      await sim.stop();
      await server.close();
    },
  };
}

/** Signs in as the administrator on the login page and waits for the first signed-in page. */
export async function signInAdmin(page: Page, base: string, captchaCode: (id: string) => Promise<string>): Promise<void> {
  const login = new LoginPage(page, base, captchaCode);
  await login.open();
  await login.signIn('admin', E2E_ADMIN_PASSWORD);
  await page.waitForURL((u) => u.pathname !== '/login');
}
