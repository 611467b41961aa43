/**
 * Screenshots for issue 16 (tables and exports): docs/screenshots/table-sorted.png, the device
 * list in German sorted by name on a 1024 px screen (first column fixed, state and live values
 * in view), and docs/screenshots/export-de.png, the user list's xlsx export asked in German
 * from UTC+01:00, opened with exceljs and its rows drawn as a page, and
 * docs/screenshots/table-sorted-alarm-dict.png, the alarm dictionary sorted by level, most
 * severe last (a page sorted by the server, its header showing the order). Run:
 * `npx tsx e2e/tables-screenshots.ts` after `npm run build -w @ess/web`.
 */
import { join, resolve } from 'node:path';
import ExcelJS from 'exceljs';
import { LoginPage } from './pages/LoginPage.ts';
import { launchBrowser } from './support/browser.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

const OUT = resolve(import.meta.dirname, '../docs/screenshots');

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

async function main() {
  const server = await startConsole({ SIMULATOR: 'off', ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}) });
  const browser = await launchBrowser();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1024, height: 768 } })).newPage();
    const login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
    await login.open();
    await login.signIn('admin', E2E_ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname !== '/login');
    await page.evaluate(() => localStorage.setItem('locale', 'de-DE'));

    await page.goto(`${server.url}/monitor/device`);
    await page.locator('[data-testid="device-table"] .ant-table-row').first().waitFor();
    await page.getByRole('columnheader', { name: 'Gerätename' }).click();
    await page.locator('[data-testid="device-table"] th[aria-sort="ascending"]').waitFor();
    await page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' }).catch(() => undefined);
    await page.waitForTimeout(800);
    await page.screenshot({ path: join(OUT, 'table-sorted.png') });
    console.log('table-sorted.png');

    // The export as a German user one hour east of UTC asks for it.
    const file = await page.evaluate(async () => {
      const res = await fetch('/api/manager/system/user/export', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: localStorage.getItem('Token') ?? '', 'Client-Language': 'de-DE', 'UTC-Zone': '60' },
        body: JSON.stringify({ sortField: 'username' }),
      });
      const bytes = new Uint8Array(await res.arrayBuffer());
      let bin = '';
      for (const b of bytes) bin += String.fromCharCode(b);
      return { name: res.headers.get('content-disposition') ?? '', data: btoa(bin) };
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(file.data, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const fileName = decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(file.name)?.[1] ?? '');
    const cell = (c: ExcelJS.Cell) => {
      if (c.value instanceof Date) return c.value.toISOString().slice(0, 19).replace('T', ' ');
      return c.text;
    };
    const rows: string[][] = [];
    ws.eachRow((r) => {
      const cells: string[] = [];
      for (let i = 1; i <= ws.columnCount; i++) cells.push(cell(r.getCell(i)));
      rows.push(cells);
    });
    const html = `<!doctype html><meta charset="utf-8"><style>
      body{font:13px Calibri,Arial,sans-serif;margin:0;background:#fff}
      .bar{background:#217346;color:#fff;padding:8px 12px;font-size:14px}
      table{border-collapse:collapse;margin:0}
      td,th{border:1px solid #d4d4d4;padding:3px 8px;white-space:nowrap}
      th.n{background:#f3f3f3;color:#666;font-weight:normal;text-align:center}
      tr.h td{font-weight:bold}
      .tab{display:inline-block;border:1px solid #d4d4d4;border-top:0;padding:4px 14px;color:#217346;font-weight:bold;margin-left:40px}
    </style>
    <div class="bar">${esc(fileName)} — exceljs</div>
    <table><tr><th class="n"></th>${rows[0]!.map((_, i) => `<th class="n">${String.fromCharCode(65 + i)}</th>`).join('')}</tr>
    ${rows.map((r, i) => `<tr class="${i === 0 ? 'h' : ''}"><th class="n">${i + 1}</th>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}
    </table><div class="tab">${esc(ws.name)}</div>`;
    const sheet = await (await browser.newContext({ viewport: { width: 1440, height: 420 } })).newPage();
    await sheet.setContent(html);
    await sheet.screenshot({ path: join(OUT, 'export-de.png'), fullPage: true });
    console.log('export-de.png', fileName);

    // The alarm dictionary sorted by level, descending (two clicks on the header), at 1440 × 900.
    const dict = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    const dictLogin = new LoginPage(dict, server.url, (id) => server.captchaCode(id));
    await dictLogin.open();
    await dictLogin.signIn('admin', E2E_ADMIN_PASSWORD);
    await dict.waitForURL((u) => u.pathname !== '/login');
    await dict.goto(`${server.url}/alarm/alarm`);
    await dict.locator('.ant-table-row').first().waitFor();
    const level = dict.getByRole('columnheader', { name: '告警等级' });
    const sorted = (order: string) => dict.waitForResponse((r) => r.url().includes('/alarm/dict/query/page') && (r.request().postData() ?? '').includes(`"sortOrder":"${order}"`));
    for (const order of ['asc', 'desc']) {
      const answered = sorted(order);
      await level.click();
      await answered;
    }
    await dict.locator('th[aria-sort="descending"]').waitFor();
    await dict.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' }).catch(() => undefined);
    await dict.waitForTimeout(800);
    await dict.screenshot({ path: join(OUT, 'table-sorted-alarm-dict.png') });
    console.log('table-sorted-alarm-dict.png');
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
