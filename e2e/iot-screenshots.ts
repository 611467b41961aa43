/**
 * Screenshots of the IoT screens (docs/screenshots/iot-*.png), each checked by axe (serious and
 * critical violations are printed and fail the script): the console with the demo seeded and a
 * JetLinks platform played by the protocol peer of the server tests (e2e/support/iot-world.ts).
 * The application list first empty (what a new user reads), then the add form with the platform's
 * fields, the connection test, a full sync's dry-run diff and its approval, a second sync after
 * the platform changed (added, changed and removed lines), the runs; then products, a product's
 * thing model and relations (a property with scale and value map, a fault event, a command with a
 * parameter), the event and command screens, the devices and a device's detail; the application
 * list, a product and the devices also on a phone (390 px).
 * Run: `npx tsx e2e/iot-screenshots.ts` after `npm run build -w @ess/web` (E2E_WEB_DIST=<dir> for another build).
 */
import { ConsoleApi } from './support/api.ts';
import { IOT_PASSWORD, IOT_USER, startIotPlatform } from './support/iot-world.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';
import { check, log, runScript, settled, shoot, shootOverlay, shotPath, signedInPage, webDistEnv } from './support/shots.ts';

/** The thing model of a demo product with properties, events and commands: what the relations map to. */
async function consoleModel(api: ConsoleApi) {
  const products = await api.post<{ id: number; name: string; propertyCount: number; eventCount: number; commandCount: number }[]>('/configure/product/query/list', {});
  const battery = (x: { name: string }) => (/BMS|电池/.test(x.name) ? 0 : 1);
  for (const p of products.filter((x) => x.propertyCount > 0 && x.eventCount > 0 && x.commandCount > 0).sort((a, b) => battery(a) - battery(b))) {
    const props = await api.post<{ identifier: string; dataType: string }[]>('/configure/property/query/list', { productId: p.id });
    const events = await api.post<{ identifier: string }[]>('/configure/product/event/query/list', { productId: p.id });
    const commands = await api.post<{ identifier: string; requestParams: { identifier: string; dataType: string }[] }[]>('/configure/product/command/query/list', { productId: p.id });
    const command = commands.find((c) => c.requestParams.length > 0);
    const numeric = props.find((x) => ['float', 'double', 'int', 'long'].includes(x.dataType));
    if (numeric && events[0] && command) return { productId: p.id, property: numeric.identifier, event: events[0].identifier, command: command.identifier, param: command.requestParams[0]!.identifier };
  }
  throw new Error('no demo product with properties, events and commands with parameters');
}

runScript(async () => {
  const server = await startConsole({ SEED_DEMO: 'true', ...webDistEnv() });
  const api = await ConsoleApi.signIn(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
  const peer = await startIotPlatform(api);
  log(`JetLinks peer on ${peer.url}`);
  const problems: string[] = [];
  const { browser, page } = await signedInPage(server);
  const base = server.url;
  const existing = await api.post<{ records: unknown[] }>('/iot/config/query/page', { current: 1, pageSize: 10 });
  if (existing.records.length === 0) await shoot(page, base, '/iot/appConfig', 'iot-app-config-empty', problems, 'main .ant-table-placeholder');

  await page.goto(`${base}/iot/appConfig`);
  await page.getByRole('button', { name: /新\s*增/ }).first().click();
  await page.getByTestId('config-platform').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'JetLinks' }).click();
  await page.getByTestId('platform-fields').waitFor({ timeout: 30_000 }).catch(() => log('form: no platform fields'));
  await shootOverlay(page, 'iot-app-config-form', problems);
  await page.keyboard.press('Escape');

  const [company] = await api.post<{ id: number }[]>('/system/company/query/tree', {});
  const { id: configId } = await api.post<{ id: number }>('/iot/config/add', {
    companyId: company!.id, name: '集团 JetLinks 平台', platform: 'jetlinks', baseUrl: peer.url, username: IOT_USER, password: IOT_PASSWORD, requireApproval: true, enabled: true,
    remark: '储能电站电池簇与关口表',
  });
  const row = () => page.locator('main .ant-table-row').filter({ hasText: '集团 JetLinks 平台' });
  if (await shoot(page, base, '/iot/appConfig', 'iot-app-config', problems)) {
    await row().getByTestId('config-connect').click();
    await page.locator('[data-testid=outcome-message]:visible').waitFor({ timeout: 30_000 }).catch(() => log('connect: no outcome'));
    await shootOverlay(page, 'iot-app-config-connect', problems);
    await page.getByRole('button', { name: /确\s*定/ }).click();
    await row().getByTestId('config-sync').click();
    await page.getByTestId('sync-diff').waitFor({ timeout: 30_000 }).catch(() => log('sync: no diff'));
    await shootOverlay(page, 'iot-sync-plan', problems);
    await page.getByTestId('sync-approve').click();
    await page.getByTestId('sync-state-applied').waitFor({ timeout: 30_000 }).catch(() => log('sync: not applied'));
    await shootOverlay(page, 'iot-sync-applied', problems);
    await page.getByTestId('sync-close').click();
    // The platform changes: a property added, a level changed, a device removed.
    peer.world.products[0]!.properties.push({ id: 'cycle_count', name: '循环次数', type: 'int' });
    peer.world.products[0]!.events[0]!.level = 'warn';
    peer.world.devices = peer.world.devices.filter((d) => d.id !== 'jl-bms-spare');
    await row().getByTestId('config-sync').click();
    await page.getByTestId('sync-diff').waitFor({ timeout: 30_000 }).catch(() => log('second sync: no diff'));
    await shootOverlay(page, 'iot-sync-plan-changes', problems);
    await page.getByTestId('sync-approve').click();
    await page.getByTestId('sync-state-applied').waitFor({ timeout: 30_000 }).catch(() => log('second sync: not applied'));
    await page.getByTestId('sync-close').click();
    await row().getByTestId('config-runs').click();
    await page.locator('.ant-drawer-open .ant-table-row').first().waitFor({ timeout: 30_000 }).catch(() => log('runs: none'));
    await shootOverlay(page, 'iot-sync-runs', problems);
    await page.keyboard.press('Escape');
  }

  // Relations made through the calls the forms use.
  const model = await consoleModel(api);
  const products = await api.post<{ records: { id: number; name: string }[] }>('/iot/product/query/page', { current: 1, pageSize: 10, configId });
  const bms = products.records.find((p) => p.name === '电池簇 BMS')!;
  const props = await api.post<{ id: number; identifier: string }[]>('/iot/property/query/list', { iotProductId: bms.id });
  const [event] = await api.post<{ id: number }[]>('/iot/event/query/list', { iotProductId: bms.id });
  const [command] = await api.post<{ id: number }[]>('/iot/command/query/list', { iotProductId: bms.id });
  const soc = props.find((p) => p.identifier === 'soc')!;
  await api.post('/iot/relate/property/add', { iotProductId: bms.id, iotPropertyId: soc.id, productId: model.productId, identifier: model.property, scale: 0.1, offset: 0, valueMap: [], remark: '平台上报千分比' });
  await api.post('/iot/relate/event/add', {
    iotProductId: bms.id, iotEventId: event!.id, productId: model.productId, identifier: model.event,
    valueMap: [{ platformValue: '1', status: 1, label: '告警', colour: '#d4380d' }, { platformValue: '0', status: 0, label: '恢复', colour: '#389e0d' }],
  });
  const { id: relateCommandId } = await api.post<{ id: number }>('/iot/relate/command/add', { iotProductId: bms.id, iotCommandId: command!.id, productId: model.productId, identifier: model.command });
  const inputs = await api.post<{ id: number; identifier: string }[]>('/iot/param/query/list', { commandId: command!.id, direction: 'input' });
  await api.post('/iot/relate/param/add', { relateCommandId, iotParamId: inputs.find((i) => i.identifier === 'power')!.id, identifier: model.param, scale: 1, offset: 0, valueMap: [] });

  await shoot(page, base, '/iot/productManagement', 'iot-products', problems);
  if (await shoot(page, base, `/iot/productDetail?id=${bms.id}`, 'iot-product-detail', problems)) {
    await page.getByRole('tab', { name: '属性关联' }).click();
    await page.getByTestId('relations-property').locator('.ant-table-row').first().waitFor({ timeout: 30_000 }).catch(() => log('detail: no property relation'));
    await settled(page, 400);
    await check(page, 'iot-product-relations', problems);
    await page.screenshot({ path: shotPath('iot-product-relations'), fullPage: true });
    log('iot-product-relations.png');
    await page.getByTestId('relations-property').getByRole('button', { name: /编\s*辑/ }).first().click();
    await page.getByTestId('value-map').waitFor({ timeout: 30_000 }).catch(() => log('detail: no relation form'));
    await shootOverlay(page, 'iot-property-relation-form', problems);
    await page.keyboard.press('Escape');
  }
  await shoot(page, base, `/iot/productEventForm?iotProductId=${bms.id}`, 'iot-event-relations', problems);
  await shoot(page, base, `/iot/productEventDetail?id=${event!.id}`, 'iot-event-detail', problems);
  await shoot(page, base, `/iot/productCommandForm?iotProductId=${bms.id}`, 'iot-command-relations', problems);
  await shoot(page, base, `/iot/productCommandForm?id=${relateCommandId}`, 'iot-command-params', problems);
  await shoot(page, base, `/iot/productCommandDetail?id=${command!.id}`, 'iot-command-detail', problems);
  await shoot(page, base, '/iot/device', 'iot-devices', problems);
  const devices = await api.post<{ records: { id: number; deviceId: number | null }[] }>('/iot/device/query/page', { current: 1, pageSize: 10, iotProductId: bms.id });
  const bound = devices.records.find((d) => d.deviceId !== null) ?? devices.records[0];
  if (bound) await shoot(page, base, `/iot/deviceDetail?id=${bound.id}`, 'iot-device-detail', problems, '[data-testid=iot-device-detail]');
  await browser.close();

  const phone = await signedInPage(server, { width: 390, height: 844 });
  await shoot(phone.page, base, '/iot/appConfig', 'iot-app-config-phone', problems);
  await shoot(phone.page, base, `/iot/productDetail?id=${bms.id}`, 'iot-product-detail-phone', problems);
  await shoot(phone.page, base, '/iot/device', 'iot-devices-phone', problems);
  await phone.browser.close();
  await server.close();
  await peer.close();
  if (problems.length) throw new Error(`axe violations:\n${problems.join('\n')}`);
});
