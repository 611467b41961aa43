import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defectRecord, pageOf, type DefectRecord, type Page } from '@ess/contract';
import { domainEvent } from '../../db/schema/events.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newDevice, okData } from '../../../test/factory.ts';
import { orderWorld, PNG, rowCounts, upload, type OrderWorld } from './orders.fixtures.ts';

/**
 * Defects by hand over HTTP (rule 4): add with device and photos, one, list, page with filters,
 * edit (device, level, description, photos, status open ↔ resolved with its event; a defect under
 * repair follows its repair order), the export, the station's devices with their open defects, and
 * the refusals (bad input, a device of another station, a foreign station or defect, no menu).
 */
describe.each(dbTargets(import.meta.url))('defect records on %s', (target) => {
  let t: TestApp;
  let w: OrderWorld;
  let photo: string;
  const post = <T>(path: string, body: unknown, token = t.adminToken) => t.api.post<T>(path, token, body);
  const add = (body: Record<string, unknown>, token = w.worker.token) => post<{ id: number }>('/inspection/defect/record/add', { siteId: w.siteId, level: 3, ...body }, token);
  const one = (id: number, token = w.worker.token) => okData(post<DefectRecord>('/inspection/defect/record/query/one', { id }, token));
  const edit = (body: Record<string, unknown>, token = w.worker.token) => post('/inspection/defect/record/edit', body, token);

  beforeAll(async () => {
    t = await startTestApp(target);
    w = await orderWorld(t);
    photo = (await okData(upload(t, w.worker.token, PNG, 'leak.png'))).suffix;
  });
  afterAll(async () => t?.stop());

  it('adds a defect with its device and photos; one, list and page (filtered) answer it as the contract says', async () => {
    const pcs = w.devices[0]!;
    const id = (await okData(add({ deviceId: pcs.id, level: 2, description: 'PCS 柜门密封条老化漏水', photos: [photo] }))).id;
    const d = await one(id);
    expect(() => defectRecord.parse(d)).not.toThrow();
    expect(d).toMatchObject({ siteId: w.siteId, deviceId: pcs.id, level: 2, status: 'open', foundBy: w.worker.id, workOrderId: null, repairOrderId: null });
    expect(d.no).toMatch(/^QX\d{8}/);
    expect(d.photos.map((p) => p.suffix)).toEqual([photo]);

    const page = await okData(post<Page<DefectRecord>>('/inspection/defect/record/query/page', { current: 1, pageSize: 10, siteId: w.siteId, deviceId: pcs.id, level: 2, keyword: '密封条' }));
    expect(() => pageOf(defectRecord).parse(page)).not.toThrow();
    expect(page.records.map((r) => r.id)).toEqual([id]);
    expect((await okData(post<Page<DefectRecord>>('/inspection/defect/record/query/page', { current: 1, pageSize: 10, siteId: w.siteId, status: 'resolved', keyword: '密封条' }))).total).toBe(0);
    const list = await okData(post<DefectRecord[]>('/inspection/defect/record/query/list', { siteId: w.siteId, keyword: '密封条' }));
    expect(list.map((r) => r.id)).toEqual([id]);

    const [event] = (await t.ctx.db.select().from(domainEvent).where(eq(domainEvent.type, 'defect.recorded'))).filter((e) => (e.payload as { id: number }).id === id);
    expect(event!.payload).toMatchObject({ no: d.no, siteId: w.siteId, deviceId: pcs.id, level: 2, userId: w.worker.id });
  });

  it('edits device, level, description and photos; sets the status open ↔ resolved with its event; a defect under repair keeps the repair’s status', async () => {
    const id = (await okData(add({ description: '消防器材过期' }))).id;
    const bms = w.devices[1]!;
    expect((await edit({ id, deviceId: bms.id, level: 4, description: '灭火器压力不足', photos: [photo] })).status).toBe(200);
    expect(await one(id)).toMatchObject({ deviceId: bms.id, level: 4, description: '灭火器压力不足', status: 'open' });
    expect((await one(id)).photos).toHaveLength(1);
    // Absent fields stay; null removes the device.
    expect((await edit({ id, deviceId: null })).status).toBe(200);
    expect(await one(id)).toMatchObject({ deviceId: null, level: 4, description: '灭火器压力不足' });

    expect((await edit({ id, status: 'resolved' })).status).toBe(200);
    expect((await edit({ id, status: 'open' })).status).toBe(200);
    const events = (await t.ctx.db.select().from(domainEvent).orderBy(domainEvent.id)).filter((e) => e.type.startsWith('defect.') && (e.payload as { id: number }).id === id);
    expect(events.map((e) => [e.type, (e.payload as { from?: string }).from, (e.payload as { to?: string }).to])).toEqual([
      ['defect.recorded', undefined, undefined], ['defect.resolved', 'open', 'resolved'], ['defect.reopened', 'resolved', 'open'],
    ]);

    // Raised to a repair order, the defect is the repair's: its status cannot be set by hand.
    expect((await post('/inspection/repair/order/add', { defectId: id })).status).toBe(200);
    const before = await rowCounts(t);
    const refused = await edit({ id, status: 'resolved' });
    expect(refused.status).toBe(406);
    expect(refused.body.tipMsg).toBe('缺陷的维修状态随维修工单变化，不能直接修改');
    expect((await edit({ id, status: 'open' })).status).toBe(406);
    expect((await one(id)).status).toBe('repairing');
    expect(await rowCounts(t)).toEqual(before);
    const other = (await okData(add({ description: '电缆标识脱落' }))).id;
    expect((await edit({ id: other, status: 'repairing' })).status).toBe(406);
  });

  it('refuses bad input, a device of another station, a foreign station or defect and a missing menu, changing nothing', async () => {
    const id = (await okData(add({ description: '舱顶渗水' }))).id;
    const strangerDevice = await newDevice(t, w.otherSiteId, { type: 'pcs' });
    const before = await rowCounts(t);
    const cases: [string, Promise<{ status: number; body: { tipMsg?: string } }>, number][] = [
      ['no description', add({ description: '' }), 400],
      ['501-character description', add({ description: 'x'.repeat(501) }), 400],
      ['level 6', add({ description: 'x', level: 6 }), 400],
      ['21 photos', add({ description: 'x', photos: Array.from({ length: 21 }, (_, i) => `${photo.slice(0, -4)}${i}.png`) }), 400],
      ['a photo never uploaded', add({ description: 'x', photos: ['0123456789abcdef01234567.png'] }), 404],
      ['found in the future', add({ description: 'x', foundAt: new Date(Date.now() + 3_600_000).toISOString() }), 400],
      ['a device of another station', add({ description: 'x', deviceId: strangerDevice.id }), 400],
      ['another company’s station', add({ description: 'x', siteId: w.foreignSiteId }), 404],
      ['a station not granted', add({ description: 'x', siteId: w.otherSiteId }), 404],
      ['edit: a device of another station', edit({ id, deviceId: strangerDevice.id }), 400],
      ['edit: 21 photos', edit({ id, photos: Array.from({ length: 21 }, () => photo) }), 400],
      ['edit: a foreign user', edit({ id, level: 1 }, w.foreign.token), 404],
      ['edit: no menu', edit({ id, level: 1 }, w.noMenu.token), 403],
      ['add: no menu', add({ description: 'x' }, w.noMenu.token), 403],
    ];
    for (const [what, call, status] of cases) {
      const res = await call;
      expect(res.status, `${what}: ${res.body.tipMsg}`).toBe(status);
      expect(res.body.tipMsg, what).toBeTruthy();
    }
    expect(await rowCounts(t)).toEqual(before);
    expect(await one(id)).toMatchObject({ level: 3, deviceId: null, description: '舱顶渗水' });
    expect((await post('/inspection/defect/record/query/one', { id }, w.foreign.token)).status).toBe(404);
    expect((await post('/inspection/defect/record/query/one', { id }, w.stranger.token)).status).toBe(404);
    expect((await post('/inspection/defect/record/query/page', { siteId: w.foreignSiteId }, w.worker.token)).status).toBe(403);
    expect((await post('/inspection/defect/record/query/page', {}, w.noMenu.token)).status).toBe(403);
    expect((await post('/inspection/defect/record/device/rel/query/list', { siteId: w.foreignSiteId }, w.worker.token)).status).toBe(404);
  });

  it('lists the station’s devices with their open defects, and exports the defects as a sheet', async () => {
    const bms = w.devices[1]!;
    const loose = (await okData(add({ deviceId: bms.id, description: 'BMS 采样线松动' }))).id;
    const resolved = (await okData(add({ deviceId: bms.id, description: 'BMS 风扇积灰' }))).id;
    expect((await edit({ id: resolved, status: 'resolved' })).status).toBe(200);
    const open = Number((await t.ctx.database.sql.query<{ n: number }>(`select count(*)::int as n from inspection_defect where device_id = $1 and status <> 'resolved'`, [bms.id])).rows[0]!.n);
    const devices = await okData(post<{ deviceId: number; openDefects: number }[]>('/inspection/defect/record/device/rel/query/list', { siteId: w.siteId }, w.worker.token));
    expect(devices.map((d) => d.deviceId).sort()).toEqual(w.devices.map((d) => d.id).sort());
    expect(devices.find((d) => d.deviceId === bms.id)!.openDefects).toBe(open);
    expect((await okData(post<unknown[]>('/inspection/defect/record/device/rel/query/list', { siteId: w.siteId, deviceType: 'pcs' }, w.worker.token))).length).toBe(1);

    const res = await t.api.call('POST', '/inspection/defect/record/export', { token: w.worker.token, body: { siteId: w.siteId, keyword: 'BMS' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(1).value).toBe('缺陷编号');
    const rows = Array.from({ length: ws.rowCount - 1 }, (_, i) => ws.getRow(i + 2).getCell(1).text);
    // Every defect whose description or device names "BMS", and only those.
    const want = (await t.ctx.database.sql.query<{ no: string }>(
      `select d.no from inspection_defect d left join device v on v.id = d.device_id where d.site_id = $1 and (d.description like '%BMS%' or d.no like '%BMS%' or v.name like '%BMS%')`, [w.siteId],
    )).rows.map((r) => r.no);
    expect(rows.sort()).toEqual(want.sort());
    expect(rows).toEqual(expect.arrayContaining([(await one(loose)).no, (await one(resolved)).no]));
    expect((await t.api.call('POST', '/inspection/defect/record/export', { token: w.worker.token, body: { siteId: w.foreignSiteId } })).status).toBe(403);
  });
});
