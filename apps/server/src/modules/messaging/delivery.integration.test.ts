import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarm } from '../../db/schema/alarm.ts';
import { mailAccount, mailLog, mailTemplate, messageDelivery, smsChannel, smsLog, smsTemplate } from '../../db/schema/messaging.ts';
import { site } from '../../db/schema/site.ts';
import { appUser, notification } from '../../db/schema/system.ts';
import { localTime } from '@ess/contract/time';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, newUser, seededCompanies, until } from '../../../test/factory.ts';
import { closedPort } from '../../../test/http-peer.ts';
import { fault as raiseFault } from '../../../test/alarm-fixtures.ts';
import { smtpPeer, type SmtpPeer } from '../../../test/smtp-peer.ts';
import { startTwilioPeer, type TwilioPeer } from '../../../test/twilio-peer.ts';
import { MAX_ATTEMPTS } from './delivery.ledger.ts';
import { processDue } from './delivery.send.ts';
import { secretsOf, SMS_SECRET } from './message.context.ts';

/**
 * The delivery engine end to end with real protocol peers: alarms raised through the alarm
 * engine (as the ingest does) → the outbox → the delivery subscriber → mail to an SMTP server
 * (smtp-server on a free port) and SMS to a local Twilio Messages API peer → the logs say sent;
 * escalation on a moved clock; quiet hours; a failing SMTP server retried with backoff until
 * failed with its reason; the same event delivered twice sends once.
 */

const SID = `AC${'0123456789abcdef'.repeat(2)}`;
const TOKEN = 'delivery-test-auth-token';
const MINUTE = 60_000;

describe.each(dbTargets(import.meta.url))('message delivery with real peers on %s', (target) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let failing: SmtpPeer;
  let twilio: TwilioPeer;
  let companyId = 0;
  const users: Record<'oncall' | 'chief', { id: number; email: string; phone: string }> = {
    oncall: { id: 0, email: 'oncall@example.com', phone: '+14155550101' },
    chief: { id: 0, email: 'chief@example.com', phone: '+14155550102' },
  };
  const stations: Record<'main' | 'quiet' | 'broken', { id: number; code: string; pcs: number }> = {
    main: { id: 0, code: '', pcs: 0 }, quiet: { id: 0, code: '', pcs: 0 }, broken: { id: 0, code: '', pcs: 0 },
  };
  const post = <T>(path: string, body: unknown) => t.api.post<T>(path, t.adminToken, body);

  /** Raises (or clears) a fault through the alarm engine and lets the outbox deliver it. */
  const fault = (deviceId: number, code: string, active = true) => raiseFault(t, deviceId, code, active);

  const mailsOfAlarm = async (alarmId: number) => {
    const ids = await t.ctx.db.select({ id: messageDelivery.mailLogId }).from(messageDelivery).where(and(eq(messageDelivery.subjectType, 'alarm'), eq(messageDelivery.subjectId, alarmId), eq(messageDelivery.channel, 'mail')));
    const logIds = ids.flatMap((r) => (r.id ? [r.id] : []));
    return logIds.length ? t.ctx.db.select().from(mailLog).where(inArray(mailLog.id, logIds)).orderBy(mailLog.id) : [];
  };
  const smsOfAlarm = async (alarmId: number) => {
    const ids = await t.ctx.db.select({ id: messageDelivery.smsLogId }).from(messageDelivery).where(and(eq(messageDelivery.subjectType, 'alarm'), eq(messageDelivery.subjectId, alarmId), eq(messageDelivery.channel, 'sms')));
    const logIds = ids.flatMap((r) => (r.id ? [r.id] : []));
    return logIds.length ? t.ctx.db.select().from(smsLog).where(inArray(smsLog.id, logIds)).orderBy(smsLog.id) : [];
  };
  /** HH:mm in Asia/Shanghai (the stations' zone) `offsetMin` from now. */
  const hhmm = (offsetMin: number) => {
    const l = localTime(Date.now() + offsetMin * MINUTE, 'Asia/Shanghai');
    return `${String(l.hour).padStart(2, '0')}:${String(l.minute).padStart(2, '0')}`;
  };

  beforeAll(async () => {
    [smtp, failing, twilio] = await Promise.all([
      smtpPeer(),
      smtpPeer({ onRcptTo: (_a, _s, cb) => cb(Object.assign(new Error('4.3.2 Mailbox temporarily unavailable, try again later'), { responseCode: 451 })) }),
      startTwilioPeer(SID, TOKEN),
    ]);
    t = await startTestApp(target, { ALARM_SYNC_MS: '200' });
    const { east } = await seededCompanies(t);
    companyId = east.id;
    for (const key of ['oncall', 'chief'] as const) {
      const u = await newUser(t, companyId, { signIn: false });
      users[key].id = u.id;
      await t.ctx.db.update(appUser).set({ email: users[key].email, phone: users[key].phone, language: key === 'chief' ? 'en-US' : 'zh-CN' }).where(eq(appUser.id, u.id));
    }
    for (const key of ['main', 'quiet', 'broken'] as const) {
      const s = await newSite(t, companyId, { name: `Station ${key}` });
      await t.ctx.db.update(site).set({ email: `${key}-site@example.com`, phone: key === 'main' ? '+14155550199' : '   ' }).where(eq(site.id, s.id));
      const d = await newDevice(t, s.id, { type: 'pcs' });
      stations[key] = { id: s.id, code: s.code, pcs: d.id };
    }
    const [good] = await t.ctx.db
      .insert(mailAccount)
      .values({ companyId, name: 'catcher', host: '127.0.0.1', port: smtp.port, tlsMode: 'none', fromName: 'ESS Alarms', fromAddress: 'alarms@example.com', isDefault: true })
      .returning({ id: mailAccount.id });
    const [bad] = await t.ctx.db
      .insert(mailAccount)
      .values({ companyId, name: 'failing', host: '127.0.0.1', port: failing.port, tlsMode: 'none', fromAddress: 'alarms@example.com' })
      .returning({ id: mailAccount.id });
    await t.ctx.db.insert(smsChannel).values({
      companyId, name: 'twilio', provider: 'twilio', accessKeyId: SID, secretEnc: secretsOf(t.ctx).seal(TOKEN, SMS_SECRET), sender: '+15005550006', endpoint: twilio.url, isDefault: true,
    });
    await t.ctx.db.insert(mailTemplate).values([
      { companyId, name: '告警', code: 'alarm', language: 'zh-CN', subject: 'ALARM L${level} ${station}', html: '<p>${station}: ${device} <b>${description}</b> at ${time}</p>' },
      { companyId, name: 'Alarm', code: 'alarm', language: 'en-US', subject: 'Alarm level ${level} at ${station}', html: '<p>Dear ${recipient}, ${description} on ${device}</p>', text: 'Dear ${recipient}, ${description} on ${device}' },
    ]);
    await t.ctx.db.insert(smsTemplate).values({ companyId, name: '告警短信', code: 'alarm', language: 'zh-CN', content: 'Alarm L${level} ${station} ${device}: ${description}' });

    const rule = (extra: Record<string, unknown>) => post<{ id: number }>('/message/config/add', {
      companyId, event: 'alarmOpened', maxLevel: 3, channels: ['console', 'mail', 'sms'], mailTemplateCode: 'alarm', smsTemplateCode: 'alarm', ...extra,
    });
    const made = await Promise.all([
      rule({
        name: 'main', siteIds: [stations.main.id], recipients: { userIds: [users.oncall.id], siteContacts: true },
        escalation: { intervalMinutes: 10, levels: [{ userIds: [users.chief.id] }], maxRepeats: 1 },
      }),
      rule({
        name: 'quiet', siteIds: [stations.quiet.id], channels: ['mail'], recipients: { userIds: [users.oncall.id] },
        quietHours: { start: hhmm(-60), end: hhmm(60), overrideLevel: 1 },
      }),
      rule({ name: 'broken', siteIds: [stations.broken.id], channels: ['mail'], mailAccountId: bad!.id, recipients: { userIds: [users.oncall.id] } }),
    ]);
    for (const r of made) expect(r.body.errorCode, r.body.tipMsg).toBe('00000');
    void good;
  });
  afterAll(async () => {
    await t?.stop();
    await Promise.all([smtp?.close(), failing?.close(), twilio?.close()]);
  });

  let mainAlarm = 0;

  it('an alarm from the engine goes by mail to the SMTP server and by SMS to the Twilio peer; the logs say sent', async () => {
    mainAlarm = await fault(stations.main.pcs, 'PCS_IGBT_FAULT');
    await processDue(t.ctx);
    await until('two mails and two SMS', () => smtp.received.length >= 2 && twilio.accepted.length >= 2);
    // The on-call user and the station's contact, each once; the blank contact phone of the other stations is dropped.
    expect(smtp.received.map((m) => m.to).flat().sort()).toEqual(['main-site@example.com', users.oncall.email]);
    const mail = smtp.received.find((m) => m.to[0] === users.oncall.email)!;
    expect(mail.from).toBe('alarms@example.com');
    expect(mail.raw).toMatch(/^From: ESS Alarms <alarms@example\.com>/m);
    expect(mail.raw).toMatch(new RegExp(`^To: ${users.oncall.email}`, 'm'));
    expect(mail.raw).toMatch(/^Subject: ALARM L1 /m);
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    expect(twilio.accepted.map((m) => m.to).sort()).toEqual(['+14155550101', '+14155550199']);
    expect(twilio.accepted[0]!.body).toMatch(/^Alarm L1 /);

    const mails = await mailsOfAlarm(mainAlarm);
    expect(mails.map((m) => m.state)).toEqual(['sent', 'sent']);
    for (const m of mails) {
      expect(m).toMatchObject({ attempts: 1, error: null, origin: 'rule', eventType: 'alarmOpened', templateCode: 'alarm', language: 'zh-CN' });
      expect(m.providerMessageId).toMatch(/^<.+@.+>$/);
      expect(m.sentAt).not.toBeNull();
    }
    const sms = await smsOfAlarm(mainAlarm);
    expect(sms.map((m) => [m.state, m.provider])).toEqual([['sent', 'twilio'], ['sent', 'twilio']]);
    expect(sms.map((m) => m.providerMessageId).every((id) => id?.startsWith('SM'))).toBe(true);
    // The console notification of the on-call user.
    const notes = await t.ctx.db.select().from(notification).where(eq(notification.userId, users.oncall.id));
    expect(notes.some((n) => n.title.startsWith('ALARM L1 '))).toBe(true);
  });

  it('the same event delivered twice sends one message per recipient', async () => {
    const before = { mails: smtp.received.length, sms: twilio.accepted.length, rows: (await mailsOfAlarm(mainAlarm)).length };
    // The outbox hands the event to the subscriber again (a crash after sending, another instance).
    await t.ctx.database.sql.query(`update domain_event_delivery set status = 'pending', next_at = now() where subscriber = 'messaging.delivery'`);
    await t.ctx.outbox.drain();
    await processDue(t.ctx);
    expect((await mailsOfAlarm(mainAlarm)).length).toBe(before.rows);
    expect(smtp.received.length).toBe(before.mails);
    expect(twilio.accepted.length).toBe(before.sms);
  });

  it('an unacknowledged alarm escalates after N minutes to the next level, repeats, and stops there', async () => {
    const start = Date.now();
    expect((await processDue(t.ctx, new Date(start + 5 * MINUTE))).sent).toBe(0);
    await processDue(t.ctx, new Date(start + 10 * MINUTE + 1000));
    await until('the escalation mail to the chief', () => smtp.received.some((m) => m.to.includes(users.chief.email)));
    const chiefMail = smtp.received.find((m) => m.to.includes(users.chief.email))!;
    // The chief reads English: the en-US variant, with the text part the template gave.
    expect(chiefMail.raw).toMatch(/^Subject: Alarm level 1 at /m);
    expect(twilio.accepted.some((m) => m.to === users.chief.phone)).toBe(true);
    const steps = await t.ctx.db.select({ step: messageDelivery.step, state: messageDelivery.state }).from(messageDelivery)
      .where(and(eq(messageDelivery.subjectId, mainAlarm), eq(messageDelivery.channel, 'mail'), eq(messageDelivery.recipientKey, `mail:${users.chief.email}`)));
    expect(steps).toEqual([{ step: 1, state: 'sent' }]);
    // One repeat (maxRepeats 1) to the last level, then nothing more.
    await processDue(t.ctx, new Date(start + 20 * MINUTE + 2000));
    await processDue(t.ctx, new Date(start + 30 * MINUTE + 3000));
    await processDue(t.ctx, new Date(start + 40 * MINUTE + 4000));
    const chiefMails = smtp.received.filter((m) => m.to.includes(users.chief.email));
    expect(chiefMails.length).toBe(2);
  });

  it('an alarm that ends before its escalation is due escalates no further', async () => {
    const sent = smtp.received.filter((m) => m.to.includes(users.chief.email)).length;
    const id = await fault(stations.main.pcs, 'PCS_DC_OVERCURRENT');
    await processDue(t.ctx);
    await fault(stations.main.pcs, 'PCS_DC_OVERCURRENT', false);
    expect((await t.ctx.db.select({ status: alarm.status }).from(alarm).where(eq(alarm.id, id)))[0]!.status).toBe('ended');
    await processDue(t.ctx, new Date(Date.now() + 11 * MINUTE));
    expect(smtp.received.filter((m) => m.to.includes(users.chief.email)).length).toBe(sent);
    const timers = await t.ctx.db.select({ state: messageDelivery.state, error: messageDelivery.error }).from(messageDelivery)
      .where(and(eq(messageDelivery.subjectId, id), eq(messageDelivery.channel, 'escalate')));
    expect(timers).toEqual([{ state: 'cancelled', error: '告警已结束' }]);
  });

  it('quiet hours hold a level-3 alarm until they end and let a level-1 alarm through', async () => {
    const before = smtp.received.length;
    const fan = await fault(stations.quiet.pcs, 'PCS_FAN_FAULT');
    const igbt = await fault(stations.quiet.pcs, 'PCS_IGBT_FAULT');
    await processDue(t.ctx);
    await until('the level-1 mail', async () => (await mailsOfAlarm(igbt))[0]?.state === 'sent');
    const [held] = await mailsOfAlarm(fan);
    expect(held).toMatchObject({ state: 'queued', attempts: 0 });
    // Held until the end of the window (an hour from now, to the minute).
    expect(Math.abs(held!.nextAttemptAt!.getTime() - (Date.now() + 60 * MINUTE))).toBeLessThan(2 * MINUTE);
    expect(smtp.received.length).toBe(before + 1);
    await processDue(t.ctx, new Date(Date.now() + 62 * MINUTE));
    await until('the held mail', async () => (await mailsOfAlarm(fan))[0]?.state === 'sent');
    expect(smtp.received.length).toBe(before + 2);
  });

  it('a failing SMTP server: retried with backoff, then failed with its reason; nothing lost', async () => {
    const id = await fault(stations.broken.pcs, 'PCS_IGBT_FAULT');
    let now = Date.now();
    await processDue(t.ctx, new Date(now));
    let [log] = await mailsOfAlarm(id);
    expect(log).toMatchObject({ state: 'retrying', attempts: 1 });
    expect(log!.error).toContain('451');
    const gaps = [log!.nextAttemptAt!.getTime() - now];
    for (let i = 2; i <= MAX_ATTEMPTS; i++) {
      // Not before its time…
      await processDue(t.ctx, new Date(log!.nextAttemptAt!.getTime() - 1000));
      expect((await mailsOfAlarm(id))[0]!.attempts).toBe(i - 1);
      now = log!.nextAttemptAt!.getTime() + 1000;
      await processDue(t.ctx, new Date(now));
      [log] = await mailsOfAlarm(id);
      expect(log!.attempts).toBe(i);
      if (log!.nextAttemptAt) gaps.push(log!.nextAttemptAt.getTime() - now);
    }
    expect(log).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS, nextAttemptAt: null, sentAt: null });
    expect(log!.error).toMatch(/451.*Mailbox temporarily unavailable/);
    // Exponential: each wait twice the one before.
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]! / gaps[i - 1]!).toBeCloseTo(2, 1);
    const [row] = await t.ctx.db.select().from(messageDelivery).where(eq(messageDelivery.mailLogId, log!.id));
    expect(row).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS });
  });

  it('a server that refuses connections is a temporary failure with the socket reason', async () => {
    const port = await closedPort();
    await t.ctx.db.update(mailAccount).set({ port }).where(eq(mailAccount.name, 'failing'));
    const id = await fault(stations.broken.pcs, 'PCS_DC_OVERCURRENT');
    await processDue(t.ctx);
    const [log] = await mailsOfAlarm(id);
    expect(log).toMatchObject({ state: 'retrying', attempts: 1 });
    expect(log!.error).toMatch(/ECONNREFUSED|connect/i);
  });
});
