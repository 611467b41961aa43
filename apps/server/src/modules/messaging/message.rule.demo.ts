import { and, count, eq, isNull } from 'drizzle-orm';
import { mailAccount, mailTemplate, messageRule, smsChannel, smsTemplate } from '../../db/schema/messaging.ts';
import { appUser, company, role } from '../../db/schema/system.ts';
import type { SeedContext } from '../../platform/module.ts';
import type { StoredEscalation, StoredRecipients } from './message.rule.service.ts';

/**
 * The demo's message rules (SEED_DEMO, first start: no rule yet), so that the demo's alarms reach
 * people: level 1–2 alarms of every station to the administrator in the console and by mail (the
 * mail account and templates the mail demo seeds, pointing at `npm run mail-catcher`), escalated
 * after 30 minutes to the maintenance role while nobody takes them on (a repair order) and they
 * are open; devices offline for 15 minutes to the maintenance role. The mail channel is left out
 * when the group has no default account or no template of the code (the console still works).
 * The administrator gets a demo address and number when they have none, so the catchers show
 * their mail and SMS; level 1–2 alarms go by SMS too when the SMS demo's channel and template exist.
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
  /** Level 1–2 alarms: by SMS too when the SMS demo's channel and alarm template are there. */
  const alarmChannels = async () => {
    const m = await mailWith(DEMO_ALARM_TEMPLATE);
    return smsAlarm ? { ...m, channels: [...m.channels, 'sms'], smsTemplateCode: DEMO_ALARM_TEMPLATE } : m;
  };
  const recipients = (r: Partial<StoredRecipients>): StoredRecipients => ({ userIds: [], roleIds: [], siteContacts: false, assignee: false, ...r });
  const escalation: StoredEscalation | null = maintainers ? { intervalMinutes: 30, levels: [{ userIds: [], roleIds: [maintainers.id] }], maxRepeats: 1 } : null;
  await db.insert(messageRule).values([
    {
      companyId: group.id, name: '一、二级告警通知管理员', event: 'alarmOpened', maxLevel: 2, ...(await alarmChannels()),
      recipients: recipients({ userIds: [admin.id] }), escalation, createdBy: admin.id,
      remark: '演示：30分钟无人处理升级给运维人员',
    },
    ...(maintainers
      ? [{
          companyId: group.id, name: '设备离线15分钟', event: 'deviceOffline', minutes: 15, ...(await mailWith(DEMO_OFFLINE_TEMPLATE)),
          recipients: recipients({ roleIds: [maintainers.id] }), createdBy: admin.id, remark: '演示',
        }]
      : []),
  ]);
}
