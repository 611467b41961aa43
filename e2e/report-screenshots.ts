/**
 * Screenshots of the report centre (docs/screenshots/report-*.png) at 1440 px on the demo as
 * `npm start` makes it (a few days of history): each shipped template previewed for every demo
 * station over the last 30 days, the export list with an xlsx and a PDF made, the schedules tab
 * with a daily schedule that has run once (its mail queued through the demo's mail account), and
 * the external-reports tab with a dashboard opened through its signed URL (a Metabase stand-in
 * that verifies the token); each checked by axe (serious and critical violations are printed and
 * fail the script).
 * Run: `npx tsx e2e/report-screenshots.ts` after `npm run build -w @ess/web`.
 */
import type { Page } from 'playwright-core';
import { REPORT_TEMPLATES, REPORT_TEMPLATE_LABELS, type ReportTemplate } from '@ess/contract/report';
import { eq } from 'drizzle-orm';
import { appUser } from '../apps/server/src/db/schema/system.ts';
import { runDueSchedules } from '../apps/server/src/modules/report/report.schedule.ts';
import { ConsoleApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { embedPeer, openEmbeddedDashboard } from './support/embed-peer.ts';
import { E2E_ADMIN_PASSWORD } from './support/server.ts';
import { log, runScript, settled, shotPath, signedInPage, startDemoShots } from './support/shots.ts';

async function pickTemplate(page: Page, template: ReportTemplate) {
  await page.locator('#report-template').click({ force: true });
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: REPORT_TEMPLATE_LABELS[template] }).first().click();
}

async function pickAllStations(page: Page) {
  await page.locator('#report-sites').click({ force: true });
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await options.first().waitFor();
  const n = await options.count();
  for (let i = 0; i < n; i++) await options.nth(i).click();
  await page.keyboard.press('Escape');
}

runScript(async () => {
  const { server, stop } = await startDemoShots({ historyDays: 5 });
  const problems: string[] = [];
  const { browser, page } = await signedInPage(server);
  await page.goto(`${server.url}/report/jimu`);
  await page.getByTestId('report-page').waitFor();
  await pickAllStations(page);
  for (const template of REPORT_TEMPLATES) {
    await pickTemplate(page, template);
    await page.getByTestId('report-preview-button').click();
    await page.getByTestId('report-preview').waitFor({ timeout: 60_000 });
    await page.locator('.ant-card-head-title').filter({ hasText: REPORT_TEMPLATE_LABELS[template] }).first().waitFor({ timeout: 60_000 });
    await settled(page, 2500);
    // The live demo's notices (firmware rollouts) are not part of the report centre.
    for (const close of await page.locator('.ant-notification-notice-close').all()) await close.click().catch(() => undefined);
    await settled(page, 500);
    const violations = await seriousViolations(page);
    if (violations.length) problems.push(`${template}: ${JSON.stringify(violations)}`);
    await page.screenshot({ path: shotPath(`report-${template}`), fullPage: true });
    log(`report-${template}.png`);
  }
  await pickTemplate(page, 'operations');
  await page.getByTestId('report-export-xlsx').click();
  await page.getByTestId('report-export-pdf').click();
  await page.locator('[data-testid="report-exports"] [data-testid="report-download"]:not([disabled])').nth(1).waitFor({ timeout: 120_000 });
  await settled(page, 800);
  const violations = await seriousViolations(page);
  if (violations.length) problems.push(`exports: ${JSON.stringify(violations)}`);
  await page.getByTestId('report-exports').screenshot({ path: shotPath('report-exports') });
  log('report-exports.png');

  // Schedules: a daily operations report to the administrator, run once (as the sweep runs it when due).
  const api = await ConsoleApi.signIn(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
  const [admin] = await server.ctx.db.select().from(appUser).where(eq(appUser.username, 'admin'));
  await server.ctx.db.update(appUser).set({ email: admin!.email ?? 'admin@example.com' }).where(eq(appUser.id, admin!.id));
  const sites = await api.post<{ id: number }[]>('/configure/site/query/list', {});
  const { id: scheduleId } = await api.post<{ id: number }>('/report/schedule/add', {
    companyId: admin!.companyId, name: '每日运行日报', template: 'operations', siteIds: sites.map((x) => x.id), granularity: 'day', format: 'xlsx',
    frequency: 'daily', hour: 8, timeZone: 'Asia/Shanghai', userIds: [admin!.id],
  });
  const [schedule] = (await api.post<{ records: { id: number; nextRunAt: string }[] }>('/report/schedule/query/page', { current: 1, pageSize: 10 })).records.filter((x) => x.id === scheduleId);
  await runDueSchedules(server.ctx, new Date(Date.parse(schedule!.nextRunAt) + 1000));
  await page.goto(`${server.url}/report/jimu`);
  await page.getByTestId('report-page').waitFor();
  await page.getByRole('tab', { name: '计划发送' }).click();
  await page.getByTestId('report-schedules').locator('td').filter({ hasText: '每日运行日报' }).first().waitFor();
  await page.getByTestId('report-runs').locator('td').filter({ hasText: '每日运行日报' }).first().waitFor();
  await settled(page, 800);
  const scheduleViolations = await seriousViolations(page);
  if (scheduleViolations.length) problems.push(`schedules: ${JSON.stringify(scheduleViolations)}`);
  await page.screenshot({ path: shotPath('report-schedules'), fullPage: true });
  log('report-schedules.png');

  // External reports: a dashboard opened through the signed URL, which the stand-in verifies.
  const secret = 'screenshot-metabase-embedding-secret-0123456789';
  const peer = await embedPeer(secret);
  try {
    const frame = await openEmbeddedDashboard(page, api, peer.url, secret);
    await frame.getByTestId('locked').waitFor({ timeout: 30_000 });
    await settled(page, 800);
    const embedViolations = await seriousViolations(page);
    if (embedViolations.length) problems.push(`embed: ${JSON.stringify(embedViolations)}`);
    await page.screenshot({ path: shotPath('report-embed'), fullPage: true });
    log('report-embed.png');
  } finally {
    await peer.close();
  }
  await browser.close();
  await stop();
  if (problems.length) throw new Error(`axe:\n${problems.join('\n')}`);
});
