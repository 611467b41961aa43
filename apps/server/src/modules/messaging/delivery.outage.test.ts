import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailAccount, mailLog, mailTemplate, smsChannel, smsLog, smsTemplate } from '../../db/schema/messaging.ts';
import { appUser } from '../../db/schema/system.ts';
import { DB_TARGETS, freshPostgres, startTestApp, Teardown, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, newUser, seededCompanies, until } from '../../../test/factory.ts';
import { fault } from '../../../test/alarm-fixtures.ts';
import { sleep, startTcpProxy, type TcpProxy } from '../../../test/ingest-fixtures.ts';
import { smtpPeer, type SmtpPeer } from '../../../test/smtp-peer.ts';
import { startTwilioPeer, type TwilioPeer } from '../../../test/twilio-peer.ts';
import { processDue } from './delivery.send.ts';
import { secretsOf, SMS_SECRET } from './message.context.ts';

/**
 * The delivery engine through a database outage (PostgreSQL behind a TCP proxy that is cut; the
 * shared server is never touched): messages planned and queued for the background sends when the
 * database goes away are all sent once it is back, each exactly once — also the mail whose SMTP
 * conversation succeeded while the database was away (its record retried until it lands, so the
 * claim running out does not send it again).
 */

const SID = `AC${'0a1b2c3d'.repeat(4)}`;
const TOKEN = 'outage-test-auth-token';
const MINUTE = 60_000;

describe.skipIf(!DB_TARGETS.includes('postgres'))('message delivery through a database outage', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let smtp: SmtpPeer;
  let twilio: TwilioPeer;
  let pcs = 0;
  let pcs2 = 0;
  let pcs3 = 0;
  /** Set: the next RCPT cuts the database and brings it back 1.5 s later (the conversation goes on). */
  let cutOnNextRcpt = false;
  /** Set: the next SMTP connection cuts the database (back 1 s later) and is refused. */
  let cutOnNextConnect = false;
  const cleanup = new Teardown();

  const raise = (code: string, deviceId = pcs) => fault(t, deviceId, code);
  const logsOf = async (alarmIds: number[]) => {
    const where = (table: typeof mailLog | typeof smsLog) => and(eq(table.eventType, 'alarmOpened'), sql`${table.eventId} in (select id from domain_event where type = 'alarm.opened' and (payload->>'id')::int = any(${`{${alarmIds.join(',')}}`}::int[]))`);
    const mails = await t.ctx.db.select({ id: mailLog.id, state: mailLog.state }).from(mailLog).where(where(mailLog));
    const sms = await t.ctx.db.select({ id: smsLog.id, state: smsLog.state }).from(smsLog).where(where(smsLog));
    return { mails, sms };
  };
  /** How many times each mail (by its X-ESS-Message-Id) and each SMS (by recipient and body) arrived. */
  const arrivals = () => {
    const count = (keys: string[]) => keys.reduce<Record<string, number>>((a, k) => ({ ...a, [k]: (a[k] ?? 0) + 1 }), {});
    return {
      mail: count(smtp.received.map((m) => /^X-ESS-Message-Id: (\S+)/im.exec(m.raw)?.[1] ?? '?')),
      sms: count(twilio.accepted.map((m) => `${m.to}|${m.body}`)),
    };
  };

  beforeAll(async () => {
    const pg = await freshPostgres();
    cleanup.add('the test database', pg.drop);
    proxy = await startTcpProxy('127.0.0.1', Number(new URL(pg.url).port || 5432));
    cleanup.add('the database proxy', () => proxy.close());
    smtp = await smtpPeer({
      onConnect(_session, cb) {
        if (!cutOnNextConnect) return cb();
        cutOnNextConnect = false;
        void proxy.cut().then(() => {
          setTimeout(() => void proxy.restore(), 1_000);
          cb(new Error('421 the server is busy, try later'));
        });
      },
      onRcptTo(_address, _session, cb) {
        if (!cutOnNextRcpt) return cb();
        cutOnNextRcpt = false;
        void proxy.cut().then(() => {
          setTimeout(() => void proxy.restore(), 1_500);
          cb();
        });
      },
    });
    cleanup.add('the SMTP peer', () => smtp.close());
    twilio = await startTwilioPeer(SID, TOKEN);
    cleanup.add('the Twilio peer', () => twilio.close());
    t = await startTestApp('postgres', { ALARM_SYNC_MS: '200' }, { databaseUrl: proxy.via(pg.url) });
    cleanup.add('the server', () => t.stop());
    const { east } = await seededCompanies(t);
    const s = await newSite(t, east.id, { name: 'Outage Station' });
    pcs = (await newDevice(t, s.id, { type: 'pcs' })).id;
    pcs2 = (await newDevice(t, s.id, { type: 'pcs' })).id;
    pcs3 = (await newDevice(t, s.id, { type: 'pcs' })).id;
    const userIds: number[] = [];
    for (const n of [1, 2]) {
      const u = await newUser(t, east.id, { signIn: false });
      await t.ctx.db.update(appUser).set({ email: `duty${n}@example.com`, phone: `+1415555030${n}` }).where(eq(appUser.id, u.id));
      userIds.push(u.id);
    }
    await t.ctx.db.insert(mailAccount).values({ companyId: east.id, name: 'catcher', host: '127.0.0.1', port: smtp.port, tlsMode: 'none', fromAddress: 'ops@example.com', isDefault: true });
    await t.ctx.db.insert(smsChannel).values({
      companyId: east.id, name: 'twilio', provider: 'twilio', accessKeyId: SID, secretEnc: secretsOf(t.ctx).seal(TOKEN, SMS_SECRET), sender: '+15005550006', endpoint: twilio.url, isDefault: true,
    });
    await t.ctx.db.insert(mailTemplate).values({ companyId: east.id, name: '告警', code: 'alarm', language: 'zh-CN', subject: 'ALARM ${alarmCode}', html: '<p>${description}</p>' });
    await t.ctx.db.insert(smsTemplate).values({ companyId: east.id, name: '告警', code: 'alarm', language: 'zh-CN', content: 'ALARM ${alarmCode} ${deviceCode}' });
    const r = await t.api.post('/message/config/add', t.adminToken, {
      companyId: east.id, name: 'outage', event: 'alarmOpened', maxLevel: 5, channels: ['mail', 'sms'], mailTemplateCode: 'alarm', smsTemplateCode: 'alarm', recipients: { userIds },
    });
    expect(r.body.errorCode, r.body.tipMsg).toBe('00000');
  });
  afterAll(async () => {
    await cleanup.run();
  });

  it('messages queued when the database goes away are all sent once it is back, each once', async () => {
    const ids = [await raise('PCS_FAN_FAULT'), await raise('PCS_IGBT_FAULT'), await raise('PCS_DC_OVERCURRENT')];
    // Planned and queued (the wake-up job in the queue), none sent yet: the database goes away.
    await proxy.cut();
    // A sweep in the outage fails, or waits (a message the background sweep had just handed to its
    // peer is being recorded, retried until the database is back).
    const during = processDue(t.ctx).then(() => 'done', () => 'failed');
    await sleep(1_500);
    expect(smtp.received.length + twilio.accepted.length).toBeLessThan(12);
    await proxy.restore();
    expect(['done', 'failed']).toContain(await during);
    await until('every message sent', async () => {
      await processDue(t.ctx).catch(() => undefined);
      const l = await logsOf(ids);
      return l.mails.length === 6 && l.sms.length === 6 && [...l.mails, ...l.sms].every((x) => x.state === 'sent');
    }, 30_000, 200).catch(async (e) => {
      const d = await t.ctx.db.execute(sql`select id, channel, state, due_at, now() as now, recipient_key, error from message_delivery order by id`);
      console.log('LEDGER', JSON.stringify(d.rows));
      const o = await t.ctx.db.execute(sql`select d.event_id, e.type, d.subscriber, d.status, d.attempts, d.next_at, d.last_error from domain_event_delivery d join domain_event e on e.id = d.event_id where d.status <> 'done' order by 1`);
      console.log('OUTBOX', JSON.stringify(o.rows));
      const n = await t.ctx.db.execute(sql`select id, type, fanned_out, history, created_at from domain_event order by id desc limit 20`);
      console.log('EVENTS', JSON.stringify(n.rows));
      console.log('LOGS', JSON.stringify(await logsOf(ids)));
      throw e;
    });
    // Later sweeps (past every claim's lease) send nothing again.
    await processDue(t.ctx, new Date(Date.now() + 15 * MINUTE));
    const a = arrivals();
    expect(Object.keys(a.mail)).toHaveLength(6);
    expect(Object.values(a.mail).every((n) => n === 1)).toBe(true);
    expect(Object.keys(a.sms)).toHaveLength(6);
    expect(Object.values(a.sms).every((n) => n === 1)).toBe(true);
  });

  it('a mail the SMTP server took while the database was away is recorded when it is back, and not sent again', async () => {
    const before = smtp.received.length;
    const id = await raise('PCS_FAN_FAULT', pcs2);
    cutOnNextRcpt = true;
    await processDue(t.ctx).catch(() => undefined);
    await until('every message of the alarm sent', async () => {
      await processDue(t.ctx).catch(() => undefined);
      const l = await logsOf([id]);
      return l.mails.length === 2 && [...l.mails, ...l.sms].every((x) => x.state === 'sent');
    }, 30_000, 200);
    expect(cutOnNextRcpt).toBe(false);
    for (const later of [3, 11, 15]) await processDue(t.ctx, new Date(Date.now() + later * MINUTE));
    expect(smtp.received.length).toBe(before + 2);
    const a = arrivals();
    expect(Object.values(a.mail).every((n) => n === 1)).toBe(true);
    expect(Object.values(a.sms).every((n) => n === 1)).toBe(true);
    const rows = await t.ctx.db.select({ state: mailLog.state, attempts: mailLog.attempts }).from(mailLog).where(inArray(mailLog.id, (await logsOf([id])).mails.map((m) => m.id)));
    expect(rows.every((r) => r.state === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('messages claimed when the database went away go as soon as it is back, not when their claims run out', async () => {
    const before = { mail: smtp.received.length, sms: twilio.accepted.length };
    const id = await raise('PCS_FAN_FAULT', pcs3);
    // The first mail's SMTP connection cuts the database mid-sweep and is refused: the sweep fails
    // with that mail's log row claimed and the alarm's other messages claimed (for two minutes
    // each, CLAIM_MS and the log row's lease) and not yet begun.
    cutOnNextConnect = true;
    await until('the sweep cut short', async () => {
      await processDue(t.ctx).catch(() => undefined);
      return !cutOnNextConnect;
    }, 30_000, 200);
    // Back within seconds on the wall clock (no later clock), the interrupted mail too: its attempt
    // ended before the SMTP server took anything, so its claim on the log row is given back.
    await until('every message of the alarm sent', async () => {
      await processDue(t.ctx).catch(() => undefined);
      return smtp.received.length - before.mail + twilio.accepted.length - before.sms >= 4;
    }, 15_000, 200);
    for (const later of [3, 11, 15]) await processDue(t.ctx, new Date(Date.now() + later * MINUTE));
    const l = await logsOf([id]);
    expect(l.mails.length + l.sms.length).toBe(4);
    expect([...l.mails, ...l.sms].every((x) => x.state === 'sent')).toBe(true);
    expect(smtp.received.length - before.mail).toBe(2);
    expect(twilio.accepted.length - before.sms).toBe(2);
    const a = arrivals();
    expect(Object.values(a.mail).every((n) => n === 1)).toBe(true);
    expect(Object.values(a.sms).every((n) => n === 1)).toBe(true);
  });
});
