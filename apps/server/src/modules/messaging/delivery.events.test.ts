import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicePresence } from '../../db/schema/device.ts';
import { messageDelivery } from '../../db/schema/messaging.ts';
import { notification } from '../../db/schema/system.ts';
import { emit } from '../../platform/events/outbox.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, newUser, seededCompanies } from '../../../test/factory.ts';
import { processDue } from './delivery.send.ts';

/**
 * Delayed and non-alarm events through the outbox: a device offline longer than M minutes is
 * judged when its timer comes due (and not at all when it came back meanwhile); a statement to
 * confirm reaches its two parties (the rule's "assignee"); blank recipients are dropped.
 */
const MINUTE = 60_000;

describe.each(dbTargets(import.meta.url))('delayed and work events on %s', (target) => {
  let t: TestApp;
  let siteId = 0;
  let watcher = 0;
  const post = <T>(path: string, body: unknown) => t.api.post<T>(path, t.adminToken, body);
  const notes = async (userId: number) => t.ctx.db.select().from(notification).where(eq(notification.userId, userId));

  async function offline(deviceId: number, code: string) {
    await t.ctx.db.transaction(async (tx) => {
      await tx.insert(devicePresence).values({ deviceId, online: false }).onConflictDoUpdate({ target: devicePresence.deviceId, set: { online: false, changedAt: new Date() } });
      await emit(tx, 'device.offline', [{ deviceId, code, siteId, at: new Date().toISOString() }]);
    });
    await t.ctx.outbox.drain();
  }

  beforeAll(async () => {
    t = await startTestApp(target);
    const { east } = await seededCompanies(t);
    siteId = (await newSite(t, east.id, { name: 'Station events' })).id;
    watcher = (await newUser(t, east.id, { signIn: false })).id;
    const add = (body: Record<string, unknown>) => post('/message/config/add', { companyId: east.id, channels: ['console'], ...body });
    expect((await add({ name: 'offline 15', event: 'deviceOffline', minutes: 15, recipients: { userIds: [watcher] } })).body.errorCode).toBe('00000');
    expect((await add({ name: 'statements', event: 'statementToConfirm', recipients: { assignee: true, siteContacts: true } })).body.errorCode).toBe('00000');
  });
  afterAll(async () => t?.stop());

  it('a device offline longer than the rule’s minutes: told when the timer comes due, not before', async () => {
    const d = await newDevice(t, siteId, { type: 'pcs' });
    await offline(d.id, d.code);
    const [timer] = await t.ctx.db.select().from(messageDelivery).where(and(eq(messageDelivery.subjectId, d.id), eq(messageDelivery.channel, 'timer')));
    expect(timer).toMatchObject({ state: 'queued', recipientKey: `deviceOffline:device:${d.id}:15` });
    await processDue(t.ctx, new Date(Date.now() + 14 * MINUTE));
    expect(await notes(watcher)).toHaveLength(0);
    await processDue(t.ctx, new Date(Date.now() + 16 * MINUTE));
    await t.ctx.outbox.drain();
    const told = await notes(watcher);
    expect(told).toHaveLength(1);
    expect(told[0]!.content).toContain(d.code.slice(0, 4));
    // The same device offline again (a second sweep's event): one timer, one notice.
    await offline(d.id, d.code);
    await processDue(t.ctx, new Date(Date.now() + 16 * MINUTE));
    await t.ctx.outbox.drain();
    expect(await notes(watcher)).toHaveLength(1);
  });

  it('a device back online before the minutes are up: its timer is cancelled, nobody is told', async () => {
    const d = await newDevice(t, siteId, { type: 'pcs' });
    const before = (await notes(watcher)).length;
    await offline(d.id, d.code);
    await t.ctx.db.transaction(async (tx) => {
      await tx.update(devicePresence).set({ online: true }).where(eq(devicePresence.deviceId, d.id));
      await emit(tx, 'device.online', [{ deviceId: d.id, code: d.code, siteId, at: new Date().toISOString() }]);
    });
    await t.ctx.outbox.drain();
    await processDue(t.ctx, new Date(Date.now() + 16 * MINUTE));
    await t.ctx.outbox.drain();
    expect((await notes(watcher)).length).toBe(before);
    const [timer] = await t.ctx.db.select().from(messageDelivery).where(and(eq(messageDelivery.subjectId, d.id), eq(messageDelivery.channel, 'timer')));
    expect(timer).toMatchObject({ state: 'cancelled', error: '设备已恢复在线' });
  });

  it('a statement to confirm reaches both parties once; the station contact without a user is not a console recipient', async () => {
    const { east } = await seededCompanies(t);
    const investor = await newUser(t, east.id, { signIn: false });
    const powerUser = await newUser(t, east.id, { signIn: false });
    const payload = { id: 987_654, siteId, month: '2026-10', from: null, to: 'draft', userId: null, investorUserId: investor.id, powerUserUserId: powerUser.id, note: null };
    await t.ctx.db.transaction((tx) => emit(tx, 'statement.generated', [payload]));
    await t.ctx.outbox.drain();
    // Ours beside the statement module's own notice: titled with the event, saying the station and month.
    const ours = async (userId: number) => (await notes(userId)).filter((n) => n.title === '结算单待确认');
    expect((await ours(investor.id)).map((n) => n.content)).toEqual([expect.stringContaining('Station events')]);
    expect(await ours(powerUser.id)).toHaveLength(1);
    const rows = await t.ctx.db.select().from(messageDelivery).where(and(eq(messageDelivery.subjectType, 'statement'), eq(messageDelivery.subjectId, 987_654)));
    expect(rows.map((r) => r.recipientKey).sort()).toEqual([`user:${investor.id}`, `user:${powerUser.id}`].sort());
  });
});
