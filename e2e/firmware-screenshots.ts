/**
 * Screenshots of the firmware screens (docs/screenshots/firmware-*.png) at 1440 px with the demo
 * (its signed packages and public key, seeded by the firmware module), each checked by axe (serious
 * and critical violations are printed and fail the script): the packages, the compliance tab, the
 * keys and the settings, one package's detail, the remote upgrade list with a rollout awaiting
 * approval and one that ran on the simulated fleet, that rollout's detail with its groups and
 * per-device tasks, and a log capture with its per-device states; then the four screens (packages,
 * a package's detail, remote upgrade with a rollout's detail, log capture) on a phone (390 px).
 * Run: `npx tsx e2e/firmware-screenshots.ts` after `npm run build -w @ess/web`
 * (E2E_WEB_DIST=<dir> for another build). A call the server refuses is logged and its screen
 * photographed as it is.
 */
import { demoFleet, runSimulator } from '@ess/simulator';
import type { Page } from 'playwright-core';
import { ConsoleApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';
import { log, runScript, settled, shotPath, signedInPage, webDistEnv } from './support/shots.ts';
import { closeOtherTabs } from './support/tabs.ts';

async function attempt<T>(what: string, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    log(`prepare ${what}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function shoot(page: Page, url: string, name: string, ready: string, problems: string[]): Promise<void> {
  await page.goto(url);
  const found = await page.locator(ready).first().waitFor({ timeout: 30_000 }).then(() => true, () => false);
  if (!found) log(`${name}: nothing like ${ready}`);
  // One page tab in the strip, as a phone user keeps it (a full strip overflows at 390 px).
  if (name.endsWith('-phone')) await closeOtherTabs(page).catch((err: unknown) => log(`${name}: tabs not closed: ${String(err)}`));
  await settled(page, 500);
  const violations = await seriousViolations(page);
  if (violations.length) problems.push(`${name}: ${JSON.stringify(violations)}`);
  await page.screenshot({ path: shotPath(name), fullPage: true });
  log(`${name}.png`);
}

runScript(async () => {
  const server = await startConsole({ SEED_DEMO: 'true', SIMULATOR: 'off', DEVICE_OFFLINE_TIMEOUT_MS: '600000', LATEST_FLUSH_MS: '200', INGEST_BATCH_MS: '100', ...webDistEnv() });
  const sim = await runSimulator({ mqttUrl: server.ctx.mqtt.url, fleet: demoFleet(1), intervalMs: 2000, flashMs: 1500, rebootMs: 1000 });
  const api = await ConsoleApi.signIn(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
  await sleep(6000);
  const [company] = await api.post<{ id: number }[]>('/system/company/query/tree', {});
  const packages = (await api.post<{ records: { id: number; name: string; version: string; deviceType: string }[] }>('/firmware/package/query/page', { current: 1, pageSize: 50 })).records;
  const sites = await api.post<{ id: number; code: string }[]>('/configure/site/query/list', {});
  const sh01 = sites.find((s) => s.code === 'SH01')?.id;
  // The demo's BMS master 2.0.0: the three BMS of the fleet run 1.9.0.
  const bms = packages.find((p) => p.name === 'bms-master' && p.version === '2.0.0');
  const ems = packages.find((p) => p.name === 'ems-controller' && p.version === '3.3.0');
  let ran: number | undefined;
  if (bms) {
    ran = (await attempt('rollout', () => api.post<{ id: number }>('/firmware/rollout/add', {
      name: `BMS 主控 ${bms.version} · 全部站点`, target: { packageId: bms.id }, grouping: { canarySize: 1, groupSize: null, groupPercent: 50 }, requireApproval: false, safeGate: false,
      windows: [{ days: [], start: '00:00', end: '23:59' }],
    })))?.id;
    if (ran) await attempt('start', () => api.post('/firmware/rollout/start', { id: ran }));
  }
  if (ems) {
    await attempt('rollout awaiting approval', () => api.post('/firmware/rollout/add', {
      name: `EMS 控制器 ${ems.version} · 上海站`, target: { packageId: ems.id, siteIds: sh01 ? [sh01] : [] }, grouping: { canarySize: 1, groupSize: 2, groupPercent: null },
      requireApproval: true, safeGate: true, windows: [{ days: [6, 7], start: '22:00', end: '06:00' }],
    }));
  }
  const devices = await api.post<{ id: number; code: string; siteId: number }[]>('/configure/device/query/list', sh01 ? { siteId: sh01 } : {});
  const capture = await attempt('log capture', () => api.post<{ id: number }>('/firmware/log/add', {
    companyId: company?.id, name: '上海站 BMS 与 EMS 日志', deviceIds: devices.filter((d) => /-(BMS|EMS|PCS)-/.test(d.code)).slice(0, 6).map((d) => d.id),
    from: new Date(Date.now() - 3 * 3600_000).toISOString(), to: new Date().toISOString(), timeoutMinutes: 10,
  }));
  log('waiting for the rollout to move');
  await sleep(25_000);

  const problems: string[] = [];
  const { browser, page } = await signedInPage(server);
  const base = server.url;
  await shoot(page, `${base}/firmware/firmware`, 'firmware-packages', 'main .ant-table-row', problems);
  await page.getByTestId('package-upload').click();
  await page.getByTestId('upload-form').waitFor().catch(() => undefined);
  await settled(page, 600);
  await page.screenshot({ path: shotPath('firmware-upload') });
  log('firmware-upload.png');
  await shoot(page, `${base}/firmware/firmware?tab=compliance`, 'firmware-compliance', '[data-testid=compliance-table] .ant-table-row', problems);
  await shoot(page, `${base}/firmware/firmware?tab=key`, 'firmware-keys', 'main .ant-table-row', problems);
  await shoot(page, `${base}/firmware/firmware?tab=setting`, 'firmware-settings', '[data-testid=firmware-settings]', problems);
  if (bms) await shoot(page, `${base}/firmware/detail?id=${bms.id}`, 'firmware-detail', '[data-testid=package-detail-page]', problems);
  await shoot(page, `${base}/firmware/upgrade`, 'firmware-upgrade', 'main .ant-table-row', problems);
  if (ran) await shoot(page, `${base}/firmware/upgrade?id=${ran}`, 'firmware-upgrade-detail', '[data-testid=task-table] .ant-table-row', problems);
  await page.goto(`${base}/firmware/upgrade`);
  await page.getByTestId('rollout-add').click().catch(() => undefined);
  await page.getByTestId('rollout-form').waitFor().catch(() => undefined);
  await settled(page, 600);
  await page.screenshot({ path: shotPath('firmware-upgrade-new') });
  log('firmware-upgrade-new.png');
  await shoot(page, `${base}/firmware/log`, 'firmware-log', 'main .ant-table-row', problems);
  if (capture) {
    await page.getByTestId('log-detail-open').first().click();
    await page.getByTestId('log-devices-table').waitFor().catch(() => undefined);
    await settled(page, 600);
    const violations = await seriousViolations(page);
    if (violations.length) problems.push(`firmware-log-detail: ${JSON.stringify(violations)}`);
    await page.screenshot({ path: shotPath('firmware-log-detail') });
    log('firmware-log-detail.png');
  }
  await browser.close();

  // The four screens on a phone (390 px), axe-checked the same way.
  const phone = await signedInPage(server, { width: 390, height: 844 });
  await shoot(phone.page, `${base}/firmware/firmware`, 'firmware-packages-phone', 'main .ant-table-row', problems);
  if (bms) await shoot(phone.page, `${base}/firmware/detail?id=${bms.id}`, 'firmware-detail-phone', '[data-testid=package-detail-page]', problems);
  await shoot(phone.page, `${base}/firmware/upgrade`, 'firmware-upgrade-phone', 'main .ant-table-row', problems);
  if (ran) await shoot(phone.page, `${base}/firmware/upgrade?id=${ran}`, 'firmware-upgrade-detail-phone', '[data-testid=task-table] .ant-table-row', problems);
  await shoot(phone.page, `${base}/firmware/log`, 'firmware-log-phone', 'main .ant-table-row', problems);
  await phone.browser.close();
  await sim.stop();
  await server.close();
  if (problems.length) throw new Error(`axe:\n${problems.join('\n')}`);
});
