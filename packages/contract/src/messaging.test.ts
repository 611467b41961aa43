import { describe, expect, it } from 'vitest';
import {
  mailAccountAdd, mailTemplateAdd, messageRuleAdd, messagingEndpoints, PHONE_INVALID, PORT_RANGE, smsChannelAdd, smsTestSend,
  templateVariables, TEMPLATE_UNKNOWN_VARIABLE, toE164,
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

  it('every messaging call is granted by one of the messaging pages', () => {
    const pages = MENUS.filter((m) => /^\/(mail|sms|message)\//.test(m.path));
    expect(pages).toHaveLength(7);
    for (const e of Object.values(messagingEndpoints)) expect(pages.some((m) => menuCovers(m.interfaces, e.path)), e.path).toBe(true);
  });
});
