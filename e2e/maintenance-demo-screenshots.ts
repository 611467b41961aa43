/**
 * Screenshots of every maintenance screen on a fresh demo (docs/screenshots/maintenance-*.png),
 * each checked by axe (serious and critical violations are printed and fail the script): the
 * console started as `npm start` starts it the first time — demo seeded, its history, the
 * maintenance demo (items, plans, two weeks of orders, defects and repairs) — then the simulator
 * playing the stations live. Also the phone (390 px): today's orders and an order being handled.
 * Run: `npx tsx e2e/maintenance-demo-screenshots.ts` after `npm run build -w @ess/web`
 * (E2E_WEB_DIST=<dir> for another build; DEMO_HISTORY_DAYS=<n> for a shorter history).
 */
import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe.ts';
import { log, runScript, settled, shotPath, signedInPage, startDemoShots } from './support/shots.ts';

/** Opens a screen, waits for what proves its demo data is there, checks it with axe and takes its picture. */
async function shoot(page: Page, base: string, route: string, ready: string, name: string, problems: string[]): Promise<void> {
  await page.goto(`${base}${route}`);
  await page.locator(ready).first().waitFor({ timeout: 60_000 });
  await settled(page);
  const violations = await seriousViolations(page);
  if (violations.length) problems.push(`${name}: ${JSON.stringify(violations)}`);
  await page.screenshot({ path: shotPath(`maintenance-${name}`), fullPage: true });
  log(`maintenance-${name}.png${violations.length ? ` (${violations.length} axe violations)` : ''}`);
}

runScript(async () => {
  const { server, stop } = await startDemoShots();
  const problems: string[] = [];
  const { browser, page } = await signedInPage(server);
  const base = server.url;
  const row = '.ant-table-row';

  await shoot(page, base, '/patrol/work', row, 'items', problems);
  await shoot(page, base, '/patrol/plan', row, 'plans', problems);
  await page.getByRole('button', { name: /编\s*辑/ }).first().click();
  await page.locator('[data-testid=preview-slot]').first().waitFor({ timeout: 30_000 });
  await settled(page);
  await page.screenshot({ path: shotPath('maintenance-plan-form') });
  log('maintenance-plan-form.png');

  await shoot(page, base, '/patrol/order', row, 'orders', problems);
  // An order with recorded results (completed, with a failed item) and an open one.
  const completed = await server.ctx.database.sql.query<{ id: number }>(
    `select id from inspection_work_order where status = 'completed' order by id desc limit 1`,
  ).catch(() => ({ rows: [] as { id: number }[] }));
  if (completed.rows[0]) await shoot(page, base, `/patrol/order-detail?id=${completed.rows[0].id}`, '[data-testid=order-items]', 'order-detail', problems);
  await shoot(page, base, '/patrol/flaw', row, 'defects', problems);
  await shoot(page, base, '/repair/order', row, 'repairs', problems);
  const alarmRepair = await server.ctx.database.sql.query<{ id: number }>(
    `select id from repair_order where alarm_id is not null order by id desc limit 1`,
  ).catch(() => ({ rows: [] as { id: number }[] }));
  if (alarmRepair.rows[0]) await shoot(page, base, `/repair/order-detail?id=${alarmRepair.rows[0].id}`, '[data-testid=repair-detail]', 'repair-detail', problems);
  await shoot(page, base, '/overview/order', '[data-testid=month-calendar]', 'overview', problems);

  // The phone: today's orders as cards (admin's, from the demo), one of them with its result and photo inputs.
  const phone = await signedInPage(server, { width: 390, height: 844 });
  await shoot(phone.page, base, '/patrol/order', '[data-testid=today-orders]', 'phone-orders', problems);
  const open = await server.ctx.database.sql.query<{ id: number }>(
    // One of the administrator's own (the demo gives admin today's daily orders): its result inputs show.
    `select id from inspection_work_order where status in ('pending', 'processing')
     order by (assignee_id = (select id from app_user where username = 'admin')) desc, id desc limit 1`,
  ).catch(() => ({ rows: [] as { id: number }[] }));
  if (open.rows[0]) await shoot(phone.page, base, `/patrol/order-detail?id=${open.rows[0].id}`, '[data-testid=order-items]', 'phone-order-detail', problems);
  await phone.browser.close();

  await browser.close();
  await stop();
  if (problems.length) throw new Error(`axe violations:\n${problems.join('\n')}`);
});
