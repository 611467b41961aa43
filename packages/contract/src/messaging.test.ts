import { describe, expect, it } from 'vitest';
import {
  ASSIGNEE_MESSAGE_EVENTS, mailAccountAdd, mailTemplateAdd, mailTestSend, MESSAGE_EVENTS, messageRuleAdd, messagingEndpoints, PHONE_INVALID, PORT_RANGE,
  RULE_ASSIGNEE_ORDER_ONLY, smsChannelAdd, smsTestSend, templateVariables, TEMPLATE_UNKNOWN_VARIABLE, TEST_TARGET_REQUIRED, toE164,
} from './messaging.ts';
import { MENUS, menuCovers } from './menus.ts';

const account = { companyId: 1, name: 'Ops', host: 'smtp.example.com', port: 587, tlsMode: 'starttls', fromAddress: 'ops@example.com' };
const firstError = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('messaging contract', () => {
  it('takes ports 1–65535 and refuses 70000 and 0', () => {
    expect(mailAccountAdd.safeParse(account).success).toBe(true);
    expect(firstError(mailAccountAdd.safeParse({ ...account, port: 70000 }))).toBe(PORT_RANGE);
    expect(firstError(mailAccountAdd.safeParse({ ...account, port: 0 }))).toBe(PORT_RANGE);
  });

  it('refuses an address that is not one and a host with spaces', () => {
    expect(mailAccountAdd.safeParse({ ...account, fromAddress: 'ops@' }).success).toBe(false);
    expect(mailAccountAdd.safeParse({ ...account, fromAddress: 'not an address' }).success).toBe(false);
    expect(mailAccountAdd.safeParse({ ...account, host: 'smtp example.com' }).success).toBe(false);
    expect(mailAccountAdd.safeParse({ ...account, host: '127.0.0.1' }).success).toBe(true);
  });

  it('lists a template’s variables in order of first use and refuses unknown or malformed ones', () => {
    expect(templateVariables('${station} ${ level } $${literal} ${station}')).toEqual({ names: ['station', 'level'], bad: [] });
    expect(templateVariables('${station').bad).toEqual(['${station']);
    const t = { companyId: 1, name: 'A', code: 'alarm.opened', language: 'en-US', subject: 'Alarm at ${station}', html: '<p>${description}</p>' };
    expect(mailTemplateAdd.safeParse(t).success).toBe(true);
    expect(firstError(mailTemplateAdd.safeParse({ ...t, html: '<p>${nonsense}</p>' }))).toBe(`${TEMPLATE_UNKNOWN_VARIABLE}：nonsense`);
  });

  it('checks phone numbers with libphonenumber (E.164, or national with a region)', () => {
    expect(toE164('+8613800138000')).toBe('+8613800138000');
    expect(toE164('13800138000', 'CN')).toBe('+8613800138000');
    expect(toE164('+8612345678901')).toBeNull();
    expect(toE164('13800138000')).toBeNull();
    const ok = smsTestSend.safeParse({ id: 1, templateId: 1, phone: '138 0013 8000', region: 'CN' });
    expect(ok.success && ok.data.phone).toBe('+8613800138000');
    expect(firstError(smsTestSend.safeParse({ id: 1, templateId: 1, phone: '12345' }))).toBe(PHONE_INVALID);
  });

  it('asks each SMS provider for what it needs', () => {
    const c = { companyId: 1, name: 'T', accessKeyId: 'AKID', secret: 's' };
    expect(smsChannelAdd.safeParse({ ...c, provider: 'aliyun' }).success).toBe(true);
    expect(smsChannelAdd.safeParse({ ...c, provider: 'tencent' }).success).toBe(false);
    expect(smsChannelAdd.safeParse({ ...c, provider: 'tencent', appId: '1400000000' }).success).toBe(true);
    expect(smsChannelAdd.safeParse({ ...c, provider: 'twilio', sender: '+14155552671' }).success).toBe(true);
    expect(smsChannelAdd.safeParse({ ...c, provider: 'twilio', sender: 'nobody' }).success).toBe(false);
  });

  it('a rule needs recipients, minutes for delayed events and templates for mail and SMS', () => {
    const r = { companyId: 1, name: 'R', event: 'alarmOpened', maxLevel: 2, channels: ['console'], recipients: { userIds: [1] } };
    expect(messageRuleAdd.safeParse(r).success).toBe(true);
    expect(messageRuleAdd.safeParse({ ...r, recipients: {} }).success).toBe(false);
    expect(messageRuleAdd.safeParse({ ...r, event: 'deviceOffline' }).success).toBe(false);
    expect(messageRuleAdd.safeParse({ ...r, channels: ['mail'] }).success).toBe(false);
    expect(messageRuleAdd.safeParse({ ...r, channels: ['mail'], mailTemplateCode: 'alarm' }).success).toBe(true);
    expect(messageRuleAdd.safeParse({ ...r, event: 'workOrderAssigned', escalation: { intervalMinutes: 5, levels: [{ userIds: [2] }] } }).success).toBe(false);
  });

  it('sends to the assignee only for the events that name one (the list the form offers it for)', () => {
    const r = { companyId: 1, name: 'R', channels: ['console'], recipients: { assignee: true } };
    expect(ASSIGNEE_MESSAGE_EVENTS).toEqual(['workOrderAssigned', 'workOrderOverdue', 'repairAssigned', 'statementToConfirm']);
    for (const event of ASSIGNEE_MESSAGE_EVENTS) expect(messageRuleAdd.safeParse({ ...r, event, minutes: 30 }).success).toBe(true);
    for (const event of MESSAGE_EVENTS.filter((e) => !ASSIGNEE_MESSAGE_EVENTS.includes(e))) {
      expect(firstError(messageRuleAdd.safeParse({ ...r, event, minutes: 30 }))).toBe(RULE_ASSIGNEE_ORDER_ONLY);
    }
  });

  it('tests a saved account or channel, or the form’s values before saving; one of the two is needed', () => {
    expect(mailTestSend.safeParse({ id: 3, to: 'a@example.com' }).success).toBe(true);
    expect(mailTestSend.safeParse({ account, to: 'a@example.com' }).success).toBe(true);
    expect(mailTestSend.safeParse({ id: 3, account: { ...account, password: null }, to: 'a@example.com' }).success).toBe(true);
    expect(firstError(mailTestSend.safeParse({ to: 'a@example.com' }))).toBe(TEST_TARGET_REQUIRED);
    expect(firstError(mailTestSend.safeParse({ account: { ...account, port: 70000 }, to: 'a@example.com' }))).toBe(PORT_RANGE);
    const channel = { companyId: 1, name: 'T', provider: 'twilio', accessKeyId: 'AC1', sender: '+15005550006' };
    expect(smsTestSend.safeParse({ channel, templateId: 1, phone: '+8613800138000' }).success).toBe(true);
    expect(firstError(smsTestSend.safeParse({ templateId: 1, phone: '+8613800138000' }))).toBe(TEST_TARGET_REQUIRED);
    expect(smsTestSend.safeParse({ channel: { ...channel, sender: null }, templateId: 1, phone: '+8613800138000' }).success).toBe(false);
  });

  it('every messaging call is granted by one of the messaging pages', () => {
    const pages = MENUS.filter((m) => /^\/(mail|sms|message)\//.test(m.path));
    expect(pages).toHaveLength(7);
    for (const e of Object.values(messagingEndpoints)) expect(pages.some((m) => menuCovers(m.interfaces, e.path)), e.path).toBe(true);
  });
});
