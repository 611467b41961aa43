import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@ess/contract';
import type { SiteStatementRecord, StatementDetail, StatementRecord } from '@ess/contract/statement';
import { statement } from '../../db/schema/statement.ts';
import { notification } from '../../db/schema/system.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { eventually, newSite, newUser, okData, roleIdByName, seededCompanies, type FactoryUser } from '../../../test/factory.ts';
import { MONTH_SWEEP_AT, meterMonth } from '../../../test/meter-month.ts';
import { sweepReadings } from '../meter/index.ts';
import { SETTLED_PERIOD_PRICE } from '../pricing/index.ts';
import { recomputeDraftsAfterPriceChange } from './statement.service.ts';

/**
 * Statements over HTTP, October 2026 at one station, on the metering module's real readings of the
 * month of apps/server/test/meter-month.ts: a storage meter replaced on the 15th at noon, a counter
 * spike on the 20th (that day's charge clamped to 100 kW × 24 h × 1.2 = 2880 kWh), the midnight of
 * the 26th missing (the 25th and 26th share the energy between the readings around it). Template A
 * (peak 1.0523, valley 0.3142) until the 14th, template B (peak 1.1234, valley 0.2987) from the 15th.
 * By hand:
 *
 *   charge    1.–14.: 14 × 100 = 1400.000 kWh × 0.3142 =  439.88
 *            15.–31.: 16 × 100 + 2880 = 4480.000 × 0.2987 = 1338.18 (1338.176)   spike, replaced, missing
 *   discharge 1.–14.: 14 × 90 = 1260.000 kWh × 1.0523 = 1325.90 (1325.898)
 *            15.–31.: 17 × 90 = 1530.000 × 1.1234 = 1718.80 (1718.802)            replaced, missing
 *   revenue 1325.90 + 1718.80 − 439.88 − 1338.18 = 1266.64; investor 70 % 886.65 (886.648); power user 379.99
 *   what-if B all month: the first half's charge 1400 × 0.2987 = 418.18 (+21.70), discharge
 *   1260 × 1.1234 = 1415.48 (+89.58) → revenue 1377.92 (+111.28); investor 964.54, power user 413.38
 */

const BANDS = [
  { start: '00:00', end: '08:00', period: 'valley' },
  { start: '08:00', end: '12:00', period: 'peak' },
  { start: '12:00', end: '24:00', period: 'flat' },
];
const ALL_YEAR = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

describe.each(dbTargets(import.meta.url))('statements on %s', (target) => {
  let t: TestApp;
  let siteId: number;
  let investor: FactoryUser;
  let powerUser: FactoryUser;
  let foreign: FactoryUser;
  let tplA: number;
  let tplB: number;
  let cycleA: number;
  let configA: number;
  const post = <T>(path: string, body: unknown, token = t.adminToken) => t.api.post<T>(path, token, body);

  beforeAll(async () => {
    t = await startTestApp(target);
    const { east, south, group } = await seededCompanies(t);
    siteId = (await newSite(t, east.id, { code: 'JS01', name: '结算测试站' })).id;
    await meterMonth(t, siteId);
    await sweepReadings(t.ctx, MONTH_SWEEP_AT);
    const role = await roleIdByName(t, '投资人', group.id);
    investor = await newUser(t, east.id, { roleId: role, siteIds: [siteId], name: '钱投资' });
    powerUser = await newUser(t, east.id, { roleId: role, siteIds: [siteId], name: '孙用电' });
    foreign = await newUser(t, south.id, { menus: 'all' });
    const template = async (name: string, peak: number, valley: number, flat: number) => {
      const id = (await okData(post<{ id: number }>('/operation/price/template/add', {
        name, type: 'largeIndustrial', billingSystem: 'singlePart', voltageLevel: '10kV', companyId: east.id, currency: 'CNY',
      }))).id;
      const cycles = await okData(post<{ ids: number[] }>('/operation/price/cycle/add/batch', {
        templateId: id, cycles: [{ name: '全年', months: ALL_YEAR, periods: BANDS, peakPrice: peak, valleyPrice: valley, flatPrice: flat }],
      }));
      return { id, cycle: cycles.ids[0]! };
    };
    const a = await template('十月前半', 1.0523, 0.3142, 0.6789);
    const b = await template('十月后半', 1.1234, 0.2987, 0.7);
    [tplA, tplB, cycleA] = [a.id, b.id, a.cycle];
    configA = (await okData(post<{ id: number }>('/configure/price/cycle/add', { siteId, templateId: tplA, startDate: '2026-10-01', endDate: '2026-10-14', serviceFee: 0.5 }))).id;
    await okData(post('/configure/price/cycle/add', { siteId, templateId: tplB, startDate: '2026-10-15', serviceFee: 0.6 }));
  });
  afterAll(async () => t?.stop());

  const settings = (over: Record<string, unknown> = {}) => ({
    siteId, investorName: '某新能源投资有限公司', investorUserId: investor.id, powerUserName: '某精密制造厂', powerUserUserId: powerUser.id,
    investorShareRatio: 70, billingDay: 1, reconciliationContact: '李对账', reconciliationPhone: '13800000000', ...over,
  });

  it('site settings: refuses a share ratio of 101, a foreign station and a party editing its own terms; adds and reads them back', async () => {
    const r101 = await post('/configure/site/statement/add', settings({ investorShareRatio: 101 }));
    expect(r101.status).toBe(400);
    expect(r101.body.tipMsg).toBe('investorShareRatio: 投资方分成比例应在0-100之间');
    expect((await post('/configure/site/statement/add', settings(), foreign.token)).status).toBe(404);
    const party = await post('/configure/site/statement/add', settings(), investor.token);
    expect(party.status).toBe(406);
    expect(party.body.tipMsg).toBe('结算双方的确认人不能修改本站点的结算设置');
    expect(await okData(post('/configure/site/statement/query/unique', { siteId }))).toBeNull();
    await okData(post('/configure/site/statement/add', settings()));
    expect((await post('/configure/site/statement/add', settings())).status).toBe(406);
    const s = await okData(post<SiteStatementRecord>('/configure/site/statement/query/unique', { siteId }));
    expect(s).toMatchObject({ investorShareRatio: 70, billingDay: 1, investorUserName: '钱投资', powerUserUserName: '孙用电', includePv: false });
    expect((await post('/configure/site/statement/query/unique', { siteId }, foreign.token)).status).toBe(404);
  });

  let id: number;
  it('makes October’s draft: every line, total and share to the cent', async () => {
    id = (await okData(post<{ id: number }>('/operation/statement/add', { siteId, month: '2026-10' }))).id;
    const d = await okData(post<StatementDetail>('/operation/statement/query/one', { id }));
    expect(d).toMatchObject({
      code: 'JS-JS01-202610', state: 'draft', periodStart: '2026-10-01', periodEnd: '2026-10-31', currency: 'CNY',
      investorName: '某新能源投资有限公司', powerUserName: '某精密制造厂', investorShareRatio: 70,
      chargeEnergy: '5880.000', dischargeEnergy: '2790.000', storageRevenue: '1266.64', totalRevenue: '1266.64',
      investorAmount: '886.65', powerUserAmount: '379.99', flaggedLines: 2, roles: [],
    });
    expect(d.lines.map((l) => [l.category, l.period, l.fromDate, l.toDate, l.energy, l.price, l.amount, l.quality.join()])).toEqual([
      ['storageCharge', 'valley', '2026-10-01', '2026-10-14', '1400.000', '0.3142', '439.88', 'measured'],
      ['storageCharge', 'valley', '2026-10-15', '2026-10-31', '4480.000', '0.2987', '1338.18', 'spike_clamped,meter_replaced,missing'],
      ['storageDischarge', 'peak', '2026-10-01', '2026-10-14', '1260.000', '1.0523', '1325.90', 'measured'],
      ['storageDischarge', 'peak', '2026-10-15', '2026-10-31', '1530.000', '1.1234', '1718.80', 'meter_replaced,missing'],
    ]);
    expect(d.journal.map((j) => [j.action, j.toState, j.username])).toEqual([['generate', 'draft', '系统管理员']]);
    const page = await okData(post<Page<StatementRecord>>('/operation/statement/query/page', { siteId, current: 1, pageSize: 10 }, investor.token));
    expect(page.records.map((r) => [r.code, r.totalRevenue, r.roles])).toEqual([['JS-JS01-202610', '1266.64', ['investor']]]);
    expect((await okData(post<Page<StatementRecord>>('/operation/statement/query/page', { current: 1, pageSize: 10 }, foreign.token))).total).toBe(0);
    expect((await post('/operation/statement/query/one', { id }, foreign.token)).status).toBe(404);
  });

  it('refuses a second October, a month not yet over, a bad month', async () => {
    const dup = await post('/operation/statement/add', { siteId, month: '2026-10' });
    expect([dup.status, dup.body.tipMsg]).toEqual([406, '该站点该月已有结算单']);
    const open = await post('/operation/statement/add', { siteId, month: '2026-12' });
    expect([open.status, open.body.tipMsg]).toEqual([406, '结算周期尚未结束，不能生成结算单']);
    expect((await post('/operation/statement/add', { siteId, month: '2026-13' })).status).toBe(400);
    const foreignAdd = await post('/operation/statement/add', { siteId, month: '2026-09' }, foreign.token);
    expect(foreignAdd.status).toBe(404);
    // Nothing was written by any of them.
    expect((await t.ctx.db.select({ month: statement.month }).from(statement).where(eq(statement.siteId, siteId))).map((r) => r.month)).toEqual(['2026-10']);
  });

  it('what-if: template B for the whole month, line by line, without saving', async () => {
    const d = await okData(post<StatementDetail>('/operation/statement/query/one', { id, whatIf: { templateId: tplB } }));
    expect(d.whatIf).toMatchObject({ templateId: tplB, totalRevenue: '1377.92', investorAmount: '964.54', powerUserAmount: '413.38', difference: '111.28' });
    expect(d.whatIf!.lines.map((l) => [l.fromDate, l.amount, l.whatIfPrice, l.whatIfAmount, l.difference])).toEqual([
      ['2026-10-01', '439.88', '0.2987', '418.18', '21.70'],
      ['2026-10-15', '1338.18', '0.2987', '1338.18', '0.00'],
      ['2026-10-01', '1325.90', '1.1234', '1415.48', '89.58'],
      ['2026-10-15', '1718.80', '1.1234', '1718.80', '0.00'],
    ]);
    expect(d.whatIf!.byRegister).toEqual([
      { category: 'storageCharge', period: 'valley', difference: '21.70' },
      { category: 'storageDischarge', period: 'peak', difference: '89.58' },
    ]);
    expect(d.totalRevenue).toBe('1266.64');
  });

  it('the xlsx and the PDF say what the API says', async () => {
    const x = await t.api.call('GET', '/operation/statement/download', { token: t.adminToken, query: { id, format: 'xlsx' } });
    expect(x.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.raw as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const rows: unknown[][] = [];
    ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    expect(rows.slice(1, 5).map((r) => [r[0], r[3], r[4], r[5], r[6], r[7]])).toEqual([
      ['储能充电', '2026-10-01 ~ 2026-10-14', 1400, 0.3142, 439.88, '实测'],
      ['储能充电', '2026-10-15 ~ 2026-10-31', 4480, 0.2987, 1338.18, '跳变已削峰, 换表, 缺失'],
      ['储能放电', '2026-10-01 ~ 2026-10-14', 1260, 1.0523, 1325.9, '实测'],
      ['储能放电', '2026-10-15 ~ 2026-10-31', 1530, 1.1234, 1718.8, '换表, 缺失'],
    ]);
    const amount = (label: string) => rows.find((r) => r[0] === label)?.[6];
    expect([amount('总收益'), amount('投资方分成'), amount('电力用户分成')]).toEqual([1266.64, 886.65, 379.99]);

    const p = await t.api.call('GET', '/operation/statement/download', { token: t.adminToken, query: { id, format: 'pdf' } });
    expect(p.status).toBe(200);
    expect(p.headers.get('content-type')).toBe('application/pdf');
    const { extractText, getDocumentProxy } = await import('unpdf');
    const pdf = await getDocumentProxy(new Uint8Array(p.raw));
    const { text } = await extractText(pdf, { mergePages: true });
    for (const s of ['JS-JS01-202610', '某新能源投资有限公司', '某精密制造厂', '439.88', '1338.18', '1325.90', '1718.80', '1266.64', '886.65', '379.99', '跳变已削峰', '换表', '缺失', '投资方（签章）']) {
      expect(text, s).toContain(s);
    }
    const en = await t.api.call('GET', '/operation/statement/download', { token: t.adminToken, query: { id, format: 'pdf' }, headers: { 'client-language': 'en-US' } });
    const enText = (await extractText(await getDocumentProxy(new Uint8Array(en.raw)), { mergePages: true })).text;
    expect(enText).toContain('1266.64');
    expect((await t.api.get('/operation/statement/download', foreign.token, { id, format: 'pdf' })).status).toBe(404);
  });

  it('a price change recomputes the draft at once and journals the difference it made', async () => {
    const cycle = (valleyPrice: number) => post('/operation/price/cycle/edit', { id: cycleA, name: '全年', months: ALL_YEAR, periods: BANDS, peakPrice: 1.0523, valleyPrice, flatPrice: 0.6789 });
    const revenue = (want: string) => eventually(async () => {
      const d = await okData(post<StatementDetail>('/operation/statement/query/one', { id }));
      return d.totalRevenue === want ? d : undefined;
    });
    // Valley 0.3142 → 0.3242 until the 14th: 1400 kWh × 0.01 = 14.00 more charge cost.
    await okData(cycle(0.3242));
    const up = await revenue('1252.64');
    expect([up.investorAmount, up.powerUserAmount, up.lines[0]!.price, up.lines[0]!.amount]).toEqual(['876.85', '375.79', '0.3242', '453.88']);
    expect(up.journal.map((j) => [j.action, j.difference])).toEqual([['generate', null], ['recompute', '-14.00']]);
    await okData(cycle(0.3142));
    const back = await revenue('1266.64');
    expect(back.journal.map((j) => [j.action, j.difference]).at(-1)).toEqual(['recompute', '14.00']);
  });

  it('lifecycle: the wrong party is refused, investor then power user confirm, lock; a locked statement never changes', async () => {
    const edit = (body: Record<string, unknown>, token: string) => post('/operation/statement/edit', { id, ...body }, token);
    const wrong = await edit({ action: 'confirmInvestor' }, powerUser.token);
    expect([wrong.status, wrong.body.tipMsg]).toEqual([406, '只有该站点的投资方确认人可以进行投资方确认']);
    const early = await edit({ action: 'confirmPowerUser' }, powerUser.token);
    expect([early.status, early.body.tipMsg]).toEqual([406, '当前状态为「草稿」，不能电力用户确认']);
    await okData(edit({ action: 'confirmInvestor', note: '数据无误' }, investor.token));
    const again = await t.api.get('/operation/statement/update', t.adminToken, { id });
    expect([again.status, again.body.tipMsg]).toEqual([406, '当前状态为「投资方已确认」，只有草稿可以重新计算']);
    // The prices it used are history now.
    const delCycle = await t.api.get('/operation/price/cycle/delete', t.adminToken, { id: cycleA });
    expect([delCycle.status, delCycle.body.tipMsg]).toEqual([406, '该电价已被已确认或已锁定的结算单使用，不能修改或删除：JS-JS01-202610']);
    expect((await t.api.get('/configure/price/cycle/delete', t.adminToken, { id: configA })).status).toBe(406);
    expect((await post('/operation/price/template/edit', { id: tplA, name: '改名', type: 'largeIndustrial', billingSystem: 'singlePart', voltageLevel: '10kV', companyId: (await seededCompanies(t)).east.id, currency: 'CNY' })).status).toBe(406);
    expect((await t.api.get('/operation/price/template/delete', t.adminToken, { id: tplA })).status).toBe(406);
    // … and stay as they were.
    expect(await okData(post('/operation/price/cycle/query/one', { id: cycleA }))).toMatchObject({ valleyPrice: 0.3142, peakPrice: 1.0523 });
    expect(await okData(post('/operation/price/template/query/one', { id: tplA }))).toMatchObject({ name: '十月前半' });
    expect(await okData(post<{ id: number; startDate: string; endDate: string | null }[]>('/configure/price/cycle/query/list', { siteId }))).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: configA, startDate: '2026-10-01', endDate: '2026-10-14' })]),
    );
    const noReason = await edit({ action: 'dispute' }, powerUser.token);
    expect([noReason.status, noReason.body.tipMsg]).toEqual([406, '退回结算单须填写原因']);
    await okData(edit({ action: 'confirmPowerUser' }, powerUser.token));
    await okData(edit({ action: 'lock' }, t.adminToken));
    const lockedBefore = await okData(post<StatementDetail>('/operation/statement/query/one', { id }, investor.token));
    const locked = await edit({ note: '改一下' }, t.adminToken);
    expect([locked.status, locked.body.tipMsg]).toEqual([406, '结算单已锁定，不能修改']);
    expect((await edit({ action: 'dispute', note: 'x' }, investor.token)).status).toBe(406);
    expect((await t.api.get('/operation/statement/update', t.adminToken, { id })).status).toBe(406);
    const d = await okData(post<StatementDetail>('/operation/statement/query/one', { id }, investor.token));
    expect(d.state).toBe('locked');
    // The refused edits changed nothing, and a price recompute passes a locked statement by.
    expect(d).toEqual(lockedBefore);
    expect(await recomputeDraftsAfterPriceChange(t.ctx, [siteId], '2026-10-01')).toBe(0);
    // No new price may reach its settled days either (a feed-in price over October was unpriced there); after it, one may.
    const solarOver = await post('/configure/solar/price/cycle/add', { siteId, startDate: '2026-10-20', endDate: '2026-11-30', price: 0.4 });
    expect([solarOver.status, solarOver.body.tipMsg]).toEqual([406, `${SETTLED_PERIOD_PRICE}JS-JS01-202610`]);
    expect((await post<Page<unknown>>('/configure/solar/price/cycle/query/page', { siteId, current: 1, pageSize: 10 })).body.data.total).toBe(0);
    const after = await okData(post<{ id: number }>('/configure/solar/price/cycle/add', { siteId, startDate: '2026-11-01', endDate: '2026-11-30', price: 0.4 }));
    const earlier = await post('/configure/solar/price/cycle/edit', { id: after.id, siteId, startDate: '2026-10-31', endDate: '2026-11-30', price: 0.4 });
    expect([earlier.status, earlier.body.tipMsg]).toEqual([406, `${SETTLED_PERIOD_PRICE}JS-JS01-202610`]);
    await okData(post('/configure/solar/price/cycle/edit', { id: after.id, siteId, startDate: '2026-11-01', endDate: '2026-11-20', price: 0.45 }));
    expect(await okData(post<StatementDetail>('/operation/statement/query/one', { id }, investor.token))).toEqual(lockedBefore);
    expect(d.journal.map((j) => [j.action, j.fromState, j.toState, j.username, j.note])).toEqual([
      ['generate', '', 'draft', '系统管理员', null],
      ['recompute', 'draft', 'draft', '系统', null],
      ['recompute', 'draft', 'draft', '系统', null],
      ['confirmInvestor', 'draft', 'investor_confirmed', '钱投资', '数据无误'],
      ['confirmPowerUser', 'investor_confirmed', 'power_user_confirmed', '孙用电', null],
      ['lock', 'power_user_confirmed', 'locked', '系统管理员', null],
    ]);
    // The parties were told (the power user of the investor's confirmation, among others).
    await eventually(async () => {
      const rows = await t.ctx.db.select().from(notification).where(and(eq(notification.userId, powerUser.id), eq(notification.title, '结算单通知')));
      return rows.length >= 2 ? rows : undefined;
    });
  });
});
