import { demoFleet } from '@ess/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page as ListPage } from '@ess/contract';
import type { ReportPreview, ReportRunRecord } from '@ess/contract/report';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { mailAccount } from '../apps/server/src/db/schema/messaging.ts';
import { appUser } from '../apps/server/src/db/schema/system.ts';
import { runDueSchedules } from '../apps/server/src/modules/report/report.schedule.ts';
import { seedDemoHistory } from '../apps/server/src/demo/demo-history.ts';
import { refreshAll } from '../apps/server/src/modules/dashboard/revenue.jobs.ts';
import { LoginPage } from './pages/LoginPage.ts';
import { animationsSettled } from './support/animations.ts';
import { ConsoleApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { launchBrowser } from './support/browser.ts';
import { embedPeer, openEmbeddedDashboard } from './support/embed-peer.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/**
 * The report centre (issue 25) end to end: the administrator picks the operations template and a
 * demo station, previews it (the figure on screen is the preview call's, which the server test
 * compares with the energy-arbitrage overview), pages a table, exports an xlsx that the export
 * list shows made in the background and downloads it; the page is axe clean.
 */
describe('report centre: preview, paging, background export and download', () => {
  let server: Awaited<ReturnType<typeof startConsole>>;
  let browser: Browser;
  let page: Page;
  let api: ConsoleApi;
  let station = { id: 0, name: '' };

  beforeAll(async () => {
    server = await startConsole({ SEED_DEMO: 'true', SIMULATOR: 'off', DEVICE_OFFLINE_TIMEOUT_MS: '600000' });
    await seedDemoHistory(server.ctx, demoFleet(), 3, '', Date.now(), 0.2);
    await refreshAll(server.ctx);
    api = await ConsoleApi.signIn(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
    const sites = await api.post<{ id: number; name: string; code: string }[]>('/configure/site/query/list', {});
    station = sites.find((s) => s.code === 'SH01') ?? sites[0]!;
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })).newPage();
    const login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
    await login.open();
    await login.signIn('admin', E2E_ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname !== '/login');
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('previews the operations report of a station with the preview call’s figures, pages a table, and is axe clean', async () => {
    await page.goto(`${server.url}/report/jimu`);
    await page.getByTestId('report-page').waitFor();
    await page.locator('#report-sites').click({ force: true });
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: station.name }).first().click();
    await page.keyboard.press('Escape');
    await page.getByTestId('report-preview-button').click();
    await page.getByTestId('report-preview').waitFor({ timeout: 60_000 });
    const expected = await api.post<ReportPreview>('/report/preview', {
      template: 'operations', siteIds: [station.id], start: daysAgo(29), end: today(), granularity: 'day', current: 1, pageSize: 10,
    });
    const charge = expected.figures.find((f) => f.key === 'charge')!;
    expect(charge.value).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('report-figure-charge').textContent()).toContain('kWh');
    const shown = (await page.getByTestId('report-figure-charge').locator('.ant-statistic-content').textContent())!;
    expect(Number(shown.replace(/[^\d.]/g, ''))).toBeCloseTo(charge.value!, 3);
    await page.getByTestId('report-chart-energy').locator('canvas').waitFor();
    // The 30 days of the period table: page 2 holds days 11–20.
    const byPeriod = page.getByTestId('report-table-byPeriod');
    await byPeriod.locator('.ant-pagination-item-2').click();
    await expect.poll(() => byPeriod.locator('tbody tr.ant-table-row').first().textContent()).toContain(daysAgo(19));
    await page.mouse.move(0, 899);
    await animationsSettled(page);
    await expect(seriousViolations(page)).resolves.toEqual([]);
  });

  it('exports xlsx in the background, shows its progress done, and downloads it', async () => {
    await page.getByTestId('report-export-xlsx').click();
    const row = page.getByTestId('report-exports').locator('tbody tr.ant-table-row').first();
    await row.locator('[data-testid=report-download]:not([disabled])').waitFor({ timeout: 60_000 });
    await expect.poll(() => row.locator('.ant-progress').getAttribute('aria-valuenow')).toBe('100');
    const [file] = await Promise.all([page.waitForEvent('download'), row.getByTestId('report-download').click()]);
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    await animationsSettled(page);
    await expect(seriousViolations(page)).resolves.toEqual([]);
  });

  it('a schedule made in the console runs when due and mails the report to a real SMTP server; the history shows it', async () => {
    const received: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
      onData(stream, _session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => { received.push(Buffer.concat(chunks).toString('utf8')); cb(); });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as { port: number }).port;
    try {
      const [admin] = await server.ctx.db.select().from(appUser).where(eq(appUser.username, 'admin'));
      await server.ctx.db.update(appUser).set({ email: 'admin@example.com', language: 'en-US' }).where(eq(appUser.id, admin!.id));
      // The company's default account (the demo's points at its own mail catcher) becomes this server.
      await server.ctx.db.update(mailAccount).set({ isDefault: false }).where(eq(mailAccount.companyId, admin!.companyId));
      await server.ctx.db.insert(mailAccount).values({ companyId: admin!.companyId, name: 'e2e reports', host: '127.0.0.1', port, tlsMode: 'none', fromAddress: 'reports@example.com', isDefault: true });

      await page.goto(`${server.url}/report/jimu`);
      await page.getByTestId('report-page').waitFor();
      await page.getByRole('tab', { name: '计划发送' }).click();
      await page.getByTestId('report-schedule-add').click();
      const form = page.getByTestId('report-schedule-form');
      await form.getByLabel('公司').click({ force: true });
      await page.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper').first().click();
      await form.getByLabel('计划名称').fill('E2E daily');
      await form.getByLabel('站点').click({ force: true });
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: station.name }).first().click();
      await page.keyboard.press('Escape');
      await form.getByLabel('接收用户').click({ force: true });
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '(admin)' }).first().click();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').getByRole('button', { name: /确\s*定/ }).click();
      const list = page.getByTestId('report-schedules');
      await list.locator('td').filter({ hasText: 'E2E daily' }).first().waitFor();

      // Its time comes: the sweep (as the job queue runs it) sends it once.
      const [row] = (await api.post<ListPage<{ id: number; nextRunAt: string }>>('/report/schedule/query/page', { name: 'E2E daily' })).records;
      const runs = await runDueSchedules(server.ctx, new Date(Date.parse(row!.nextRunAt) + 1000));
      expect(runs).toHaveLength(1);
      const [run] = (await api.post<ListPage<ReportRunRecord>>('/report/schedule/run/query/page', { scheduleId: row!.id })).records;
      expect([run!.state, run!.recipients.map((r) => r.skipped)], JSON.stringify(run)).toEqual(['sent', [null]]);
      // The mail job queued with the mail sends it (the product's own path; nothing is called here).
      // Should it not arrive, the mail log and the mail jobs are printed: where it stopped.
      const diag = async () => JSON.stringify({
        mail: (await server.ctx.database.sql.query('select id, origin, state, attempts, error, created_at, next_attempt_at, last_attempt_at from mail_log order by id desc limit 20')).rows,
        jobs: (await server.ctx.database.sql.query("select name, state, start_after, created_on, started_on, completed_on, retry_count from pgboss.job where name like 'messaging.mail%' order by created_on desc limit 10")).rows,
        now: new Date().toISOString(),
      });
      try {
        await expect.poll(() => received.length, { timeout: 60_000 }).toBe(1);
      } catch (e) {
        console.error('mail not delivered', await diag());
        throw e;
      }
      expect(received[0]).toMatch(/Subject: Report: E2E daily/);
      expect(received[0]).toMatch(/Content-Disposition: attachment;/);
      await expect.poll(async () => (await api.post<ListPage<ReportRunRecord>>('/report/schedule/run/query/page', { scheduleId: row!.id })).records[0]?.recipients[0]?.mailState, { timeout: 30_000 }).toBe('sent');
      await page.goto(`${server.url}/report/jimu`);
      await page.getByRole('tab', { name: '计划发送' }).click();
      await page.getByTestId('report-runs').locator('td').filter({ hasText: 'E2E daily' }).first().waitFor();
      await page.getByTestId('report-runs').locator('[data-tone=success]').filter({ hasText: 'en-US' }).first().waitFor();
      await animationsSettled(page);
      if (process.env.E2E_SHOTS_DIR) await page.screenshot({ path: `${process.env.E2E_SHOTS_DIR}/report-schedules.png`, fullPage: true });
      await expect(seriousViolations(page)).resolves.toEqual([]);
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  }, 180_000);

  it('opens an external dashboard through the signed URL, which the tool verifies with the secret', async () => {
    const secret = 'e2e-metabase-embedding-secret-0123456789abcdef';
    const peer = await embedPeer(secret);
    try {
      const frame = await openEmbeddedDashboard(page, api, peer.url, secret);
      await expect.poll(() => frame.getByTestId('locked').textContent(), { timeout: 30_000 }).toContain('site_id');
      expect(peer.seen).toHaveLength(1);
      expect(peer.seen[0]!.dashboard).toBe(7);
      expect((peer.seen[0]!.params.site_id as number[]).length).toBeGreaterThan(0);
      await animationsSettled(page);
      if (process.env.E2E_SHOTS_DIR) await page.screenshot({ path: `${process.env.E2E_SHOTS_DIR}/report-embed.png`, fullPage: true });
      await expect(seriousViolations(page)).resolves.toEqual([]);
    } finally {
      await peer.close();
    }
  }, 120_000);
});
