import { addDays, localDayStart, nextMonth, todayIn } from '@ess/contract';
import type { DemandMeasureRecord } from '@ess/contract/demand';
import type { StrategySimulation } from '@ess/contract/strategy';
import type { Page as Paged } from '@ess/contract';
import { createFleet, deviceValues, runSimulator, type SimulatorHandle } from '@ess/simulator';
import type { Browser, Page } from 'playwright-core';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoHistory } from '../apps/server/src/demo/demo-history.ts';
import { commandChannel } from '../apps/server/src/modules/monitor/index.ts';
import { sweepStrategies } from '../apps/server/src/modules/strategy/index.ts';
import { ConsoleShell } from './pages/ConsoleShell.ts';
import { DemandScreens } from './pages/DemandScreens.ts';
import { LoginPage } from './pages/LoginPage.ts';
import { DeviceDetailScreen } from './pages/MonitorScreens.ts';
import { ResourceScreen } from './pages/ResourceScreen.ts';
import { ConsoleApi, signInToken } from './support/api.ts';
import { launchBrowser } from './support/browser.ts';
import { signInAdmin } from './support/demo-console.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

const SITE = 'SH01';
const EMS = 'SH01-EMS-01';
const PCS = 'SH01-PCS-01';
const METERS = ['SH01-MT-MAIN', 'SH01-MT-ESS'];
const DAY_MS = 86_400_000;
/** The console's numbers in its default language (zh-CN: grouped, up to 3 decimals). */
const fmt = (v: number) => new Intl.NumberFormat('zh-CN', { maximumFractionDigits: 3 }).format(v);
const signed = (v: number) => `${v > 0 ? '+' : ''}${fmt(v)}`;
const round3 = (v: number) => Math.round(v * 1000) / 1000;

/** A stored 15-minute window as the tests read it. */
type StoredWindow = { id: number; ts: Date; demand_kw: number; import_kwh: number };

/**
 * Demand management, the operation strategy and the storage control end to end (issue 19), in
 * Chromium on the real console: the Shanghai station's history since yesterday is written the demo's
 * way (its meters' readings through the demand sink make the 15-minute windows; the EMS's series
 * feed the simulation), then the station is played live in this process, a report a second, with
 * its meters kept quiet so that the month's figures hold still while the pages are read. Each flow
 * asserts what the page shows and what the server stored.
 */
describe('demand, strategy and storage control in Chromium', { timeout: 120_000 }, () => {
  let server: Awaited<ReturnType<typeof startConsole>>;
  let sim: SimulatorHandle;
  let browser: Browser;
  let page: Page;
  let admin: ConsoleApi;
  let screens: DemandScreens;
  let site: { id: number; name: string; timeZone: string };
  /** Yesterday in the station's zone, and its month. */
  let day: string;
  let month: string;
  let targetKw: number;
  let marginKw: number;

  const sql = <T extends Record<string, unknown>>(text: string, params: unknown[] = []) => server.ctx.database.sql.query<T>(text, params).then((r) => r.rows);
  /** The station-local "YYYY-MM-DD HH:mm" of an instant. */
  const local = (ts: Date) => new Intl.DateTimeFormat('sv-SE', { timeZone: site.timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).format(ts);
  /** The stored windows of the station from a local date to another (exclusive), highest demand first. */
  const windows = (from: string, to: number) =>
    sql<StoredWindow>(
      `select id, ts, demand_kw, import_kwh from demand_window where site_id = $1 and ts >= $2 and ts < $3 and demand_kw is not null order by demand_kw desc, ts`,
      [site.id, new Date(localDayStart(site.timeZone, from)), new Date(to)],
    );
  /** The end of the month (or now, when it has not ended). */
  const monthEnd = () => Math.min(Date.now(), localDayStart(site.timeZone, `${nextMonth(month)}-01`));
  const monthMax = async () => (await windows(`${month}-01`, monthEnd()))[0]!;
  const deviceId = async (code: string) => Number((await sql<{ id: number }>('select id from device where code = $1', [code]))[0]!.id);
  const until = async (what: string, check: () => Promise<boolean> | boolean, ms = 20_000) => {
    for (const end = Date.now() + ms; !(await check()); ) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  beforeAll(async () => {
    const started = Date.now();
    // Chromium starts while the server writes the history (and is closed after all, whatever fails).
    const launching = launchBrowser().then((b) => (browser = b));
    server = await startConsole({
      SIMULATOR: 'off', DEVICE_OFFLINE_TIMEOUT_MS: '5000', PRESENCE_SWEEP_MS: '1000', LATEST_FLUSH_MS: '200', INGEST_BATCH_MS: '50', ROLLUP_FLUSH_MS: '1000',
      ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
    });
    const serverAt = Date.now();
    const [s] = await sql<{ id: number; name: string; time_zone: string }>('select id, name, time_zone from site where code = $1', [SITE]);
    site = { id: Number(s!.id), name: s!.name, timeZone: s!.time_zone };
    day = addDays(todayIn(site.timeZone), -1);
    month = day.slice(0, 7);
    // The history from a little before yesterday's local midnight: every window of yesterday measured.
    const fleet = createFleet(1);
    const history = await seedDemoHistory(server.ctx, fleet, (Date.now() - localDayStart(site.timeZone, day)) / DAY_MS + 0.05, '');
    const historyAt = Date.now();
    // Played on from where the history ends (the meters' registers go on from theirs).
    sim = await runSimulator({ mqttUrl: server.ctx.mqtt.url, fleet, intervalMs: 1000, state: history.state });
    for (const m of METERS) sim.silence(m);
    admin = await ConsoleApi.signIn(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
    await launching;
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    screens = new DemandScreens(page, server.url);
    await signInAdmin(page, server.url, (id) => server.captchaCode(id));
    // A target above the month's peak, so that the live guard stays quiet.
    targetKw = Math.ceil(((await monthMax()).demand_kw * 1.2) / 10) * 10;
    marginKw = Math.round(targetKw / 10);
    const s1 = (a: number, b: number) => ((b - a) / 1000).toFixed(1);
    console.log(`demand e2e: ready in ${s1(started, Date.now())} s (server ${s1(started, serverAt)}, history ${s1(serverAt, historyAt)}, simulator and sign-in ${s1(historyAt, Date.now())})`);
  }, 180_000);
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    await page?.screenshot({ path: join(tmpdir(), `demand-e2e-${task.name.replace(/\W+/g, '-').slice(0, 40)}.png`) }).catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await sim?.stop();
    await server?.close();
  });

  it('adds a standing target with its pre-alarm margin through the form; a negative target or a margin not below it is refused there and saves nothing', async () => {
    const stored = () => sql<{ month: string | null; target_kw: number; margin_kw: number; replaced_at: Date | null }>(
      'select month, target_kw, margin_kw, replaced_at from demand_setting where site_id = $1', [site.id],
    );
    await expect(stored()).resolves.toEqual([]);
    await screens.openSettings();
    const settings = new ResourceScreen(page, server.url, '/demand/setting');
    await settings.toolbar(/新\s*增/);
    await settings.choose('站点', site.name);
    await settings.fill('目标需量 (kW)', '-100');
    await settings.fill('预警裕量 (kW)', '10');
    await settings.save();
    await settings.fieldErrors().filter({ hasText: '目标需量须大于0' }).waitFor();
    await settings.fill('目标需量 (kW)', String(targetKw));
    await settings.fill('预警裕量 (kW)', String(targetKw));
    await settings.save();
    await settings.fieldErrors().filter({ hasText: '预警裕量应在0到目标需量之间' }).waitFor();
    await expect(stored()).resolves.toEqual([]);

    await settings.fill('预警裕量 (kW)', String(marginKw));
    await settings.save();
    await settings.toast('保存成功').waitFor();
    const row = settings.row(site.name);
    await row.waitFor();
    await expect(row.innerText()).resolves.toMatch(new RegExp(`长期\\s+${fmt(targetKw)}\\s+${fmt(marginKw)}\\s+${fmt(targetKw - marginKw)}`));
    await expect(stored()).resolves.toEqual([{ month: null, target_kw: targetKw, margin_kw: marginKw, replaced_at: null }]);
  });

  it("tracks the month against the target, then yesterday's 15-minute curve with its maximum and time as stored", async () => {
    const peak = await monthMax();
    await screens.openTrack(month);
    await expect(screens.figure('track-max')).resolves.toBe(`${fmt(peak.demand_kw)} kW`);
    await expect(screens.figure('track-target')).resolves.toBe(`${fmt(targetKw)} kW`);
    await expect(screens.figure('track-headroom')).resolves.toBe(`${signed(round3(targetKw - peak.demand_kw))} kW`);

    await screens.openDay(day);
    const stored = await windows(day, localDayStart(site.timeZone, addDays(day, 1)));
    expect(stored).toHaveLength(96);
    const dayPeak = stored[0]!;
    await page.locator('[data-testid=track-curve] canvas').waitFor();
    await expect(screens.figure('track-max')).resolves.toBe(`${fmt(dayPeak.demand_kw)} kW`);
    await expect(screens.figure('track-max-time')).resolves.toBe(local(dayPeak.ts));
    await expect(screens.figure('track-headroom')).resolves.toBe(`${signed(round3(targetKw - dayPeak.demand_kw))} kW`);
    // The day's 96 windows, 24 a page; the maximum's window is among them with its demand.
    const table = page.locator('.ant-table-wrapper').filter({ has: page.getByTestId('track-windows') });
    await expect(table.locator('.ant-pagination-item').count()).resolves.toBe(4);
    await expect(table.locator('.ant-table-row').count()).resolves.toBe(24);
  });

  it("flags a utility bill's figure beyond the tolerance, not one within it", async () => {
    const peak = (await monthMax()).demand_kw;
    const bill = () => sql<{ bill_max_kw: number }>('select bill_max_kw from demand_bill where site_id = $1 and month = $2', [site.id, month]);
    await screens.openReconcile();
    const row = screens.reconcileRow(site.name, month);
    await row.getByText('未录入').waitFor();

    await screens.enterBill(site.name, month, round3(peak + 10));
    await row.locator('[data-testid=bill-diff][data-tone=error]').filter({ hasText: '+10 kW' }).waitFor();
    await row.getByText('不一致', { exact: true }).waitFor();
    await expect(bill()).resolves.toEqual([{ bill_max_kw: round3(peak + 10) }]);

    // Within max(0.5 kW, 2 %) of the console's figure: shown plainly.
    await screens.enterBill(site.name, month, round3(peak + 0.3));
    await row.locator('[data-testid=bill-diff]').filter({ hasText: '+0.3 kW' }).waitFor();
    await expect(row.locator('[data-testid=bill-diff]').getAttribute('data-tone')).resolves.toBeNull();
    await expect(bill()).resolves.toEqual([{ bill_max_kw: round3(peak + 0.3) }]);
  });

  it('lists the windows where storage lowered the demand and opens one in detail', async () => {
    const shaved = await sql<{ n: number }>(
      `select count(*)::int as n from demand_window where site_id = $1 and ts >= $2 and ts < $3 and demand_kw is not null
         and round(greatest(0, (import_kwh + coalesce(discharge_kwh, 0) - coalesce(charge_kwh, 0)) * 4)::numeric, 3) > round(demand_kw::numeric, 3)`,
      [site.id, new Date(localDayStart(site.timeZone, `${month}-01`)), new Date(monthEnd())],
    );
    const listed = await admin.post<Paged<DemandMeasureRecord>>('/demand/analysis/measure', { siteId: site.id, month, current: 1, pageSize: 10 });
    expect(listed.total).toBe(shaved[0]!.n);
    expect(listed.total).toBeGreaterThan(0);
    await screens.openAnalysis(month);
    const rows = page.locator('[data-testid=analysis-measures] .ant-table-row');
    await expect(rows.locator('td:first-child').allInnerTexts()).resolves.toEqual(listed.records.map((r) => r.localTime));

    const first = listed.records[0]!;
    const [w] = await sql<{ demand_kw: number; import_kwh: number; discharge_kwh: number }>('select demand_kw, import_kwh, discharge_kwh from demand_window where id = $1', [first.id]);
    const drawer = await screens.openMeasure(first.localTime);
    const text = await drawer.innerText();
    expect(text).toContain(first.localTime);
    expect(text).toContain(`${fmt(w!.demand_kw)} kW`);
    expect(text).toContain(`${fmt(w!.import_kwh)} kWh`);
    expect(text).toContain(`${fmt(w!.discharge_kwh)} kWh`);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
  });

  it('refuses an overlapping or gapped schedule with the rule naming it, saves a valid one, simulates it, synchronises it to the EMS and shows drift', async () => {
    const strategies = () => sql<{ id: number; schedules: unknown; sync_state: string; synced_hash: string | null }>('select id, schedules, sync_state, synced_hash from strategy where site_id = $1', [site.id]);
    await screens.openStrategy();
    await page.getByTestId('strategy-new').waitFor();
    // The default day (idle 00:00–24:00) split in two: 00:00–12:00 and 12:00–24:00.
    await page.getByTestId('window-add').click();
    await expect(screens.windowRows().count()).resolves.toBe(2);

    await screens.setWindowEnd(0, '14:00');
    const overlap = '方案「全年」时段2（12:00–24:00）与时段1（00:00–14:00）重叠';
    await page.getByTestId('strategy-save').click();
    await page.locator('[data-testid=strategy-issues] li').filter({ hasText: overlap }).waitFor();
    await screens.setWindowEnd(0, '10:00');
    const gap = '方案「全年」10:00–12:00 未设置时段';
    await page.locator('[data-testid=strategy-issues] li').filter({ hasText: gap }).waitFor();
    await page.getByTestId('strategy-save').click();
    await expect(strategies()).resolves.toEqual([]);
    // The server refuses the same with the same words.
    const body = (end: string) => ({
      siteId: site.id, socMin: 10, socMax: 100, antiBackflow: true, transformerProtectionKw: null, demandTargetKw: null,
      schedules: [{ name: '全年', priority: 1, months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], weekdays: [1, 2, 3, 4, 5, 6, 7], windows: [
        { start: '00:00', end, mode: 'idle', powerKw: 0 }, { start: '12:00', end: '24:00', mode: 'idle', powerKw: 0 },
      ] }],
    });
    await expect(admin.post('/configure/operation/strategy/add', body('14:00'))).rejects.toThrow(`400 ${overlap}`);
    await expect(admin.post('/configure/operation/strategy/add', body('10:00'))).rejects.toThrow(`400 ${gap}`);
    await expect(strategies()).resolves.toEqual([]);

    // Valid: charge 50 kW until noon, discharge 60 kW after.
    await screens.setWindowEnd(0, '12:00');
    await screens.setWindowMode(0, '充电');
    await screens.setWindowPower(0, 50);
    await screens.setWindowMode(1, '放电');
    await screens.setWindowPower(1, 60);
    await page.getByTestId('strategy-issues').waitFor({ state: 'detached' });
    await page.getByTestId('strategy-save').click();
    await page.locator('.ant-message').getByText('保存成功').waitFor();
    await expect(screens.syncState().innerText()).resolves.toBe('未同步');
    const [saved] = await strategies();
    expect(saved!.schedules).toMatchObject([{ name: '全年', windows: [
      { start: '00:00', end: '12:00', mode: 'charge', powerKw: 50 }, { start: '12:00', end: '24:00', mode: 'discharge', powerKw: 60 },
    ] }]);
    expect(saved!.sync_state).toBe('unsynced');

    // Yesterday simulated with it: the page's expected figures are the server's.
    await page.getByTestId('simulate-run').click();
    const summary = page.getByTestId('simulate-summary');
    await summary.waitFor({ timeout: 30_000 });
    const sim1 = await admin.post<StrategySimulation>('/configure/operation/strategy/simulate', { siteId: site.id, date: day });
    const cell = (label: string) => summary.locator('.ant-table-row').filter({ hasText: label }).locator('td').nth(1).innerText();
    await expect(cell('充电量 (kWh)')).resolves.toBe(fmt(sim1.expected.chargeKwh));
    await expect(cell('放电量 (kWh)')).resolves.toBe(fmt(sim1.expected.dischargeKwh));
    expect(sim1.expected.chargeKwh).toBeGreaterThan(0);
    expect(sim1.expected.dischargeKwh).toBeGreaterThan(0);

    // Synchronised over MQTT: the simulator's EMS answers with the hash it applied.
    await page.getByTestId('strategy-synchronise').click();
    await screens.syncState().filter({ hasText: '已生效' }).waitFor();
    const [applied] = await strategies();
    expect(applied!.sync_state).toBe('applied');
    expect(deviceValues(sim.state, EMS).strategyHash).toBe(applied!.synced_hash);

    // The EMS told something else directly (a limit the strategy governs): drift.
    const sent = await commandChannel(server.ctx)!.send(SITE, EMS, 'setProperty', { values: { socLowerLimit: 20 } }, 5000);
    expect(sent.outcome.kind).toBe('reply');
    await until('the drift', async () => (await sweepStrategies(server.ctx)).drifted > 0 || (await strategies())[0]!.sync_state === 'drifted');
    await page.reload();
    await screens.syncState().filter({ hasText: '已偏离' }).waitFor();
    await page.getByText('EMS运行的策略与最近同步的不一致：请重新同步或检查现场设置').waitFor();
    const [drifted] = await strategies();
    expect(drifted!.sync_state).toBe('drifted');
  });

  it('controls the storage from the PCS page: manual discharge confirmed by the device, beyond the rating refused in the form, refused while a PCS is offline, back to auto', async () => {
    const pcsId = await deviceId(PCS);
    const emsId = await deviceId(EMS);
    const journal = () => sql<{ device_code: string; params: Record<string, unknown>; result: string; error: string | null }>(
      `select device_code, params, result, error from device_operation where command = 'storageMode' order by id`,
    );
    const detail = new DeviceDetailScreen(page);
    const mode = page.getByTestId('storage-current-mode');
    await page.goto(`${server.url}/monitor/deviceDetail?id=${pcsId}`);
    await detail.loaded();
    await detail.waitForStatus('online');
    await mode.filter({ hasText: '自动' }).waitFor({ timeout: 20_000 });

    // Beyond the PCS's 200 kW: the form says so and nothing is sent.
    await screens.storageForm('manual', { power: 300, minutes: 15 });
    await screens.storageCard().locator('.ant-form-item-explain-error').filter({ hasText: '功率应为0.1-200 kW' }).waitFor();
    await expect(screens.storageDialog().count()).resolves.toBe(0);
    await expect(journal()).resolves.toEqual([]);

    await screens.storageForm('manual', { power: 100, minutes: 15 });
    await screens.confirmStorage(E2E_ADMIN_PASSWORD);
    await page.getByTestId('storage-reply').filter({ hasText: '设备已确认' }).waitFor();
    await mode.filter({ hasText: '手动' }).waitFor({ timeout: 20_000 });
    expect(deviceValues(sim.state, EMS).runMode).toBe(1);
    await expect(journal()).resolves.toMatchObject([{ device_code: PCS, params: { mode: 'manual', powerKw: 100, durationMin: 15 }, result: 'ok' }]);

    // The PCS silent and taken offline: its EMS's page is refused with the reason, its own page offers nothing.
    sim.silence(PCS);
    await until('the PCS offline', async () => (await admin.post<{ status: string }[]>('/configure/device/query/list', { code: PCS }))[0]?.status === 'offline');
    await page.goto(`${server.url}/monitor/deviceDetail?id=${emsId}`);
    await detail.loaded();
    await screens.storageForm('manual', { power: 50, minutes: 15 });
    await screens.confirmStorage(E2E_ADMIN_PASSWORD);
    await page.getByTestId('storage-error').filter({ hasText: '设备离线，不能下发储能控制' }).waitFor();
    await page.locator('.ant-modal-wrap:visible').getByRole('button', { name: /取\s*消/ }).click();
    await expect(journal()).resolves.toMatchObject([{ result: 'ok' }, { device_code: EMS, result: 'refused' }]);
    await page.goto(`${server.url}/monitor/deviceDetail?id=${pcsId}`);
    await detail.loaded();
    await detail.waitForStatus('offline');
    await expect(page.getByTestId('storage-send').isDisabled()).resolves.toBe(true);
    await screens.storageCard().getByText('设备在线时才能远程控制').waitFor();

    // Back online, back to auto.
    sim.unsilence(PCS);
    await detail.waitForStatus('online');
    await screens.storageForm('auto');
    await screens.confirmStorage(E2E_ADMIN_PASSWORD);
    await page.getByTestId('storage-reply').filter({ hasText: '设备已确认' }).waitFor();
    await mode.filter({ hasText: '自动' }).waitFor({ timeout: 20_000 });
    expect(deviceValues(sim.state, EMS).runMode).toBe(0);
    await expect(journal()).resolves.toMatchObject([{ result: 'ok' }, { result: 'refused' }, { device_code: PCS, params: { mode: 'auto' }, result: 'ok' }]);
  });

  it('a user whose role lacks the demand menus does not see them and is sent away from them; the calls answer 403', async () => {
    const flatten = <T extends { children?: T[] }>(nodes: T[]): T[] => nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
    const menus = flatten(await admin.post<{ id: number; path: string; children?: never[] }[]>('/system/menu/query/tree', {}));
    const [group] = await admin.post<{ id: number }[]>('/system/company/query/tree', {});
    await admin.post('/system/role/add', {
      companyId: group!.id, name: '策略专员', code: 'STRATEGIST', remark: '只管运行策略', menuIds: menus.filter((m) => m.path === '/operatecfg/strategy').map((m) => m.id),
    });
    const roles = await admin.post<{ id: number; name: string }[]>('/system/role/query/list', {});
    await admin.post('/system/user/add', {
      username: 'e2e-strategist', password: 'Ops123456', name: '赵策略', phone: '13800000019', email: 'strategist@ess.example.com', companyId: group!.id,
      roleIds: roles.filter((r) => r.name === '策略专员').map((r) => r.id),
    });

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const user = await context.newPage();
    const login = new LoginPage(user, server.url, (id) => server.captchaCode(id));
    await login.open();
    await login.signIn('e2e-strategist', 'Ops123456');
    await user.waitForURL('**/operatecfg/strategy');
    const shell = new ConsoleShell(user);
    await shell.activeTab('/operatecfg/strategy').waitFor();
    const names = await shell.menuNames();
    expect(names).toContain('运行策略');
    for (const n of ['需量管理', '需量分析', '需量跟踪', '需量对账', '需量设置']) expect(names).not.toContain(n);
    // A direct address of a demand page leads to the first page the role has (the navigation guard).
    await user.goto(`${server.url}/demand/track`);
    await user.waitForURL('**/operatecfg/strategy');
    await shell.activeTab('/operatecfg/strategy').waitFor();
    await context.close();

    const token = await signInToken(server.url, (id) => server.captchaCode(id), 'e2e-strategist', 'Ops123456');
    const res = await fetch(new URL('/api/manager/demand/track/monthly/brief', server.url), {
      method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify({ siteId: site.id, month }),
    });
    expect(res.status).toBe(403);
    await expect(res.json()).resolves.toMatchObject({ errorCode: 'A0300', tipMsg: '没有访问权限' });
  });
});
