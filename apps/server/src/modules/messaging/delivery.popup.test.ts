import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageDelivery } from '../../db/schema/messaging.ts';
import { appUser, notification } from '../../db/schema/system.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, newUser, seededCompanies, type FactoryUser } from '../../../test/factory.ts';
import { fault } from '../../../test/alarm-fixtures.ts';
import { SseStream } from '../../../test/sse-client.ts';
import { POPUP_SHOWN } from './delivery.plan.ts';

/**
 * One notice per alarm (decision 0046, amendment): the alarm module pops a newly opened alarm of
 * ALARM_POPUP_LEVEL or more severe up to everyone who may see its station, so a rule's console
 * channel does not tell those users a second time (its ledger row says why); a recipient who is
 * not shown the popup (no access to the station, or a level below the popup level) still gets
 * the console notice.
 */
describe.each(dbTargets(import.meta.url))('alarm popup and the console channel on %s', (target) => {
  let t: TestApp;
  let seer: FactoryUser;
  let outsider: FactoryUser;
  let adminId = 0;
  let pcs = 0;
  let stream: SseStream;
  const notesOf = (userId: number) => t.ctx.db.select().from(notification).where(eq(notification.userId, userId));
  const consoleRow = async (alarmId: number, userId: number) =>
    (await t.ctx.db.select().from(messageDelivery)
      .where(and(eq(messageDelivery.subjectId, alarmId), eq(messageDelivery.channel, 'console'), eq(messageDelivery.recipientKey, `user:${userId}`))))[0];

  beforeAll(async () => {
    t = await startTestApp(target, { ALARM_SYNC_MS: '200', ALARM_POPUP_LEVEL: '2' });
    const { east } = await seededCompanies(t);
    const s = await newSite(t, east.id, { name: 'Popup station' });
    pcs = (await newDevice(t, s.id, { type: 'pcs' })).id;
    seer = await newUser(t, east.id, { menus: ['/alarm/alarmKanban'], siteIds: [s.id] });
    outsider = await newUser(t, east.id, { signIn: false });
    adminId = (await t.ctx.db.select({ id: appUser.id }).from(appUser).where(eq(appUser.username, 'admin')))[0]!.id;
    const rule = await t.api.post('/message/config/add', t.adminToken, {
      companyId: east.id, name: 'console to all', event: 'alarmOpened', maxLevel: 3, channels: ['console'],
      recipients: { userIds: [seer.id, outsider.id, adminId] },
    });
    expect(rule.body.errorCode, rule.body.tipMsg).toBe('00000');
    stream = await SseStream.open(t.url, seer.token);
    await stream.nextEvent('heartbeat');
  });
  afterAll(async () => {
    stream?.close();
    await t?.stop();
  });

  it('a level-1 alarm: one popup to the users who see the station, no second console notice; the others get the notice', async () => {
    const id = await fault(t, pcs, 'PCS_IGBT_FAULT');
    const popup = await stream.nextEvent<{ id: number; kind?: string }>('PopupWindow');
    expect(popup.data).toMatchObject({ id, kind: 'alarm' });
    // The station's user and the built-in administrator are shown the popup: their console rows are recorded, not sent.
    for (const userId of [seer.id, adminId]) {
      expect(await consoleRow(id, userId)).toMatchObject({ state: 'cancelled', error: POPUP_SHOWN, notificationId: null });
      expect(await notesOf(userId)).toEqual([]);
    }
    // A recipient without access to the station sees no popup: the console notice is theirs.
    expect(await consoleRow(id, outsider.id)).toMatchObject({ state: 'sent' });
    expect(await notesOf(outsider.id)).toHaveLength(1);
  });

  it('a level-3 alarm (below ALARM_POPUP_LEVEL) pops up nothing of its own: the console notice goes', async () => {
    const id = await fault(t, pcs, 'PCS_FAN_FAULT');
    const notice = await stream.nextEvent<{ id: number; kind?: string }>('PopupWindow');
    expect(notice.data.kind).toBeUndefined();
    expect(await consoleRow(id, seer.id)).toMatchObject({ state: 'sent' });
    expect(await notesOf(seer.id)).toHaveLength(1);
    // Two alarms, two popups in all: the level-1 alarm's own and the level-3 alarm's notice.
    expect(stream.events.filter((e) => e.event === 'PopupWindow')).toHaveLength(2);
  });
});
