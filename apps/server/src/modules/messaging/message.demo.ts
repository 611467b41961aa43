import { eq, sql } from 'drizzle-orm';
import { mailAccount, mailLog, mailTemplate } from '../../db/schema/messaging.ts';
import { company } from '../../db/schema/system.ts';
import type { SeedContext } from '../../platform/module.ts';
import { secretBox } from '../../platform/secrets.ts';
import { MAIL_PASSWORD } from './message.context.ts';

/**
 * The demo's messaging (SEED_DEMO, first start: no mail account, template or log yet): one mail
 * account of the group company pointing at the local SMTP catcher (`npm run mail-catcher`,
 * 127.0.0.1:MAIL_CATCHER_PORT, plain SMTP, any user and password), and alarm and offline
 * templates in Chinese and English, so a new user sends a test mail and sees it arrive.
 */
export const DEMO_MAIL_ACCOUNT = '本地邮件捕获';

const ALARM_HTML_ZH = [
  '<h2>${station} 告警</h2>',
  '<p>设备 <b>${device}</b> 于 ${time} 产生 ${level} 级告警：${alarmName}</p>',
  '<p>${description}</p>',
  '<p><a href="${link}">打开运维控制台</a></p>',
].join('\n');
const ALARM_HTML_EN = [
  '<h2>Alarm at ${station}</h2>',
  '<p>Device <b>${device}</b> raised a level ${level} alarm at ${time}: ${alarmName}</p>',
  '<p>${description}</p>',
  '<p><a href="${link}">Open the console</a></p>',
].join('\n');

const TEMPLATES = [
  { code: 'alarm.opened', language: 'zh-CN', name: '告警通知', subject: '【${level}级告警】${station} ${device}', html: ALARM_HTML_ZH },
  { code: 'alarm.opened', language: 'en-US', name: 'Alarm notice', subject: '[Level ${level} alarm] ${station} ${device}', html: ALARM_HTML_EN },
  {
    code: 'device.offline', language: 'zh-CN', name: '设备离线通知', subject: '${station} 设备离线：${device}',
    html: '<p>设备 <b>${device}</b>（${deviceCode}）已离线 ${minutes} 分钟，最后在线时间 ${time}。</p>',
  },
  {
    code: 'device.offline', language: 'en-US', name: 'Device offline', subject: '${station}: ${device} offline',
    html: '<p>Device <b>${device}</b> (${deviceCode}) has been offline for ${minutes} minutes since ${time}.</p>',
  },
];

export async function seedMessagingDemo({ config, db }: SeedContext): Promise<void> {
  if (!config.seedDemo) return;
  const [group] = await db.select({ id: company.id }).from(company).where(eq(company.code, 'GROUP'));
  if (!group) return;
  const [used] = await db.execute<{ n: number }>(
    sql`select (select count(*) from ${mailAccount}) + (select count(*) from ${mailTemplate}) + (select count(*) from ${mailLog}) as n`,
  ).then((r) => r.rows);
  if (Number(used?.n ?? 0) > 0) return;
  await db.insert(mailAccount).values({
    companyId: group.id, name: DEMO_MAIL_ACCOUNT, host: '127.0.0.1', port: config.mailCatcherPort, tlsMode: 'none', verifyCertificate: true,
    username: 'demo', passwordEnc: secretBox(config.secretKey).seal('demo-catcher', MAIL_PASSWORD), fromName: '储能运维平台',
    fromAddress: 'noreply@ess-console.local', dailyLimit: 500, enabled: true, isDefault: true, remark: 'npm run mail-catcher',
  });
  await db.insert(mailTemplate).values(TEMPLATES.map((t) => ({ ...t, companyId: group.id, enabled: true })));
}
