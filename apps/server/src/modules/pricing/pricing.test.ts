import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Page, PriceBand, PriceCycleRecord, PriceTemplateDetail, PriceTemplateRecord, PriceTemplateWithCycles, SitePriceCycleRecord, SolarPriceCycleRecord,
} from '@ess/contract';
import { demoFleet } from '@ess/simulator';
import { seedDemoOnce } from '../../demo/demo-seed.ts';
import { priceCycle, priceTemplate } from '../../db/schema/pricing.ts';
import { site } from '../../db/schema/site.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newSite, newUser, seededCompanies } from '../../../test/factory.ts';
import { tariffsForSite, type PriceChange } from './pricing.service.ts';
import { STARTED_PRICE_DELETE } from './price-history.ts';
import { bandsOfSchedule } from '../../demo/demo-prices.ts';

const band = (start: string, end: string, period: PriceBand['period']): PriceBand => ({ start, end, period });
const DAY = [band('00:00', '08:00', 'valley'), band('08:00', '11:00', 'peak'), band('11:00', '13:00', 'flat'), band('13:00', '19:00', 'peak'), band('19:00', '21:00', 'tip'), band('21:00', '24:00', 'valley')];
const prices = { tipPrice: 1.35, peakPrice: 1.12, flatPrice: 0.68, valleyPrice: 0.31, demandPrice: 40.8 };
const cycle = (name: string, months: number[], over: Record<string, unknown> = {}) => ({ name, months, periods: DAY, ...prices, ...over });

describe.each(dbTargets(import.meta.url))('time-of-use pricing on %s', (target) => {
  let t: TestApp;
  let admin: string;
  let east: { id: number };
  let south: { id: number };
  let group: { id: number };
  /** EAST user with every menu, granted SH01 only. */
  let eastUser: string;
  /** EAST user with the cabinet menu only. */
  let noMenu: string;
  let sh01: number;
  let be01: number;
  let la01: number;
  const template = (companyId: number, name: string, over: Record<string, unknown> = {}) => ({
    name, type: 'largeIndustrial', billingSystem: 'twoPart', voltageLevel: '10kV', companyId, currency: 'CNY', regionCode: '310000', remark: '测试', ...over,
  });
  const addTemplate = async (body: Record<string, unknown>, token = admin) => {
    const r = await t.api.post<{ id: number }>('/operation/price/template/add', token, body);
    expect(r.body.errorCode, r.body.tipMsg).toBe('00000');
    return r.body.data.id;
  };
  const demoTemplateOf = async (siteId: number) => {
    const [row] = await t.ctx.database.sql.query<{ template_id: number }>('select template_id from site_price_cycle where site_id = $1', [siteId]).then((r) => r.rows);
    return row!.template_id;
  };

  beforeAll(async () => {
    t = await startTestApp(target);
    admin = t.adminToken;
    ({ east, south, group } = await seededCompanies(t));
    await seedDemoOnce(t.ctx.db);
    const rows = await t.ctx.db.select({ id: site.id, code: site.code }).from(site);
    sh01 = rows.find((r) => r.code === 'SH01')!.id;
    be01 = rows.find((r) => r.code === 'BE01')!.id;
    la01 = rows.find((r) => r.code === 'LA01')!.id;
    eastUser = (await newUser(t, east.id, { menus: 'all', siteIds: [sh01] })).token;
    noMenu = (await newUser(t, east.id, { menus: ['/config/lockers'], siteIds: [sh01] })).token;
  });
  afterAll(async () => t?.stop());

  describe('demo seed', () => {
    it('gives every demo station a template with one all-year cycle matching the simulator, its configuration and feed-in price', async () => {
      const fleet = demoFleet();
      for (const [code, siteId] of [['SH01', sh01], ['BE01', be01], ['LA01', la01]] as const) {
        const st = fleet.stations.find((s) => s.code === code)!;
        const one = await t.api.post<PriceTemplateDetail>('/operation/price/template/query/one', admin, { id: await demoTemplateOf(siteId) });
        expect(one.body.data.currency).toBe(st.currency);
        expect(one.body.data.cycles).toHaveLength(1);
        const c = one.body.data.cycles[0]!;
        expect(c.months).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        expect(c.periods).toEqual(bandsOfSchedule(st.touSchedule));
        expect(c.peakPrice).toBe(st.prices.peak);
        expect(one.body.data.uses).toEqual([expect.objectContaining({ siteId, startDate: st.commissioningDate, endDate: null })]);
      }
      const la = await t.api.post<SitePriceCycleRecord[]>('/configure/price/cycle/query/list', admin, { siteId: la01 });
      expect(la.body.data[0]!.serviceFee).toBe(0.18);
      const sh = await t.api.post<SitePriceCycleRecord[]>('/configure/price/cycle/query/list', admin, { siteId: sh01 });
      expect(sh.body.data[0]!.serviceFee).toBeNull();
      const solar = await t.api.post<Page<SolarPriceCycleRecord>>('/configure/solar/price/cycle/query/page', admin, { current: 1, pageSize: 10 });
      expect(solar.body.data.records.map((r) => r.siteCode).sort()).toEqual(['BE01', 'LA01']);
    });

    it('resolves the demo prices through tariffsForSite', async () => {
      const [sh] = await tariffsForSite(t.ctx, sh01, '2024-07-01', '2024-07-01');
      const st = demoFleet().stations[0]!;
      expect(sh!.bands!.map((b) => b.period)).toEqual(bandsOfSchedule(st.touSchedule).map((b) => b.period));
      expect(sh!.bands!.find((b) => b.period === 'tip')!.price).toBe(st.prices.tip);
      expect(sh!.demandPrice).toBe(40.8);
      expect(sh!.feedIn).toBeNull();
      const [la] = await tariffsForSite(t.ctx, la01, '2024-11-03', '2024-11-03');
      expect(la!.hours).toBe(25);
      expect(la!.serviceFee).toBe(0.18);
      expect(la!.feedIn!.periods.tip).toBe(0.312);
      expect(la!.bands!.find((b) => b.period === 'tip')!.feedInPrice).toBe(0.312);
      // Before commissioning nothing is configured.
      const [early] = await tariffsForSite(t.ctx, be01, '2024-02-29', '2024-02-29');
      expect(early).toMatchObject({ template: null, bands: null, feedIn: null });
      await expect(tariffsForSite(t.ctx, be01, '2024-03-02', '2024-03-01')).rejects.toThrow('日期范围不正确');
    });
  });

  describe('price templates', () => {
    it('refuses without a token (401) and without the menu (403)', async () => {
      expect((await t.api.post('/operation/price/template/query/page', null, {})).status).toBe(401);
      const r = await t.api.post('/operation/price/template/add', noMenu, template(east.id, 'x'));
      expect(r.status).toBe(403);
      expect(r.body.errorCode).toBe('A0300');
      expect((await t.api.get('/configure/solar/price/cycle/delete', noMenu, { id: 1 })).status).toBe(403);
    });

    it('adds a template and reads it back by one, list and page with filters', async () => {
      const id = await addTemplate(template(east.id, '华东大工业 10kV'));
      const one = await t.api.post<PriceTemplateDetail>('/operation/price/template/query/one', admin, { id });
      expect(one.body.data).toMatchObject({ name: '华东大工业 10kV', type: 'largeIndustrial', billingSystem: 'twoPart', voltageLevel: '10kV', currency: 'CNY', regionCode: '310000', companyId: east.id, cycleCount: 0, siteCount: 0, cycles: [], uses: [] });
      const page = await t.api.post<Page<PriceTemplateRecord>>('/operation/price/template/query/page', admin, { current: 1, pageSize: 50, keyword: '华东', billingSystem: 'twoPart' });
      expect(page.body.data.records.map((r) => r.id)).toEqual([id]);
      const list = await t.api.post<PriceTemplateRecord[]>('/operation/price/template/query/list', eastUser, { currency: 'cny' });
      expect(list.body.data.map((r) => r.name)).toEqual(expect.arrayContaining(['华东大工业 10kV', '上海临港储能电站分时电价']));
      // The EAST user does not see SOUTH's templates.
      expect(list.body.data.every((r) => r.companyId === east.id)).toBe(true);
      const southPage = await t.api.post<Page<PriceTemplateRecord>>('/operation/price/template/query/page', admin, { current: 1, pageSize: 50, companyId: south.id });
      expect(southPage.body.data.records.map((r) => [r.currency, r.siteCount, r.cycleCount])).toEqual([['EUR', 1, 1], ['USD', 1, 1]]);
    });

    it('answers bad input with 400 naming the field, never 500', async () => {
      const cases: [unknown, RegExp][] = [
        [{ ...template(east.id, 'a'), name: undefined }, /^name不能为空$/],
        [{ ...template(east.id, 'a'), type: '工业' }, /^type: /],
        [{ ...template(east.id, 'a'), billingSystem: 'three' }, /^billingSystem: /],
        [{ ...template(east.id, 'a'), currency: 'yuan' }, /^currency: 币种应为三位大写字母代码$/],
        [{ ...template(east.id, 'a'), companyId: '1' }, /^companyId: /],
        [{ ...template(east.id, 'a'), remark: 'x'.repeat(201) }, /^remark: /],
        [[1, 2], /./],
      ];
      for (const [body, tip] of cases) {
        const r = await t.api.post('/operation/price/template/add', admin, body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.tipMsg).toMatch(tip);
      }
      const del = await t.api.get('/operation/price/template/delete', admin, { id: 'abc' });
      expect(del.status).toBe(400);
    });

    it('takes a currency of /globalization/currency, enabled: another is refused (400) and nothing written; a template of a since disabled one stays editable', async () => {
      const currency = { code: 'XTS', symbol: 'X', name: '测试币', minorUnits: 2 };
      const added = await t.api.post<{ id: number }>('/i18n/currency/add', admin, { ...currency, enabled: false });
      expect(added.body.errorCode, added.body.tipMsg).toBe('00000');
      const setEnabled = async (enabled: boolean) => expect((await t.api.post('/i18n/currency/edit', admin, { id: added.body.data.id, ...currency, enabled })).body.errorCode).toBe('00000');
      const named = async () => (await t.api.post<{ name: string }[]>('/operation/price/template/query/list', admin, { keyword: '测试币模板' })).body.data;
      for (const code of ['XTS', 'QQQ']) {
        const r = await t.api.post('/operation/price/template/add', admin, template(east.id, '测试币模板', { currency: code }));
        expect([r.status, r.body.tipMsg]).toEqual([400, 'currency: 币种不存在']);
      }
      expect(await named()).toEqual([]);
      await setEnabled(true);
      const id = await addTemplate(template(east.id, '测试币模板', { currency: 'XTS' }));
      await setEnabled(false);
      const kept = await t.api.post('/operation/price/template/edit', admin, { id, ...template(east.id, '测试币模板', { currency: 'XTS', remark: '币种已停用' }) });
      expect(kept.body.errorCode, kept.body.tipMsg).toBe('00000');
      const moved = await t.api.post('/operation/price/template/edit', admin, { id, ...template(east.id, '测试币模板', { currency: 'QQQ' }) });
      expect([moved.status, moved.body.tipMsg]).toEqual([400, 'currency: 币种不存在']);
      expect((await named()).map((x) => x.name)).toEqual(['测试币模板']);
      expect((await t.api.post<{ currency: string; remark: string }>('/operation/price/template/query/one', admin, { id })).body.data).toMatchObject({ currency: 'XTS', remark: '币种已停用' });
    });

    it('refuses a second template of the same name in one company (406)', async () => {
      await addTemplate(template(east.id, '重名模板'));
      const r = await t.api.post('/operation/price/template/add', admin, template(east.id, '重名模板'));
      expect(r.status).toBe(406);
      expect(r.body.tipMsg).toBe('同一公司下已有同名电价模板');
      // Another company may use the name.
      await addTemplate(template(south.id, '重名模板'));
    });

    it("refuses another company's templates: one, edit, delete 404; filters and adds naming that company 403", async () => {
      const foreign = await demoTemplateOf(be01);
      for (const r of [
        await t.api.post('/operation/price/template/query/one', eastUser, { id: foreign }),
        await t.api.post('/operation/price/template/edit', eastUser, { id: foreign, ...template(east.id, 'x') }),
        await t.api.get('/operation/price/template/delete', eastUser, { id: foreign }),
        await t.api.post('/operation/price/cycle/query/list', eastUser, { templateId: foreign }),
        await t.api.post('/operation/price/cycle/add/batch', eastUser, { templateId: foreign, cycles: [cycle('x', [1])] }),
      ]) {
        expect(r.status).toBe(404);
        expect(r.body.tipMsg).toBe('电价模板不存在');
      }
      expect((await t.api.post('/operation/price/template/query/page', eastUser, { companyId: south.id })).status).toBe(403);
      expect((await t.api.post('/operation/price/template/add', eastUser, template(south.id, 'x'))).status).toBe(403);
      // Moving one's own template to another company is refused too.
      const own = await addTemplate(template(east.id, '搬家模板'), eastUser);
      expect((await t.api.post('/operation/price/template/edit', eastUser, { id: own, ...template(south.id, '搬家模板') })).status).toBe(403);
    });

    it('edits a template; refuses changes that would break the stations using it', async () => {
      const id = await demoTemplateOf(sh01);
      const cur = (await t.api.post<PriceTemplateDetail>('/operation/price/template/query/one', admin, { id })).body.data;
      const body = { id, name: cur.name, type: cur.type, billingSystem: cur.billingSystem, voltageLevel: '1-10kV', companyId: cur.companyId, currency: cur.currency, remark: '改过' };
      const ok = await t.api.post('/operation/price/template/edit', admin, body);
      expect(ok.body.errorCode).toBe('00000');
      const currency = await t.api.post('/operation/price/template/edit', admin, { ...body, currency: 'USD' });
      expect(currency.status).toBe(406);
      expect(currency.body.tipMsg).toBe('使用该模板的站点币种与新币种不一致');
      const billing = await t.api.post('/operation/price/template/edit', admin, { ...body, billingSystem: 'singlePart' });
      expect(billing.status).toBe(406);
      expect(billing.body.tipMsg).toBe('周期「全年」：单一制电价不设需量电价或容量电价');
      const moved = await t.api.post('/operation/price/template/edit', admin, { ...body, companyId: south.id });
      expect(moved.status).toBe(406);
      expect(moved.body.tipMsg).toBe('使用该模板的站点不在新公司之下');
      // Up to the group is fine: the station is under it.
      expect((await t.api.post('/operation/price/template/edit', admin, { ...body, companyId: group.id })).body.errorCode).toBe('00000');
      expect((await t.api.post('/operation/price/template/edit', admin, body)).body.errorCode).toBe('00000');
      const after = (await t.api.post<PriceTemplateDetail>('/operation/price/template/query/one', admin, { id })).body.data;
      expect(after).toMatchObject({ voltageLevel: '1-10kV', remark: '改过', companyId: east.id });
    });

    it('refuses to delete a template a station uses (406); deletes an unused one with its cycles', async () => {
      const used = await demoTemplateOf(sh01);
      const r = await t.api.get('/operation/price/template/delete', admin, { id: used });
      expect(r.status).toBe(406);
      expect(r.body.tipMsg).toBe('电价模板正被站点使用，不能删除');
      expect(r.body.errorMsg).toContain('上海临港储能电站');
      const id = await addTemplate(template(east.id, '将删除'));
      await t.api.post('/operation/price/cycle/add/batch', admin, { templateId: id, cycles: [cycle('全年', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])] });
      const del = await t.api.get('/operation/price/template/delete', admin, { id });
      expect(del.body.errorCode).toBe('00000');
      expect(await t.ctx.db.select().from(priceTemplate).where(eq(priceTemplate.id, id))).toEqual([]);
      expect(await t.ctx.db.select().from(priceCycle).where(eq(priceCycle.templateId, id))).toEqual([]);
      expect((await t.api.post('/operation/price/template/query/one', admin, { id })).status).toBe(404);
    });
  });

  describe('operation price cycles', () => {
    let tpl: number;
    beforeAll(async () => {
      tpl = await addTemplate(template(east.id, '周期测试'));
    });
    const batch = (cycles: unknown[], token = admin) => t.api.post<{ ids: number[] }>('/operation/price/cycle/add/batch', token, { templateId: tpl, cycles });
    const list = async () => (await t.api.post<PriceCycleRecord[]>('/operation/price/cycle/query/list', admin, { templateId: tpl })).body.data;

    it('adds several cycles at once and lists them in calendar order', async () => {
      const r = await batch([cycle('夏季', [8, 6, 7]), cycle('春秋', [3, 4, 5, 9, 10, 11])]);
      expect(r.body.errorCode, r.body.tipMsg).toBe('00000');
      expect(r.body.data.ids).toHaveLength(2);
      const cycles = await list();
      expect(cycles.map((c) => [c.name, c.months])).toEqual([['春秋', [3, 4, 5, 9, 10, 11]], ['夏季', [6, 7, 8]]]);
      const one = await t.api.post<PriceCycleRecord>('/operation/price/cycle/query/one', admin, { id: r.body.data.ids[0] });
      expect(one.body.data).toMatchObject({ name: '夏季', periods: DAY, tipPrice: 1.35, peakPrice: 1.12, flatPrice: 0.68, valleyPrice: 0.31, deepValleyPrice: null, demandPrice: 40.8, capacityPrice: null });
    });

    it('refuses a partition with a gap, an overlap or off the quarter hour, naming the times (406)', async () => {
      const gap = await batch([cycle('冬季', [12], { periods: [band('00:00', '10:00', 'valley'), band('11:00', '24:00', 'flat')] })]);
      expect(gap.status).toBe(406);
      expect(gap.body.tipMsg).toBe('10:00–11:00 未设置时段');
      const overlap = await batch([cycle('冬季', [12], { periods: [band('00:00', '12:00', 'valley'), band('11:00', '24:00', 'flat')] })]);
      expect(overlap.status).toBe(406);
      expect(overlap.body.tipMsg).toBe('11:00–12:00 时段重叠');
      const step = await batch([cycle('冬季', [12], { periods: [band('00:00', '07:50', 'valley'), band('07:50', '24:00', 'flat')] })]);
      expect(step.body.tipMsg).toBe('07:50 不是15分钟的整数倍');
      const tail = await batch([cycle('冬季', [12], { periods: [band('00:00', '23:00', 'flat')] })]);
      expect(tail.body.tipMsg).toBe('23:00–24:00 未设置时段');
    });

    it('refuses months another cycle has, missing prices, and a two-part cycle without demand or capacity charge (406)', async () => {
      const month = await batch([cycle('冬季', [12, 3])]);
      expect(month.status).toBe(406);
      expect(month.body.tipMsg).toBe('3月已属于周期「春秋」');
      const price = await batch([cycle('冬季', [12], { peakPrice: null })]);
      expect(price.body.tipMsg).toBe('峰时段未设置电价');
      const charge = await batch([cycle('冬季', [12], { demandPrice: null })]);
      expect(charge.body.tipMsg).toBe('两部制电价需设置需量电价或容量电价');
      const capacity = await batch([cycle('冬季', [12], { demandPrice: null, capacityPrice: 28 })]);
      expect(capacity.body.errorCode).toBe('00000');
    });

    it('is all-or-nothing: one bad cycle of a batch leaves nothing written', async () => {
      const before = await list();
      const r = await batch([cycle('一月', [1]), cycle('二月', [2], { periods: [band('00:00', '12:00', 'flat')] })]);
      expect(r.status).toBe(406);
      expect(r.body.tipMsg).toBe('周期「二月」：12:00–24:00 未设置时段');
      // Two new cycles claiming the same month.
      const twice = await batch([cycle('一月', [1]), cycle('又一月', [1, 2])]);
      expect(twice.body.tipMsg).toBe('周期「又一月」：1月已属于周期「一月」');
      const dupName = await batch([cycle('夏季', [1])]);
      expect(dupName.status).toBe(406);
      expect(dupName.body.tipMsg).toBe('同一模板下已有同名周期');
      expect(await list()).toEqual(before);
    });

    it('answers malformed cycles with 400 naming the field', async () => {
      const cases: [unknown, RegExp][] = [
        [{ templateId: tpl, cycles: [] }, /^cycles: /],
        [{ templateId: tpl, cycles: [cycle('x', [1], { periods: [band('00:00', '25:00', 'flat')] })] }, /^cycles\.0\.periods\.0\.end: 时间格式应为 HH:MM/],
        [{ templateId: tpl, cycles: [cycle('x', [1], { periods: [band('00:00', '24:00', 'noon' as 'flat')] })] }, /^cycles\.0\.periods\.0\.period: /],
        [{ templateId: tpl, cycles: [cycle('x', [0])] }, /^cycles\.0\.months\.0: 月份应在1-12之间/],
        [{ templateId: tpl, cycles: [cycle('x', [1, 1])] }, /^cycles\.0\.months: 月份重复/],
        [{ templateId: tpl, cycles: [cycle('x', [1], { flatPrice: -1 })] }, /^cycles\.0\.flatPrice: 价格不能为负数/],
        [{ templateId: tpl, cycles: [cycle('x', [1], { periods: 'all day' })] }, /^cycles\.0\.periods: /],
        [{ cycles: [cycle('x', [1])] }, /^templateId不能为空$/],
      ];
      for (const [body, tip] of cases) {
        const r = await t.api.post('/operation/price/cycle/add/batch', admin, body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.tipMsg).toMatch(tip);
      }
    });

    it('edits a cycle (neighbouring bands of one type become one) and refuses an edit into another cycle\'s months', async () => {
      const summer = (await list()).find((c) => c.name === '夏季')!;
      const periods = [band('00:00', '06:00', 'valley'), band('06:00', '08:00', 'valley'), band('08:00', '24:00', 'flat')];
      const ok = await t.api.post('/operation/price/cycle/edit', admin, { id: summer.id, ...cycle('盛夏', [7, 8], { periods }) });
      expect(ok.body.errorCode, ok.body.tipMsg).toBe('00000');
      const one = (await t.api.post<PriceCycleRecord>('/operation/price/cycle/query/one', admin, { id: summer.id })).body.data;
      expect(one).toMatchObject({ name: '盛夏', months: [7, 8], periods: [band('00:00', '08:00', 'valley'), band('08:00', '24:00', 'flat')] });
      const bad = await t.api.post('/operation/price/cycle/edit', admin, { id: summer.id, ...cycle('盛夏', [5, 7]) });
      expect(bad.status).toBe(406);
      expect(bad.body.tipMsg).toBe('5月已属于周期「春秋」');
      // Its own months are not "taken".
      expect((await t.api.post('/operation/price/cycle/edit', admin, { id: summer.id, ...cycle('盛夏', [6, 7, 8]) })).body.errorCode).toBe('00000');
    });

    it("refuses another company's cycle: one, edit, delete 404", async () => {
      const [foreign] = (await t.api.post<PriceCycleRecord[]>('/operation/price/cycle/query/list', admin, { templateId: await demoTemplateOf(be01) })).body.data;
      expect((await t.api.post('/operation/price/cycle/query/one', eastUser, { id: foreign!.id })).status).toBe(404);
      expect((await t.api.post('/operation/price/cycle/edit', eastUser, { id: foreign!.id, ...cycle('x', [1]) })).status).toBe(404);
      expect((await t.api.get('/operation/price/cycle/delete', eastUser, { id: foreign!.id })).status).toBe(404);
      expect((await t.api.post<PriceCycleRecord[]>('/operation/price/cycle/query/list', admin, { templateId: await demoTemplateOf(be01) })).body.data).toHaveLength(1);
    });

    it('deletes a cycle', async () => {
      const winter = (await list()).find((c) => c.name === '冬季')!;
      expect((await t.api.get('/operation/price/cycle/delete', admin, { id: winter.id })).body.errorCode).toBe('00000');
      expect((await list()).map((c) => c.name)).not.toContain('冬季');
      expect((await t.api.get('/operation/price/cycle/delete', admin, { id: winter.id })).status).toBe(404);
    });

    it('lists templates with their cycles, and for a station only those it may use', async () => {
      const all = await t.api.post<PriceTemplateWithCycles[]>('/operation/price/cycle/query/templates', admin, {});
      expect(all.body.data.find((x) => x.id === tpl)!.cycles.map((c) => c.name)).toEqual(['春秋', '盛夏']);
      const forSh = await t.api.post<PriceTemplateWithCycles[]>('/operation/price/cycle/query/templates', admin, { siteId: sh01 });
      expect(forSh.body.data.length).toBeGreaterThan(1);
      expect(forSh.body.data.every((x) => x.currency === 'CNY' && x.companyId !== south.id)).toBe(true);
      const forBe = await t.api.post<PriceTemplateWithCycles[]>('/operation/price/cycle/query/templates', admin, { siteId: be01 });
      expect(forBe.body.data.map((x) => x.currency)).toEqual(['EUR']);
      expect((await t.api.post('/operation/price/cycle/query/templates', eastUser, { siteId: be01 })).status).toBe(404);
      expect((await t.api.post('/operation/price/cycle/query/templates', eastUser, { companyId: south.id })).status).toBe(403);
    });
  });

  describe('station price configuration', () => {
    /** The price.changed events written since the last mark (with their change, in one transaction). */
    let mark = 0;
    const changesSince = async (): Promise<PriceChange[]> =>
      (
        await t.ctx.database.sql.query<{ payload: PriceChange }>("select payload from domain_event where type = 'price.changed' and id > $1 order by id", [mark])
      ).rows.map((r) => r.payload);
    const markChanges = async () => {
      mark = (await t.ctx.database.sql.query<{ id: string | null }>('select max(id) as id from domain_event')).rows.map((r) => Number(r.id ?? 0))[0]!;
    };
    const config = (over: Record<string, unknown>) => ({ siteId: sh01, templateId: 0, startDate: '2025-01-01', serviceFee: 0.5, remark: null, ...over });

    it('lists a station\'s configuration; refuses an overlapping date range (406) and a range ending before it starts (400)', async () => {
      const [demo] = (await t.api.post<SitePriceCycleRecord[]>('/configure/price/cycle/query/list', eastUser, { siteId: sh01 })).body.data;
      expect(demo).toMatchObject({ siteId: sh01, siteCode: 'SH01', timeZone: 'Asia/Shanghai', startDate: '2023-06-18', endDate: null, currency: 'CNY', billingSystem: 'twoPart' });
      const tpl = await addTemplate(template(east.id, '2025 新电价'));
      await t.api.post('/operation/price/cycle/add/batch', admin, { templateId: tpl, cycles: [cycle('全年', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], { peakPrice: 1.5 })] });
      const overlap = await t.api.post('/configure/price/cycle/add', eastUser, config({ templateId: tpl }));
      expect(overlap.status).toBe(406);
      expect(overlap.body.tipMsg).toBe('日期范围与该站点已有的电价配置重叠');
      const backwards = await t.api.post('/configure/price/cycle/add', eastUser, config({ templateId: tpl, endDate: '2024-12-31' }));
      expect(backwards.status).toBe(400);
      expect(backwards.body.tipMsg).toBe('endDate: 结束日期不能早于开始日期');
      const badDate = await t.api.post('/configure/price/cycle/add', eastUser, config({ templateId: tpl, startDate: '2025-02-30' }));
      expect(badDate.status).toBe(400);
      expect(badDate.body.tipMsg).toMatch(/^startDate: /);

      // End the demo configuration, then the new template follows it.
      await markChanges();
      const edit = await t.api.post('/configure/price/cycle/edit', eastUser, { id: demo!.id, siteId: sh01, templateId: demo!.templateId, startDate: demo!.startDate, endDate: '2024-12-31', serviceFee: null });
      expect(edit.body.errorCode, edit.body.tipMsg).toBe('00000');
      expect(await changesSince()).toEqual([{ siteIds: [sh01], fromDate: '2023-06-18' }]);
      const add = await t.api.post<{ id: number }>('/configure/price/cycle/add', eastUser, config({ templateId: tpl }));
      expect(add.body.errorCode, add.body.tipMsg).toBe('00000');
      expect((await changesSince())[1]).toEqual({ siteIds: [sh01], fromDate: '2025-01-01' });
      const days = await tariffsForSite(t.ctx, sh01, '2024-12-31', '2025-01-01');
      expect(days.map((d) => [d.date, d.template?.id, d.serviceFee])).toEqual([['2024-12-31', demo!.templateId, null], ['2025-01-01', tpl, 0.5]]);
      expect(days[1]!.prices!.peak).toBe(1.5);
      const one = await t.api.post<SitePriceCycleRecord>('/configure/price/cycle/query/one', eastUser, { id: add.body.data.id });
      expect(one.body.data).toMatchObject({ templateName: '2025 新电价', startDate: '2025-01-01', endDate: null, serviceFee: 0.5 });
      // An open range starting before an open one overlaps it.
      const before = await t.api.post('/configure/price/cycle/add', eastUser, config({ templateId: tpl, startDate: '2024-12-31', endDate: '2024-12-31' }));
      expect(before.status).toBe(406);
    });

    it('tells the listeners about cycle edits of a template in use, for every station using it', async () => {
      const tpl = await demoTemplateOf(sh01);
      const [c] = (await t.api.post<PriceCycleRecord[]>('/operation/price/cycle/query/list', admin, { templateId: tpl })).body.data;
      await markChanges();
      const r = await t.api.post('/operation/price/cycle/edit', admin, { ...c, tipPrice: 1.4 });
      expect(r.body.errorCode, r.body.tipMsg).toBe('00000');
      expect(await changesSince()).toEqual([{ siteIds: [sh01], fromDate: '2023-06-18' }]);
      // A refused change tells nobody.
      await markChanges();
      await t.api.post('/operation/price/cycle/edit', admin, { ...c, periods: [band('00:00', '12:00', 'flat')] });
      expect(await changesSince()).toEqual([]);
    });

    it('refuses a template of another currency or of a company not above the station (406)', async () => {
      const eur = await addTemplate(template(group.id, '集团欧元', { currency: 'EUR' }));
      const r = await t.api.post('/configure/price/cycle/add', admin, config({ templateId: eur, startDate: '2030-01-01' }));
      expect(r.status).toBe(406);
      expect(r.body.tipMsg).toBe('电价模板币种与站点币种不一致');
      const southTpl = await addTemplate(template(south.id, '华南人民币'));
      const s = await t.api.post('/configure/price/cycle/add', admin, config({ templateId: southTpl, startDate: '2030-01-01' }));
      expect(s.status).toBe(406);
      expect(s.body.tipMsg).toBe('电价模板不属于站点所在公司或其上级公司');
      // A group template in the station's currency is fine (here: the 2025 configuration switched to it and back).
      const groupCny = await addTemplate(template(group.id, '集团人民币'));
      const rows = (await t.api.post<SitePriceCycleRecord[]>('/configure/price/cycle/query/list', admin, { siteId: sh01 })).body.data;
      const latest = rows.find((x) => x.startDate === '2025-01-01')!;
      const body = { id: latest.id, siteId: sh01, startDate: latest.startDate, endDate: null, serviceFee: latest.serviceFee };
      const ok = await t.api.post('/configure/price/cycle/edit', admin, { ...body, templateId: groupCny });
      expect(ok.body.errorCode, ok.body.tipMsg).toBe('00000');
      expect((await t.api.post<SitePriceCycleRecord>('/configure/price/cycle/query/one', admin, { id: latest.id })).body.data.templateName).toBe('集团人民币');
      expect((await t.api.post('/configure/price/cycle/edit', admin, { ...body, templateId: latest.templateId })).body.errorCode).toBe('00000');
    });

    it("refuses another company's station and configuration: 403 for a filter, 404 for an object", async () => {
      const [be] = (await t.api.post<SitePriceCycleRecord[]>('/configure/price/cycle/query/list', admin, { siteId: be01 })).body.data;
      expect((await t.api.post('/configure/price/cycle/query/list', eastUser, { siteId: be01 })).status).toBe(403);
      expect((await t.api.post('/configure/price/cycle/query/one', eastUser, { id: be!.id })).status).toBe(404);
      expect((await t.api.post('/configure/price/cycle/edit', eastUser, { id: be!.id, siteId: sh01, templateId: be!.templateId, startDate: '2040-01-01' })).status).toBe(404);
      expect((await t.api.get('/configure/price/cycle/delete', eastUser, { id: be!.id })).status).toBe(404);
      const add = await t.api.post('/configure/price/cycle/add', eastUser, config({ siteId: be01, templateId: be!.templateId, startDate: '2040-01-01' }));
      expect(add.status).toBe(404);
      // Moving one's own configuration onto a station one cannot see.
      const [own] = (await t.api.post<SitePriceCycleRecord[]>('/configure/price/cycle/query/list', eastUser, { siteId: sh01 })).body.data;
      const move = await t.api.post('/configure/price/cycle/edit', eastUser, { id: own!.id, siteId: be01, templateId: own!.templateId, startDate: '2040-01-01' });
      expect(move.status).toBe(404);
      // An EAST user's list holds only their station.
      const mine = await t.api.post<SitePriceCycleRecord[]>('/configure/price/cycle/query/list', eastUser, {});
      expect(new Set(mine.body.data.map((r) => r.siteId))).toEqual(new Set([sh01]));
    });

    it('refuses to delete a configuration that has started (its past days would lose their prices); deletes a future one and tells the listeners', async () => {
      const rows = (await t.api.post<SitePriceCycleRecord[]>('/configure/price/cycle/query/list', eastUser, { siteId: sh01 })).body.data;
      const latest = rows.find((r) => r.startDate === '2025-01-01')!;
      await markChanges();
      const started = await t.api.get('/configure/price/cycle/delete', eastUser, { id: latest.id });
      expect(started.status).toBe(406);
      expect(started.body.tipMsg).toBe(STARTED_PRICE_DELETE);
      expect(await changesSince()).toEqual([]);
      expect((await tariffsForSite(t.ctx, sh01, '2025-01-01', '2025-01-01'))[0]!.template?.id).toBe(latest.templateId);
      // A new version: the current one ends, the next starts from a date; that one may go before it starts.
      const end = await t.api.post('/configure/price/cycle/edit', eastUser, { id: latest.id, siteId: sh01, templateId: latest.templateId, startDate: latest.startDate, endDate: '2039-12-31', serviceFee: latest.serviceFee });
      expect(end.body.errorCode, end.body.tipMsg).toBe('00000');
      const next = await t.api.post<{ id: number }>('/configure/price/cycle/add', eastUser, config({ templateId: latest.templateId, startDate: '2040-01-01' }));
      expect(next.body.errorCode, next.body.tipMsg).toBe('00000');
      await markChanges();
      expect((await t.api.get('/configure/price/cycle/delete', eastUser, { id: next.body.data.id })).body.errorCode).toBe('00000');
      expect(await changesSince()).toEqual([{ siteIds: [sh01], fromDate: '2040-01-01' }]);
      const [day] = await tariffsForSite(t.ctx, sh01, '2040-01-01', '2040-01-01');
      expect(day!.template).toBeNull();
    });
  });

  it("deleting a station takes its price configuration and feed-in prices with it; the template stays", async () => {
    const siteId = (await newSite(t, east.id)).id;
    const tpl = await addTemplate(template(east.id, '随站点删除'));
    expect((await t.api.post('/configure/price/cycle/add', admin, { siteId, templateId: tpl, startDate: '2024-01-01' })).body.errorCode).toBe('00000');
    expect((await t.api.post('/configure/solar/price/cycle/add', admin, { siteId, startDate: '2024-01-01', price: 0.3 })).body.errorCode).toBe('00000');
    expect((await t.api.get('/operation/price/template/delete', admin, { id: tpl })).status).toBe(406);
    expect((await t.api.get('/configure/site/delete', admin, { id: siteId })).body.errorCode).toBe('00000');
    const left = await t.ctx.database.sql.query<{ n: number }>(
      'select (select count(*) from site_price_cycle where site_id = $1)::int + (select count(*) from solar_price_cycle where site_id = $1)::int as n',
      [siteId],
    );
    expect(left.rows[0]!.n).toBe(0);
    expect((await t.api.get('/operation/price/template/delete', admin, { id: tpl })).body.errorCode).toBe('00000');
  });

  describe('solar price cycles', () => {
    const solar = (over: Record<string, unknown>) => ({ siteId: be01, startDate: '2026-01-01', price: 0.068, ...over });
    const page = async (siteId: number) => (await t.api.post<Page<SolarPriceCycleRecord>>('/configure/solar/price/cycle/query/page', admin, { current: 1, pageSize: 20, siteId })).body.data;

    it('refuses an overlapping range (406); adds one after the current one ends, with prices per period', async () => {
      const [demo] = (await page(be01)).records;
      expect(demo).toMatchObject({ startDate: '2024-03-01', endDate: null, price: 0.0712, periodPrices: null, currency: 'EUR', siteCode: 'BE01' });
      const overlap = await t.api.post('/configure/solar/price/cycle/add', admin, solar({}));
      expect(overlap.status).toBe(406);
      expect(overlap.body.tipMsg).toBe('日期范围与该站点已有的光伏上网电价重叠');
      const ended = await t.api.post('/configure/solar/price/cycle/edit', admin, { id: demo!.id, siteId: be01, startDate: '2024-03-01', endDate: '2025-12-31', price: 0.0712 });
      expect(ended.body.errorCode, ended.body.tipMsg).toBe('00000');
      const add = await t.api.post<{ id: number }>('/configure/solar/price/cycle/add', admin, solar({ periodPrices: { peak: 0.11, tip: 0.13 }, remark: '2026 起' }));
      expect(add.body.errorCode, add.body.tipMsg).toBe('00000');
      const one = await t.api.post<SolarPriceCycleRecord>('/configure/solar/price/cycle/query/one', admin, { id: add.body.data.id });
      expect(one.body.data).toMatchObject({ price: 0.068, periodPrices: { peak: 0.11, tip: 0.13 }, remark: '2026 起' });
      const [day] = await tariffsForSite(t.ctx, be01, '2026-01-01', '2026-01-01');
      expect(day!.feedIn).toMatchObject({ price: 0.068, periods: { tip: 0.13, peak: 0.11, flat: 0.068, valley: 0.068, deepValley: 0.068 } });
      expect((await page(be01)).records.map((r) => r.startDate)).toEqual(['2026-01-01', '2024-03-01']);
    });

    it('answers bad input with 400 naming the field', async () => {
      const cases: [unknown, RegExp][] = [
        [solar({ price: -0.1 }), /^price: 价格不能为负数/],
        [solar({ price: undefined }), /^price不能为空$/],
        [solar({ periodPrices: { noon: 0.1 } }), /^periodPrices: /],
        [solar({ startDate: '2026-01-01', endDate: '2025-01-01' }), /^endDate: 结束日期不能早于开始日期$/],
        [solar({ siteId: 'BE01' }), /^siteId: /],
      ];
      for (const [body, tip] of cases) {
        const r = await t.api.post('/configure/solar/price/cycle/add', admin, body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.tipMsg).toMatch(tip);
      }
    });

    it("refuses another company's station and feed-in prices", async () => {
      const [be] = (await page(be01)).records;
      expect((await t.api.post('/configure/solar/price/cycle/query/page', eastUser, { siteId: be01 })).status).toBe(403);
      expect((await t.api.post('/configure/solar/price/cycle/query/one', eastUser, { id: be!.id })).status).toBe(404);
      expect((await t.api.post('/configure/solar/price/cycle/edit', eastUser, { id: be!.id, siteId: sh01, startDate: '2040-01-01', price: 1 })).status).toBe(404);
      expect((await t.api.get('/configure/solar/price/cycle/delete', eastUser, { id: be!.id })).status).toBe(404);
      expect((await t.api.post('/configure/solar/price/cycle/add', eastUser, solar({ startDate: '2040-01-01' }))).status).toBe(404);
      const mine = await t.api.post<Page<SolarPriceCycleRecord>>('/configure/solar/price/cycle/query/page', eastUser, { current: 1, pageSize: 10 });
      expect(mine.body.data.total).toBe(0);
    });

    it('refuses to delete a feed-in price that has started; deletes a future one', async () => {
      const [latest] = (await page(be01)).records;
      const started = await t.api.get('/configure/solar/price/cycle/delete', admin, { id: latest!.id });
      expect(started.status).toBe(406);
      expect(started.body.tipMsg).toBe(STARTED_PRICE_DELETE);
      const end = await t.api.post('/configure/solar/price/cycle/edit', admin, { id: latest!.id, siteId: be01, startDate: latest!.startDate, endDate: '2039-12-31', price: latest!.price, periodPrices: latest!.periodPrices });
      expect(end.body.errorCode, end.body.tipMsg).toBe('00000');
      const next = await t.api.post<{ id: number }>('/configure/solar/price/cycle/add', admin, solar({ startDate: '2040-01-01' }));
      expect(next.body.errorCode, next.body.tipMsg).toBe('00000');
      expect((await t.api.get('/configure/solar/price/cycle/delete', admin, { id: next.body.data.id })).body.errorCode).toBe('00000');
      expect((await page(be01)).records).toHaveLength(2);
      const [day] = await tariffsForSite(t.ctx, be01, '2040-01-01', '2040-01-01');
      expect(day!.feedIn).toBeNull();
    });
  });
});
