import { asc } from 'drizzle-orm';
import { smsChannel, smsTemplate } from '../../db/schema/messaging.ts';
import { company } from '../../db/schema/system.ts';
import type { SeedContext } from '../../platform/module.ts';
import { secretBox } from '../../platform/secrets.ts';
import { SMS_SECRET } from './message.context.ts';

/**
 * The SMS demo (SEED_DEMO), once (skipped when any channel exists): no provider on the real internet — one
 * Twilio-style channel of the group company pointing at the local SMS catcher that
 * `npm run sms-catcher` runs (scripts/sms-catcher.mjs, port 8627; SMS_CATCHER_URL overrides),
 * made the company's default, and an alarm template in Chinese and English. With the catcher
 * running, a test send from /sms/sms-channel prints the message in the catcher's terminal.
 */
export const DEMO_SMS_CATCHER_URL = 'http://127.0.0.1:8627';
/** Twilio's documented test sender; the catcher takes any Account SID and token. */
const DEMO_ACCOUNT_SID = `AC${'0'.repeat(31)}1`;

export async function seedSmsDemo({ config, db }: Pick<SeedContext, 'config' | 'db'>): Promise<boolean> {
  if (!config.seedDemo) return false;
  const [any] = await db.select({ id: smsChannel.id }).from(smsChannel).limit(1);
  if (any) return false;
  const [group] = await db.select({ id: company.id }).from(company).orderBy(asc(company.id)).limit(1);
  if (!group) return false;
  await db.insert(smsChannel).values({
    companyId: group.id, name: '演示短信（本地）', provider: 'twilio', accessKeyId: DEMO_ACCOUNT_SID,
    secretEnc: secretBox(config.secretKey).seal('demo-auth-token', SMS_SECRET), sender: '+15005550006',
    endpoint: process.env.SMS_CATCHER_URL ?? DEMO_SMS_CATCHER_URL, dailyLimit: 1000, isDefault: true, remark: 'npm run sms-catcher',
  });
  await db.insert(smsTemplate).values([
    { companyId: group.id, name: '告警通知', code: 'alarm.opened', language: 'zh-CN', content: '【储能云】${station} ${device} 发生${level}级告警：${description}（${time}）' },
    { companyId: group.id, name: 'Alarm notice', code: 'alarm.opened', language: 'en-US', content: '[ESS] Level ${level} alarm at ${station}, ${device}: ${description} (${time})' },
  ]);
  return true;
}
