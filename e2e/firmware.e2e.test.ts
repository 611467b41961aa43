import { createHash } from 'node:crypto';
import { demoFleet, runSimulator, type SimulatorHandle } from '@ess/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginPage } from './pages/LoginPage.ts';
import { animationsSettled } from './support/animations.ts';
import { ConsoleApi } from './support/api.ts';
import { launchBrowser } from './support/browser.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

/**
 * Firmware (issue 22) end to end: the administrator uploads a package in chunks through the
 * console (the SHA-256 the server computed shown after the upload), creates a rollout of the air
 * conditioners of a demo station that needs approval, a second user approves it in their own
 * browser, the administrator starts it, and the per-device states of the rollout's task table
 * change on the open page — from the event stream, without a reload — until every device
 * reports success. The demo fleet is played by the simulator in this process (OTA with short
 * flash and reboot times): it downloads the package over HTTP with the task's token, verifies the
 * SHA-256, flashes, reboots and reports its new version.
 */

const APPROVER = { username: 'e2e-approver', password: 'Ops123456' };
const FILE = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 256));
const SHA256 = createHash('sha256').update(FILE).digest('hex');

/** Picks an option of an antd Select by the field's label. */
async function pick(page: Page, scope: ReturnType<Page['locator']>, label: string, text: string): Promise<void> {
  const box = scope.getByRole('combobox', { name: label, exact: true });
  await animationsSettled(page);
  await box.click({ force: true });
  await box.fill(text);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
}

/** Picks a node of an antd TreeSelect by the field's label. */
async function pickTree(page: Page, scope: ReturnType<Page['locator']>, label: string, text: string): Promise<void> {
  // The drawer has finished sliding in: a forced click on a field still outside the window fails (seen beside another browser test).
  await animationsSettled(page);
  await scope.getByRole('combobox', { name: label, exact: true }).click({ force: true });
  await page.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper').filter({ hasText: text }).first().click();
}

describe('firmware: package upload, a rollout approved by a second user, per-device states live', () => {
  let server: Awaited<ReturnType<typeof startConsole>>;
  let sim: SimulatorHandle;
  let browser: Browser;
  let admin: Page;
  let api: ConsoleApi;
  let companyName = '';

  beforeAll(async () => {
    server = await startConsole({ SEED_DEMO: 'true', SIMULATOR: 'off', DEVICE_OFFLINE_TIMEOUT_MS: '600000', LATEST_FLUSH_MS: '200', INGEST_BATCH_MS: '100' });
    sim = await runSimulator({ mqttUrl: server.ctx.mqtt.url, fleet: demoFleet(1), intervalMs: 2000, flashMs: 1500, rebootMs: 1000 });
    api = await ConsoleApi.signIn(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
    const [group] = await api.post<{ id: number; name: string }[]>('/system/company/query/tree', {});
    companyName = group!.name;
    const roles = await api.post<{ id: number; name: string }[]>('/system/role/query/list', {});
    await api.post('/system/user/add', {
      username: APPROVER.username, password: APPROVER.password, name: '钱审批', phone: '13800000031', email: 'approver@ess.example.com', companyId: group!.id,
      // The operators' standard role: every menu but system administration (firmware included).
      roleIds: roles.filter((r) => r.name === '运营人员').map((r) => r.id),
      allSites: true,
    });
    browser = await launchBrowser();
    admin = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    const login = new LoginPage(admin, server.url, (id) => server.captchaCode(id));
    await login.open();
    await login.signIn('admin', E2E_ADMIN_PASSWORD);
    await admin.waitForURL((u) => u.pathname !== '/login');
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await sim?.stop();
    await server?.close();
  });

  it('uploads a package in chunks and shows the SHA-256 the server computed', async () => {
    await admin.goto(`${server.url}/firmware/firmware`);
    await admin.getByTestId('package-upload').click();
    const drawer = admin.locator('.ant-drawer-open');
    await drawer.getByTestId('upload-form').waitFor();
    await pickTree(admin, drawer, '所属公司', companyName);
    await pick(admin, drawer, '设备类型', '空调');
    await drawer.getByTestId('upload-name').fill('hvac');
    await drawer.getByTestId('upload-version').fill('5.2.0');
    await drawer.getByTestId('upload-notes').fill('压缩机启停逻辑优化');
    await drawer.getByTestId('upload-file').setInputFiles({ name: 'hvac-5.2.0.bin', mimeType: 'application/octet-stream', buffer: FILE });
    await drawer.getByTestId('upload-submit').click();
    const shown = drawer.getByTestId('uploaded-package').getByTestId('sha256');
    // On a timeout, what the form says (a field it refused, the upload's progress) goes into the failure.
    await shown.waitFor({ timeout: 60_000 }).catch(async (err: unknown) => {
      throw new Error(`${(err as Error).message}\nthe upload drawer shows: ${await drawer.innerText().catch(() => '(gone)')}`);
    });
    expect((await shown.textContent())?.trim()).toBe(SHA256);
    await drawer.getByTestId('upload-close').click();
    await admin.locator('main .ant-table-row').filter({ hasText: '5.2.0' }).first().waitFor();
  }, 120_000);

  it('a rollout that needs approval is approved by a second user, started, and its devices\' states change live to success', async () => {
    await admin.goto(`${server.url}/firmware/upgrade`);
    await admin.getByTestId('rollout-add').click();
    const drawer = admin.locator('.ant-drawer-open');
    await drawer.getByTestId('rollout-form').waitFor();
    await drawer.getByTestId('rollout-name').fill('空调固件 5.2.0 · SH01');
    await pick(admin, drawer, '升级包', 'hvac 5.2.0');
    await pick(admin, drawer, '站点', 'SH01');
    const approval = drawer.getByTestId('rollout-approval');
    if ((await approval.getAttribute('aria-checked')) !== 'true') await approval.click();
    await drawer.getByTestId('rollout-preview-run').click();
    await drawer.getByTestId('rollout-preview').waitFor();
    expect(await drawer.getByTestId('preview-targeted').textContent()).toMatch(/将升级 [1-9]\d* 台/);
    await drawer.getByTestId('rollout-save').click();
    const detail = admin.getByTestId('rollout-detail');
    await detail.waitFor({ timeout: 30_000 });
    await expect.poll(() => detail.getAttribute('data-state')).toBe('pendingApproval');
    // The two-person rule: the creator is not offered the approval.
    expect(await admin.getByTestId('rollout-approve').count()).toBe(0);
    expect(await admin.getByTestId('rollout-start').count()).toBe(0);
    const url = admin.url();

    // The second user approves in their own browser.
    const other = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    const login = new LoginPage(other, server.url, (id) => server.captchaCode(id));
    await login.open();
    await login.signIn(APPROVER.username, APPROVER.password);
    await other.waitForURL((u) => u.pathname !== '/login');
    await other.goto(url);
    await other.getByTestId('rollout-approve').click();
    await other.getByTestId('action-note').fill('已核对发布说明，同意升级');
    await other.getByRole('button', { name: /确\s*定/ }).click();
    await expect.poll(() => other.getByTestId('rollout-detail').getAttribute('data-state'), { timeout: 20_000 }).toBe('ready');
    await other.context().close();

    // The administrator's page follows without a reload, then starts the rollout.
    await expect.poll(() => detail.getAttribute('data-state'), { timeout: 20_000 }).toBe('ready');
    expect(admin.url()).toBe(url);
    await admin.getByTestId('rollout-start').click();
    await expect.poll(() => detail.getAttribute('data-state'), { timeout: 20_000 }).toBe('running');

    // The per-device states seen on the open page: recorded as they change, until all succeed.
    const seen = new Set<string>();
    const table = admin.getByTestId('task-table');
    await expect
      .poll(
        async () => {
          const states = await table.locator('[data-testid^=task-state-]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice('task-state-'.length)));
          for (const s of states) seen.add(s);
          return states.length > 0 && states.every((s) => s === 'success');
        },
        { timeout: 150_000, interval: 250 },
      )
      .toBe(true);
    // More than the last state was shown on the way (the page did not jump from nothing to success).
    expect([...seen].filter((s) => s !== 'success').length).toBeGreaterThan(0);
    expect(admin.url()).toBe(url);
    await expect.poll(() => detail.getAttribute('data-state'), { timeout: 30_000 }).toBe('finished');
    // Every targeted air conditioner now runs the version.
    const devices = await api.post<{ code: string; firmwareVersion: string | null }[]>('/configure/device/query/list', { type: 'airConditioner' });
    const sh01 = devices.filter((d) => d.code.startsWith('SH01-AC-'));
    expect(sh01.length).toBeGreaterThan(0);
    expect(sh01.every((d) => d.firmwareVersion === '5.2.0')).toBe(true);
  }, 240_000);
});
