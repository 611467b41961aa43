/**
 * Screenshots of the messaging screens (docs/screenshots/messaging-*.png), each checked by axe
 * (serious and critical violations are printed and fail the script): the console with the demo
 * seeded, then, through the API as an administrator would, a mail account on a local SMTP server
 * (smtp-server, as the delivery tests use) and one on a closed port, mail and SMS templates, an
 * SMS channel on a local Twilio peer, a message rule with quiet hours and escalation, and a test
 * mail and SMS each way, so the logs hold sent and failed rows. Then each screen, a form, a
 * template preview and a log detail; the rule list and the mail log also on a phone (390 px); the
 * mail account form, the mail log and the alarm rule's form also in English (*-en.png).
 * Run: `npx tsx e2e/messaging-screenshots.ts` after `npm run build -w @ess/web`
 * (E2E_WEB_DIST=<dir> for another build). Needs the mail, SMS and message-rule servers (issue 20);
 * a call the server does not answer yet is logged and its screen photographed as it is.
 */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { closedPort } from '../apps/server/test/http-peer.ts';
import { startTwilioPeer, type TwilioPeer } from '../apps/server/test/twilio-peer.ts';
import { ConsoleApi } from './support/api.ts';
import { E2E_ADMIN_PASSWORD, startConsole } from './support/server.ts';
import { check, log, runScript, settled, shootOverlay, shotPath, signedInPage, webDistEnv } from './support/shots.ts';

const TWILIO_SID = `AC${'0'.repeat(32)}`;
const TWILIO_TOKEN = 'demo-auth-token';

async function startSmtp(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => callback());
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Makes one call of the preparation; a call the server refuses or lacks is logged, not fatal. */
async function attempt<T>(what: string, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    log(`prepare ${what}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

/** The records the screens show, added the way the screens add them. */
async function prepare(api: ConsoleApi, smtpPort: number, twilio: TwilioPeer): Promise<void> {
  const [company] = await api.post<{ id: number }[]>('/system/company/query/tree');
  if (!company) throw new Error('no company');
  const companyId = company.id;
  const roles = (await attempt('roles', () => api.post<{ id: number; name: string }[]>('/system/role/query/list'))) ?? [];
  const sites = (await attempt('stations', () => api.post<{ id: number }[]>('/configure/site/query/list'))) ?? [];

  const ok = await attempt('mail account', () =>
    api.post<{ id: number }>('/mail/account/add', {
      companyId, name: '运维邮箱', host: '127.0.0.1', port: smtpPort, tlsMode: 'none', username: null, fromName: '储能运维中心',
      fromAddress: 'ops@example.com', replyTo: 'noc@example.com', dailyLimit: 500, isDefault: true,
    }),
  );
  const shut = await closedPort();
  const bad = await attempt('second mail account', () =>
    api.post<{ id: number }>('/mail/account/add', {
      companyId, name: '备用邮箱', host: '127.0.0.1', port: shut, tlsMode: 'starttls', username: 'backup@example.com', password: 'demo-password',
      fromAddress: 'backup@example.com', dailyLimit: 200,
    }),
  );
  const added = await attempt('mail template', () =>
    api.post<{ id: number }>('/mail/template/add', {
      companyId, name: '告警通知', code: 'alarm.opened', language: 'zh-CN',
      subject: '【${level}级告警】${station} ${alarmName}',
      html: '<h2 style="color:#a8071a">${station}：${alarmName}</h2><p>设备 <b>${device}</b>（${deviceCode}）于 ${time} 产生 ${level} 级告警。</p><p>${description}</p><p><a href="${link}">在控制台查看</a></p>',
    }),
  );
  // The demo seeds templates of this code: the test mail then uses the demo's.
  const mailTemplate =
    added ??
    (await attempt('existing mail template', async () =>
      (await api.post<{ id: number; code: string; language: string }[]>('/mail/template/query/list', {})).find((t) => t.code === 'alarm.opened' && t.language === 'zh-CN'),
    ));
  await attempt('mail template (en)', () =>
    api.post('/mail/template/add', {
      companyId, name: 'Alarm notice', code: 'alarm.opened', language: 'en-US', subject: '[Level ${level}] ${station}: ${alarmName}',
      html: '<h2>${station}: ${alarmName}</h2><p>${device} raised a level ${level} alarm at ${time}.</p>',
    }),
  );
  const channel = await attempt('SMS channel', () =>
    api.post<{ id: number }>('/sms/channel/add', {
      companyId, name: 'Twilio 演示', provider: 'twilio', accessKeyId: TWILIO_SID, secret: TWILIO_TOKEN, sender: '+15005550006', endpoint: twilio.url,
      dailyLimit: 1000, isDefault: true,
    }),
  );
  await attempt('second SMS channel', () =>
    api.post('/sms/channel/add', {
      companyId, name: '阿里云短信', provider: 'aliyun', accessKeyId: 'LTAI5tDemoKeyId', secret: 'demo-secret', region: 'cn-hangzhou', signName: '储能云',
      dailyLimit: 1000, enabled: false,
    }),
  );
  const smsTemplate = await attempt('SMS template', () =>
    api.post<{ id: number }>('/sms/template/add', {
      companyId, name: '告警短信', code: 'alarm.sms', language: 'zh-CN', content: '【储能云】${station} ${device} 发生${level}级告警：${alarmName}，时间 ${time}。',
      providerTemplateCode: 'SMS_465370001', signName: '储能云',
    }),
  );
  const role = roles[0];
  await attempt('message rule', () =>
    api.post('/message/config/add', {
      companyId, name: '一二级告警通知', event: 'alarmOpened', maxLevel: 2, siteIds: [], channels: ['console', 'mail', 'sms'],
      mailTemplateCode: 'alarm.opened', smsTemplateCode: 'alarm.sms', mailAccountId: ok?.id ?? null, smsChannelId: channel?.id ?? null,
      recipients: { userIds: [], roleIds: role ? [role.id] : [], siteContacts: true, assignee: false },
      quietHours: { start: '22:00', end: '07:00', overrideLevel: 1, timeZone: 'Asia/Shanghai' },
      escalation: role ? { intervalMinutes: 30, levels: [{ userIds: [], roleIds: [role.id] }], maxRepeats: 2 } : null,
    }),
  );
  await attempt('second message rule', () =>
    api.post('/message/config/add', {
      companyId, name: '设备离线30分钟', event: 'deviceOffline', minutes: 30, siteIds: sites.slice(0, 1).map((s) => s.id), channels: ['console', 'mail'],
      mailTemplateCode: 'alarm.opened', recipients: { userIds: [], roleIds: role ? [role.id] : [], siteContacts: false, assignee: false },
    }),
  );
  await attempt('third message rule', () =>
    api.post('/message/config/add', {
      companyId, name: '工单超期提醒', event: 'workOrderOverdue', minutes: 60, channels: ['console'],
      recipients: { userIds: [], roleIds: [], siteContacts: false, assignee: true }, enabled: false,
    }),
  );
  // Test sends: the logs get a sent and a failed row of each kind.
  if (ok) {
    await attempt('test mail', () => api.post('/mail/account/test/send', { id: ok.id, to: 'duty@example.com', ...(mailTemplate ? { templateId: mailTemplate.id } : {}) }));
    await attempt('test mail 2', () => api.post('/mail/account/test/send', { id: ok.id, to: 'manager@example.com' }));
    await attempt('connection test', () => api.post('/mail/account/test/connection', { id: ok.id }));
  }
  if (bad) await attempt('failing test mail', () => api.post('/mail/account/test/send', { id: bad.id, to: 'duty@example.com' }));
  if (channel && smsTemplate) {
    await attempt('test SMS', () => api.post('/sms/channel/test/send', { id: channel.id, templateId: smsTemplate.id, phone: '+8613800138000' }));
    twilio.mode = 'invalid-to';
    await attempt('failing test SMS', () => api.post('/sms/channel/test/send', { id: channel.id, templateId: smsTemplate.id, phone: '+8613800138001' }));
  }
}

/** Opens a screen and waits for its rows (else says so); whether it has any. */
async function visit(page: Page, base: string, route: string, name: string): Promise<boolean> {
  await page.goto(`${base}${route}`);
  const found = await page.locator('main .ant-table-row').first().waitFor({ timeout: 30_000 }).then(() => true, () => false);
  if (!found) log(`${name}: no rows on ${route}`);
  await settled(page, 400);
  return found;
}

/** Opens a screen, waits for its rows (else takes it as it is and says so), checks it with axe and takes its picture. */
async function shoot(page: Page, base: string, route: string, name: string, problems: string[]): Promise<boolean> {
  const found = await visit(page, base, route, name);
  await check(page, name, problems);
  await page.screenshot({ path: shotPath(name), fullPage: true });
  log(`${name}.png`);
  return found;
}

/** A row's edit button in Chinese or English. */
const EDIT = /编\s*辑|Edit$/;

/** A picture of what is open over the page (a drawer or dialog), after its animation. */
/** The alarm rule's form (its event shows level, escalation and quiet hours); without one, a new rule with that event, mail and SMS. */
async function openAlarmRule(page: Page): Promise<void> {
  const named = page.locator('main .ant-table-row').filter({ hasText: '一二级告警通知' });
  if (await named.count()) {
    await named.getByRole('button', { name: EDIT }).click();
    return;
  }
  log('rule: no alarm rule, the form of a new one');
  await page.locator('main').getByRole('button', { name: /新\s*增/ }).click();
  const option = (text: string) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: text }).first();
  await page.locator('.ant-drawer-open #field-event').click();
  await option('告警产生').click();
  await page.locator('.ant-drawer-open #field-channels').click();
  await option('邮件').click();
  await option('短信').click();
  await page.locator('.ant-drawer-open .ant-drawer-title').click();
  await page.getByTestId('rule-quiet-switch').click();
  await page.getByTestId('rule-escalation-switch').click();
}

const closeOverlay = async (page: Page) => {
  await page.keyboard.press('Escape');
  await page.waitForTimeout(400);
};

runScript(async () => {
  const smtp = await startSmtp();
  const twilio = await startTwilioPeer(TWILIO_SID, TWILIO_TOKEN);
  const server = await startConsole({ SEED_DEMO: 'true', ...webDistEnv() });
  const api = await ConsoleApi.signIn(server.url, (id) => server.captchaCode(id), 'admin', E2E_ADMIN_PASSWORD);
  await prepare(api, smtp.port, twilio);
  const problems: string[] = [];
  const { browser, page } = await signedInPage(server);
  const base = server.url;

  if (await shoot(page, base, '/mail/mail-account', 'messaging-mail-account', problems)) {
    await page.locator('main .ant-table-row').first().getByRole('button', { name: EDIT }).click();
    await page.locator('.ant-drawer-open #field-host').waitFor();
    await shootOverlay(page, 'messaging-mail-account-form', problems);
    // The connection test of the form's values, not saved: another sender name typed, the stored settings otherwise.
    await page.locator('.ant-drawer-open #field-fromName').fill('值班中心（未保存）');
    await page.getByTestId('form-test-connection').click();
    await page.getByTestId('outcome').first().waitFor({ timeout: 30_000 }).catch(() => log('mail account form: no test outcome'));
    await shootOverlay(page, 'messaging-mail-account-form-test', problems);
    await closeOverlay(page);
    await closeOverlay(page);
    await page.locator('main .ant-table-row').first().getByTestId('sender-test').click();
    await page.getByTestId('outcome').first().waitFor({ timeout: 30_000 }).catch(() => log('mail account: no test outcome'));
    await shootOverlay(page, 'messaging-mail-account-test', problems);
    await closeOverlay(page);
  }
  if (await shoot(page, base, '/mail/mail-template', 'messaging-mail-template', problems)) {
    await page.locator('main .ant-table-row').first().getByRole('button', { name: /编\s*辑/ }).click();
    const subject = page.locator('.ant-drawer-open #field-subject');
    await subject.waitFor();
    await subject.fill(`${await subject.inputValue()} \${stationName}`);
    await page.getByTestId('variable-unknown').waitFor();
    await shootOverlay(page, 'messaging-mail-template-form', problems);
    await closeOverlay(page);
    await page.locator('main .ant-table-row').first().getByTestId('template-preview').click();
    await page.getByTestId('preview-run').click();
    await page.getByTestId('preview').waitFor({ timeout: 30_000 }).catch(() => log('mail template: no preview'));
    await shootOverlay(page, 'messaging-mail-template-preview', problems);
    await closeOverlay(page);
  }
  if (await shoot(page, base, '/mail/mail-log', 'messaging-mail-log', problems)) {
    await page.locator('main .ant-table-row').first().getByRole('button', { name: /详\s*情/ }).click();
    await page.locator('.ant-drawer-open .ant-descriptions').waitFor();
    await shootOverlay(page, 'messaging-mail-log-detail', problems);
    await closeOverlay(page);
  }
  if (await shoot(page, base, '/sms/sms-channel', 'messaging-sms-channel', problems)) {
    await page.locator('main .ant-table-row').first().getByRole('button', { name: /编\s*辑/ }).click();
    await page.locator('.ant-drawer-open #field-accessKeyId').waitFor();
    await shootOverlay(page, 'messaging-sms-channel-form', problems);
    await closeOverlay(page);
  }
  if (await shoot(page, base, '/sms/sms-template', 'messaging-sms-template', problems)) {
    await page.locator('main .ant-table-row').first().getByTestId('template-preview').click();
    await page.getByTestId('preview-run').click();
    await page.getByTestId('preview').waitFor({ timeout: 30_000 }).catch(() => log('SMS template: no preview'));
    await shootOverlay(page, 'messaging-sms-template-preview', problems);
    await closeOverlay(page);
  }
  if (await shoot(page, base, '/sms/sms-log', 'messaging-sms-log', problems)) {
    await page.locator('main .ant-table-row').first().getByRole('button', { name: /详\s*情/ }).click();
    await page.locator('.ant-drawer-open .ant-descriptions').waitFor();
    await shootOverlay(page, 'messaging-sms-log-detail', problems);
    await closeOverlay(page);
  }
  if (await shoot(page, base, '/message/message-config', 'messaging-message-config', problems)) {
    await openAlarmRule(page);
    await page.getByTestId('rule-escalation-fields').waitFor({ timeout: 30_000 }).catch(() => log('rule: no escalation fields'));
    await shootOverlay(page, 'messaging-message-config-form', problems);
    await page.getByTestId('rule-escalation-fields').scrollIntoViewIfNeeded().catch(() => undefined);
    await shootOverlay(page, 'messaging-message-config-form-escalation', problems);
    await closeOverlay(page);
  }
  await browser.close();

  const phone = await signedInPage(server, { width: 390, height: 844 });
  await shoot(phone.page, base, '/message/message-config', 'messaging-message-config-phone', problems);
  await shoot(phone.page, base, '/mail/mail-log', 'messaging-mail-log-phone', problems);
  await phone.browser.close();

  // In English (en-US): the mail account form, the mail log and the alarm rule's form.
  const en = await signedInPage(server);
  await en.page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  const english = async (route: string, name: string) => {
    const found = await visit(en.page, base, route, name);
    await en.page.waitForFunction(() => document.documentElement.lang === 'en-US');
    return found;
  };
  if (await english('/mail/mail-account', 'messaging-mail-account-en')) {
    // The account with a stored password: its form offers to clear it.
    const rows = en.page.locator('main .ant-table-row');
    const withPassword = rows.filter({ hasText: '备用邮箱' });
    await ((await withPassword.count()) ? withPassword : rows).first().getByRole('button', { name: EDIT }).click();
    await en.page.locator('.ant-drawer-open #field-host').waitFor();
    await en.page.getByTestId('company-readonly').waitFor();
    await shootOverlay(en.page, 'messaging-mail-account-form-en', problems);
    await closeOverlay(en.page);
  }
  await shoot(en.page, base, '/mail/mail-log', 'messaging-mail-log-en', problems);
  if (await english('/message/message-config', 'messaging-message-config-en')) {
    await openAlarmRule(en.page);
    await en.page.getByTestId('rule-escalation-fields').waitFor({ timeout: 30_000 }).catch(() => log('rule (en): no escalation fields'));
    await shootOverlay(en.page, 'messaging-message-config-form-en', problems);
    await closeOverlay(en.page);
  }
  await en.browser.close();
  await server.close();
  await twilio.close();
  await smtp.close();
  if (problems.length) throw new Error(`axe violations:\n${problems.join('\n')}`);
});
