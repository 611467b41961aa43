import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageRuleRecord } from '@ess/contract/messaging';
import { mailAccount, mailLog, mailTemplate, messageDelivery, messageRule, smsChannel, smsTemplate } from '../../db/schema/messaging.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newCompany, newRole, newSite, newUser, okData, seededCompanies } from '../../../test/factory.ts';
import { literals, serverPack } from '../../../test/packs.ts';
import { LOCALES } from '@ess/contract';
import { appUser } from '../../db/schema/system.ts';
import { DEMO_ADMIN_MAIL, DEMO_ALARM_TEMPLATE, seedMessageRulesDemo } from './message.rule.demo.ts';

/**
 * Message rules (/message/config): the contract's refinements and the server's own checks refuse
 * with a clear 4xx and write nothing; another company's rule or company is refused; a rule is
 * read back as written; disabling or deleting a rule cancels what it has not sent yet.
 */
describe.each(dbTargets(import.meta.url))('message rules on %s', (target) => {
  let t: TestApp;
  let east = 0;
  let south = 0;
  let siteId = 0;
  let southSite = 0;
  let userId = 0;
  let roleId = 0;
  let accountId = 0;
  const post = <T>(path: string, body: unknown, token = t.adminToken) => t.api.post<T>(path, token, body);
  const rules = async () => (await t.ctx.db.select({ n: count() }).from(messageRule))[0]!.n;
  const valid = () => ({
    companyId: east, name: 'L1 alarms', event: 'alarmOpened', maxLevel: 2, siteIds: [siteId], channels: ['console', 'mail', 'sms'],
    mailTemplateCode: 'alarm', smsTemplateCode: 'alarm', recipients: { userIds: [userId], roleIds: [roleId], siteContacts: true },
    quietHours: { start: '22:00', end: '07:00', overrideLevel: 1, timeZone: 'Asia/Shanghai' },
    escalation: { intervalMinutes: 15, levels: [{ userIds: [userId] }, { roleIds: [roleId] }], maxRepeats: 2 },
  });

  beforeAll(async () => {
    t = await startTestApp(target);
    const c = await seededCompanies(t);
    east = c.east.id;
    south = c.south.id;
    siteId = (await newSite(t, east)).id;
    southSite = (await newSite(t, south)).id;
    userId = (await newUser(t, east, { signIn: false })).id;
    roleId = await newRole(t, east);
    const [a] = await t.ctx.db.insert(mailAccount).values({ companyId: east, name: 'smtp', host: '127.0.0.1', port: 2525, tlsMode: 'none', fromAddress: 'a@example.com', isDefault: true }).returning();
    accountId = a!.id;
    await t.ctx.db.insert(smsChannel).values({ companyId: east, name: 'twilio', provider: 'twilio', accessKeyId: `AC${'0'.repeat(32)}`, sender: '+15005550006', isDefault: true });
    await t.ctx.db.insert(mailTemplate).values({ companyId: east, name: 'alarm', code: 'alarm', language: 'zh-CN', subject: '${station}', html: '<p>${description}</p>' });
    await t.ctx.db.insert(smsTemplate).values({ companyId: east, name: 'alarm', code: 'alarm', language: 'zh-CN', content: '${station} ${description}' });
  });
  afterAll(async () => t?.stop());

  let id = 0;

  it('the demo seed writes its rules once (console only without a group mail account), and gives the administrator an address', async () => {
    const seed = { config: { ...t.ctx.config, seedDemo: true }, database: t.ctx.database, db: t.ctx.db, log: t.ctx.log };
    await seedMessageRulesDemo(seed);
    const seeded = await okData(post<{ records: MessageRuleRecord[] }>('/message/config/query/page', { current: 1, pageSize: 10 }));
    expect(seeded.records.map((r) => [r.event, r.channels, r.maxLevel, r.minutes]).sort()).toEqual([
      ['alarmOpened', ['console'], 2, null],
      ['deviceOffline', ['console'], null, 15],
    ]);
    expect(seeded.records.find((r) => r.event === 'alarmOpened')!.escalation).toMatchObject({ intervalMinutes: 30, maxRepeats: 1 });
    await seedMessageRulesDemo(seed);
    expect(await rules()).toBe(2);
    const [admin] = await t.ctx.db.select({ email: appUser.email }).from(appUser).where(eq(appUser.username, 'admin'));
    expect(admin!.email).toBe(DEMO_ADMIN_MAIL);
    await t.ctx.db.delete(messageRule);
  });

  it('the demo seed with the group’s mail account and SMS channel: level 1–2 alarms in the console, only level-1 alarms by mail and SMS', async () => {
    const seed = { config: { ...t.ctx.config, seedDemo: true }, database: t.ctx.database, db: t.ctx.db, log: t.ctx.log };
    const { group } = await seededCompanies(t);
    const [acc] = await t.ctx.db.insert(mailAccount).values({ companyId: group.id, name: 'demo smtp', host: '127.0.0.1', port: 2525, tlsMode: 'none', fromAddress: 'd@example.com', isDefault: true }).returning();
    const [ch] = await t.ctx.db.insert(smsChannel).values({ companyId: group.id, name: 'demo sms', provider: 'twilio', accessKeyId: `AC${'0'.repeat(32)}`, sender: '+15005550006', isDefault: true }).returning();
    const tpl = { companyId: group.id, name: 'alarm', code: DEMO_ALARM_TEMPLATE, language: 'zh-CN' };
    const [mt] = await t.ctx.db.insert(mailTemplate).values({ ...tpl, subject: '${station}', html: '<p>${description}</p>' }).returning();
    const [st] = await t.ctx.db.insert(smsTemplate).values({ ...tpl, content: '${station} ${description}' }).returning();
    try {
      await seedMessageRulesDemo(seed);
      const seeded = await okData(post<{ records: MessageRuleRecord[] }>('/message/config/query/page', { current: 1, pageSize: 10 }));
      expect(seeded.records.map((r) => [r.event, r.channels, r.maxLevel, r.mailTemplateCode, r.smsTemplateCode]).sort()).toEqual([
        ['alarmOpened', ['console'], 2, null, null],
        ['alarmOpened', ['mail', 'sms'], 1, DEMO_ALARM_TEMPLATE, DEMO_ALARM_TEMPLATE],
        ['deviceOffline', ['console'], null, null, null],
      ]);
      // No rule sends a level-2 alarm by mail or SMS.
      expect(seeded.records.filter((r) => r.channels.some((c) => c !== 'console') && (r.maxLevel === null || r.maxLevel > 1))).toEqual([]);
    } finally {
      await t.ctx.db.delete(messageRule);
      await t.ctx.db.delete(mailTemplate).where(eq(mailTemplate.id, mt!.id));
      await t.ctx.db.delete(smsTemplate).where(eq(smsTemplate.id, st!.id));
      await t.ctx.db.delete(mailAccount).where(eq(mailAccount.id, acc!.id));
      await t.ctx.db.delete(smsChannel).where(eq(smsChannel.id, ch!.id));
    }
  });

  it('adds a rule and reads it back with the names of its stations, users and roles', async () => {
    id = (await okData(post<{ id: number }>('/message/config/add', valid()))).id;
    const r = await okData(post<MessageRuleRecord>('/message/config/query/one', { id }));
    expect(r).toMatchObject({
      id, companyId: east, name: 'L1 alarms', event: 'alarmOpened', maxLevel: 2, minutes: null, siteIds: [siteId], channels: ['console', 'mail', 'sms'],
      mailTemplateCode: 'alarm', smsTemplateCode: 'alarm', mailAccountId: null, smsChannelId: null,
      recipients: { userIds: [userId], roleIds: [roleId], siteContacts: true, assignee: false },
      quietHours: { start: '22:00', end: '07:00', overrideLevel: 1, timeZone: 'Asia/Shanghai' },
      escalation: { intervalMinutes: 15, levels: [{ userIds: [userId], roleIds: [] }, { userIds: [], roleIds: [roleId] }], maxRepeats: 2 },
      enabled: true,
    });
    expect(r.siteNames).toHaveLength(1);
    expect(r.userNames).toHaveLength(1);
    expect(r.roleNames).toHaveLength(1);
    const page = await okData(post<{ records: MessageRuleRecord[]; total: number }>('/message/config/query/page', { current: 1, pageSize: 10, channel: 'sms', event: 'alarmOpened' }));
    expect(page.records.map((x) => x.id)).toContain(id);
    expect((await okData(post<{ total: number }>('/message/config/query/page', { current: 1, pageSize: 10, event: 'deviceOffline' }))).total).toBe(0);
  });

  it.each([
    ['minutes missing for a delayed event', { event: 'alarmUnacknowledged' }, '该事件须填写分钟数'],
    ['no recipients', { recipients: { userIds: [] }, escalation: null }, '至少选择一类接收人'],
    ['no channels', { channels: [] }, '至少选择一种发送方式'],
    ['mail without a template', { mailTemplateCode: null }, '选择邮件发送时须选择邮件模板'],
    ['escalation of a non-alarm event', { event: 'workOrderAssigned' }, '只有告警事件可以升级'],
    ['the assignee of an alarm event', { recipients: { assignee: true } }, '只有工单和结算单事件可以发送给处理人'],
    ['a level of 6', { maxLevel: 6 }, '告警等级应为1-5'],
    ['quiet hours of 25:00', { quietHours: { start: '25:00', end: '07:00' } }, '免打扰时间格式应为HH:mm'],
    ['an unknown time zone', { quietHours: { start: '22:00', end: '07:00', timeZone: 'Mars/Olympus' } }, '时区不正确'],
    ['a station of another company', { siteIds: [-1] }, null],
    ['an unknown mail template', { mailTemplateCode: 'nope' }, '该公司没有此编码的邮件模板'],
    ['an unknown SMS template', { smsTemplateCode: 'nope' }, '该公司没有此编码的短信模板'],
    ['a mail account of nobody', { mailAccountId: 999_999 }, '邮件账号不存在或不属于该公司'],
    ['a user of nobody', { recipients: { userIds: [999_999] } }, '所选用户不存在或无权访问'],
    ['a role of nobody in the escalation', { escalation: { intervalMinutes: 5, levels: [{ roleIds: [999_999] }] } }, '所选角色不存在或无权访问'],
  ])('refuses %s with 400 and writes nothing', async (_what, change, tip) => {
    const before = await rules();
    const body = { ...valid(), ...change } as Record<string, unknown>;
    if ((body.siteIds as number[])[0] === -1) body.siteIds = [southSite];
    const r = await post('/message/config/add', body);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    if (tip) expect(r.body.tipMsg).toContain(tip);
    expect(await rules()).toBe(before);
  });

  it('a station of a company under the rule’s own is accepted; one of a sibling company is not', async () => {
    const child = await newCompany(t, east);
    const childSite = (await newSite(t, child.id)).id;
    const ok = await post('/message/config/add', { ...valid(), siteIds: [childSite] });
    expect(ok.body.errorCode).toBe('00000');
    const bad = await post('/message/config/add', { ...valid(), companyId: child.id, siteIds: [siteId], channels: ['console'] });
    expect([bad.status, bad.body.tipMsg]).toEqual([400, '所选站点不属于该公司']);
  });

  it('without a default account, a mail rule must name one', async () => {
    await t.ctx.db.update(mailAccount).set({ isDefault: false }).where(eq(mailAccount.id, accountId));
    const r = await post('/message/config/add', valid());
    expect([r.status, r.body.tipMsg]).toEqual([400, '该公司没有默认邮件账号，请选择邮件账号']);
    expect((await post('/message/config/add', { ...valid(), mailAccountId: accountId })).body.errorCode).toBe('00000');
    await t.ctx.db.update(mailAccount).set({ isDefault: true }).where(eq(mailAccount.id, accountId));
  });

  it('refuses another company’s rule and a company outside the caller’s scope; a user without the menu gets 403', async () => {
    const southUser = await newUser(t, south, { menus: ['/message/message-config'] });
    expect((await post('/message/config/query/one', { id }, southUser.token)).body.errorCode).toBe('A0301');
    expect((await post('/message/config/edit', { ...valid(), id }, southUser.token)).body.errorCode).toBe('A0301');
    expect((await t.api.get('/message/config/delete', southUser.token, { id })).body.errorCode).toBe('A0301');
    expect((await post('/message/config/disable', { id }, southUser.token)).body.errorCode).toBe('A0301');
    expect((await post('/message/config/add', valid(), southUser.token)).body.errorCode).toBe('A0301');
    const nobody = await newUser(t, east, { menus: [] });
    expect((await post('/message/config/query/page', { current: 1, pageSize: 10 }, nobody.token)).status).toBe(403);
    expect((await post('/message/config/query/one', { id: 999_999 })).status).toBe(404);
  });

  it('edits; disabling or deleting a rule cancels what it has not sent yet', async () => {
    await okData(post('/message/config/edit', { ...valid(), id, name: 'renamed', channels: ['mail'] }));
    const r = await okData(post<MessageRuleRecord>('/message/config/query/one', { id }));
    expect([r.name, r.channels, r.smsTemplateCode]).toEqual(['renamed', ['mail'], null]);
    const [log] = await t.ctx.db
      .insert(mailLog)
      .values({ companyId: east, recipient: 'x@example.com', origin: 'rule', ruleId: id, subject: 's', html: 'h', text: 't' })
      .returning({ id: mailLog.id });
    await t.ctx.db.insert(messageDelivery).values({ companyId: east, eventId: 1, eventType: 'alarmOpened', ruleId: id, channel: 'mail', recipientKey: 'mail:x@example.com', mailLogId: log!.id, dueAt: new Date(Date.now() + 3_600_000) });
    await okData(post('/message/config/disable', { id }));
    expect((await okData(post<MessageRuleRecord>('/message/config/query/one', { id }))).enabled).toBe(false);
    const [d] = await t.ctx.db.select().from(messageDelivery).where(eq(messageDelivery.mailLogId, log!.id));
    const [l] = await t.ctx.db.select().from(mailLog).where(eq(mailLog.id, log!.id));
    expect([d!.state, l!.state, l!.error]).toEqual(['cancelled', 'cancelled', '规则已停用']);
    await okData(post('/message/config/enable', { id }));
    await okData(t.api.get('/message/config/delete', t.adminToken, { id }));
    expect((await post('/message/config/query/one', { id })).status).toBe(404);
  });
});

describe('language packs for message rules and delivery', () => {
  it('translate every refusal and log reason of the rule server and the delivery engine in all 15 packs', () => {
    const texts = new Set<string>();
    for (const file of ['message.rule.service.ts', 'message.scope.ts', 'delivery.ledger.ts', 'delivery.plan.ts', 'delivery.send.ts']) {
      const src = readFileSync(join(import.meta.dirname, file), 'utf8');
      for (const s of literals(src, /export const [A-Z_]+ = '([^']*[\u4e00-\u9fff][^']*)'/g)) texts.add(s);
    }
    expect(texts.size).toBeGreaterThanOrEqual(20);
    for (const locale of LOCALES.filter((l) => l !== 'zh-CN')) {
      const p = serverPack(locale);
      expect([locale, [...texts].filter((s) => !p[s])]).toEqual([locale, []]);
    }
  });
});
