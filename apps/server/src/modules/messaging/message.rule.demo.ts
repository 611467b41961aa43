import { and, count, eq, isNull } from 'drizzle-orm';
import { mailAccount, mailTemplate, messageRule, smsChannel, smsTemplate } from '../../db/schema/messaging.ts';
import { appUser, company, role } from '../../db/schema/system.ts';
import type { SeedContext } from '../../platform/module.ts';
import type { StoredEscalation, StoredRecipients } from './message.rule.service.ts';

/**
 * The demo's message rules (SEED_DEMO, first start: no rule yet), so that the demo's alarms reach
 * people without flooding them: level 1–2 alarms of every station to the administrator in the
 * console, escalated after 30 minutes to the maintenance role while nobody takes them on (a
 * repair order) and they are open; only level-1 alarms also by mail (the mail account and
 * templates the mail demo seeds, pointing at `npm run mail-catcher`) and by SMS (when the SMS
 * demo's channel and template exist) — the simulator's level-2 alarms sent some 44 mails in the
 * first minutes; devices offline for 15 minutes to the maintenance role. The mail and SMS rule is
 * left out when the group has neither a default account with the template nor the SMS channel
 * (the console still works). The administrator gets a demo address and number when they have
 * none, so the catchers show their mail and SMS. The console rule does not pop up a second notice
 * beside the alarm's own popup (the administrator sees every station: decision 0046's amendment);
 * it carries the escalation.
 */
export const DEMO_ADMIN_MAIL = 'admin@ess-console.local';
/** A documented sample number (not a subscriber's), so the SMS catcher shows the administrator's alarm SMS. */
export const DEMO_ADMIN_PHONE = '+8613800138000';
export const DEMO_ALARM_TEMPLATE = 'alarm.opened';
export const DEMO_OFFLINE_TEMPLATE = 'device.offline';

export async function seedMessageRulesDemo({ config, db }: SeedContext): Promise<void> {
  if (!config.seedDemo) return;
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(messageRule);
  if (n > 0) return;
  const [group] = await db.select({ id: company.id }).from(company).where(eq(company.code, 'GROUP'));
  const [admin] = await db.select({ id: appUser.id }).from(appUser).where(and(eq(appUser.username, 'admin'), eq(appUser.buildIn, true)));
  if (!group || !admin) return;
  const [maintainers] = await db.select({ id: role.id }).from(role).where(and(eq(role.companyId, group.id), eq(role.name, '运维人员')));
  await db.update(appUser).set({ email: DEMO_ADMIN_MAIL }).where(and(eq(appUser.id, admin.id), isNull(appUser.email)));
  await db.update(appUser).set({ phone: DEMO_ADMIN_PHONE }).where(and(eq(appUser.id, admin.id), isNull(appUser.phone)));
  const [channel] = await db.select({ id: smsChannel.id }).from(smsChannel).where(and(eq(smsChannel.companyId, group.id), eq(smsChannel.isDefault, true)));
  const [smsAlarm] = channel
    ? await db.select({ id: smsTemplate.id }).from(smsTemplate).where(and(eq(smsTemplate.companyId, group.id), eq(smsTemplate.code, DEMO_ALARM_TEMPLATE))).limit(1)
    : [];
  const [account] = await db.select({ id: mailAccount.id }).from(mailAccount).where(and(eq(mailAccount.companyId, group.id), eq(mailAccount.isDefault, true)));
  const hasTemplate = async (code: string) =>
    (await db.select({ id: mailTemplate.id }).from(mailTemplate).where(and(eq(mailTemplate.companyId, group.id), eq(mailTemplate.code, code))).limit(1)).length > 0;
  const mailWith = async (code: string) => (account && (await hasTemplate(code)) ? { channels: ['console', 'mail'], mailTemplateCode: code } : { channels: ['console'], mailTemplateCode: null });
  /** Level-1 alarms by mail and SMS: whichever of the two the demo has (null: neither). */
  const mailAndSms = async () => {
    const channels = [...(account && (await hasTemplate(DEMO_ALARM_TEMPLATE)) ? ['mail'] : []), ...(smsAlarm ? ['sms'] : [])];
    if (!channels.length) return null;
    return { channels, mailTemplateCode: channels.includes('mail') ? DEMO_ALARM_TEMPLATE : null, smsTemplateCode: smsAlarm ? DEMO_ALARM_TEMPLATE : null };
  };
  const recipients = (r: Partial<StoredRecipients>): StoredRecipients => ({ userIds: [], roleIds: [], siteContacts: false, assignee: false, ...r });
  const escalation: StoredEscalation | null = maintainers ? { intervalMinutes: 30, levels: [{ userIds: [], roleIds: [maintainers.id] }], maxRepeats: 1 } : null;
  const severe = await mailAndSms();
  await db.insert(messageRule).values([
    {
      companyId: group.id, name: '一、二级告警通知管理员', event: 'alarmOpened', maxLevel: 2, channels: ['console'],
      recipients: recipients({ userIds: [admin.id] }), escalation, createdBy: admin.id,
      remark: '演示：站内通知，30分钟无人处理升级给运维人员',
    },
    ...(severe
      ? [{
          companyId: group.id, name: '一级告警邮件短信通知管理员', event: 'alarmOpened', maxLevel: 1, ...severe,
          recipients: recipients({ userIds: [admin.id] }), escalation, createdBy: admin.id,
          remark: '演示：只有一级告警发邮件和短信',
        }]
      : []),
    ...(maintainers
      ? [{
          companyId: group.id, name: '设备离线15分钟', event: 'deviceOffline', minutes: 15, ...(await mailWith(DEMO_OFFLINE_TEMPLATE)),
          recipients: recipients({ roleIds: [maintainers.id] }), createdBy: admin.id, remark: '演示',
        }]
      : []),
  ]);
}
