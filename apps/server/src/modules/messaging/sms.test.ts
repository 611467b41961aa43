import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE_INVALID, SMS_ENDPOINT_INVALID, STORED_SECRET_MOVED, TEMPLATE_UNKNOWN_VARIABLE, TEST_SECRET_REQUIRED, TEST_TARGET_REQUIRED, type SendTestResult, type SmsChannelRecord, type SmsLogDetail, type SmsLogRecord, type SmsPreview } from '@ess/contract/messaging';
import type { Page } from '@ess/contract';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { newAlarm, newDevice, newSite, newUser, okData, seededCompanies, type FactoryUser } from '../../../test/factory.ts';
import { startHttpPeer, type HttpPeer, type PeerAnswer, type PeerRequest } from '../../../test/http-peer.ts';
import { smsChannel, smsLog, smsTemplate } from '../../db/schema/messaging.ts';
import { attemptSms, seedSmsDemo } from './index.ts';
import { DEMO_SMS_CATCHER_URL } from './sms.demo.ts';
import { CHANNEL_SECRET_REQUIRED } from './sms.channel.service.ts';
import { backoffMs, SMS_DAILY_LIMIT } from './sms.send.ts';
import { TWILIO_ACCOUNT_SID_FORMAT } from './sms-providers/twilio.ts';

/**
 * SMS channels, templates and the log through the real server: a Twilio channel pointed at a
 * local Messages API peer (Basic auth checked against the token the test set), test sends, the
 * states of an attempt (sent, retrying with backoff, failed with the provider's reason, held by
 * the daily limit), the secret never answered or exported, and the refusals.
 */
const SID = `AC${'1234abcd'.repeat(4)}`;
const TOKEN = 'sms-test-auth-token-9f3b';

describe('SMS channels, templates and log', () => {
  let t: TestApp;
  let peer: HttpPeer;
  let east: { id: number };
  let south: { id: number };
  let operator: FactoryUser;
  let site: { id: number; name: string };
  let mode: 'ok' | 'invalid-to' | 'throttled' = 'ok';
  let channelId = 0;
  let templateId = 0;
  const answers: string[] = [];

  function twilio(req: PeerRequest): PeerAnswer {
    const [user, pass] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':');
    if (req.url !== `/2010-04-01/Accounts/${SID}/Messages.json` || user !== SID || pass !== TOKEN) return { status: 401, body: { code: 20003, message: 'Authenticate', status: 401 } };
    const form = new URLSearchParams(req.body);
    if (mode === 'invalid-to') return { status: 400, body: { code: 21211, message: `The 'To' number ${form.get('To')} is not a valid phone number.`, status: 400 } };
    if (mode === 'throttled') return { status: 429, body: { code: 20429, message: 'Too Many Requests', status: 429 } };
    return { status: 201, body: { sid: `SM${String(answers.length).padStart(32, '0')}`, status: 'queued', to: form.get('To'), body: form.get('Body') } };
  }
  const post = async <T>(path: string, body: unknown, token = operator.token) => {
    const r = await t.api.post<T>(path, token, body);
    answers.push(r.raw.toString('utf8'));
    return r;
  };
  const logRows = async () => t.ctx.db.select().from(smsLog);

  beforeAll(async () => {
    t = await startTestApp('pglite');
    peer = await startHttpPeer(twilio);
    ({ east, south } = await seededCompanies(t));
    site = await newSite(t, east.id, { name: '东湖储能站' });
    const dev = await newDevice(t, site.id, { name: '1号电池簇' });
    await newAlarm(t, dev.id, { level: 1, description: '电芯温度过高' });
    operator = await newUser(t, east.id, { menus: ['/sms/sms-channel', '/sms/sms-template', '/sms/sms-log'], siteIds: [site.id] });
  });
  afterAll(async () => {
    await t?.stop();
    await peer?.close();
  });

  it('seeds the demo once: a default channel to the local SMS catcher and an alarm template in two languages', async () => {
    const demo = { config: { ...t.ctx.config, seedDemo: true }, db: t.ctx.db };
    expect(await seedSmsDemo({ ...demo, config: t.ctx.config })).toBe(false);
    expect(await seedSmsDemo(demo)).toBe(true);
    expect(await seedSmsDemo(demo)).toBe(false);
    const channels = await okData(t.api.post<Page<SmsChannelRecord>>('/sms/channel/query/page', t.adminToken, {}));
    expect(channels.records).toEqual([expect.objectContaining({ provider: 'twilio', endpoint: DEMO_SMS_CATCHER_URL, secretSet: true, isDefault: true })]);
    const tpl = await t.ctx.db.select().from(smsTemplate);
    expect(tpl.map((x) => [x.code, x.language])).toEqual([['alarm.opened', 'zh-CN'], ['alarm.opened', 'en-US']]);
    await t.ctx.db.delete(smsTemplate);
  });

  it('adds a Twilio channel; the secret is sealed at rest and answered only as secretSet', async () => {
    const added = await okData(post<{ id: number }>('/sms/channel/add', {
      companyId: east.id, name: '演示 Twilio', provider: 'twilio', accessKeyId: SID, secret: TOKEN, sender: '+15005550006', endpoint: peer.url, dailyLimit: 3,
    }));
    channelId = added.id;
    const one = await okData(post<SmsChannelRecord>('/sms/channel/query/one', { id: channelId }));
    expect(one).toMatchObject({ provider: 'twilio', accessKeyId: SID, secretSet: true, endpoint: peer.url, sentToday: 0 });
    const [row] = await t.ctx.db.select().from(smsChannel).where(eq(smsChannel.id, channelId));
    expect(row!.secretEnc).toMatch(/^v1\./);
    expect(row!.secretEnc).not.toContain(TOKEN);
  });

  it('refuses bad channels with a clear 4xx and writes nothing', async () => {
    const before = (await t.ctx.db.select().from(smsChannel)).length;
    const bad = [
      [{ provider: 'twilio', accessKeyId: 'not-a-sid', secret: 'x', sender: '+15005550006' }, TWILIO_ACCOUNT_SID_FORMAT],
      [{ provider: 'twilio', accessKeyId: SID, sender: '+15005550006' }, CHANNEL_SECRET_REQUIRED],
      [{ provider: 'aliyun', accessKeyId: 'LTAI', secret: 'x', endpoint: 'ftp://example' }, SMS_ENDPOINT_INVALID],
    ] as const;
    for (const [fields, tip] of bad) {
      const r = await post('/sms/channel/add', { companyId: east.id, name: `bad-${tip.length}`, ...fields });
      expect([r.status, r.body.tipMsg]).toEqual([400, expect.stringContaining(tip)]);
    }
    expect((await t.ctx.db.select().from(smsChannel)).length).toBe(before);
  });

  it('keeps the secret when an edit leaves it out, and refuses an unknown variable in a template', async () => {
    await okData(post('/sms/channel/edit', { id: channelId, companyId: east.id, name: '演示 Twilio', provider: 'twilio', accessKeyId: SID, sender: '+15005550006', endpoint: peer.url, dailyLimit: 3 }));
    expect((await okData(post<SmsChannelRecord>('/sms/channel/query/one', { id: channelId }))).secretSet).toBe(true);
    const r = await post('/sms/template/add', { companyId: east.id, name: 'x', code: 'alarm.bad', language: 'zh-CN', content: '告警 ${station} ${nosuch}' });
    expect([r.status, r.body.tipMsg]).toEqual([400, expect.stringContaining(`${TEMPLATE_UNKNOWN_VARIABLE}：nosuch`)]);
    expect(await t.ctx.db.select().from(smsTemplate)).toEqual([]);
  });

  it('previews a template with the real station, its device and latest alarm', async () => {
    templateId = (await okData(post<{ id: number }>('/sms/template/add', {
      companyId: east.id, name: '告警通知', code: 'alarm.opened', language: 'zh-CN', content: '【储能云】${station} ${device} 发生${level}级告警：${description}，时间 ${time}',
    }))).id;
    const p = await okData(post<SmsPreview>('/sms/template/preview', { id: templateId, siteId: site.id }));
    expect(p.content).toMatch(/^【储能云】东湖储能站 1号电池簇 发生1级告警：电芯温度过高，时间 \d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(p).toMatchObject({ variables: ['station', 'device', 'level', 'description', 'time'], siteId: site.id, siteName: '东湖储能站', segments: 1 });
    expect(p.length).toBe([...p.content].length);
  });

  it('test-sends through the channel: the peer gets the rendered text, the log shows it sent', async () => {
    mode = 'ok';
    const r = await okData(post<SendTestResult>('/sms/channel/test/send', { id: channelId, templateId, phone: '138 0013 8000', region: 'CN', siteId: site.id }));
    expect(r).toMatchObject({ ok: true, message: '发送成功', reason: null });
    const sent = new URLSearchParams(peer.requests.at(-1)!.body);
    expect(sent.get('To')).toBe('+8613800138000');
    expect(sent.get('Body')).toContain('东湖储能站 1号电池簇');
    const log = await okData(post<SmsLogDetail>('/sms/log/query/one', { id: r.logId }));
    expect(log).toMatchObject({ state: 'sent', recipient: '+8613800138000', providerMessageId: r.providerMessageId, attempts: 1, origin: 'test', channelName: '演示 Twilio', provider: 'twilio', templateCode: 'alarm.opened' });
    expect(log.params).toMatchObject({ station: '东湖储能站', device: '1号电池簇', level: '1' });
  });

  it('a number that is not one: 400 with a clear tip, nothing written, nothing sent', async () => {
    const logsBefore = (await logRows()).length;
    const sentBefore = peer.requests.length;
    for (const phone of ['12345', '+86 138', 'abc']) {
      const r = await post('/sms/channel/test/send', { id: channelId, templateId, phone });
      expect([r.status, r.body.tipMsg]).toEqual([400, expect.stringContaining(PHONE_INVALID)]);
    }
    expect((await logRows()).length).toBe(logsBefore);
    expect(peer.requests.length).toBe(sentBefore);
  });

  it("a provider's permanent refusal: failed with its reason", async () => {
    mode = 'invalid-to';
    const r = await okData(post<SendTestResult>('/sms/channel/test/send', { id: channelId, templateId, phone: '+14155550100' }));
    expect(r).toMatchObject({ ok: false, message: '发送失败', providerMessageId: null });
    expect(r.reason).toMatch(/^21211: The 'To' number/);
    const [row] = await t.ctx.db.select().from(smsLog).where(eq(smsLog.id, r.logId));
    expect(row).toMatchObject({ state: 'failed', attempts: 1, nextAttemptAt: null });
  });

  it('a temporary failure retries with backoff, then sends; the daily limit holds the rest until tomorrow', async () => {
    mode = 'throttled';
    const [row] = await t.ctx.db.insert(smsLog).values({ companyId: east.id, recipient: '+8613800138001', origin: 'rule', content: '告警', channelId, state: 'queued', nextAttemptAt: new Date() }).returning();
    const t0 = new Date();
    const first = await attemptSms(t.ctx, row!.id, { now: () => t0 });
    expect(first).toMatchObject({ attempted: true, state: 'retrying', result: { kind: 'temporary', providerCode: '20429' } });
    const [held] = await t.ctx.db.select().from(smsLog).where(eq(smsLog.id, row!.id));
    expect(held!.nextAttemptAt!.getTime()).toBe(t0.getTime() + backoffMs(1));
    // Not due yet: a second worker's attempt does nothing.
    expect((await attemptSms(t.ctx, row!.id, { now: () => t0 })).attempted).toBe(false);
    mode = 'ok';
    const later = new Date(t0.getTime() + backoffMs(1));
    expect(await attemptSms(t.ctx, row!.id, { now: () => later })).toMatchObject({ state: 'sent' });
    const [done] = await t.ctx.db.select().from(smsLog).where(eq(smsLog.id, row!.id));
    expect(done).toMatchObject({ state: 'sent', attempts: 2, error: null });
    expect(done!.providerMessageId).toMatch(/^SM/);

    // The channel's limit is 3 a day: the test send and this one took 2 (the refused send gave its count back).
    const [c] = await t.ctx.db.select().from(smsChannel).where(eq(smsChannel.id, channelId));
    expect(c!.sentToday).toBe(2);
    const queued = await t.ctx.db.insert(smsLog).values([0, 1].map((i) => ({ companyId: east.id, recipient: `+861380013810${i}`, origin: 'rule', content: '告警', channelId, state: 'queued', nextAttemptAt: later }))).returning();
    expect((await attemptSms(t.ctx, queued[0]!.id, { now: () => later })).state).toBe('sent');
    expect((await attemptSms(t.ctx, queued[1]!.id, { now: () => later })).state).toBe('queued');
    const [wait] = await t.ctx.db.select().from(smsLog).where(eq(smsLog.id, queued[1]!.id));
    expect(wait).toMatchObject({ state: 'queued', attempts: 0, error: SMS_DAILY_LIMIT });
    expect(wait!.nextAttemptAt!.toISOString()).toBe(`${new Date(later.getTime() + 86_400_000).toISOString().slice(0, 10)}T00:00:00.000Z`);
  });

  it('pages, filters and exports the log; no answer or export carries the secret', async () => {
    const page = await okData(post<Page<SmsLogRecord>>('/sms/log/query/page', { current: 1, pageSize: 50, channelId, state: 'sent' }));
    expect(page.total).toBe(3);
    expect(page.records.every((r) => r.state === 'sent')).toBe(true);
    const file = await t.api.post('/sms/log/export', operator.token, { channelId });
    expect(file.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.raw as unknown as ArrayBuffer);
    const cells = wb.worksheets[0]!.getSheetValues().flat().map(String).join('|');
    expect(cells).toContain('+8613800138000');
    expect(cells).not.toContain(TOKEN);
    expect(file.raw.includes(Buffer.from(TOKEN))).toBe(false);
    expect(answers.filter((a) => a.includes(TOKEN))).toEqual([]);
  });

  it('test-sends through the form’s unsaved values: a new channel with its secret typed, an edited one with the stored secret only towards the same peer', async () => {
    mode = 'ok';
    const form = { companyId: east.id, name: '未保存渠道', provider: 'twilio', accessKeyId: SID, sender: '+15005550006', endpoint: peer.url };
    const channelsBefore = (await t.ctx.db.select().from(smsChannel)).length;
    const fresh = await post<SendTestResult>('/sms/channel/test/send', { channel: { ...form, secret: TOKEN }, templateId, phone: '+8613800138000' });
    expect(fresh.body.data).toMatchObject({ ok: true, message: '发送成功' });
    expect((await t.ctx.db.select().from(smsChannel)).length).toBe(channelsBefore);
    const [freshLog] = await t.ctx.db.select().from(smsLog).where(eq(smsLog.id, fresh.body.data.logId));
    expect(freshLog).toMatchObject({ channelId: null, channelName: '未保存渠道', provider: 'twilio', state: 'sent', origin: 'test' });
    const sentBefore = peer.requests.length;
    // Neither a saved channel nor a secret: refused before anything goes out.
    const none = await post('/sms/channel/test/send', { channel: form, templateId, phone: '+8613800138000' });
    expect([none.status, none.body.tipMsg]).toEqual([400, expect.stringContaining(TEST_SECRET_REQUIRED)]);
    const neither = await post('/sms/channel/test/send', { templateId, phone: '+8613800138000' });
    expect([neither.status, neither.body.tipMsg]).toEqual([400, expect.stringContaining(TEST_TARGET_REQUIRED)]);
    // The saved channel edited in the form (its day's limit is used up; a test of the form is not counted): the stored secret authenticates, the edited sender is used.
    const edited = await okData(post<SendTestResult>('/sms/channel/test/send', { id: channelId, channel: { ...form, sender: '+15005550007' }, templateId, phone: '+8613800138000' }));
    expect(edited).toMatchObject({ ok: true });
    expect(new URLSearchParams(peer.requests.at(-1)!.body).get('From')).toBe('+15005550007');
    expect((await okData(post<SmsChannelRecord>('/sms/channel/query/one', { id: channelId }))).sender).toBe('+15005550006');
    // A wrong secret typed: the provider refuses it.
    const wrong = await okData(post<SendTestResult>('/sms/channel/test/send', { id: channelId, channel: { ...form, secret: 'wrong-token' }, templateId, phone: '+8613800138000' }));
    expect(wrong).toMatchObject({ ok: false, message: '发送失败' });
    expect(wrong.reason).toMatch(/^20003/);
    // The endpoint or the key id changed: the stored secret goes nowhere else.
    const other = await startHttpPeer(() => ({ status: 201, body: { sid: 'SMx' } }));
    for (const moved of [{ endpoint: other.url }, { accessKeyId: `AC${'9'.repeat(32)}` }]) {
      const r = await post('/sms/channel/test/send', { id: channelId, channel: { ...form, ...moved }, templateId, phone: '+8613800138000' });
      expect([r.status, r.body.tipMsg]).toEqual([400, expect.stringContaining(STORED_SECRET_MOVED)]);
    }
    expect(other.requests).toEqual([]);
    await other.close();
    expect(peer.requests.length).toBe(sentBefore + 2);
    // Another company's form or channel.
    expect((await post('/sms/channel/test/send', { channel: { ...form, companyId: south.id, secret: TOKEN }, templateId, phone: '+8613800138000' })).status).toBe(403);
    expect(answers.filter((a) => a.includes(TOKEN))).toEqual([]);
  });

  it('refuses the signed-out, a role without the SMS menus, and another company', async () => {
    expect((await t.api.post('/sms/channel/query/page', null, {})).status).toBe(401);
    const narrow = await newUser(t, east.id, { menus: ['/mail/mail-account'] });
    for (const path of ['/sms/channel/query/page', '/sms/template/query/page', '/sms/log/query/page']) {
      const r = await t.api.post(path, narrow.token, {});
      expect([path, r.status, r.body.errorCode]).toEqual([path, 403, 'A0300']);
    }
    const r = await post('/sms/channel/add', { companyId: south.id, name: 'x', provider: 'twilio', accessKeyId: SID, secret: TOKEN, sender: '+15005550006' });
    expect(r.status).toBe(403);
    const theirs = await okData(t.api.post<{ id: number }>('/sms/channel/add', t.adminToken, { companyId: south.id, name: '南方渠道', provider: 'twilio', accessKeyId: SID, secret: TOKEN, sender: '+15005550006' }));
    expect((await post('/sms/channel/query/one', { id: theirs.id })).status).toBe(404);
    expect((await post('/sms/channel/test/send', { id: theirs.id, templateId, phone: '+8613800138000' })).status).toBe(404);
    expect((await t.api.get('/sms/channel/delete', operator.token, { id: theirs.id })).status).toBe(404);
    expect((await t.ctx.db.select().from(smsChannel).where(eq(smsChannel.id, theirs.id))).length).toBe(1);
  });
});
