import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localTime } from '@ess/contract/time';
import { inspectionWorkOrder } from '../../db/schema/maintenance.ts';
import { mailAccount, mailLog, mailTemplate, messageDelivery, smsChannel, smsLog, smsTemplate } from '../../db/schema/messaging.ts';
import { appUser, notification } from '../../db/schema/system.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, newUser, okData, seededCompanies, until, type FactoryUser } from '../../../test/factory.ts';
import { fault } from '../../../test/alarm-fixtures.ts';
import { smtpPeer, type SmtpPeer } from '../../../test/smtp-peer.ts';
import { startTwilioPeer, type TwilioPeer } from '../../../test/twilio-peer.ts';
import { processDue } from './delivery.send.ts';
import { secretsOf, SMS_SECRET } from './message.context.ts';

/**
 * Who a message reaches, end to end with real peers (SMTP server, Twilio peer):
 * - quiet hours in the recipient's own time zone (set in the personal center), the station's
 *   when the user has none: the same alarm at the same instant is held for a recipient in
 *   Asia/Shanghai and sent to one in America/Los_Angeles;
 * - work through the maintenance module's own calls: an inspection work order allocated, the
 *   same order overdue (the ledger's timer on a moved clock), a repair order allocated — each
 *   reaches its assignee by mail, SMS and console notification as the rules say.
 */

const SID = `AC${'fedcba9876543210'.repeat(2)}`;
const TOKEN = 'recipients-test-auth-token';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe.each(dbTargets(import.meta.url))('message recipients with real peers on %s', (target) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let twilio: TwilioPeer;
  let companyId = 0;
  let siteId = 0;
  let pcs = 0;
  const people: Record<'sh' | 'la' | 'none' | 'worker', FactoryUser & { email: string; phone: string }> = {} as never;
  const post = <T>(path: string, body: unknown, token = t.adminToken) => t.api.post<T>(path, token, body);

  /** HH:mm in `zone` `offsetMin` from now. */
  const hhmm = (zone: string, offsetMin: number) => {
    const l = localTime(Date.now() + offsetMin * MINUTE, zone);
    return `${String(l.hour).padStart(2, '0')}:${String(l.minute).padStart(2, '0')}`;
  };
  const mailTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));
  const smsTo = (phone: string) => twilio.accepted.filter((m) => m.to === phone);
  /** The mail log rows of a subject's deliveries, by recipient address. */
  const mailsAbout = async (subjectType: string, subjectId: number) => {
    const ids = (await t.ctx.db.select({ id: messageDelivery.mailLogId }).from(messageDelivery)
      .where(and(eq(messageDelivery.subjectType, subjectType), eq(messageDelivery.subjectId, subjectId), eq(messageDelivery.channel, 'mail'))))
      .flatMap((r) => (r.id ? [r.id] : []));
    const rows = ids.length ? await t.ctx.db.select().from(mailLog).where(inArray(mailLog.id, ids)) : [];
    return new Map(rows.map((r) => [r.recipient, r]));
  };

  beforeAll(async () => {
    [smtp, twilio] = await Promise.all([smtpPeer(), startTwilioPeer(SID, TOKEN)]);
    t = await startTestApp(target, { ALARM_SYNC_MS: '200' });
    const { east } = await seededCompanies(t);
    companyId = east.id;
    const s = await newSite(t, companyId, { name: 'Zone Station' });
    siteId = s.id;
    pcs = (await newDevice(t, siteId, { type: 'pcs' })).id;
    const menus = ['/patrol/order', '/patrol/order-detail', '/repair/order', '/repair/order-detail'];
    let n = 0;
    for (const key of ['sh', 'la', 'none', 'worker'] as const) {
      const u = await newUser(t, companyId, { menus, siteIds: [siteId] });
      n += 1;
      people[key] = { ...u, email: `${key}@example.com`, phone: `+1415555020${n}` };
      await t.ctx.db.update(appUser).set({ email: people[key].email, phone: people[key].phone }).where(eq(appUser.id, u.id));
    }
    await t.ctx.db.insert(mailAccount).values({ companyId, name: 'catcher', host: '127.0.0.1', port: smtp.port, tlsMode: 'none', fromAddress: 'ops@example.com', isDefault: true });
    await t.ctx.db.insert(smsChannel).values({
      companyId, name: 'twilio', provider: 'twilio', accessKeyId: SID, secretEnc: secretsOf(t.ctx).seal(TOKEN, SMS_SECRET), sender: '+15005550006', endpoint: twilio.url, isDefault: true,
    });
    await t.ctx.db.insert(mailTemplate).values([
      { companyId, name: '告警', code: 'alarm', language: 'zh-CN', subject: 'ALARM ${station} L${level}', html: '<p>${description}</p>' },
      { companyId, name: '工单', code: 'work', language: 'zh-CN', subject: 'ORDER ${orderNo}', html: '<p>${recipient}: ${orderTitle} @ ${station}, due ${dueTime}</p>' },
    ]);
    await t.ctx.db.insert(smsTemplate).values({ companyId, name: '工单短信', code: 'work', language: 'zh-CN', content: 'ORDER ${orderNo} ${orderTitle}' });
  });
  afterAll(async () => {
    await t?.stop();
    await Promise.all([smtp?.close(), twilio?.close()]);
  });

  it('the personal center sets (and clears) the user\'s own time zone, checked with Intl', async () => {
    const info = (who: (typeof people)['sh']) => ({ name: '区域用户', email: who.email, phone: who.phone });
    const set = (who: (typeof people)['sh'], timeZone: unknown) => post('/system/user/profile/change/info', { ...info(who), timeZone }, who.token);
    expect((await set(people.sh, 'Asia/Shanghai')).body.errorCode).toBe('00000');
    expect((await set(people.la, 'America/Los_Angeles')).body.errorCode).toBe('00000');
    const zoneOf = async (id: number) => (await t.ctx.db.select({ z: appUser.timeZone }).from(appUser).where(eq(appUser.id, id)))[0]!.z;
    for (const bad of ['Mars/Olympus_Mons', 'Asia/Shanghai; drop table', 'x'.repeat(65), 8]) {
      const r = await set(people.sh, bad);
      expect(r.status).toBe(400);
      expect(r.body.tipMsg).toMatch(/时区|timeZone/);
      expect(await zoneOf(people.sh.id)).toBe('Asia/Shanghai');
    }
    // Left out: kept; '' clears it.
    expect((await post('/system/user/profile/change/info', info(people.la), people.la.token)).body.errorCode).toBe('00000');
    expect(await zoneOf(people.la.id)).toBe('America/Los_Angeles');
    const profile = await okData(t.api.get<{ timeZone: string | null }>('/system/user/profile/info', people.la.token));
    expect(profile.timeZone).toBe('America/Los_Angeles');
    expect((await set(people.none, 'Europe/Berlin')).body.errorCode).toBe('00000');
    expect((await set(people.none, '')).body.errorCode).toBe('00000');
    expect(await zoneOf(people.none.id)).toBeNull();
  });

  it('quiet hours in the recipient\'s zone: the same alarm at the same instant is held in Shanghai and sent in Los Angeles', async () => {
    // The window is the hour around now in Shanghai; in Los Angeles (15–16 hours behind) it is far away.
    const rule = await post('/message/config/add', {
      companyId, name: 'zones', event: 'alarmOpened', maxLevel: 5, siteIds: [siteId], channels: ['mail'], mailTemplateCode: 'alarm',
      recipients: { userIds: [people.sh.id, people.la.id, people.none.id] },
      quietHours: { start: hhmm('Asia/Shanghai', -60), end: hhmm('Asia/Shanghai', 60), overrideLevel: null },
    });
    expect(rule.body.errorCode, rule.body.tipMsg).toBe('00000');
    const alarmId = await fault(t, pcs, 'PCS_FAN_FAULT');
    await processDue(t.ctx);
    await until('the Los Angeles mail', () => mailTo(people.la.email).length === 1);
    const logs = await mailsAbout('alarm', alarmId);
    expect(logs.get(people.la.email)).toMatchObject({ state: 'sent', attempts: 1 });
    // Shanghai: the user's own zone; no zone of their own: the station's (Asia/Shanghai) — both held to the window's end.
    for (const who of [people.sh, people.none]) {
      const held = logs.get(who.email)!;
      expect(held).toMatchObject({ state: 'queued', attempts: 0 });
      expect(Math.abs(held.nextAttemptAt!.getTime() - (Date.now() + HOUR))).toBeLessThan(2 * MINUTE);
      expect(mailTo(who.email)).toHaveLength(0);
    }
    // When the window ends, the held ones go, once.
    await processDue(t.ctx, new Date(Date.now() + HOUR + 2 * MINUTE));
    await until('the held mails', () => mailTo(people.sh.email).length === 1 && mailTo(people.none.email).length === 1);
    expect(mailTo(people.la.email)).toHaveLength(1);
  });

  let orderId = 0;
  let orderNo = '';

  it('an inspection work order allocated through the maintenance calls reaches its assignee by mail, SMS and console', async () => {
    const rules = [
      { name: 'assigned', event: 'workOrderAssigned', channels: ['console', 'mail', 'sms'], smsTemplateCode: 'work' },
      { name: 'overdue', event: 'workOrderOverdue', minutes: 30, channels: ['mail'] },
      { name: 'repair', event: 'repairAssigned', channels: ['console', 'mail', 'sms'], smsTemplateCode: 'work' },
    ];
    for (const r of rules) {
      const made = await post('/message/config/add', { companyId, siteIds: [siteId], mailTemplateCode: 'work', recipients: { assignee: true }, ...r });
      expect(made.body.errorCode, made.body.tipMsg).toBe('00000');
    }
    const item = await okData(post<{ id: number }>('/inspection/items/add', { companyId, name: '外观检查', checkType: 'status' }));
    orderId = (await okData(post<{ id: number }>('/inspection/work/order/add', {
      siteId, title: '夜间巡检', itemIds: [item.id], startAt: new Date(Date.now() - HOUR).toISOString(), dueAt: new Date(Date.now() + HOUR).toISOString(),
    }))).id;
    orderNo = (await t.ctx.db.select({ no: inspectionWorkOrder.no }).from(inspectionWorkOrder).where(eq(inspectionWorkOrder.id, orderId)))[0]!.no;
    // Created but not assigned: nobody to tell yet.
    await t.ctx.outbox.drain();
    await processDue(t.ctx);
    expect(mailTo(people.worker.email)).toHaveLength(0);

    const r = await post('/inspection/work/order/allocation', { id: orderId, assigneeId: people.worker.id });
    expect(r.body.errorCode, r.body.tipMsg).toBe('00000');
    await t.ctx.outbox.drain();
    await processDue(t.ctx);
    await until('the assignment mail and SMS', () => mailTo(people.worker.email).length === 1 && smsTo(people.worker.phone).length === 1);
    const mail = mailTo(people.worker.email)[0]!;
    expect(mail.raw).toMatch(new RegExp(`^Subject: ORDER ${orderNo}\r?$`, 'm'));
    expect(smsTo(people.worker.phone)[0]!.body).toBe(`ORDER ${orderNo} 夜间巡检`);
    const notes = await t.ctx.db.select().from(notification).where(eq(notification.userId, people.worker.id));
    expect(notes.filter((x) => x.title.startsWith(`ORDER ${orderNo}`))).toHaveLength(1);
    // Nobody else: the rule's recipient is the assignee.
    expect(smtp.received.filter((m) => m.raw.includes(`ORDER ${orderNo}`)).flatMap((m) => m.to)).toEqual([people.worker.email]);
  });

  it('the same order overdue: the timer fires 30 minutes after its due time, while the order is open, once', async () => {
    const before = mailTo(people.worker.email).length;
    // Due in an hour; 30 minutes after that the reminder is due, not before.
    await processDue(t.ctx, new Date(Date.now() + HOUR + 20 * MINUTE));
    await t.ctx.outbox.drain();
    await processDue(t.ctx, new Date(Date.now() + HOUR + 20 * MINUTE));
    expect(mailTo(people.worker.email)).toHaveLength(before);
    await processDue(t.ctx, new Date(Date.now() + HOUR + 31 * MINUTE));
    await t.ctx.outbox.drain();
    await processDue(t.ctx, new Date(Date.now() + HOUR + 31 * MINUTE));
    await until('the overdue mail', () => mailTo(people.worker.email).length === before + 1);
    expect(mailTo(people.worker.email).at(-1)!.raw).toMatch(new RegExp(`^Subject: ORDER ${orderNo}\r?$`, 'm'));
    const timers = await t.ctx.db.select({ state: messageDelivery.state }).from(messageDelivery)
      .where(and(eq(messageDelivery.subjectType, 'workorder'), eq(messageDelivery.subjectId, orderId), eq(messageDelivery.channel, 'timer')));
    expect(timers).toEqual([{ state: 'sent' }]);
    // Again later: nothing more.
    await processDue(t.ctx, new Date(Date.now() + 3 * HOUR));
    await t.ctx.outbox.drain();
    await processDue(t.ctx, new Date(Date.now() + 3 * HOUR));
    expect(mailTo(people.worker.email)).toHaveLength(before + 1);
    const logs = await t.ctx.db.select({ state: mailLog.state }).from(mailLog).where(eq(mailLog.eventType, 'workOrderOverdue'));
    expect(logs).toEqual([{ state: 'sent' }]);
  });

  it('a repair order allocated through the maintenance calls reaches its assignee by mail, SMS and console', async () => {
    const before = { mail: mailTo(people.worker.email).length, sms: smsTo(people.worker.phone).length };
    const id = (await okData(post<{ id: number }>('/inspection/repair/order/add', { siteId, deviceId: pcs, description: 'PCS 风扇异响', level: 3 }))).id;
    const r = await post('/inspection/repair/order/allocation', { id, assigneeId: people.worker.id });
    expect(r.body.errorCode, r.body.tipMsg).toBe('00000');
    await t.ctx.outbox.drain();
    await processDue(t.ctx);
    await until('the repair mail and SMS', () => mailTo(people.worker.email).length === before.mail + 1 && smsTo(people.worker.phone).length === before.sms + 1);
    const logs = await t.ctx.db.select({ state: smsLog.state, eventType: smsLog.eventType, recipient: smsLog.recipient }).from(smsLog).where(eq(smsLog.eventType, 'repairAssigned'));
    expect(logs).toEqual([{ state: 'sent', eventType: 'repairAssigned', recipient: people.worker.phone }]);
    const notes = await t.ctx.db.select({ id: notification.id }).from(notification).where(eq(notification.userId, people.worker.id));
    expect(notes.length).toBeGreaterThanOrEqual(2);
  });
});
