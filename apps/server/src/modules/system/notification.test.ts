import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_CONTENT_MAX } from '@ess/contract';
import { notification, notificationLog, notificationSetting } from '../../db/schema/system.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { seededCompanies, eventually, newRole, newUser, type FactoryUser } from '../../../test/factory.ts';
import { SseStream } from '../../../test/sse-client.ts';
import { runScheduledPush } from './notification.service.ts';

interface Popup { id: number; title: string; content: string; createdAt: string }
interface Inbox { id: number; title: string; content: string; read: boolean; readAt: string | null; settingId: number | null }
interface PageOf<T> { records: T[]; total: number; current: number; pageSize: number }
interface SettingRow { id: number; title: string; status: string; pushMode: string; pushAt: string | null; companyId: number; targetIds: number[] }

const uniq = (p: string) => `${p}-${Math.random().toString(36).slice(2, 8)}`;

describe.each(dbTargets(import.meta.url))('notifications on %s', (target) => {
  let t: TestApp;
  const streams: SseStream[] = [];
  const stream = async (token: string) => {
    const s = await SseStream.open(t.url, token);
    streams.push(s);
    expect(s.status).toBe(200);
    await s.nextEvent('heartbeat');
    return s;
  };
  const add = (token: string, body: Record<string, unknown>) => t.api.post<{ id: number; status: string; recipientCount: number }>('/system/notification/set/add', token, body);
  const inbox = (token: string, body: Record<string, unknown> = {}) => t.api.post<PageOf<Inbox>>('/system/notification/query/page', token, body);
  const counts = (token: string) => t.api.post<{ unread: number; total: number }>('/system/notification/query/count', token);

  beforeAll(async () => {
    t = await startTestApp(target, { SSE_HEARTBEAT_MS: '1000' });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t?.stop();
  });

  it('pushes an immediate notification to users: inbox rows, a log, and PopupWindow + Unread on their streams', async () => {
    const { east } = await seededCompanies(t);
    const a = await newUser(t, east.id);
    const b = await newUser(t, east.id);
    const outsider = await newUser(t, east.id);
    const [sa, sOut] = [await stream(a.token), await stream(outsider.token)];
    const title = uniq('停电通知');
    const r = await add(t.adminToken, { title, content: '今晚 22:00 检修', pushMode: 'immediate', targetType: 'user', targetIds: [a.id, b.id] });
    expect(r.status).toBe(200);
    expect(r.body.errorCode).toBe('00000');
    expect(r.body.data).toMatchObject({ status: 'sent', recipientCount: 2 });

    const popup = await sa.nextEvent<Popup>('PopupWindow', (d) => d.title === title);
    expect(popup.data.content).toBe('今晚 22:00 检修');
    expect(Number.isNaN(Date.parse(popup.data.createdAt))).toBe(false);
    const unread = await sa.nextEvent<{ count: number }>('Unread');
    expect(unread.data.count).toBe(1);
    // PopupWindow comes before Unread.
    expect(sa.events.indexOf(popup)).toBeLessThan(sa.events.indexOf(unread));

    const page = await inbox(a.token);
    expect(page.body.data.total).toBe(1);
    expect(page.body.data.records[0]).toMatchObject({ id: popup.data.id, title, read: false, settingId: r.body.data.id });
    expect((await counts(b.token)).body.data).toEqual({ unread: 1, total: 1 });
    expect((await counts(outsider.token)).body.data).toEqual({ unread: 0, total: 0 });
    expect(sOut.events.some((e) => e.event === 'PopupWindow')).toBe(false);

    const one = await t.api.post<Inbox>('/system/notification/query/one', a.token, { id: popup.data.id });
    expect(one.body.data).toMatchObject({ title, content: '今晚 22:00 检修' });
    // Only one's own: b cannot open a's notification.
    const foreign = await t.api.post('/system/notification/query/one', b.token, { id: popup.data.id });
    expect(foreign.status).toBe(404);

    const logs = await t.api.post<PageOf<{ id: number; settingId: number; recipientCount: number; status: string; error: string | null }>>(
      '/system/notification/log/query/page', t.adminToken, { settingId: r.body.data.id },
    );
    expect(logs.body.data.total).toBe(1);
    expect(logs.body.data.records[0]).toMatchObject({ recipientCount: 2, status: 'success', error: null });
    const log = await t.api.post<{ recipients: { userId: number; username: string; read: boolean }[] }>(
      '/system/notification/log/query/one', t.adminToken, { id: logs.body.data.records[0]!.id },
    );
    expect(log.body.data.recipients.map((x) => x.userId).sort((x, y) => x - y)).toEqual([a.id, b.id].sort((x, y) => x - y));

    const setting = await t.api.post<SettingRow & { targets: { id: number; name: string }[] }>('/system/notification/set/query/one', t.adminToken, { id: r.body.data.id });
    expect(setting.body.data).toMatchObject({ status: 'sent', pushMode: 'immediate', pushAt: null });
    expect(setting.body.data.targets.map((x) => x.name).sort()).toEqual([a.name, b.name].sort());
  });

  it('pushes by role to every enabled user holding it, skipping disabled users', async () => {
    const { east } = await seededCompanies(t);
    const roleId = await newRole(t, east.id);
    const u1 = await newUser(t, east.id, { roleId });
    const u2 = await newUser(t, east.id, { roleId });
    const off = await newUser(t, east.id, { roleId, status: 0, signIn: false });
    const title = uniq('角色通知');
    const r = await add(t.adminToken, { title, content: 'x', pushMode: 'immediate', targetType: 'role', targetIds: [roleId] });
    expect(r.body.data).toMatchObject({ status: 'sent', recipientCount: 2 });
    const rows = await t.ctx.db.select({ userId: notification.userId }).from(notification).where(eq(notification.settingId, r.body.data.id));
    expect(rows.map((x) => x.userId).sort((x, y) => x - y)).toEqual([u1.id, u2.id].sort((x, y) => x - y));
    expect(rows.some((x) => x.userId === off.id)).toBe(false);
  });

  it('refuses bad input with 400 naming the field, and business-rule breaks with 406, writing nothing', async () => {
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id);
    const before = (await t.ctx.db.select().from(notificationSetting)).length;
    const base = { title: 't', content: 'c', pushMode: 'immediate', targetType: 'user', targetIds: [u.id] };

    const long = await add(t.adminToken, { ...base, content: 'x'.repeat(NOTIFICATION_CONTENT_MAX + 1) });
    expect(long.status).toBe(400);
    expect(long.body.tipMsg).toContain('content');
    const noTime = await add(t.adminToken, { ...base, pushMode: 'scheduled' });
    expect(noTime.status).toBe(400);
    expect(noTime.body.tipMsg).toContain('pushAt');
    const noTargets = await add(t.adminToken, { ...base, targetIds: [] });
    expect(noTargets.status).toBe(400);
    const past = await add(t.adminToken, { ...base, pushMode: 'scheduled', pushAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past.status).toBe(406);
    expect(past.body.errorCode).toBe('A0406');
    expect(past.body.tipMsg).toBe('推送时间必须晚于当前时间');
    const disabled = await newUser(t, east.id, { status: 0, signIn: false });
    const nobody = await add(t.adminToken, { ...base, targetIds: [disabled.id] });
    expect(nobody.status).toBe(406);
    expect(nobody.body.tipMsg).toBe('推送对象中没有可接收通知的启用用户');
    const missing = await add(t.adminToken, { ...base, targetIds: [u.id, 2_000_000_000] });
    expect(missing.status).toBe(403);

    expect((await t.ctx.db.select().from(notificationSetting)).length).toBe(before);
    expect((await counts(u.token)).body.data.total).toBe(0);
  });

  it("keeps settings, logs and targets inside the pusher's scope", async () => {
    const { east, south, group } = await seededCompanies(t);
    const pusher = await newUser(t, east.id, { menus: ['/system/messageConfig', '/system/messagePush'] });
    const southUser = await newUser(t, south.id);
    const groupRole = await newRole(t, group.id);
    const eastUser = await newUser(t, east.id);

    const toSouth = await add(pusher.token, { title: 'x', content: 'x', pushMode: 'immediate', targetType: 'user', targetIds: [southUser.id] });
    expect(toSouth.status).toBe(403);
    const toGroupRole = await add(pusher.token, { title: 'x', content: 'x', pushMode: 'immediate', targetType: 'role', targetIds: [groupRole] });
    expect(toGroupRole.status).toBe(403);

    const mine = await add(pusher.token, { title: uniq('东区'), content: 'x', pushMode: 'immediate', targetType: 'user', targetIds: [eastUser.id] });
    expect(mine.body.data.status).toBe('sent');
    const adminOwn = await add(t.adminToken, { title: uniq('集团'), content: 'x', pushMode: 'immediate', targetType: 'user', targetIds: [eastUser.id] });

    const seen = await t.api.post<PageOf<SettingRow>>('/system/notification/set/query/page', pusher.token, { pageSize: 500 });
    const ids = seen.body.data.records.map((x) => x.id);
    expect(ids).toContain(mine.body.data.id);
    expect(ids).not.toContain(adminOwn.body.data.id);
    expect(seen.body.data.records.every((x) => x.companyId === east.id)).toBe(true);
    expect((await t.api.post('/system/notification/set/query/one', pusher.token, { id: adminOwn.body.data.id })).status).toBe(404);
    const adminSees = await t.api.post<PageOf<SettingRow>>('/system/notification/set/query/page', t.adminToken, { pageSize: 500 });
    expect(adminSees.body.data.records.map((x) => x.id)).toEqual(expect.arrayContaining([mine.body.data.id, adminOwn.body.data.id]));

    const logs = await t.api.post<PageOf<{ settingId: number }>>('/system/notification/log/query/page', pusher.token, { pageSize: 500 });
    expect(logs.body.data.records.map((x) => x.settingId)).toContain(mine.body.data.id);
    expect(logs.body.data.records.map((x) => x.settingId)).not.toContain(adminOwn.body.data.id);
  });

  it('marks read by ids or all, ignores other users’ ids, and sends the new Unread count', async () => {
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id);
    const other = await newUser(t, east.id);
    for (const n of [1, 2, 3]) {
      await add(t.adminToken, { title: `已读测试${n}`, content: 'x', pushMode: 'immediate', targetType: 'user', targetIds: [u.id, other.id] });
    }
    const s = await stream(u.token);
    const mine = (await inbox(u.token, { read: false })).body.data.records;
    expect(mine).toHaveLength(3);
    const theirs = (await inbox(other.token)).body.data.records;

    const r1 = await t.api.post<{ updated: number; unread: number }>('/system/notification/read', u.token, { ids: [mine[0]!.id, theirs[0]!.id] });
    expect(r1.body.data).toEqual({ updated: 1, unread: 2 });
    expect((await s.nextEvent<{ count: number }>('Unread')).data.count).toBe(2);
    expect((await counts(other.token)).body.data.unread).toBe(3);
    expect((await inbox(u.token, { read: true })).body.data.records.map((x) => x.id)).toEqual([mine[0]!.id]);
    const filtered = await inbox(u.token, { title: '已读测试2' });
    expect(filtered.body.data.records.map((x) => x.title)).toEqual(['已读测试2']);

    const r2 = await t.api.post<{ updated: number; unread: number }>('/system/notification/read', u.token, { all: true });
    expect(r2.body.data).toEqual({ updated: 2, unread: 0 });
    expect((await s.nextEvent<{ count: number }>('Unread')).data.count).toBe(0);
    expect((await counts(u.token)).body.data).toEqual({ unread: 0, total: 3 });

    const empty = await t.api.post('/system/notification/read', u.token, {});
    expect(empty.status).toBe(400);
  });

  it('pushes a scheduled notification through the job queue at its time, without reload', async () => {
    const { east } = await seededCompanies(t);
    const u: FactoryUser = await newUser(t, east.id);
    const s = await stream(u.token);
    const title = uniq('定时通知');
    const pushAt = new Date(Date.now() + 2000);
    const r = await add(t.adminToken, { title, content: '定时内容', pushMode: 'scheduled', pushAt: pushAt.toISOString(), targetType: 'user', targetIds: [u.id] });
    expect(r.body.data).toMatchObject({ status: 'pending', recipientCount: 0 });
    expect((await counts(u.token)).body.data.total).toBe(0);

    const popup = await s.nextEvent<Popup>('PopupWindow', (d) => d.title === title, 20_000);
    expect(Date.now()).toBeGreaterThanOrEqual(pushAt.getTime());
    expect(popup.data.content).toBe('定时内容');
    expect((await s.nextEvent<{ count: number }>('Unread')).data.count).toBe(1);
    const [row] = await t.ctx.db.select().from(notificationSetting).where(eq(notificationSetting.id, r.body.data.id));
    expect(row!.status).toBe('sent');
    expect(row!.sentAt).not.toBeNull();

    // Sent settings can no longer be edited.
    const edit = await t.api.post('/system/notification/set/edit', t.adminToken, {
      id: r.body.data.id, title, content: 'x', pushMode: 'scheduled', pushAt: new Date(Date.now() + 60_000).toISOString(), targetType: 'user', targetIds: [u.id],
    });
    expect(edit.status).toBe(406);
    expect(edit.body.tipMsg).toBe('只有待推送的消息可以编辑');
  });

  it('reschedules an edited scheduled notification: the old job skips, one push only, with the edited content', async () => {
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id);
    const s = await stream(u.token);
    const first = uniq('改前');
    const r = await add(t.adminToken, {
      title: first, content: 'old', pushMode: 'scheduled', pushAt: new Date(Date.now() + 1500).toISOString(), targetType: 'user', targetIds: [u.id],
    });
    const second = uniq('改后');
    const newAt = new Date(Date.now() + 3500);
    const e = await t.api.post<{ status: string }>('/system/notification/set/edit', t.adminToken, {
      id: r.body.data.id, title: second, content: 'new', pushMode: 'scheduled', pushAt: newAt.toISOString(), targetType: 'user', targetIds: [u.id],
    });
    expect(e.body.data.status).toBe('pending');

    const popup = await s.nextEvent<Popup>('PopupWindow', () => true, 20_000);
    expect(popup.data).toMatchObject({ title: second, content: 'new' });
    expect(Date.now()).toBeGreaterThanOrEqual(newAt.getTime());
    await new Promise((res) => setTimeout(res, 1500));
    expect(s.events.filter((x) => x.event === 'PopupWindow')).toHaveLength(1);
    expect((await counts(u.token)).body.data.total).toBe(1);
    expect(await t.ctx.db.select().from(notificationLog).where(eq(notificationLog.settingId, r.body.data.id))).toHaveLength(1);
  });

  it('the push job is idempotent: a repeat or a stale pushAt does nothing', async () => {
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id);
    const pushAt = new Date(Date.now() + 3_600_000);
    const r = await add(t.adminToken, { title: uniq('幂等'), content: 'x', pushMode: 'scheduled', pushAt: pushAt.toISOString(), targetType: 'user', targetIds: [u.id] });
    const id = r.body.data.id;
    expect(await runScheduledPush(t.ctx, { id, pushAt: new Date(pushAt.getTime() + 1000).toISOString() })).toBe('skipped');
    expect(await runScheduledPush(t.ctx, { id, pushAt: pushAt.toISOString() })).toBe('sent');
    expect(await runScheduledPush(t.ctx, { id, pushAt: pushAt.toISOString() })).toBe('skipped');
    expect((await counts(u.token)).body.data.total).toBe(1);

    // A scheduled push whose targets were all disabled meanwhile fails, with the reason logged.
    const gone = await newUser(t, east.id, { signIn: false });
    const r2 = await add(t.adminToken, { title: uniq('失败'), content: 'x', pushMode: 'scheduled', pushAt: pushAt.toISOString(), targetType: 'user', targetIds: [gone.id] });
    await t.ctx.database.sql.query('update app_user set status = 0 where id = $1', [gone.id]);
    expect(await runScheduledPush(t.ctx, { id: r2.body.data.id, pushAt: pushAt.toISOString() })).toBe('failed');
    const logs = await t.api.post<PageOf<{ status: string; error: string; recipientCount: number }>>(
      '/system/notification/log/query/page', t.adminToken, { settingId: r2.body.data.id },
    );
    expect(logs.body.data.records).toEqual([expect.objectContaining({ status: 'failed', recipientCount: 0, error: '推送对象中没有可接收通知的启用用户' })]);
    const setting = await t.api.post<SettingRow>('/system/notification/set/query/one', t.adminToken, { id: r2.body.data.id });
    expect(setting.body.data.status).toBe('failed');
  });

  it('edits a scheduled notification into an immediate one, which pushes at once', async () => {
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id);
    const r = await add(t.adminToken, {
      title: uniq('待推'), content: 'x', pushMode: 'scheduled', pushAt: new Date(Date.now() + 3_600_000).toISOString(), targetType: 'user', targetIds: [u.id],
    });
    const e = await t.api.post<{ status: string; recipientCount: number }>('/system/notification/set/edit', t.adminToken, {
      id: r.body.data.id, title: '立即', content: 'x', pushMode: 'immediate', targetType: 'user', targetIds: [u.id],
    });
    expect(e.body.data).toEqual({ id: r.body.data.id, status: 'sent', recipientCount: 1 });
    await eventually(async () => ((await counts(u.token)).body.data.total === 1 ? true : undefined));
    const [row] = await t.ctx.db.select().from(notificationSetting).where(eq(notificationSetting.id, r.body.data.id));
    expect(row).toMatchObject({ status: 'sent', pushMode: 'immediate', pushAt: null, title: '立即' });
  });
});
