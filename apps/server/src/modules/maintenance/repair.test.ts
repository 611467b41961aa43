import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DefectRecord, Page, RepairDetail, RepairRecord, RepairState } from '@ess/contract';
import { alarm } from '../../db/schema/alarm.ts';
import { repairAutoRule } from '../../db/schema/maintenance.ts';
import { telemetry } from '../../db/schema/telemetry.ts';
import { domainEvent } from '../../db/schema/events.ts';
import { appUser, notification } from '../../db/schema/system.ts';
import { DB_TARGETS, dbTargets, freshPostgres, startTestApp, type TestApp } from '../../../test/harness.ts';
import { FACTORY_PASSWORD, newAlarm, newDevice, newSite, okData, seededCompanies } from '../../../test/factory.ts';
import { orderWorld, PNG, rowCounts, upload, type OrderWorld } from './orders.fixtures.ts';
import { createAutomaticRepairs } from './repair.service.ts';

const MIN = 60_000;
const HOUR = 3_600_000;

/** Repair orders over HTTP: every transition allowed and refused, handling rules, defects and alarms as sources, automatic orders, events and notices. */
describe.each(dbTargets(import.meta.url))('repair orders on %s', (target) => {
  let t: TestApp;
  let w: OrderWorld;
  let photo: string;
  const post = <T>(path: string, body: unknown, token = t.adminToken) => t.api.post<T>(path, token, body);

  beforeAll(async () => {
    t = await startTestApp(target);
    w = await orderWorld(t);
    photo = (await okData(upload(t, w.worker.token, PNG, 'fault.png'))).suffix;
    // Automatic orders only where a test asks for them (the job also runs on its own every minute).
    const { east } = await seededCompanies(t);
    await t.ctx.db.insert(repairAutoRule).values({ companyId: east.id, enabled: false, maxLevel: 2, openMinutes: 10 });
  });
  afterAll(async () => t?.stop());

  const add = async (over: Record<string, unknown> = {}) =>
    (await okData(post<{ id: number }>('/inspection/repair/order/add', { siteId: w.siteId, deviceId: w.devices[0]!.id, description: 'PCS 风扇异响', level: 3, ...over }))).id;
  const one = (id: number, token = t.adminToken) => okData(post<RepairDetail>('/inspection/repair/order/query/one', { id }, token));
  const allocate = (id: number, token = t.adminToken) => post('/inspection/repair/order/allocation', { id, assigneeId: w.worker.id }, token);
  const checkIn = (id: number, token = w.worker.token) => post('/inspection/repair/order/check/in', { id, longitude: 121.47, latitude: 31.23, address: '储能站 1 号舱' }, token);
  const handle = (id: number, over: Record<string, unknown> = {}, token = w.worker.token) =>
    post('/inspection/repair/order/handle', {
      id, workDone: '更换风扇', parts: [{ name: '风扇', model: 'F-120', quantity: 1, unit: '个' }], photos: [photo],
      startAt: new Date(Date.now() - 2 * HOUR).toISOString(), endAt: new Date(Date.now() - HOUR).toISOString(), ...over,
    }, token);
  const accept = (id: number, pass: boolean, reason?: string, token = t.adminToken) => post('/inspection/repair/order/acceptance/inspection', { id, pass, reason }, token);

  async function repairIn(state: RepairState): Promise<number> {
    const id = await add();
    if (state === 'toBeDispatched') return id;
    expect((await allocate(id)).status).toBe(200);
    if (state === 'pending') return id;
    expect((await checkIn(id)).status).toBe(200);
    if (state === 'processing') return id;
    expect((await handle(id)).status).toBe(200);
    if (state === 'toBeAccepted') return id;
    expect((await accept(id, true)).status).toBe(200);
    return id;
  }

  const ACTIONS = ['allocate', 'checkIn', 'handle', 'accept', 'reject'] as const;
  const ALLOWED: Record<Exclude<RepairState, 'closed'>, readonly (typeof ACTIONS)[number][]> = {
    toBeDispatched: ['allocate'],
    pending: ['checkIn'],
    processing: ['handle'],
    toBeAccepted: ['accept', 'reject'],
    completed: [],
  };
  const TO = { allocate: 'pending', checkIn: 'processing', handle: 'toBeAccepted', accept: 'completed', reject: 'processing' } as const;

  it.each(Object.keys(ALLOWED) as (keyof typeof ALLOWED)[])('from %s: allows exactly the actions of spec §4 and refuses the others, changing nothing', async (state) => {
    for (const action of ACTIONS) {
      const id = await repairIn(state);
      const before = await rowCounts(t);
      const res =
        action === 'allocate' ? await allocate(id)
        : action === 'checkIn' ? await checkIn(id)
        : action === 'handle' ? await handle(id)
        : await accept(id, action === 'accept', action === 'reject' ? '风扇仍有异响' : undefined);
      const allowed = ALLOWED[state].includes(action);
      expect(res.status, `${state} ${action}: ${res.body.tipMsg}`).toBe(allowed ? 200 : 406);
      const after = await one(id);
      if (allowed) {
        expect(after.status).toBe(TO[action]);
        expect(after.timeline.at(-1)).toMatchObject({ action, fromState: state, toState: TO[action] });
      } else {
        expect(res.body.tipMsg).toMatch(/当前状态为「.+」，不能/);
        expect(after.status).toBe(state);
        expect(await rowCounts(t)).toEqual(before);
      }
    }
  });

  it('records check-in time and place, the work, and acceptance; a rejection returns it to the repairer with the reason', async () => {
    const id = await repairIn('processing');
    const checked = await one(id);
    expect(checked.checkInAt).not.toBeNull();
    expect(checked.acceptedAt).toBe(checked.checkInAt);
    expect(checked.checkInLocation).toEqual({ longitude: 121.47, latitude: 31.23, address: '储能站 1 号舱' });
    expect((await handle(id)).status).toBe(200);
    const handled = await one(id);
    expect(handled).toMatchObject({ status: 'toBeAccepted', workDone: '更换风扇', parts: [{ name: '风扇', model: 'F-120', quantity: 1, unit: '个' }] });
    expect(handled.handlePhotos.map((p) => p.suffix)).toEqual([photo]);
    const noReason = await accept(id, false);
    expect(noReason.status).toBe(400);
    expect(noReason.body.tipMsg).toContain('驳回时须填写原因');
    expect((await accept(id, false, '风扇仍有异响')).status).toBe(200);
    expect(await one(id)).toMatchObject({ status: 'processing', rejectCount: 1, lastRejectReason: '风扇仍有异响' });
    expect((await handle(id, { workDone: '重新紧固风扇' })).status).toBe(200);
    expect((await accept(id, true)).status).toBe(200);
    const done = await one(id);
    expect(done).toMatchObject({ status: 'completed', workDone: '重新紧固风扇' });
    expect(done.completedAt).not.toBeNull();
    expect(done.timeline.map((l) => l.action)).toEqual(['create', 'allocate', 'checkIn', 'handle', 'reject', 'handle', 'accept']);
  });

  it('refuses an end before the start, a 201-character note, 21 photos, a non-assignee, a foreign station and a missing permission, changing nothing', async () => {
    const id = await repairIn('processing');
    const before = await rowCounts(t);
    const backwards = await handle(id, { startAt: new Date(Date.now() - HOUR).toISOString(), endAt: new Date(Date.now() - 2 * HOUR).toISOString() });
    expect(backwards.status).toBe(400);
    expect(backwards.body.tipMsg).toContain('结束时间须晚于开始时间');
    expect((await handle(id, { note: 'x'.repeat(201) })).status).toBe(400);
    expect((await handle(id, { photos: Array.from({ length: 21 }, (_, i) => `${photo.slice(0, -4)}${i}.png`) })).status).toBe(400);
    const other = await handle(id, {}, w.worker2.token);
    expect(other.status).toBe(406);
    expect(other.body.tipMsg).toBe('只有维修人员可以进行此操作');
    expect((await post('/inspection/repair/order/add', { siteId: w.foreignSiteId, description: 'x' }, w.worker.token)).status).toBe(404);
    expect((await post('/inspection/repair/order/add', { siteId: w.siteId, deviceId: w.devices[0]!.id, description: 'x' }, w.foreign.token)).status).toBe(404);
    expect((await post('/inspection/repair/order/query/one', { id }, w.foreign.token)).status).toBe(404);
    expect((await handle(id, {}, w.foreign.token)).status).toBe(404);
    expect((await post('/inspection/repair/order/query/page', {}, w.noMenu.token)).status).toBe(403);
    expect((await post('/inspection/repair/order/allocation', { id, assigneeId: w.stranger.id })).status).toBe(406);
    expect(await rowCounts(t)).toEqual(before);
    expect((await one(id)).status).toBe('processing');
  });

  it('raises a repair order from a defect in one action, carrying device and photos; acceptance resolves the defect', async () => {
    const defectId = (await okData(post<{ id: number }>('/inspection/defect/record/add', {
      siteId: w.siteId, deviceId: w.devices[1]!.id, level: 2, description: 'BMS 采样线松动', photos: [photo],
    }, w.worker.token))).id;
    const id = await add({ siteId: null, deviceId: null, description: null, level: undefined, defectId });
    const r = await one(id);
    expect(r).toMatchObject({ source: 'defect', deviceId: w.devices[1]!.id, level: 2, description: 'BMS 采样线松动', defectId });
    expect(r.photos.map((p) => p.suffix)).toEqual([photo]);
    const d = await okData(post<DefectRecord>('/inspection/defect/record/query/one', { id: defectId }));
    expect(d).toMatchObject({ status: 'repairing', repairOrderId: id, repairOrderNo: r.no });
    const again = await post('/inspection/repair/order/add', { defectId });
    expect(again.status).toBe(406);
    await allocate(id);
    await checkIn(id);
    await handle(id);
    await accept(id, true);
    expect((await okData(post<DefectRecord>('/inspection/defect/record/query/one', { id: defectId }))).status).toBe('resolved');
  });

  it('raises a repair order from an alarm with device, level, description and the last hour of telemetry; shows the alarm live; one per alarm', async () => {
    const dev = w.devices[0]!;
    const startedAt = new Date(Date.now() - 40 * MIN);
    const a = await newAlarm(t, dev.id, { level: 1, description: 'IGBT 过温', startedAt });
    // Two reports in the hour before, one before it (not in the snapshot).
    const slots = await t.ctx.database.sql.query<{ n: number }>('select max(slot)::int as n from product_property where product_id = (select product_id from device where id = $1)', [dev.id]);
    const width = slots.rows[0]!.n;
    const v = (x: number) => Array.from({ length: width }, () => x);
    await t.ctx.db.insert(telemetry).values([
      { deviceId: dev.id, ts: new Date(Date.now() - 2 * HOUR), v: v(1) },
      { deviceId: dev.id, ts: new Date(Date.now() - 30 * MIN), v: v(2) },
      { deviceId: dev.id, ts: new Date(Date.now() - 10 * MIN), v: v(3) },
    ]);
    const id = (await okData(post<{ id: number }>('/inspection/repair/order/add', { alarmId: a.id }, w.worker.token))).id;
    const r = await one(id);
    expect(r).toMatchObject({ source: 'alarm', alarmId: a.id, alarmNo: a.no, alarmStatus: 'active', deviceId: dev.id, level: 1, title: 'IGBT 过温' });
    expect(r.alarmStartedAt).toBe(startedAt.toISOString());
    expect(r.description).toContain(a.no);
    expect(r.telemetrySnapshot!.series.length).toBeGreaterThan(0);
    expect(r.telemetrySnapshot!.series[0]!.points.map((p) => p[1])).toEqual([2, 3]);
    const dup = await post('/inspection/repair/order/add', { alarmId: a.id });
    expect(dup.status).toBe(406);
    expect(dup.body.tipMsg).toBe(`该告警已有维修工单：${r.no}`);
    // The alarm ends: the order shows it at once.
    await t.ctx.db.update(alarm).set({ status: 'ended', endedAt: new Date() }).where(eq(alarm.id, a.id));
    const page = await okData(post<Page<RepairRecord>>('/inspection/repair/order/query/page', { alarmId: a.id }));
    expect(page.records[0]).toMatchObject({ id, alarmStatus: 'ended' });
    expect(page.records[0]!.alarmEndedAt).not.toBeNull();
    // An alarm of a station the caller cannot see is not found.
    const { south } = await seededCompanies(t);
    const foreignDevice = await newDevice(t, (await newSite(t, south.id)).id, { type: 'pcs' });
    const foreignAlarm = await newAlarm(t, foreignDevice.id, { level: 1 });
    expect((await post('/inspection/repair/order/add', { alarmId: foreignAlarm.id }, w.worker.token)).status).toBe(404);
  });

  it('creates an automatic order for an alarm of level ≤ N open longer than M minutes, exactly once', async () => {
    const { east } = await seededCompanies(t);
    await t.ctx.db.update(repairAutoRule).set({ enabled: true, maxLevel: 2, openMinutes: 15 }).where(eq(repairAutoRule.companyId, east.id));
    // One open alarm per source (device and dictionary entry): a device each.
    const dev = async () => (await newDevice(t, w.siteId, { type: 'bms' })).id;
    const old = await newAlarm(t, await dev(), { level: 2, startedAt: new Date(Date.now() - 20 * MIN) });
    const young = await newAlarm(t, await dev(), { level: 1, startedAt: new Date(Date.now() - 5 * MIN) });
    const mild = await newAlarm(t, await dev(), { level: 3, startedAt: new Date(Date.now() - 60 * MIN) });
    const ended = await newAlarm(t, await dev(), { level: 1, startedAt: new Date(Date.now() - 60 * MIN), endedAt: new Date(Date.now() - 30 * MIN) });
    await createAutomaticRepairs(t.ctx);
    await createAutomaticRepairs(t.ctx);
    const mine = async (alarmId: number) => (await okData(post<RepairRecord[]>('/inspection/repair/order/query/list', { alarmId }))).length;
    expect(await mine(old.id)).toBe(1);
    expect(await mine(young.id)).toBe(0);
    expect(await mine(mild.id)).toBe(0);
    expect(await mine(ended.id)).toBe(0);
    const [auto] = await okData(post<RepairRecord[]>('/inspection/repair/order/query/list', { alarmId: old.id }));
    expect(auto).toMatchObject({ source: 'autoAlarm', status: 'toBeDispatched', createdByName: '系统', level: 2 });
    // Ten minutes later the young one is due too.
    await createAutomaticRepairs(t.ctx, new Date(Date.now() + 11 * MIN));
    expect(await mine(young.id)).toBe(1);
    // A manual order of an alarm already ordered automatically is refused.
    expect((await post('/inspection/repair/order/add', { alarmId: old.id })).status).toBe(406);
    await t.ctx.db.update(repairAutoRule).set({ enabled: false }).where(eq(repairAutoRule.companyId, east.id));
  });

  it('emits the domain event of each change and tells the repairer', async () => {
    const id = await repairIn('toBeAccepted');
    const { no } = await one(id);
    expect((await accept(id, false, '未清理现场')).status).toBe(200);
    await t.ctx.outbox.drain();
    const types = (await t.ctx.db.select().from(domainEvent).orderBy(domainEvent.id)).filter((e) => (e.payload as { no?: string }).no === no).map((e) => e.type);
    expect(types).toEqual(['repair.created', 'repair.assigned', 'repair.checkedIn', 'repair.handled', 'repair.rejected']);
    const notes = (await t.ctx.db.select().from(notification).where(eq(notification.userId, w.worker.id)).orderBy(notification.id)).filter((n) => n.content.includes(no));
    // The repairer's own check-in and handling tell nobody; dispatch and the rejection tell them.
    expect(notes.map((n) => n.content)).toEqual([`工单 ${no}：派单，当前状态：待处理`, `工单 ${no}：验收驳回，当前状态：处理中（备注：未清理现场）`]);
    expect(notes.every((n) => n.title === '维修工单通知')).toBe(true);
  });

  it("writes the notice in the assignee's language: the one they signed in with", async () => {
    // worker2 signs in from a console set to English; the server keeps the language on the account.
    const signIn = await t.api.call<{ token: string }>('POST', '/basic/user/login', {
      body: { username: w.worker2.username, password: FACTORY_PASSWORD }, headers: { 'client-language': 'en-US' },
    });
    expect(signIn.body.errorCode).toBe('00000');
    expect((await t.ctx.db.select({ language: appUser.language }).from(appUser).where(eq(appUser.id, w.worker2.id)))[0]!.language).toBe('en-US');
    const id = await add();
    const { no } = await one(id);
    expect((await post('/inspection/repair/order/allocation', { id, assigneeId: w.worker2.id, note: '带上备用风扇' })).status).toBe(200);
    await t.ctx.outbox.drain();
    const [note] = (await t.ctx.db.select().from(notification).where(eq(notification.userId, w.worker2.id))).filter((n) => n.content.includes(no));
    expect([note!.title, note!.content]).toEqual(['Repair order notice', `Work order ${no}: Dispatch, status now: Pending (note: 带上备用风扇)`]);
    // A user who signed in without a language (the default console) still reads Chinese: see the test above.
  });

  it('pages devices with their repairs and exports orders', async () => {
    const page = await okData(post<Page<{ deviceId: number; repairCount: number; openCount: number }>>('/inspection/repair/order/device/rel/query/page', { siteId: w.siteId }));
    const pcs = page.records.find((r) => r.deviceId === w.devices[0]!.id)!;
    expect(pcs.repairCount).toBeGreaterThan(0);
    expect(pcs.openCount).toBeLessThanOrEqual(pcs.repairCount);
    expect((await post('/inspection/repair/order/device/rel/query/page', { siteId: w.foreignSiteId }, w.worker.token)).status).toBe(403);
    const xlsx = await t.api.call('POST', '/inspection/repair/order/export', { token: t.adminToken, body: { siteId: w.siteId } });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-disposition')).toContain('.xlsx');
  });
});

/** Two app instances on one PostgreSQL database make one automatic order per alarm between them. */
describe.runIf(DB_TARGETS.includes('postgres'))('automatic repair orders with two instances', () => {
  let a: TestApp;
  let b: TestApp;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const db = await freshPostgres();
    drop = db.drop;
    a = await startTestApp('postgres', {}, { databaseUrl: db.url });
    b = await startTestApp('postgres', {}, { databaseUrl: db.url });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await drop?.();
  });

  it('never makes two orders of one alarm', async () => {
    const { east } = await seededCompanies(a);
    const s = await newSite(a, east.id);
    const alarms = [];
    for (let i = 0; i < 8; i += 1) alarms.push(await newAlarm(a, (await newDevice(a, s.id, { type: 'pcs' })).id, { level: 1, startedAt: new Date(Date.now() - 30 * MIN) }));
    const made = await Promise.all([createAutomaticRepairs(a.ctx), createAutomaticRepairs(b.ctx), createAutomaticRepairs(a.ctx), createAutomaticRepairs(b.ctx)]);
    const { rows } = await a.ctx.database.sql.query<{ alarm_id: number; n: number }>(
      'select alarm_id, count(*)::int as n from repair_order where alarm_id = any($1::int[]) group by alarm_id',
      [alarms.map((x) => x.id)],
    );
    expect(rows).toHaveLength(8);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    // Between them the runs made each order once (the periodic run at start may have made some).
    expect(made.reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(8);
  });
});
