import { READING_REGISTERS, localDayStart, todayIn } from '@ess/contract';
import type { StatementDetail } from '@ess/contract/statement';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appUser, userRole } from '../apps/server/src/db/schema/system.ts';
import { userSite } from '../apps/server/src/db/schema/site.ts';
import { registerSlots } from '../apps/server/src/modules/meter/reading.read.ts';
import { lastEndedMonth } from '../apps/server/src/modules/statement/statement.jobs.ts';
import { ROLLUP_TABLES, RollupAccumulator, copyDriver, writeAggregates, type Granularity } from '../apps/server/src/modules/telemetry/index.ts';
import { hashPassword } from '../apps/server/src/platform/password.ts';
import { LoginPage } from './pages/LoginPage.ts';
import { ConsoleApi } from './support/api.ts';
import { launchBrowser } from './support/browser.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';

const SITE = 'SH01';
const PASSWORD = 'Party12345';
/** kWh a day: charged into the valley register, discharged from the peak register. */
const CHARGE = 100;
const DISCHARGE = 90;

/** Half away from zero to the cent, on the decimal text (no float). */
function cents(energy: string, price: string): bigint {
  const scale = (s: string, places: number) => {
    const [i, f = ''] = s.split('.');
    return BigInt(`${i}${f.padEnd(places, '0').slice(0, places)}`);
  };
  const [ef, pf] = [(energy.split('.')[1] ?? '').length, (price.split('.')[1] ?? '').length];
  const product = scale(energy, ef) * scale(price, pf);
  const div = 10n ** BigInt(ef + pf - 2);
  return (product + div / 2n) / div;
}
const money = (c: bigint) => `${c < 0n ? '-' : ''}${(c < 0n ? -c : c) / 100n}.${String((c < 0n ? -c : c) % 100n).padStart(2, '0')}`;

/**
 * Statements end to end (issue 18), in Chromium on the real console: a month of one storage meter's
 * readings (written into the stored telemetry as the meter would report them) settles as a draft;
 * the station's investor confirms it on /operation/statementDetail, then its power user, who locks
 * it; both downloads taken from the page are opened (the xlsx with exceljs, the PDF with unpdf) and
 * say the totals the page shows; the price template the statement used then refuses deletion,
 * naming the statement.
 */
describe('a statement from draft to locked, downloaded, its price kept as history, in Chromium', { timeout: 180_000 }, () => {
  let server: Awaited<ReturnType<typeof startConsole>>;
  let browser: Browser;
  let admin: ConsoleApi;
  let site: { id: number; companyId: number; timeZone: string };
  let month: string;
  let days: number;
  let statementId: number;
  const pages: Page[] = [];

  const sql = <T extends Record<string, unknown>>(text: string, params: unknown[] = []) => server.ctx.database.sql.query<T>(text, params).then((r) => r.rows);

  /** A user of the station's company with the 投资人 role, granted the station, who can sign in. */
  async function party(username: string, name: string): Promise<number> {
    const { db } = server.ctx;
    const [u] = await db.insert(appUser).values({ companyId: site.companyId, username, name, passwordHash: await hashPassword(PASSWORD), passwordChangedAt: new Date(), status: 1 }).returning({ id: appUser.id });
    const [r] = await sql<{ id: number }>(`select id from role where name = '投资人' order by id limit 1`);
    expect(r).toBeDefined();
    await db.insert(userRole).values({ userId: u!.id, roleId: Number(r!.id) });
    await db.insert(userSite).values({ userId: u!.id, siteId: site.id });
    return u!.id;
  }

  /** The storage meter's reports at 23:58 local of the month's eve and of every day of the month. */
  async function writeMonth(deviceId: number, productId: number): Promise<void> {
    const slots = await registerSlots(server.ctx.db, productId);
    const size = Math.max(...slots.filter((s): s is number => s !== null));
    const at = (id: string) => slots[READING_REGISTERS.indexOf(id)]! - 1;
    const acc = new RollupAccumulator(Number.POSITIVE_INFINITY);
    const first = localDayStart(site.timeZone, `${month}-01`);
    for (let d = 0; d <= days; d++) {
      // Day d's 23:58 is 2 minutes before the next midnight (d = 0: the eve of the 1st).
      const ts = first + d * 86_400_000 - 120_000;
      const v = new Float64Array(size).fill(NaN);
      for (const s of slots) if (s !== null) v[s - 1] = 0;
      v[at('forwardActiveEnergy')] = 1000 + CHARGE * d;
      v[at('forwardActiveEnergyValley')] = 1000 + CHARGE * d;
      v[at('reverseActiveEnergy')] = 500 + DISCHARGE * d;
      v[at('reverseActiveEnergyPeak')] = 500 + DISCHARGE * d;
      acc.add(deviceId, site.timeZone, ts, v);
      await sql('insert into telemetry (device_id, ts, v) values ($1, $2, $3)', [deviceId, new Date(ts), Array.from(v, (x) => (Number.isNaN(x) ? null : x))]);
    }
    const due = acc.take(Date.now(), true);
    const { session } = copyDriver(server.ctx.database);
    for (const g of Object.keys(due) as Granularity[]) if (due[g].length) await session((s) => writeAggregates(s, ROLLUP_TABLES[g], due[g]));
  }

  /** A signed-in page of its own browser context for a user. */
  async function signedIn(username: string, password: string): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })).newPage();
    pages.push(page);
    const login = new LoginPage(page, server.url, (id) => server.captchaCode(id));
    await login.open();
    await login.signIn(username, password);
    await page.waitForURL((u) => u.pathname !== '/login');
    return page;
  }

  const detail = async (page: Page) => {
    await page.goto(`${server.url}/operation/statementDetail?id=${statementId}`);
    await page.getByTestId('statement-lines').waitFor();
  };
  /** Takes a lifecycle action on the open detail and waits for the state it leads to. */
  async function act(page: Page, action: string, stateLabel: string): Promise<void> {
    await page.getByTestId(`statement-${action}`).click();
    await page.getByTestId('statement-action-ok').click();
    await page.locator('[data-testid=statement-detail] .ant-card-head').getByText(stateLabel, { exact: true }).waitFor();
    await page.getByTestId(`statement-${action}`).waitFor({ state: 'detached' });
  }

  beforeAll(async () => {
    server = await startConsole({ SIMULATOR: 'off', ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}) });
    const [s] = await sql<{ id: number; company_id: number; time_zone: string }>('select id, company_id, time_zone from site where code = $1', [SITE]);
    site = { id: Number(s!.id), companyId: Number(s!.company_id), timeZone: s!.time_zone };
    month = lastEndedMonth(todayIn(site.timeZone), 1);
    const [y, m] = month.split('-').map(Number) as [number, number];
    days = new Date(Date.UTC(y, m, 0)).getUTCDate();
    // The station's storage meters: the first reports the month; any other never reported (settles to 0).
    const meters = await sql<{ id: number; product_id: number }>(`select id, product_id from device where site_id = $1 and meter_purpose = 'storage' order by id`, [site.id]);
    expect(meters.length).toBeGreaterThan(0);
    await writeMonth(Number(meters[0]!.id), Number(meters[0]!.product_id));

    const investorId = await party('e2e-investor', '钱投资');
    const hostId = await party('e2e-host', '孙用电');
    admin = await ConsoleApi.signIn(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
    await admin.post('/configure/site/statement/add', {
      siteId: site.id, investorName: '浦东储能投资有限公司', investorUserId: investorId, powerUserName: '浦东精密制造厂', powerUserUserId: hostId,
      investorShareRatio: 70, billingDay: 1, reconciliationContact: '对账专员', reconciliationPhone: '021-60000000', includePv: false, includePiles: false,
    });
    statementId = (await admin.post<{ id: number }>('/operation/statement/add', { siteId: site.id, month })).id;
    browser = await launchBrowser();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    for (const [i, p] of pages.entries()) await p.screenshot({ path: join(tmpdir(), `statement-e2e-${i}.png`) }).catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the draft settles the month by hand: valley charge and peak discharge at the station prices, 70 % to the investor', async () => {
    const d = await admin.post<StatementDetail>('/operation/statement/query/one', { id: statementId });
    expect(d.state).toBe('draft');
    const stored = d.lines.filter((l) => l.energy !== '0.000');
    expect(stored.map((l) => [l.category, l.period, l.energy])).toEqual([
      ['storageCharge', 'valley', `${CHARGE * days}.000`],
      ['storageDischarge', 'peak', `${DISCHARGE * days}.000`],
    ]);
    // Each line energy × its price, half up to the cent; revenue = discharge − charge; shares 70 / 30.
    const [charge, discharge] = stored.map((l) => cents(l.energy, l.price)) as [bigint, bigint];
    expect(charge > 0n && discharge > 0n).toBe(true);
    expect(stored.map((l) => l.amount)).toEqual([money(charge), money(discharge)]);
    expect(stored.every((l) => l.priceSource?.kind === 'priceCycle')).toBe(true);
    const total = discharge - charge;
    const investor = (total * 70n + (total >= 0n ? 50n : -50n)) / 100n;
    expect([d.chargeEnergy, d.dischargeEnergy, d.totalRevenue, d.investorAmount, d.powerUserAmount]).toEqual([
      `${CHARGE * days}.000`, `${DISCHARGE * days}.000`, money(total), money(investor), money(total - investor),
    ]);
  });

  it('the investor confirms, then the power user confirms and locks, on the detail', async () => {
    const investor = await signedIn('e2e-investor', PASSWORD);
    await detail(investor);
    // The investor is offered their confirmation only (not the power user's, nor the lock).
    await expect(investor.getByTestId('statement-confirmPowerUser').count()).resolves.toBe(0);
    await act(investor, 'confirmInvestor', '投资方已确认');
    await investor.getByTestId('statement-journal').getByText('钱投资').waitFor();

    const host = await signedIn('e2e-host', PASSWORD);
    await detail(host);
    await act(host, 'confirmPowerUser', '电力用户已确认');
    await act(host, 'lock', '已锁定');
    await host.getByText('结算单已锁定，不能修改；所用电价已成为历史版本。').waitFor();
    const rows = await sql<{ action: string; username: string }>(
      `select l.action, u.username from statement_log l left join app_user u on u.id = l.user_id where l.statement_id = $1 order by l.id`, [statementId],
    );
    expect(rows.map((r) => [r.action, r.username])).toEqual([['generate', 'admin'], ['confirmInvestor', 'e2e-investor'], ['confirmPowerUser', 'e2e-host'], ['lock', 'e2e-host']]);
  });

  it('the xlsx and the PDF downloaded from the page say the totals the page shows', async () => {
    const page = pages[1]!;
    await detail(page);
    const shown = {
      total: await page.getByTestId('total-revenue').innerText(),
      investor: await page.getByTestId('investor-amount').innerText(),
      powerUser: await page.getByTestId('power-user-amount').innerText(),
    };
    const d = await admin.post<StatementDetail>('/operation/statement/query/one', { id: statementId });
    expect(shown).toEqual({ total: d.totalRevenue, investor: d.investorAmount, powerUser: d.powerUserAmount });

    const take = async (label: string) => {
      await page.getByTestId('statement-download').click();
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.ant-dropdown:visible').getByText(label, { exact: true }).click()]);
      return { name: download.suggestedFilename(), body: await readFile((await download.path())) };
    };
    const xlsx = await take('下载 Excel');
    expect(xlsx.name).toMatch(/\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.body as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0]!.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    const amount = (label: string) => rows.find((r) => r[0] === label)?.[6];
    expect([amount('总收益'), amount('投资方分成'), amount('电力用户分成')]).toEqual([Number(shown.total), Number(shown.investor), Number(shown.powerUser)]);

    const pdf = await take('下载 PDF');
    expect(pdf.name).toMatch(/\.pdf$/);
    const { extractText, getDocumentProxy } = await import('unpdf');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.body)), { mergePages: true });
    for (const s of [d.code, '浦东储能投资有限公司', '浦东精密制造厂', shown.total, shown.investor, shown.powerUser, '投资方（签章）']) expect(text, s).toContain(s);
  });

  it('the price template the statement used refuses deletion, naming the statement, and stays', async () => {
    const [use] = await sql<{ ref_id: number }>(`select ref_id from statement_price_use where statement_id = $1 and kind = 'template'`, [statementId]);
    expect(use).toBeDefined();
    const res = await fetch(new URL(`/api/manager/operation/price/template/delete?id=${use!.ref_id}`, server.url), { headers: { authorization: admin.token } });
    const body = (await res.json()) as { errorCode: string; tipMsg: string };
    expect(res.status).toBe(406);
    const [{ code }] = (await sql<{ code: string }>('select code from statement where id = $1', [statementId])) as [{ code: string }];
    expect(body.tipMsg).toContain(code);
    expect(body.tipMsg).toContain('不能修改或删除');
    await expect(sql('select id from price_template where id = $1', [use!.ref_id])).resolves.toHaveLength(1);
  });
});
