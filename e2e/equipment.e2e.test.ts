import ExcelJS from 'exceljs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEVICE_SHEET_COLUMNS } from '@ess/contract/device';
import { demoFleet, runSimulator, type SimulatorHandle } from '@ess/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApp } from '../apps/server/src/app.ts';
import { product } from '../apps/server/src/db/schema/device.ts';
import { EquipmentScreen, pick, ReplaceScreen } from './pages/EquipmentScreens.ts';
import { LoginPage } from './pages/LoginPage.ts';
import { ResourceScreen } from './pages/ResourceScreen.ts';
import { seriousViolations } from './support/axe.ts';
import { launchBrowser } from './support/browser.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

const SHOTS = resolve(import.meta.dirname, '../docs/screenshots');
const SITE = { code: 'SZ01', name: '苏州工业园储能站' };

type Row = Partial<Record<(typeof DEVICE_SHEET_COLUMNS)[number]['key'], string | number>>;

async function sheet(rows: Row[], dir: string, name: string): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('设备');
  ws.addRow(DEVICE_SHEET_COLUMNS.map((c) => c.header));
  for (const r of rows) ws.addRow(DEVICE_SHEET_COLUMNS.map((c) => r[c.key] ?? null));
  const file = join(dir, name);
  writeFileSync(file, Buffer.from(await wb.xlsx.writeBuffer()));
  return file;
}

/**
 * The device registry as a person uses it: a new station is added on the station screen, its
 * devices are imported from an xlsx file on /product/equipment — first a file with mistakes, refused with a row-by-row report, then the corrected one — and the
 * devices are listed; one is replaced on /product/replace. The demo stations run live meanwhile.
 */
describe('device registry in Chromium', () => {
  let server: RunningApp & { captchaCode(id: string): Promise<string> };
  let sim: SimulatorHandle;
  let browser: Browser;
  let page: Page;
  let equipment: EquipmentScreen;
  const dir = mkdtempSync(join(tmpdir(), 'ess-equipment-'));
  const productOf = new Map<string, string>();

  beforeAll(async () => {
    server = await startConsole({
      SIMULATOR: 'off', DEVICE_OFFLINE_TIMEOUT_MS: '10000', LATEST_FLUSH_MS: '200', INGEST_BATCH_MS: '50',
      ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
    });
    sim = await runSimulator({ mqttUrl: server.ctx.mqtt.url, fleet: demoFleet(), intervalMs: 2000 });
    for (const p of await server.ctx.db.select({ code: product.code, type: product.type }).from(product)) productOf.set(p.type, p.code);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    equipment = new EquipmentScreen(page, server.url);
    const login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
    await login.open();
    await login.signIn('admin', E2E_ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname !== '/login');
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    await page?.screenshot({ path: join(tmpdir(), `equipment-e2e-${task.name.replace(/\W+/g, '-').slice(0, 40)}.png`) }).catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await sim?.stop();
    await server?.close();
  });

  it('adds the station on the station screen; a wrong phone number is refused first', async () => {
    const sites = new ResourceScreen(page, server.url, '/config/site');
    await sites.open();
    await sites.toolbar(/新\s*增/);
    await sites.choose('所属公司', '华东储能有限公司');
    await sites.fill('站点名称', SITE.name);
    await sites.fill('站点编码', SITE.code);
    await sites.fill('详细地址', '苏州工业园区星湖街328号');
    await sites.fill('联系电话', '0512-abc');
    await sites.save();
    await sites.fieldErrors().filter({ hasText: '手机号格式不正确' }).waitFor();
    await sites.fill('联系电话', '0512-62881234');
    await sites.save();
    await sites.toast('保存成功').waitFor();
    await sites.row(SITE.code).waitFor();
    await expect(sites.row(SITE.code).innerText()).resolves.toContain('华东储能有限公司');
  });

  it('lists the demo devices with their live state', async () => {
    await equipment.open();
    await equipment.row('SH01-PCS-01').locator('[data-status=online]').waitFor({ timeout: 20_000 });
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'equipment-list.png') });
  });

  it('refuses a file with mistakes, naming row and column, and imports nothing', async () => {
    const file = await sheet([
      { siteCode: SITE.code, code: 'SZ01-EMS-01', name: 'EMS能量管理系统', productCode: productOf.get('ems')! },
      { siteCode: SITE.code, code: 'SZ01-PCS-01', name: 'PCS储能变流器', productCode: 'PCS-UNKNOWN', parentCode: 'SZ01-EMS-01' },
      { siteCode: SITE.code, code: 'SZ01-BMS-01', name: 'BMS电池管理系统', productCode: productOf.get('bms')!, parentCode: 'SZ01-PCS-9' },
      { siteCode: 'XX99', code: 'SZ01-MT-MAIN', name: '关口电表', productCode: productOf.get('meter')!, meterPurpose: 'main' },
    ], dir, 'sz01-devices-draft.xlsx');
    await equipment.upload('device-import', file);
    const report = equipment.report();
    await report.waitFor();
    await expect.poll(() => report.locator('tbody tr').count(), { timeout: 10_000 }).toBe(3);
    await report.getByText('产品 PCS-UNKNOWN 不存在').waitFor();
    await report.getByText('上级设备 SZ01-PCS-9 不存在').waitFor();
    await report.getByText('站点 XX99 不存在或无权访问').waitFor();
    const firstRow = await report.locator('tbody tr').first().locator('td').allInnerTexts();
    expect(firstRow).toEqual(['3', '产品编码', '产品 PCS-UNKNOWN 不存在']);
    await page.screenshot({ path: join(SHOTS, 'equipment-import-errors.png') });
    await page.locator('.ant-modal-wrap:visible').getByRole('button', { name: /关\s*闭/ }).click();
    await equipment.filterStation(SITE.name);
    await page.locator('main .ant-table-placeholder').waitFor();
  });

  it('imports the station\'s devices from the corrected file and lists them', async () => {
    const file = await sheet([
      { siteCode: SITE.code, code: 'SZ01-EMS-01', name: 'EMS能量管理系统', productCode: productOf.get('ems')!, barcode: 'EMS2406001', firmwareName: 'ems-core', firmwareVersion: '2.3.0' },
      { siteCode: SITE.code, code: 'SZ01-PCS-01', name: 'PCS储能变流器', productCode: productOf.get('pcs')!, parentCode: 'SZ01-EMS-01', ratedPower: 250, barcode: 'PCS2406017' },
      { siteCode: SITE.code, code: 'SZ01-BMS-01', name: 'BMS电池管理系统', productCode: productOf.get('bms')!, parentCode: 'SZ01-PCS-01', barcode: 'BMS2406033' },
      { siteCode: SITE.code, code: 'SZ01-BC-01', name: '电池簇1', productCode: productOf.get('batteryCluster')!, parentCode: 'SZ01-BMS-01', no: 1 },
      { siteCode: SITE.code, code: 'SZ01-BC-02', name: '电池簇2', productCode: productOf.get('batteryCluster')!, parentCode: 'SZ01-BMS-01', no: 2 },
      { siteCode: SITE.code, code: 'SZ01-MT-MAIN', name: '关口电表', productCode: productOf.get('meter')!, meterPurpose: 'main', barcode: 'MT2406101' },
    ], dir, 'sz01-devices.xlsx');
    await equipment.upload('device-import', file);
    await page.locator('.ant-message').getByText('导入成功：新增 6 条，更新 0 条').waitFor();
    await equipment.filterStation(SITE.name);
    await expect.poll(() => equipment.rows().count(), { timeout: 10_000 }).toBe(6);
    await expect(equipment.row('SZ01-PCS-01').innerText()).resolves.toContain('EMS能量管理系统');
    await equipment.row('SZ01-PCS-01').locator('[data-status=inactive]').waitFor();
    const href = await equipment.row('SZ01-PCS-01').getByRole('link').getAttribute('href');
    expect(href).toMatch(/^\/product\/equipmentDetail\?id=\d+$/);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'equipment-imported.png') });

    await page.getByTestId('import-history').click();
    const drawer = page.locator('.ant-drawer-open');
    await drawer.locator('.ant-table-row').filter({ hasText: 'sz01-devices.xlsx' }).waitFor();
    await drawer.locator('.ant-table-row').filter({ hasText: 'sz01-devices-draft.xlsx' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'equipment-import-history.png') });
    await drawer.locator('.ant-drawer-close').click();
    await page.locator('.ant-drawer-open').waitFor({ state: 'hidden' });
    // The drawer and its mask slide out after the open state ends; a click meanwhile hits the mask.
    await page.waitForFunction(() => [...document.querySelectorAll('.ant-drawer-mask')].every((m) => m.getBoundingClientRect().width === 0));
  });

  it('checks a live station\'s EMS', async () => {
    await page.getByTestId('ems-check').click();
    const modal = page.locator('.ant-modal-wrap:visible');
    await page.getByTestId('ems-run').waitFor();
    await pick(page, modal, '所属站点', '上海');
    await page.getByTestId('ems-run').click();
    await modal.getByText('EMS应答正常').first().waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(SHOTS, 'equipment-ems-check.png') });
    await modal.locator('.ant-modal-close').click();
  });

  it('replaces a device of the new station and lists the change', async () => {
    const replace = new ReplaceScreen(page, server.url);
    await replace.open();
    await replace.replace(SITE.name, 'SZ01-PCS-01', 'SZ01-PCS-01R', 'PCS2411088');
    await replace.row('SZ01-PCS-01R').waitFor();
    await expect(replace.row('SZ01-PCS-01R').innerText()).resolves.toContain('PCS2406017');
    // Tall enough for the form and the change list in one picture.
    await page.setViewportSize({ width: 1440, height: 1180 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'equipment-replace.png') });
  });
});
