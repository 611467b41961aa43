import { createFleet, runSimulator, type SimulatorHandle } from '@ess/simulator';
import { connectAsync, type MqttClient } from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApp } from '../apps/server/src/app.ts';
import { AlarmKanbanScreen, AlarmMonitorScreen } from './pages/AlarmScreens.ts';
import { LoginPage } from './pages/LoginPage.ts';
import { ResourceScreen } from './pages/ResourceScreen.ts';
import { animationsSettled } from './support/animations.ts';
import { seriousViolations } from './support/axe.ts';
import { launchBrowser } from './support/browser.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';
import { ingestOf } from '../apps/server/src/modules/telemetry/index.ts';

const SHOTS = resolve(import.meta.dirname, '../docs/screenshots');
const PCS = 'SH01-PCS-01';
const FAULT = 'PCS_IGBT_FAULT';
const HOUR = 3_600_000;

/**
 * Faults of the past week as devices report them (late, with their own timestamps), so the
 * kanban and the analysis have history to show: each an episode of active, then cleared; two
 * still active on the other stations.
 */
const HISTORY: { site: string; device: string; code: string; agoH: number; lastsMin: number | null }[] = [
  { site: 'SH01', device: 'SH01-AC-01', code: 'AC_HIGH_PRESSURE', agoH: 150, lastsMin: 35 },
  { site: 'SH01', device: 'SH01-TR-01', code: 'TRANSFORMER_OVERLOAD', agoH: 126, lastsMin: 12 },
  { site: 'SH01', device: 'SH01-BMS-01', code: 'BMS_CELL_OVER_TEMPERATURE', agoH: 101, lastsMin: 48 },
  { site: 'SH01', device: 'SH01-PCS-01', code: 'PCS_FAN_FAULT', agoH: 74, lastsMin: 190 },
  { site: 'SH01', device: 'SH01-BC-02', code: 'CLUSTER_CURRENT_IMBALANCE', agoH: 30, lastsMin: 25 },
  { site: 'SH01', device: 'SH01-EMS-01', code: 'EMS_COMM_LOST', agoH: 7, lastsMin: 4 },
  { site: 'BE01', device: 'BE01-DCDC-01', code: 'DCDC_OVER_TEMPERATURE', agoH: 140, lastsMin: 60 },
  { site: 'BE01', device: 'BE01-BMS-01', code: 'BMS_CELL_UNDERVOLTAGE', agoH: 52, lastsMin: 95 },
  { site: 'BE01', device: 'BE01-AC-01', code: 'AC_SENSOR_FAULT', agoH: 5, lastsMin: null },
  { site: 'LA01', device: 'LA01-PV-01', code: 'PV_STRING_REVERSED', agoH: 120, lastsMin: 300 },
  { site: 'LA01', device: 'LA01-CP-01', code: 'PILE_OVER_TEMPERATURE', agoH: 45, lastsMin: 22 },
  { site: 'LA01', device: 'LA01-CG-01-1', code: 'GUN_LOCK_FAULT', agoH: 20, lastsMin: 75 },
  { site: 'LA01', device: 'LA01-CG-02-2', code: 'GUN_BMS_COMM_LOST', agoH: 3, lastsMin: null },
];

/**
 * Alarms end to end: the Shanghai station played in this process (a report a second); a fault
 * injected into the simulator appears on the open kanban without a reload and pops up; shielded,
 * the same fault cleared and raised again within the validity raises nothing new; the shield
 * cancelled, it raises again and ends when cleared. Screenshots of every alarm screen.
 */
describe('alarms from an injected fault to its end, in Chromium', () => {
  let server: RunningApp & { captchaCode(id: string): Promise<string> };
  let sim: SimulatorHandle;
  let mqtt: MqttClient;
  let browser: Browser;
  let page: Page;
  let kanban: AlarmKanbanScreen;
  let monitor: AlarmMonitorScreen;
  let first: string;

  const ingest = () => ingestOf(server.ctx)!;
  /** The alarms of a device and fault code, newest first, as stored. */
  const alarmsOf = async (device: string, code: string) =>
    (
      await server.ctx.database.sql.query<{ no: string; status: string }>(
        `select a.no, a.status from alarm a join device d on d.id = a.device_id where d.code = $1 and a.code = $2 order by a.id desc`,
        [device, code],
      )
    ).rows;
  /** Runs a simulator action and waits until the server has handled (and written) the events it published. */
  const events = async (action: () => Promise<void>) => {
    const before = ingest().counters.events;
    await action();
    await page.waitForTimeout(0);
    for (let i = 0; ingest().counters.events === before && i < 200; i++) await new Promise((r) => setTimeout(r, 25));
    expect(ingest().counters.events).toBeGreaterThan(before);
    await ingest().flush();
  };
  const shot = async (name: string) => {
    await page.waitForFunction(() => [...document.querySelectorAll('div[role=img] canvas')].length >= document.querySelectorAll('div[role=img]').length);
    await page.waitForFunction(() => !document.querySelector('main .ant-spin-spinning'));
    await animationsSettled(page);
    await page.screenshot({ path: join(SHOTS, `alarm-${name}.png`) });
  };

  beforeAll(async () => {
    server = await startConsole({
      SIMULATOR: 'off', LATEST_FLUSH_MS: '200', INGEST_BATCH_MS: '50', ALARM_SYNC_MS: '1000',
      ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
    });
    mqtt = await connectAsync(server.ctx.mqtt.url, { clientId: 'alarm-e2e-history' });
    const now = Date.now();
    for (const h of HISTORY) {
      const topic = `ess/${h.site}/${h.device}/event`;
      const ts = now - h.agoH * HOUR;
      await mqtt.publishAsync(topic, JSON.stringify({ ts, code: h.code, active: true, message: h.code }), { qos: 1 });
      if (h.lastsMin !== null) await mqtt.publishAsync(topic, JSON.stringify({ ts: ts + h.lastsMin * 60_000, code: h.code, active: false, message: `${h.code}恢复` }), { qos: 1 });
    }
    sim = await runSimulator({ mqttUrl: server.ctx.mqtt.url, fleet: createFleet(1), intervalMs: 1000 });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    kanban = new AlarmKanbanScreen(page, server.url);
    monitor = new AlarmMonitorScreen(page, server.url);
    const login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
    await login.open();
    await login.signIn('admin', E2E_ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname !== '/login');
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    await page?.screenshot({ path: join(tmpdir(), `alarm-e2e-${task.name.replace(/\W+/g, '-').slice(0, 40)}.png`) }).catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await sim?.stop();
    await mqtt?.endAsync();
    await server?.close();
  });

  it('an injected fault appears on the open kanban without a reload and pops up', async () => {
    await kanban.open();
    // The history has landed: two faults still active on other stations.
    await kanban.waitForActive(3, 1);
    await page.evaluate(() => ((window as unknown as { __kept: boolean }).__kept = true));
    const before = await kanban.active(1);
    await events(() => sim.injectFault(PCS, FAULT));
    const [alarm] = await alarmsOf(PCS, FAULT);
    expect(alarm).toMatchObject({ status: 'active' });
    first = alarm!.no;
    await kanban.openAlarm(first).waitFor({ timeout: 20_000 });
    await kanban.waitForActive(1, before + 1);
    await kanban.popup('一级告警').filter({ hasText: first }).waitFor({ timeout: 20_000 });
    await expect(page.evaluate(() => (window as unknown as { __kept?: boolean }).__kept)).resolves.toBe(true);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await shot('kanban');
  });

  it('shields the alarm from the monitor; cleared and raised again within the validity, nothing new', async () => {
    // From the popup to the monitor.
    await kanban.popup(first).getByRole('button', { name: '查看告警' }).click();
    await page.waitForURL((u) => u.pathname === '/alarm/monitor');
    await monitor.loaded();
    await monitor.waitForStatus(first, '进行中');
    await monitor.openShield(first, '更换IGBT模块');
    await animationsSettled(page);
    await shot('monitor-shield');
    await monitor.confirmShield(first);

    // The open alarm stays open under the shield and ends when its fault clears (live, no reload).
    await events(() => sim.clearFault(PCS, FAULT));
    await monitor.waitForStatus(first, '已结束');
    // Raised and cleared again within the validity: no new alarm.
    await events(() => sim.injectFault(PCS, FAULT));
    await events(() => sim.clearFault(PCS, FAULT));
    expect((await alarmsOf(PCS, FAULT)).map((a) => a.no)).toEqual([first]);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await shot('monitor');
  });

  it('cancelling the shield lets the fault raise again; cleared, the alarm ends', async () => {
    await monitor.cancelShield(first);
    await events(() => sim.injectFault(PCS, FAULT));
    const [again] = await alarmsOf(PCS, FAULT);
    expect(again!.no).not.toBe(first);
    await monitor.row(again!.no).waitFor({ timeout: 20_000 });
    await monitor.waitForStatus(again!.no, '进行中');
    await events(() => sim.clearFault(PCS, FAULT));
    await monitor.waitForStatus(again!.no, '已结束');
  });

  it('analyses the week: counts by level, type, station and device, and the mean time to end', async () => {
    await page.goto(`${server.url}/alarm/analysis`);
    await page.locator('[data-testid=alarm-analysis]').waitFor();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=analysis-raised] .ant-statistic-content-value')?.textContent) >= 15);
    await page.locator('[data-testid=analysis-devices] .ant-table-row').first().waitFor();
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await shot('analysis');
  });

  it('lists the dictionary with its thresholds and opens an entry', async () => {
    const dict = new ResourceScreen(page, server.url, '/alarm/alarm');
    await dict.open();
    await dict.row('储能柜内温度过高').waitFor();
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await shot('dictionary');
    await dict.rowAction('储能柜内温度过高', /编\s*辑/);
    await dict.form().getByText('恢复值', { exact: true }).waitFor();
    await animationsSettled(page);
    await shot('dictionary-form');
  });
});
