import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemRecord, maintLogRecord, pageOf, planRecord, planSiteRecord, type ItemRecord, type PlanRecord } from '@ess/contract';
import { domainEvent } from '../../db/schema/events.ts';
import { inspectionPlan, maintenanceLog } from '../../db/schema/maintenance.ts';
import { site } from '../../db/schema/site.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newSite, newUser, okData, seededCompanies, type FactoryUser } from '../../../test/factory.ts';

/**
 * Inspection items (CRUD, xlsx export and import through the one import path, delete refused while
 * a plan uses the item) and plans (add, edit, one, list, page, every allowed and refused
 * transition of the spec, stations and items of plans), with the scope refusals. The generator
 * has its own test (plan.generator.test.ts).
 */
describe.each(dbTargets(import.meta.url))('inspection items and plans on %s', (target) => {
  let t: TestApp;
  let admin: string;
  let east: { id: number };
  let south: { id: number };
  let siteA: { id: number };
  let siteB: { id: number };
  let foreignSite: { id: number };
  let planner: FactoryUser;
  let narrow: FactoryUser;

  beforeAll(async () => {
    // No jobs role: the periodic generator stays out of the way; starting a plan still runs its pass.
    t = await startTestApp(target, { ROLES: 'api' });
    admin = t.adminToken;
    ({ east, south } = await seededCompanies(t));
    siteA = await newSite(t, east.id);
    siteB = await newSite(t, east.id);
    await t.ctx.db.update(site).set({ timeZone: 'America/Los_Angeles' }).where(eq(site.id, siteB.id));
    foreignSite = await newSite(t, south.id);
    planner = await newUser(t, east.id, { menus: ['/patrol/plan', '/patrol/work'], siteIds: [siteA.id, siteB.id] });
    narrow = await newUser(t, east.id, { menus: ['/patrol/order'], siteIds: [siteA.id] });
  });
  afterAll(async () => t?.stop());

  const post = <T>(path: string, body: unknown, token = admin) => t.api.post<T>(path, token, body);
  const addItem = async (body: Record<string, unknown>, token = admin) => (await okData(post<{ id: number }>('/inspection/items/add', body, token))).id;
  const schedule = { kind: 'daily', startDate: '2026-01-01', time: '08:00', dueHours: 24 };

  describe('items', () => {
    it('adds, edits, lists and pages items; answers match the contract', async () => {
      const id = await addItem({ name: 'PCS 温度', deviceType: 'pcs', checkType: 'number', unit: '°C', min: -10, max: 45, standard: '≤45 °C' }, planner.token);
      await okData(post('/inspection/items/edit', { id, name: 'PCS 柜内温度', deviceType: 'pcs', checkType: 'number', unit: '°C', min: -10, max: 50 }, planner.token));
      const page = await okData(post<unknown>('/inspection/items/query/page', { keyword: '柜内温度' }, planner.token));
      const parsed = pageOf(itemRecord).parse(page);
      expect(parsed.records).toHaveLength(1);
      expect(parsed.records[0]).toMatchObject({ name: 'PCS 柜内温度', max: 50, unit: '°C', checkType: 'number', planCount: 0 });
      const list = await okData(post<ItemRecord[]>('/inspection/items/query/list', { checkType: 'number' }, planner.token));
      expect(list.map((i) => i.id)).toContain(id);
    });

    it('drops the range of a non-number item and refuses bad input, writing nothing', async () => {
      const id = await addItem({ name: '消防器材', checkType: 'status', unit: 'x', min: 1, max: 2 });
      const [rec] = (await okData(post<ItemRecord[]>('/inspection/items/query/list', { keyword: '消防器材' }))).filter((i) => i.id === id);
      expect(rec).toMatchObject({ unit: null, min: null, max: null });
      const refusals = [
        { name: 'x', checkType: 'number', min: 5, max: 1 },
        { name: 'x', checkType: 'text', deviceType: 'pcs', productId: 1 },
        { name: '', checkType: 'text' },
        { name: 'x', checkType: 'bogus' },
        { name: 'x', checkType: 'text', remark: 'r'.repeat(201) },
      ];
      for (const body of refusals) {
        const r = await post('/inspection/items/add', body);
        expect(r.status, JSON.stringify(body)).toBe(400);
      }
      const dup = await post('/inspection/items/add', { name: '消防器材', checkType: 'text' });
      expect(dup.status).toBe(406);
      expect(dup.body.tipMsg).toContain('同名');
    });

    it('exports a sheet the import takes back, and refuses a bad file whole', async () => {
      await addItem({ name: '电池簇电压', deviceType: 'batteryCluster', checkType: 'number', unit: 'V', min: 600, max: 900 });
      const res = await t.api.call('POST', '/inspection/items/export', { token: admin, body: { keyword: '电池簇电压' } });
      expect(res.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
      const ws = wb.worksheets[0]!;
      expect(ws.getRow(1).getCell(1).value).toBe('巡检项名称');
      expect(ws.getRow(2).getCell(1).value).toBe('电池簇电压');
      // Change the range, add a row, send it back.
      ws.getRow(2).getCell(7).value = 950;
      ws.addRow(['空调滤网', '空调', null, '拍照记录', null, null, null, '滤网清洁']);
      const upload = async (book: ExcelJS.Workbook) => {
        const form = new FormData();
        form.append('file', new Blob([await book.xlsx.writeBuffer()]), 'items.xlsx');
        return t.api.call<{ totalRows: number; created: number; updated: number }>('POST', '/inspection/items/import', { token: admin, rawBody: form });
      };
      const ok = await upload(wb);
      expect(ok.body.data, ok.body.tipMsg).toEqual({ totalRows: 2, created: 1, updated: 1 });
      const after = await okData(post<ItemRecord[]>('/inspection/items/query/list', { keyword: '电池簇电压' }));
      expect(after[0]?.max).toBe(950);
      // A bad row (unknown check type) refuses the file and writes nothing.
      ws.addRow(['坏行', null, null, '随便']);
      ws.getRow(2).getCell(7).value = 999;
      const bad = await upload(wb);
      expect(bad.status).toBe(406);
      expect(bad.body.tipMsg).toContain('检查类型');
      expect((await okData(post<ItemRecord[]>('/inspection/items/query/list', { keyword: '电池簇电压' })))[0]?.max).toBe(950);
      expect(await okData(post<ItemRecord[]>('/inspection/items/query/list', { keyword: '坏行' }))).toEqual([]);
    });
  });

  describe('plans', () => {
    let itemIds: number[];
    beforeAll(async () => {
      itemIds = [await addItem({ name: '计划项一', checkType: 'status' }, planner.token), await addItem({ name: '计划项二', checkType: 'photo' }, planner.token)];
    });

    const addPlan = async (extra: Record<string, unknown> = {}, token = planner.token) =>
      (await okData(post<{ id: number }>('/inspection/plan/add', { name: `计划${Math.random()}`, siteIds: [siteA.id], itemIds, schedule, ...extra }, token))).id;
    const one = (id: number, token = planner.token) => okData(post<PlanRecord>('/inspection/plan/query/one', { id }, token));
    const start = (id: number, token = planner.token) => t.api.get<{ status: string }>('/inspection/plan/start', token, { id });
    const toggle = (id: number, token = planner.token) => post<{ status: string }>('/inspection/plan/startOrStop', { id }, token);

    it('adds a stopped plan with its stations, items and schedule; one, list and page answer it', async () => {
      const id = await addPlan({ siteIds: [siteA.id, siteB.id], schedule: { kind: 'weekly', weekdays: [5, 1], startDate: '2026-01-01', time: '09:30', dueHours: 8 } });
      const p = planRecord.parse(await one(id));
      expect(p).toMatchObject({ status: 'stopped', expired: false, countFrom: 'schedule', ownerId: planner.id, nextDueDate: null });
      expect(p.schedule).toMatchObject({ kind: 'weekly', weekdays: [1, 5], time: '09:30', dueHours: 8 });
      expect(p.sites.map((s) => s.siteId).sort()).toEqual([siteA.id, siteB.id].sort());
      expect(p.items.map((i) => i.itemId)).toEqual(itemIds);
      const page = pageOf(planRecord).parse(await okData(post('/inspection/plan/query/page', { siteId: siteB.id }, planner.token)));
      expect(page.records.map((r) => r.id)).toContain(id);
      const rel = pageOf(planSiteRecord).parse(await okData(post('/inspection/plan/site/rel/query/page', { planId: id }, planner.token)));
      expect(rel.total).toBe(2);
      const items = await okData(post<{ records: { itemId: number; sort: number }[] }>('/inspection/inspection/item/rel/query/page', { planId: id }, planner.token));
      expect(items.records.map((r) => [r.itemId, r.sort])).toEqual([[itemIds[0], 1], [itemIds[1], 2]]);
    });

    it('every transition of the spec: start only from stopped, stop only from executing or pending, the toggle, expiry', async () => {
      const id = await addPlan();
      // stopped → start → executing (its start date has passed: the generator's pass activates it)
      expect((await start(id)).body.data.status).toBe('executing');
      // executing → start: refused
      const again = await start(id);
      expect(again.status).toBe(406);
      expect(again.body.tipMsg).toContain('只有已停止的计划可以启动');
      // executing → toggle → stopped
      expect((await toggle(id)).body.data.status).toBe('stopped');
      // stopped → toggle → started again
      expect((await toggle(id)).body.data.status).toBe('executing');
      // a plan whose start date is to come waits: pending, and stops from pending
      const later = await addPlan({ schedule: { ...schedule, startDate: '2099-01-01' } });
      expect((await start(later)).body.data.status).toBe('pending');
      const pendingAgain = await start(later);
      expect(pendingAgain.status).toBe(406);
      expect((await toggle(later)).body.data.status).toBe('stopped');
      // an expired plan cannot be started, by either call, and stays stopped
      const old = await addPlan({ schedule: { ...schedule, startDate: '2025-01-01', endDate: '2025-06-30' } });
      for (const r of [await start(old), await toggle(old)]) {
        expect(r.status).toBe(406);
        expect(r.body.tipMsg).toBe('计划已过期（结束日期已过），不能启动');
      }
      expect((await one(old)).status).toBe('stopped');
      expect((await one(old)).expired).toBe(true);
      // The journal: who, from, to.
      const log = await t.ctx.db.select().from(maintenanceLog).where(eq(maintenanceLog.entityId, later));
      const rows = log.filter((l) => l.entity === 'plan').map((l) => maintLogRecord.parse({ ...l, orderId: l.entityId, createdAt: l.createdAt.toISOString() }));
      expect(rows.map((r) => [r.action, r.fromState, r.toState, r.username])).toEqual([
        ['start', 'stopped', 'pending', planner.name],
        ['stop', 'pending', 'stopped', planner.name],
      ]);
      // Each change its domain event (rule 8), the refused ones none.
      const events = (await t.ctx.db.select().from(domainEvent).orderBy(domainEvent.id))
        .filter((e) => e.type.startsWith('plan.') && [id, later, old].includes((e.payload as { id: number }).id))
        .map((e) => [(e.payload as { id: number }).id, e.type, (e.payload as { from: string }).from, (e.payload as { to: string }).to]);
      expect(events).toEqual([
        [id, 'plan.started', 'stopped', 'pending'], [id, 'plan.activated', 'pending', 'executing'], [id, 'plan.stopped', 'executing', 'stopped'],
        [id, 'plan.started', 'stopped', 'pending'], [id, 'plan.activated', 'pending', 'executing'],
        [later, 'plan.started', 'stopped', 'pending'], [later, 'plan.stopped', 'pending', 'stopped'],
      ]);
    });

    it('edits a plan: stations and items replaced, schedule and group changed', async () => {
      const id = await addPlan();
      await okData(post('/inspection/plan/edit', { id, name: '改后', siteIds: [siteB.id], itemIds: [itemIds[1]], schedule: { kind: 'monthly', day: 31, startDate: '2026-01-01' }, assigneeIds: [narrow.id], countFrom: 'completion' }, planner.token));
      const p = await one(id);
      expect(p).toMatchObject({ name: '改后', countFrom: 'completion', assignees: [{ userId: narrow.id, name: narrow.name }] });
      expect(p.sites.map((s) => s.siteId)).toEqual([siteB.id]);
      expect(p.items.map((i) => i.itemId)).toEqual([itemIds[1]]);
    });

    it('refuses bad plans with a clear 4xx and writes nothing', async () => {
      const before = (await t.ctx.db.select({ id: inspectionPlan.id }).from(inspectionPlan)).length;
      const bad: [Record<string, unknown>, number, string][] = [
        [{ schedule: { ...schedule, endDate: '2025-12-31' } }, 400, '结束日期不能早于开始日期'],
        [{ schedule: { kind: 'weekly', weekdays: [], startDate: '2026-01-01' } }, 400, '请选择星期'],
        [{ schedule: { kind: 'interval', everyDays: 0, startDate: '2026-01-01' } }, 400, '间隔天数'],
        [{ schedule: { ...schedule, time: '25:00' } }, 400, '时间格式'],
        [{ siteIds: [] }, 400, '请选择站点'],
        [{ itemIds: [itemIds[0], itemIds[0]] }, 400, '巡检项不能重复'],
        [{ remark: 'x'.repeat(201) }, 400, '备注不能超过200个字符'],
        [{ siteIds: [foreignSite.id] }, 403, '无权访问'],
        [{ itemIds: [999999] }, 404, '巡检项不存在'],
        [{ assigneeIds: [999999] }, 404, '执行人'],
      ];
      for (const [extra, status, tip] of bad) {
        const r = await post('/inspection/plan/add', { name: 'bad', siteIds: [siteA.id], itemIds, schedule, ...extra }, planner.token);
        expect([r.status, r.body.tipMsg], JSON.stringify(extra)).toEqual([status, expect.stringContaining(tip)]);
      }
      expect((await t.ctx.db.select({ id: inspectionPlan.id }).from(inspectionPlan)).length).toBe(before);
    });

    it('an item used by plans cannot be deleted (406 naming them); an unused one can', async () => {
      const used = await addItem({ name: '被使用的项', checkType: 'text' }, planner.token);
      await addPlan({ name: '甲计划', itemIds: [used] });
      await addPlan({ name: '乙计划', itemIds: [used] });
      const r = await t.api.get('/inspection/items/delete', admin, { id: used });
      expect(r.status).toBe(406);
      expect(r.body.tipMsg).toBe('巡检项已被巡检计划使用，不能删除：甲计划、乙计划');
      const free = await addItem({ name: '没人用的项', checkType: 'text' });
      await okData(t.api.get('/inspection/items/delete', admin, { id: free }));
      expect((await t.api.get('/inspection/items/delete', admin, { id: free })).status).toBe(404);
    });

    it('scope: another company’s plan, item or station is refused; a user without the menu is refused', async () => {
      const foreignPlan = await addPlan({ siteIds: [foreignSite.id], companyId: south.id }, admin);
      for (const r of [
        await post('/inspection/plan/query/one', { id: foreignPlan }, planner.token),
        await start(foreignPlan),
        await toggle(foreignPlan),
        await post('/inspection/plan/site/rel/query/list', { planId: foreignPlan }, planner.token),
        await post('/inspection/inspection/item/rel/query/page', { planId: foreignPlan }, planner.token),
      ]) expect(r.status).toBe(404);
      expect((await post('/inspection/plan/query/page', { siteId: foreignSite.id }, planner.token)).status).toBe(403);
      expect((await post('/inspection/items/query/page', { companyId: south.id }, planner.token)).status).toBe(403);
      // A user of the order screen only may not touch plans or items.
      expect((await post('/inspection/plan/query/page', {}, narrow.token)).status).toBe(403);
      expect((await post('/inspection/items/add', { name: 'x', checkType: 'text' }, narrow.token)).status).toBe(403);
      expect((await post('/inspection/plan/query/page', {}, '')).status).toBe(401);
    });
  });
});
