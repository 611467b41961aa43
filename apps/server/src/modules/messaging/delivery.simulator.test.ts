import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoFleet, manualClock, runSimulator, type SimulatorHandle } from '@ess/simulator';
import type { DeviceRecord } from '@ess/contract';
import { alarm } from '../../db/schema/alarm.ts';
import { mailAccount, mailLog, mailTemplate, messageDelivery, smsChannel, smsLog, smsTemplate } from '../../db/schema/messaging.ts';
import { site } from '../../db/schema/site.ts';
import { appUser } from '../../db/schema/system.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newUser, until } from '../../../test/factory.ts';
import { smtpPeer, type SmtpPeer } from '../../../test/smtp-peer.ts';
import { startTwilioPeer, type TwilioPeer } from '../../../test/twilio-peer.ts';
import { processDue } from './delivery.send.ts';
import { secretsOf, SMS_SECRET } from './message.context.ts';

const PCS = 'SH01-PCS-01';
const FAULT = 'PCS_IGBT_FAULT';
const SID = `AC${'fedcba9876543210'.repeat(2)}`;
const TOKEN = 'simulator-test-auth-token';

/**
 * The whole path from a device to a person (issue 20): the simulator plays the demo fleet on the
 * server's embedded broker, a fault is injected into SH01's PCS, the ingest raises the alarm, the
 * outbox hands it to the delivery engine, the mail arrives at a real SMTP server (smtp-server on a
 * free port) and the SMS at a Twilio peer (the documented Messages API, Basic auth checked), each
 * with the alarm in it; the mail and SMS logs say sent with the server's and the provider's ids.
 */
describe.each(dbTargets(import.meta.url))('an injected simulator fault reaches a person by mail and SMS on %s', (target) => {
  let t: TestApp;
  let sim: SimulatorHandle;
  let smtp: SmtpPeer;
  let twilio: TwilioPeer;
  const phone = '+8613912345678'; // not the demo administrator's number (the demo's own rule texts him)
  const email = 'night-shift@example.com';
  let stationName = '';

  beforeAll(async () => {
    smtp = await smtpPeer();
    twilio = await startTwilioPeer(SID, TOKEN);
    t = await startTestApp(target, { SEED_DEMO: 'true', DEVICE_OFFLINE_TIMEOUT_MS: '600000', INGEST_BATCH_MS: '50', ALARM_SYNC_MS: '200' });
    const [sh01] = await t.ctx.db.select({ id: site.id, companyId: site.companyId, name: site.name }).from(site).where(eq(site.code, 'SH01'));
    stationName = sh01!.name;
    const u = await newUser(t, sh01!.companyId, { signIn: false, siteIds: [sh01!.id] });
    await t.ctx.db.update(appUser).set({ email, phone, language: 'zh-CN' }).where(eq(appUser.id, u.id));
    const [acc] = await t.ctx.db
      .insert(mailAccount)
      .values({ companyId: sh01!.companyId, name: 'sim-catcher', host: '127.0.0.1', port: smtp.port, tlsMode: 'none', fromAddress: 'alarms@example.com' })
      .returning({ id: mailAccount.id });
    await t.ctx.db.insert(mailTemplate).values({
      companyId: sh01!.companyId, name: '模拟告警', code: 'sim-alarm', language: 'zh-CN', subject: '[L${level}] ${station} ${device}', html: '<p>${description}</p>',
    });
    const [channel] = await t.ctx.db
      .insert(smsChannel)
      .values({ companyId: sh01!.companyId, name: 'sim-twilio', provider: 'twilio', accessKeyId: SID, secretEnc: secretsOf(t.ctx).seal(TOKEN, SMS_SECRET), sender: '+15005550006', endpoint: twilio.url })
      .returning({ id: smsChannel.id });
    await t.ctx.db.insert(smsTemplate).values({ companyId: sh01!.companyId, name: '模拟告警短信', code: 'sim-alarm-sms', language: 'zh-CN', content: '[L${level}] ${station} ${device}: ${description}' });
    const rule = await t.api.post('/message/config/add', t.adminToken, {
      companyId: sh01!.companyId, name: 'simulated fault', event: 'alarmOpened', maxLevel: 5, siteIds: [sh01!.id], channels: ['mail', 'sms'],
      mailTemplateCode: 'sim-alarm', mailAccountId: acc!.id, smsTemplateCode: 'sim-alarm-sms', smsChannelId: channel!.id, recipients: { userIds: [u.id] },
    });
    expect(rule.body.errorCode, rule.body.tipMsg).toBe('00000');
    const start = Date.now() - 10 * 60_000;
    sim = await runSimulator({ mqttUrl: t.ctx.mqtt.url, fleet: demoFleet(), intervalMs: 0, clock: manualClock(start) });
    await sim.tick();
  });
  afterAll(async () => {
    await sim?.stop();
    await t?.stop();
    await smtp?.close();
    await twilio?.close();
  });

  it('fault → alarm → mail at the SMTP server and SMS at the provider → logs sent', async () => {
    const all = await t.api.post<DeviceRecord[]>('/configure/device/query/list', t.adminToken, {});
    const pcs = all.body.data.find((d) => d.code === PCS)!;
    const pcsId = pcs.id;
    await sim.injectFault(PCS, FAULT);
    const opened = async () => (await t.ctx.db.select().from(alarm).where(and(eq(alarm.deviceId, pcsId), eq(alarm.code, FAULT), eq(alarm.status, 'active'))))[0];
    await until('the alarm from the simulator', async () => (await opened()) !== undefined);
    const a = (await opened())!;
    await until('the delivery planned', async () => {
      await t.ctx.outbox.drain();
      const rows = await t.ctx.db.select().from(messageDelivery).where(and(eq(messageDelivery.subjectId, a.id), eq(messageDelivery.channel, 'mail')));
      return rows.some((r) => r.recipientKey.includes(email));
    });
    await until('the mail at the SMTP server and the SMS at the provider', async () => {
      await processDue(t.ctx);
      return smtp.received.some((m) => m.to.includes(email)) && twilio.accepted.some((m) => m.to === phone);
    });
    const mail = smtp.received.find((m) => m.to.includes(email))!;
    const [log] = await t.ctx.db.select().from(mailLog).where(and(eq(mailLog.recipient, email), eq(mailLog.eventType, 'alarmOpened')));
    expect(log).toMatchObject({ state: 'sent', attempts: 1, error: null, templateCode: 'sim-alarm' });
    // The subject as rendered for the alarm (the raw header is MIME-encoded: the station's name is Chinese).
    expect(log!.subject).toBe(`[L${a.level}] ${stationName} ${pcs.name}`);
    expect(mail.raw).toMatch(/^Subject: =\?UTF-8\?/m);
    expect(log!.providerMessageId).toBeTruthy();
    expect(mail.raw).toContain(log!.providerMessageId!);
    // The SMS: rendered for the alarm, sent from the channel's number, its log sent with Twilio's sid.
    const sms = twilio.accepted.filter((m) => m.to === phone);
    expect(sms).toHaveLength(1);
    expect(sms[0]!.from).toBe('+15005550006');
    expect(sms[0]!.body).toBe(`[L${a.level}] ${stationName} ${pcs.name}: ${a.description}`);
    const [smsRow] = await t.ctx.db.select().from(smsLog).where(and(eq(smsLog.recipient, phone), eq(smsLog.eventType, 'alarmOpened')));
    expect(smsRow).toMatchObject({ state: 'sent', attempts: 1, error: null, provider: 'twilio', providerMessageId: sms[0]!.sid });
  });
});
