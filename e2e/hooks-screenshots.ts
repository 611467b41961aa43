/**
 * Screenshots of the hook screens (docs/screenshots/hooks-*.png), each checked by axe (serious and
 * critical violations are printed and fail the script): the console with the demo seeded (its two
 * hooks: one to the local receiver `npm run hook-catcher` runs, an inactive example), a receiver
 * started here on 127.0.0.1:8628 (or, when that port is taken, on another port the demo hook is
 * pointed at), a second hook to a receiver that answers 500, test sends and a replay so the
 * records hold delivered, failed and replayed rows. Then each screen: the catalogue with a scan's
 * report, a trigger's detail, the hook form with a script error and the parameter drawer, the hook
 * list, the records with a detail and a replay side by side; the hook list and the records also on
 * a phone (390 px).
 * Run: `npx tsx e2e/hooks-screenshots.ts` after `npm run build -w @ess/web`
 * (E2E_WEB_DIST=<dir> for another build). A call the server does not answer yet is logged and its
 * screen photographed as it is.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { ConsoleApi } from './support/api.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';
import { check, log, runScript, settled, shoot, shootOverlay, shotPath, signedInPage, webDistEnv } from './support/shots.ts';

interface HookRow {
  id: number;
  name: string;
  eventType: string;
  url: string;
  [k: string]: unknown;
}

/** A receiver: 200 on every path except /fail (500); it counts what arrived. */
async function startReceiver(): Promise<{ server: Server; url: string; received: number }> {
  const state = { received: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.received++;
      const fail = req.url?.startsWith('/fail');
      res.writeHead(fail ? 500 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(fail ? { error: 'receiver is down for maintenance' } : { ok: true }));
    });
  });
  const port = await new Promise<number>((resolve) => {
    server.once('error', () => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
    server.listen(8628, '127.0.0.1', () => resolve(8628));
  });
  return { server, url: `http://127.0.0.1:${port}`, get received() { return state.received; } };
}

async function attempt<T>(what: string, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    log(`prepare ${what}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

/** GET with a query, as the console makes the catalogue's GET calls. */
async function get<T>(api: ConsoleApi, path: string, query: Record<string, string> = {}): Promise<T> {
  const url = new URL(`/api/manager${path}`, api.base);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await fetch(url, { headers: { authorization: api.token } });
  const envelope = (await res.json()) as { errorCode: string; tipMsg: string; data: T };
  if (envelope.errorCode !== '00000') throw new Error(`${path}: ${res.status} ${envelope.tipMsg}`);
  return envelope.data;
}

/** The records the screens show, made the way the screens make them. */
async function prepare(api: ConsoleApi, receiver: string): Promise<void> {
  await attempt('scan', () => get(api, '/hook/trigger/scan'));
  const hooks = (await attempt('hooks', () => api.post<{ records: HookRow[] }>('/hook/relate/trigger/query/page', { current: 1, pageSize: 50 })))?.records ?? [];
  const demo = hooks.find((h) => h.eventType === 'alarm.opened');
  if (demo && !demo.url.startsWith(receiver)) {
    // Port 8628 was taken: the demo hook goes to this script's receiver instead.
    const one = await api.post<HookRow & { filter: unknown; retry: unknown; headers: unknown }>('/hook/relate/trigger/query/one', { id: demo.id });
    const { companyId, name, eventType, filter, script, method, headers, timeoutMs, retry, active, remark } = one as Record<string, unknown>;
    await attempt('point the demo hook here', () =>
      api.post('/hook/relate/trigger/edit', { id: demo.id, companyId, name, eventType, filter, script, method, url: `${receiver}/hooks/alarm`, headers, timeoutMs, retry, active, remark }),
    );
  }
  const [company] = await api.post<{ id: number }[]>('/system/company/query/tree');
  const failing = await attempt('failing hook', () =>
    api.post<{ id: number }>('/hook/relate/trigger/add', {
      companyId: company?.id, name: '工单同步 · 运维平台', eventType: 'workorder.created', method: 'PUT', url: `${receiver}/fail/orders`,
      headers: [{ name: 'X-Tenant', value: 'ess-demo' }], timeoutMs: 5000, retry: { maxRetries: 2, backoffMs: 2000 },
      script: 'function main(event, params) {\n  return { order: event.data.no, station: event.data.siteId, state: event.data.to };\n}\n',
    }),
  );
  for (let i = 0; i < 3; i++) if (demo) await attempt('test send', () => api.post('/hook/relate/trigger/test', { id: demo.id, ...(i === 2 ? { data: { level: 5 } } : {}) }));
  if (failing) await attempt('failing test send', () => api.post('/hook/relate/trigger/test', { id: failing.id }));
  const records = (await attempt('records', () => api.post<{ records: { id: number; state: string }[] }>('/hook/exec/record/query/page', { current: 1, pageSize: 10 })))?.records ?? [];
  const delivered = records.find((r) => r.state === 'delivered');
  if (delivered) await attempt('replay', () => api.post('/hook/exec/record/replay', { id: delivered.id, send: true }));
}

const closeOverlay = async (page: Page) => {
  await page.keyboard.press('Escape');
  await page.waitForTimeout(400);
};

runScript(async () => {
  const receiver = await startReceiver();
  log(`receiver on ${receiver.url}`);
  const server = await startConsole({ SEED_DEMO: 'true', ...webDistEnv() });
  const api = await ConsoleApi.signIn(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
  await prepare(api, receiver.url);
  log(`receiver got ${receiver.received} requests`);
  const problems: string[] = [];
  const { browser, page } = await signedInPage(server);
  const base = server.url;

  if (await shoot(page, base, '/hook/trigger', 'hooks-trigger', problems)) {
    await page.getByTestId('trigger-scan').click();
    await page.getByTestId('scan-report').waitFor({ timeout: 30_000 }).catch(() => log('trigger: no scan report'));
    await shootOverlay(page, 'hooks-trigger-scan', problems);
    await closeOverlay(page);
    await page.locator('main .ant-table-row').filter({ hasText: 'alarm.opened' }).first().getByTestId('trigger-detail').click();
    await page.getByTestId('payload-fields').waitFor({ timeout: 30_000 }).catch(() => log('trigger detail: no field table'));
    await page.locator('main .ant-table-row').last().waitFor({ timeout: 30_000 }).catch(() => undefined);
    await settled(page, 400);
    await check(page, 'hooks-trigger-detail', problems);
    await page.screenshot({ path: shotPath('hooks-trigger-detail'), fullPage: true });
    log('hooks-trigger-detail.png');
  }
  if (await shoot(page, base, '/hook/triggerRelate', 'hooks-trigger-relate', problems)) {
    await page.locator('main .ant-table-row').filter({ hasText: 'alarm.opened' }).first().getByTestId('hook-edit').click();
    await page.getByTestId('script-param').first().waitFor({ timeout: 30_000 }).catch(() => log('config: no parameters'));
    await settled(page, 400);
    await check(page, 'hooks-trigger-config', problems);
    await page.screenshot({ path: shotPath('hooks-trigger-config'), fullPage: true });
    log('hooks-trigger-config.png');
    // A script with a mistake: the check answers the line and the message.
    const script = page.getByTestId('script-input');
    await script.fill(`${await script.inputValue()}\nfunction broken( {\n`);
    await page.getByTestId('script-check').click();
    await page.getByTestId('script-error').waitFor({ timeout: 30_000 }).catch(() => log('config: no script error'));
    await page.getByTestId('script-error').scrollIntoViewIfNeeded().catch(() => undefined);
    await page.waitForTimeout(300);
    await check(page, 'hooks-trigger-config-script-error', problems);
    await page.screenshot({ path: shotPath('hooks-trigger-config-script-error') });
    log('hooks-trigger-config-script-error.png');
    await page.getByTestId('params-open').click();
    await page.locator('.ant-drawer-open .ant-table-row').first().waitFor({ timeout: 30_000 }).catch(() => log('config: no parameters in the drawer'));
    await shootOverlay(page, 'hooks-trigger-config-params', problems);
    await closeOverlay(page);
  }
  // A new hook on a trigger of the catalogue: saved, its signing secret shown once.
  if (await shoot(page, base, '/hook/triggerConfig?eventType=device.offline', 'hooks-trigger-config-new', problems, '[data-testid=hook-form]')) {
    await page.getByLabel('钩子名称').fill('设备离线 · 值班系统');
    await page.getByTestId('hook-url').fill('https://oncall.example.com/ess/device-offline');
    await page.getByTestId('script-template').click();
    await page.getByTestId('hook-save').click();
    await page.getByTestId('secret-once').waitFor({ timeout: 30_000 }).catch(() => log('new hook: no secret shown'));
    await shootOverlay(page, 'hooks-trigger-config-secret', problems);
    await page.getByRole('button', { name: /我已保存/ }).click().catch(() => undefined);
  }
  if (await shoot(page, base, '/hook/dispatch', 'hooks-dispatch', problems)) {
    await page.getByTestId('hook-settings-open').click();
    await page.getByTestId('hook-settings').waitFor({ timeout: 30_000 }).catch(() => log('dispatch: no settings'));
    await shootOverlay(page, 'hooks-dispatch-settings', problems);
    await closeOverlay(page);
    // The oldest delivered row: a test send of the demo hook.
    const delivered = page.locator('main .ant-table-row').filter({ has: page.getByTestId('record-state-delivered') }).last();
    await delivered.getByRole('button', { name: /详\s*情/ }).click();
    await page.getByTestId('record-request').waitFor({ timeout: 30_000 }).catch(() => log('dispatch: no request in the detail'));
    await shootOverlay(page, 'hooks-dispatch-detail', problems);
    await closeOverlay(page);
    await delivered.getByTestId('record-replay').click();
    await page.getByTestId('replay-run').click();
    await page.getByTestId('replay-result').waitFor({ timeout: 30_000 }).catch(() => log('dispatch: no replay result'));
    await shootOverlay(page, 'hooks-dispatch-replay', problems);
    await closeOverlay(page);
  }
  await browser.close();

  const phone = await signedInPage(server, { width: 390, height: 844 });
  await shoot(phone.page, base, '/hook/triggerRelate', 'hooks-trigger-relate-phone', problems);
  await shoot(phone.page, base, '/hook/dispatch', 'hooks-dispatch-phone', problems);
  await phone.browser.close();
  await server.close();
  receiver.server.close();
  if (problems.length) throw new Error(`axe violations:\n${problems.join('\n')}`);
});
