import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DefectRecord, MaintLogRecord, Page, WorkOrderDetail, WorkOrderRecord, WorkOrderState } from '@ess/contract';
import { domainEvent } from '../../db/schema/events.ts';
import { notification } from '../../db/schema/system.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { okData } from '../../../test/factory.ts';
import { SseStream } from '../../../test/sse-client.ts';
import { EXE, orderWorld, PNG, rowCounts, storedRow, upload, type OrderWorld } from './orders.fixtures.ts';

const HOUR = 3_600_000;

/** Inspection work orders, their log and defects over HTTP: every transition allowed and refused, results, photos, scope, events and notices. */
describe.each(dbTargets(import.meta.url))('inspection work orders on %s', (target) => {
  let t: TestApp;
  let w: OrderWorld;
  const streams: SseStream[] = [];
  const post = <T>(path: string, body: unknown, token = t.adminToken) => t.api.post<T>(path, token, body);

  beforeAll(async () => {
    t = await startTestApp(target, { SSE_HEARTBEAT_MS: '1000' });
    w = await orderWorld(t);
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t?.stop();
  });

  const addOrder = async (over: Record<string, unknown> = {}) =>
    (await okData(post<{ id: number }>('/inspection/work/order/add', {
      siteId: w.siteId, title: '月度巡检', itemIds: [w.items.status, w.items.number, w.items.text, w.items.photo],
      startAt: new Date(Date.now() - HOUR).toISOString(), dueAt: new Date(Date.now() + 8 * HOUR).toISOString(), ...over,
    }))).id;
  const one = (id: number, token = t.adminToken) => okData(post<WorkOrderDetail>('/inspection/work/order/query/one', { id }, token));
  const allocate = (id: number, assigneeId = w.worker.id, token = t.adminToken) => post('/inspection/work/order/allocation', { id, assigneeId }, token);
  const handle = (id: number, results: unknown[], complete = false, token = w.worker.token) => post('/inspection/work/order/handle', { id, results, complete }, token);
  const close = (id: number, note?: string, token = t.adminToken) => post('/inspection/work/order/close', { id, note }, token);

  /** Every item's passing result. */
  const passing = async (id: number) =>
    (await one(id)).items.map((i) =>
      i.checkType === 'status' ? { id: i.id, result: 'pass' }
      : i.checkType === 'number' ? { id: i.id, value: 20 }
      : i.checkType === 'text' ? { id: i.id, text: '正常' }
      : { id: i.id, photos: [] as string[] },
    );
  let photo: string;

  /** An order brought into `state` through the calls themselves. */
  async function orderIn(state: WorkOrderState): Promise<number> {
    const id = await addOrder();
    if (state === 'toBeAssigned') return id;
    if (state === 'closed') {
      expect((await close(id)).status).toBe(200);
      return id;
    }
    expect((await allocate(id)).status).toBe(200);
    if (state === 'pending') return id;
    const results = (await passing(id)).map((r) => ('photos' in r ? { ...r, photos: [photo] } : r));
    if (state === 'processing') {
      expect((await handle(id, results.slice(0, 1))).status).toBe(200);
      return id;
    }
    expect((await handle(id, results, true)).status).toBe(200);
    return id;
  }

  it('adds a manual order with its items copied, to be assigned, journaled and announced', async () => {
    photo = (await okData(upload(t, w.worker.token, PNG, 'site.png'))).suffix;
    const id = await addOrder({ note: '首次巡检' });
    const d = await one(id);
    expect(d).toMatchObject({ status: 'toBeAssigned', origin: 'manual', siteId: w.siteId, itemCount: 4, doneCount: 0, assigneeId: null, note: '首次巡检' });
    expect(d.no).toMatch(/^XJ\d{8}\d{6,}$/);
    expect(d.items.map((i) => i.checkType)).toEqual(['status', 'number', 'text', 'photo']);
    expect(d.items[1]).toMatchObject({ unit: '℃', min: 10, max: 35 });
    expect(d.openedAt).not.toBeNull();
    const page = await okData(post<Page<WorkOrderRecord>>('/inspection/work/order/query/page', { siteId: w.siteId, status: 'toBeAssigned' }));
    expect(page.records.some((r) => r.id === id)).toBe(true);
    const events = await t.ctx.db.select().from(domainEvent).where(eq(domainEvent.type, 'workorder.created'));
    expect(events.some((e) => (e.payload as { id: number }).id === id)).toBe(true);
  });

  const ACTIONS = ['allocate', 'handle', 'complete', 'close'] as const;
  const ALLOWED: Record<WorkOrderState, readonly (typeof ACTIONS)[number][]> = {
    toBeAssigned: ['allocate', 'close'],
    pending: ['handle', 'complete', 'close'],
    processing: ['handle', 'complete', 'close'],
    completed: [],
    closed: [],
  };

  it.each(Object.keys(ALLOWED) as WorkOrderState[])('from %s: allows exactly the actions of spec §4 and refuses the others, changing nothing', async (state) => {
    for (const action of ACTIONS) {
      const id = await orderIn(state);
      const before = await rowCounts(t);
      const res =
        action === 'allocate' ? await allocate(id)
        : action === 'close' ? await close(id, '现场无法进入')
        : await handle(id, (await passing(id)).map((r) => ('photos' in r ? { ...r, photos: [photo] } : r)), action === 'complete');
      const allowed = ALLOWED[state].includes(action);
      expect(res.status, `${state} ${action}: ${res.body.tipMsg}`).toBe(allowed ? 200 : 406);
      const after = await one(id);
      if (allowed) {
        const to = { allocate: 'pending', handle: 'processing', complete: 'completed', close: 'closed' }[action];
        expect(after.status).toBe(to);
        const log = await okData(post<Page<MaintLogRecord>>('/inspection/work/order/log/query/page', { orderId: id, pageSize: 50 }));
        expect(log.records.at(-1)).toMatchObject({ action, fromState: state, toState: to });
      } else {
        expect(res.body.tipMsg).toMatch(/当前状态为「.+」，不能/);
        expect(after.status).toBe(state);
        expect(await rowCounts(t)).toEqual(before);
      }
    }
  });

  it('lets only the assignee handle, and refuses an assignee who cannot see the station', async () => {
    const id = await orderIn('pending');
    const before = await rowCounts(t);
    const other = await handle(id, [], false, w.worker2.token);
    expect(other.status).toBe(406);
    expect(other.body.tipMsg).toBe('只有工单执行人可以处理该工单');
    expect(await rowCounts(t)).toEqual(before);
    const fresh = await addOrder();
    const stranger = await allocate(fresh, w.stranger.id);
    expect(stranger.status).toBe(406);
    expect((await one(fresh)).status).toBe('toBeAssigned');
  });

  it('records results; a failed or out-of-range item records a defect with the device and photos; completion needs every result', async () => {
    const id = await orderIn('pending');
    const d = await one(id);
    const [status, num, text, ph] = d.items;
    const before = await rowCounts(t);
    // Completing with items missing is refused whole: nothing of this call is kept.
    const partial = await handle(id, [{ id: status!.id, result: 'fail', photos: [photo], deviceId: w.devices[0]!.id }], true);
    expect(partial.status).toBe(406);
    expect(partial.body.tipMsg).toContain('未填写检查结果');
    expect(await rowCounts(t)).toEqual(before);

    const r = await handle(id, [
      { id: status!.id, result: 'fail', text: '柜门密封条破损', photos: [photo], deviceId: w.devices[0]!.id },
      { id: num!.id, value: 41.5, result: 'pass' },
    ]);
    expect(r.status, r.body.tipMsg).toBe(200);
    const after = await one(id);
    expect(after.status).toBe('processing');
    expect(after.startedAt).not.toBeNull();
    expect(after.items[0]).toMatchObject({ result: 'fail', deviceId: w.devices[0]!.id, outOfRange: false });
    expect(after.items[0]!.photos.map((p) => p.suffix)).toEqual([photo]);
    expect(after.items[1]).toMatchObject({ result: 'fail', value: 41.5, outOfRange: true });
    expect(after.failCount).toBe(2);
    expect(after.defectCount).toBe(2);
    const defects = await okData(post<DefectRecord[]>('/inspection/defect/record/query/list', { workOrderId: id }));
    const byItem = new Map(defects.map((x) => [x.workOrderItemId, x]));
    expect(byItem.get(status!.id)).toMatchObject({ deviceId: w.devices[0]!.id, status: 'open', level: 3, workOrderNo: d.no });
    expect(byItem.get(status!.id)!.photos.map((p) => p.suffix)).toEqual([photo]);
    expect(byItem.get(num!.id)!.description).toContain('41.5℃');
    // Handling the same failed item again does not record a second defect.
    expect((await handle(id, [{ id: status!.id, result: 'fail', text: '仍破损' }])).status).toBe(200);
    expect((await one(id)).defectCount).toBe(2);

    // Item rules: a number needs its value, a photo item a photo, a text its text.
    expect((await handle(id, [{ id: num!.id }])).status).toBe(400);
    expect((await handle(id, [{ id: ph!.id }])).status).toBe(400);
    expect((await handle(id, [{ id: text!.id }])).status).toBe(400);
    expect((await handle(id, [{ id: 999_999, result: 'pass' }])).status).toBe(400);

    const done = await handle(id, [{ id: text!.id, text: '已记录' }, { id: ph!.id, photos: [photo] }], true);
    expect(done.status, done.body.tipMsg).toBe(200);
    expect(await one(id)).toMatchObject({ status: 'completed', doneCount: 4 });
  });

  it('refuses 21 photos, a renamed executable, a 25 MB image and a stored non-image, changing nothing', async () => {
    const id = await orderIn('pending');
    const [status] = (await one(id)).items;
    const before = await rowCounts(t);
    const many = await handle(id, [{ id: status!.id, result: 'fail', photos: Array.from({ length: 21 }, (_, i) => `${photo.slice(0, -4)}${i}.png`) }]);
    expect(many.status).toBe(400);
    expect(many.body.tipMsg).toContain('20');
    const exe = await upload(t, w.worker.token, EXE, 'photo.png');
    expect(exe.status).toBe(406);
    expect(exe.body.errorCode).toBe('A0420');
    const big = await upload(t, w.worker.token, Buffer.concat([PNG, Buffer.alloc(25 * 1024 * 1024)]), 'big.png');
    expect(big.status).toBe(413);
    // The same refusals when a record names such files (say, stored while the upload limit was higher).
    const { east } = await import('../../../test/factory.ts').then((f) => f.seededCompanies(t));
    const bigStored = await storedRow(t, east.id, { size: 25 * 1024 * 1024 });
    const zip = await storedRow(t, east.id, { mime: 'application/zip', ext: 'zip' });
    const r1 = await handle(id, [{ id: status!.id, result: 'fail', photos: [bigStored] }]);
    expect(r1.status).toBe(413);
    const r2 = await handle(id, [{ id: status!.id, result: 'fail', photos: [zip] }]);
    expect(r2.status).toBe(406);
    const d = await post('/inspection/defect/record/add', { siteId: w.siteId, level: 2, description: '漏液', photos: [bigStored] });
    expect(d.status).toBe(413);
    expect(await rowCounts(t)).toEqual(before);
    expect((await one(id)).status).toBe('pending');
  });

  it('refuses a 201-character note, a foreign station, a foreign order and a missing permission, changing nothing', async () => {
    const id = await orderIn('toBeAssigned');
    const before = await rowCounts(t);
    const long = await post('/inspection/work/order/allocation', { id, assigneeId: w.worker.id, note: 'x'.repeat(201) });
    expect(long.status).toBe(400);
    expect(long.body.tipMsg).toContain('200');
    expect((await close(id, 'y'.repeat(201))).status).toBe(400);
    const foreignAdd = await post('/inspection/work/order/add', {
      siteId: w.foreignSiteId, title: 'x', itemIds: [w.items.status], startAt: new Date().toISOString(), dueAt: new Date(Date.now() + HOUR).toISOString(),
    }, w.worker.token);
    expect([403, 404]).toContain(foreignAdd.status);
    expect((await post('/inspection/work/order/query/one', { id }, w.foreign.token)).status).toBe(404);
    expect((await allocate(id, w.foreign.id, w.foreign.token)).status).toBe(404);
    expect((await post('/inspection/work/order/query/one', { id }, w.stranger.token)).status).toBe(404);
    expect((await post('/inspection/work/order/query/page', { siteId: w.siteId }, w.stranger.token)).status).toBe(403);
    expect((await post('/inspection/work/order/query/page', {}, w.noMenu.token)).status).toBe(403);
    expect((await close(id, undefined, w.noMenu.token)).status).toBe(403);
    expect(await rowCounts(t)).toEqual(before);
    expect((await one(id)).status).toBe('toBeAssigned');
  });

  it('keeps the log as the journal: who, when, from, to, note; page and one', async () => {
    const id = await orderIn('toBeAssigned');
    await allocate(id);
    await close(id, '设备停运，取消巡检');
    const log = await okData(post<Page<MaintLogRecord>>('/inspection/work/order/log/query/page', { orderId: id }));
    expect(log.records.map((r) => [r.action, r.fromState, r.toState])).toEqual([
      ['create', 'toBeAssigned', 'toBeAssigned'], ['allocate', 'toBeAssigned', 'pending'], ['close', 'pending', 'closed'],
    ]);
    const last = log.records.at(-1)!;
    expect(last).toMatchObject({ note: '设备停运，取消巡检', userId: expect.any(Number) as number, orderId: id });
    expect(await okData(post<MaintLogRecord>('/inspection/work/order/log/query/one', { id: last.id }))).toEqual(last);
    expect((await post('/inspection/work/order/log/query/one', { id: last.id }, w.foreign.token)).status).toBe(404);
  });

  it('emits the domain event of each change and tells the assignee: message, popup and unread count', async () => {
    const s = await SseStream.open(t.url, w.worker.token);
    streams.push(s);
    await s.nextEvent('heartbeat');
    const id = await orderIn('toBeAssigned');
    const { no } = await one(id);
    expect((await allocate(id)).status).toBe(200);
    await t.ctx.outbox.drain();
    const popup = await s.nextEvent<{ title: string; content: string }>('PopupWindow', (d) => d.content.includes(no));
    expect(popup.data.title).toBe('巡检工单通知');
    expect(popup.data.content).toBe(`工单 ${no}：分配，当前状态：待处理`);
    await s.nextEvent('Unread');
    expect((await close(id, '改期')).status).toBe(200);
    await t.ctx.outbox.drain();
    const closed = await s.nextEvent<{ content: string }>('PopupWindow', (d) => d.content.includes(no));
    expect(closed.data.content).toBe(`工单 ${no}：关闭，当前状态：已关闭（备注：改期）`);
    const all = await t.ctx.db.select().from(domainEvent).orderBy(domainEvent.id);
    const types = all.filter((e) => (e.payload as { no?: string }).no === no).map((e) => e.type);
    expect(types).toEqual(['workorder.created', 'workorder.assigned', 'workorder.closed']);
    const changes = all.filter((e) => e.type === 'state.changed' && (e.payload as { machine: string; entityId: number }).entityId === id && (e.payload as { machine: string }).machine === 'inspection.workOrder');
    expect(changes.map((e) => (e.payload as { action: string }).action)).toEqual(['allocate', 'close']);
    const rows = await t.ctx.db.select().from(notification).where(and(eq(notification.userId, w.worker.id)));
    expect(rows.filter((n) => n.content.includes(no))).toHaveLength(2);
    // Delivered again (at least once), the same events notify no second time.
    await t.ctx.outbox.drain();
    expect((await t.ctx.db.select().from(notification).where(eq(notification.userId, w.worker.id))).filter((n) => n.content.includes(no))).toHaveLength(2);
  });

  it('edits an open order and refuses editing a completed one; the phone lists the caller’s own orders', async () => {
    const id = await orderIn('pending');
    expect((await post('/inspection/work/order/edit', { id, title: '改名巡检', note: '改' })).status).toBe(200);
    expect(await one(id)).toMatchObject({ title: '改名巡检', note: '改' });
    const bad = await post('/inspection/work/order/edit', { id, dueAt: new Date(Date.now() - 10 * HOUR).toISOString() });
    expect(bad.status).toBe(400);
    const mine = await okData(post<WorkOrderRecord[]>('/inspection/work/order/query/list', { mine: true }, w.worker.token));
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((o) => o.assigneeId === w.worker.id)).toBe(true);
    const done = await orderIn('completed');
    expect((await post('/inspection/work/order/edit', { id: done, title: 'x' })).status).toBe(406);
    const xlsx = await t.api.call('POST', '/inspection/work/order/export', { token: t.adminToken, body: { siteId: w.siteId } });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-disposition')).toContain('.xlsx');
  });
});
