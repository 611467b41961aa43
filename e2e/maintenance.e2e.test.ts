import { addDays, todayIn } from '@ess/contract';
import { createFleet, runSimulator, type SimulatorHandle } from '@ess/simulator';
import type { Browser, Page } from 'playwright-core';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAutomaticRepairs } from '../apps/server/src/modules/maintenance/repair.service.ts';
import { ingestOf } from '../apps/server/src/modules/telemetry/index.ts';
import { MaintenanceScreens } from './pages/MaintenanceScreens.ts';
import { ConsoleApi } from './support/api.ts';
import { launchBrowser } from './support/browser.ts';
import { signInAdmin } from './support/demo-console.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

const SITE = 'SH01';
const PCS = 'SH01-PCS-01';
const FAULT = 'PCS_IGBT_FAULT';
const ITEM = '电池舱门密封检查';
const PLAN = '电池舱周巡检';
/** A real 1×1 PNG, as a phone would send a photo. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4830000000049454e44ae426082', 'hex');

/**
 * Maintenance end to end (issue 17), in Chromium on the real console: a started plan generates its
 * order; it is allocated in the list, handled on its detail with a failed item and a photo, which
 * records a defect; the defect raises a repair order that is dispatched, checked in, handled,
 * rejected with a reason, handled again and accepted. Then a fault injected into the simulator
 * raises an alarm that gets its automatic repair order, completed through the console with a reset
 * of the source: the device's fault recovers and the alarm ends.
 */
describe('maintenance from a plan and from an alarm to accepted repairs, in Chromium', { timeout: 120_000 }, () => {
  let server: Awaited<ReturnType<typeof startConsole>>;
  let sim: SimulatorHandle;
  let browser: Browser;
  let page: Page;
  let screens: MaintenanceScreens;
  let site: { id: number; companyId: number; timeZone: string };
  let api: ConsoleApi;
  let adminId: number;
  let itemId: number;

  const sql = <T extends Record<string, unknown>>(text: string, params: unknown[] = []) => server.ctx.database.sql.query<T>(text, params).then((r) => r.rows);
  const ingest = () => ingestOf(server.ctx)!;
  /** Runs a simulator action and waits until the server has handled (and written) the events it published. */
  const events = async (action: () => Promise<void>) => {
    const before = ingest().counters.events;
    await action();
    for (let i = 0; ingest().counters.events === before && i < 400; i++) await new Promise((r) => setTimeout(r, 25));
    expect(ingest().counters.events).toBeGreaterThan(before);
    await ingest().flush();
  };

  beforeAll(async () => {
    server = await startConsole({
      SIMULATOR: 'off', LATEST_FLUSH_MS: '200', INGEST_BATCH_MS: '50', ALARM_SYNC_MS: '1000',
      ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
    });
    const [s] = await sql<{ id: number; company_id: number; time_zone: string }>('select id, company_id, time_zone from site where code = $1', [SITE]);
    site = { id: Number(s!.id), companyId: Number(s!.company_id), timeZone: s!.time_zone };
    const [admin] = await sql<{ id: number }>(`select id from app_user where username = 'admin'`);
    // Setup with no state change under test: an item whose check can fail, and a daily plan of the
    // station from yesterday at 00:00 (so today's order is due when it starts), the admin its assignee.
    api = await ConsoleApi.signIn(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
    const item = await api.post<{ id: number }>('/inspection/items/add', { name: ITEM, checkType: 'status', standard: '密封条完好、无渗漏' });
    adminId = Number(admin!.id);
    itemId = item.id;
    await api.post('/inspection/plan/add', {
      name: PLAN, siteIds: [site.id], itemIds: [item.id], assigneeIds: [Number(admin!.id)],
      schedule: { kind: 'daily', startDate: addDays(todayIn(site.timeZone), -1), time: '00:00', dueHours: 48 },
    });
    sim = await runSimulator({ mqttUrl: server.ctx.mqtt.url, fleet: createFleet(1), intervalMs: 1000 });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    screens = new MaintenanceScreens(page, server.url);
    await signInAdmin(page, server.url, (id) => server.captchaCode(id));
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    await page?.screenshot({ path: join(tmpdir(), `maintenance-e2e-${task.name.replace(/\W+/g, '-').slice(0, 40)}.png`) }).catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await sim?.stop();
    await server?.close();
  });

  it('a plan generates an order; allocated, handled with a failed item and a photo, it records a defect; its repair is rejected once, then accepted', async () => {
    // Started on the plans screen, the plan's generator pass makes today's order at once.
    await screens.startPlan(PLAN);
    const orders = await sql<{ id: number; no: string; status: string }>(
      `select o.id, o.no, o.status from inspection_work_order o join inspection_plan p on p.id = o.plan_id where p.name = $1`, [PLAN],
    );
    expect(orders).toHaveLength(1);
    const order = { id: Number(orders[0]!.id), no: orders[0]!.no };
    expect(orders[0]!.status).toBe('toBeAssigned');

    await screens.allocateOrder(order.no, 'admin');
    await screens.openOrder(order.id);
    await screens.failItem(ITEM, '舱门下沿密封条开裂', { name: 'seal.png', mimeType: 'image/png', buffer: PNG });
    await screens.completeOrder();
    // The failed item is shown with its photo, and the defect it recorded is listed on the order.
    await page.locator(`[data-item-name="${ITEM}"] [data-testid=photo-gallery] [data-testid=stored-photo]`).waitFor();
    const defectLink = page.locator('[data-testid=order-defects] a').first();
    await defectLink.waitFor();
    const defectNo = await defectLink.innerText();

    // The defect on /patrol/flaw raises its repair order (device and photos carried over).
    await screens.raiseRepair(defectNo);
    await screens.waitForRepairState('待派单');
    await page.locator('[data-testid=repair-detail]').getByRole('link', { name: defectNo }).waitFor();
    await screens.dispatchRepair('admin');
    await screens.checkIn('电池舱1号门');
    await screens.handleRepair('更换舱门密封条');
    await screens.rejectRepair('密封条未压实，仍有缝隙');
    await page.getByTestId('reject-reason').getByText('密封条未压实，仍有缝隙').waitFor();
    await screens.handleRepair('重新压实密封条，淋水试验无渗漏');
    await screens.acceptRepair();
    await page.locator('[data-testid=repair-work]').getByText('重新压实密封条，淋水试验无渗漏').waitFor();

    // Accepted, the repair resolves its defect.
    await page.goto(`${server.url}/patrol/flaw`);
    await screens.row(defectNo).getByText('已消除', { exact: true }).waitFor();
    const [defect] = await sql<{ status: string; photos: unknown[] }>('select status, photos from inspection_defect where no = $1', [defectNo]);
    expect(defect).toMatchObject({ status: 'resolved' });
    expect(defect!.photos).toHaveLength(1);
  });

  it('an injected fault raises an alarm that gets its automatic repair order; accepted with a reset, the fault recovers and the alarm ends', async () => {
    // The rule of the station's company, set through its call (decision 0034): alarms of level ≤ 2
    // open more than 1 minute get their order.
    await api.post('/inspection/repair/auto/rule/edit', { companyId: site.companyId, enabled: true, maxLevel: 2, openMinutes: 1 });
    await events(() => sim.injectFault(PCS, FAULT));
    const [alarm] = await sql<{ id: number; no: string; status: string }>(
      `select a.id, a.no, a.status from alarm a join device d on d.id = a.device_id where d.code = $1 and a.code = $2 order by a.id desc limit 1`, [PCS, FAULT],
    );
    expect(alarm).toMatchObject({ status: 'active' });
    // The job's passes (it runs every minute): none while the alarm is younger than the rule's
    // minute, then one order for the alarm, and no second one on the next pass.
    await expect(createAutomaticRepairs(server.ctx)).resolves.toBe(0);
    await expect(createAutomaticRepairs(server.ctx, new Date(Date.now() + 61_000))).resolves.toBe(1);
    await expect(createAutomaticRepairs(server.ctx, new Date(Date.now() + 122_000))).resolves.toBe(0);

    // The automatic order is on the repair list with its alarm in progress.
    await page.goto(`${server.url}/repair/order`);
    const row = screens.row(alarm!.no);
    await row.getByText('告警进行中').waitFor();
    await row.getByText('待派单', { exact: true }).waitFor();
    await row.getByTestId('repair-link').click();
    await screens.repairLoaded();
    await page.locator('[data-testid=repair-detail] [data-testid=alarm-state]').getByText('告警进行中').waitFor();

    await screens.dispatchRepair('admin');
    await screens.checkIn('1号储能舱');
    await screens.handleRepair('更换IGBT模块');
    await screens.acceptRepair({ password: E2E_ADMIN_PASSWORD });
    // The reset reaches the simulator, whose fault recovers: the alarm ends, shown live on the detail.
    await page.locator('[data-testid=repair-detail] [data-testid=alarm-state]').getByText('告警已结束').waitFor({ timeout: 30_000 });
    const [ended] = await sql<{ status: string }>('select status from alarm where id = $1', [alarm!.id]);
    expect(ended).toMatchObject({ status: 'ended' });
    const [repair] = await sql<{ status: string; source_action: string }>('select status, source_action from repair_order where alarm_id = $1', [alarm!.id]);
    expect(repair).toMatchObject({ status: 'completed', source_action: 'reset' });
  });

  it('on a 390 px phone the assignee opens today\'s order from the cards, records a result with a photo, and checks in to a repair', async () => {
    // Setup: an order of today and a repair order, both given to the admin through their calls.
    const now = Date.now();
    const order = await api.post<{ id: number }>('/inspection/work/order/add', {
      siteId: site.id, title: '手机巡检', itemIds: [itemId], startAt: new Date(now - 60_000).toISOString(), dueAt: new Date(now + 4 * 3_600_000).toISOString(), assigneeId: adminId,
    });
    const [{ no }] = (await sql<{ no: string }>('select no from inspection_work_order where id = $1', [order.id])) as [{ no: string }];
    const repair = await api.post<{ id: number }>('/inspection/repair/order/add', { siteId: site.id, description: '舱门闭锁失灵', level: 3 });
    await api.post('/inspection/repair/order/allocation', { id: repair.id, assigneeId: adminId });

    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const p = await phone.newPage();
      const on = new MaintenanceScreens(p, server.url);
      await signInAdmin(p, server.url, (id) => server.captchaCode(id));
      const noSideScroll = () => p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      // Today's orders come first, as cards; the card opens the order.
      await p.goto(`${server.url}/patrol/order`);
      const card = p.locator(`[data-testid=today-orders] [data-order-no="${no}"] a`);
      await card.waitFor();
      expect(await noSideScroll()).toBe(true);
      await card.click();
      await p.locator('[data-testid=order-items]').waitFor();
      await on.failItem(ITEM, '门锁卡滞', { name: 'lock.png', mimeType: 'image/png', buffer: PNG });
      await on.completeOrder();
      expect(await noSideScroll()).toBe(true);
      const [done] = await sql<{ status: string; photos: unknown[] }>(
        'select o.status, i.photos from inspection_work_order o join inspection_work_order_item i on i.order_id = o.id where o.id = $1', [order.id],
      );
      expect(done!.status).toBe('completed');
      expect(done!.photos).toHaveLength(1);

      // The repair: check in on site (the time is recorded, the place given here).
      await on.openRepair(repair.id);
      await on.checkIn('2号舱门口');
      expect(await noSideScroll()).toBe(true);
      const [checked] = await sql<{ status: string; check_in_at: Date | null; check_in_address: string | null }>(
        'select status, check_in_at, check_in_address from repair_order where id = $1', [repair.id],
      );
      expect(checked).toMatchObject({ status: 'processing', check_in_address: '2号舱门口' });
      expect(checked!.check_in_at).not.toBeNull();
    } finally {
      await phone.close();
    }
  });
});
