import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONNECTION_FAILED, CONNECTION_SUCCEEDED, DAILY_LIMIT_RANGE, HOST_INVALID, MAIL_ADDRESS_INVALID, MESSAGE_CHANNEL_LABELS, MESSAGE_EVENT_LABELS,
  MESSAGE_ORIGIN_LABELS, MESSAGE_STATE_LABELS, MESSAGE_VARIABLE_LABELS, PHONE_INVALID, PORT_RANGE, SEND_FAILED, SEND_SUCCEEDED, TEMPLATE_CODE_FORMAT,
  TEMPLATE_UNKNOWN_VARIABLE,
} from '@ess/contract/messaging';
import { literals, PACKS, serverPack } from '../../../test/packs.ts';
import { ACCOUNT_NAME_TAKEN, TEST_MAIL_SUBJECT, TEST_MAIL_TEXT } from './mail.account.service.ts';
import { ACCOUNT_DISABLED, ACCOUNT_MISSING, DAILY_LIMIT_REACHED } from './mail.send.ts';
import { TEMPLATE_TAKEN } from './mail.template.service.ts';
import { DEMO_MAIL_ACCOUNT } from './message.demo.ts';

const LOCALES = ['en-US', 'zh-TW', 'es-ES', 'ja-JP', 'id-ID', 'fr-FR', 'pt-PT', 'de-DE', 'ko-KR', 'it-IT', 'th-TH', 'vi-VN', 'ms-MY', 'km-KH', 'ar-EG'];

/** What a mail screen shows as it is in every language: states, channels, the spec's messages, the refusals of the mail calls, the demo's names. */
const core = [
  ...Object.values(MESSAGE_STATE_LABELS), ...Object.values(MESSAGE_ORIGIN_LABELS), ...Object.values(MESSAGE_CHANNEL_LABELS),
  CONNECTION_SUCCEEDED, CONNECTION_FAILED, SEND_SUCCEEDED, SEND_FAILED, PORT_RANGE, HOST_INVALID, MAIL_ADDRESS_INVALID, PHONE_INVALID,
  TEMPLATE_UNKNOWN_VARIABLE, TEMPLATE_CODE_FORMAT, DAILY_LIMIT_RANGE, ACCOUNT_NAME_TAKEN, TEMPLATE_TAKEN, DAILY_LIMIT_REACHED, ACCOUNT_DISABLED,
  ACCOUNT_MISSING, TEST_MAIL_SUBJECT, TEST_MAIL_TEXT, DEMO_MAIL_ACCOUNT, '告警通知', '设备离线通知', '邮件日志', '邮件账号', '邮件主题',
];

/** Every text of the contract and the mail server: the labels, the refusals, the route names. */
function allTexts(): string[] {
  const out = new Set<string>([...core, ...Object.values(MESSAGE_VARIABLE_LABELS), ...Object.values(MESSAGE_EVENT_LABELS)]);
  const contract = readFileSync(join(PACKS, '../../../../../../packages/contract/src/messaging.ts'), 'utf8');
  for (const s of literals(contract, /export const [A-Z_]+ = '([^']*[\u4e00-\u9fff][^']*)'/g)) out.add(s);
  const routes = readFileSync(join(import.meta.dirname, 'mail.routes.ts'), 'utf8');
  for (const s of literals(routes, /name: '([^']*[\u4e00-\u9fff][^']*)'/g)) out.add(s);
  return [...out];
}

describe('language packs for messaging', () => {
  it('finds the texts it checks', () => {
    expect(core.length).toBeGreaterThan(25);
    expect(allTexts().length).toBeGreaterThan(80);
  });
  it.each(LOCALES)('%s translates the states, channels, connection messages and the mail refusals', (locale) => {
    const p = serverPack(locale);
    expect(core.filter((s) => !p[s])).toEqual([]);
  });
  it('en-US translates every messaging text, route names too', () => {
    const p = serverPack('en-US');
    expect(allTexts().filter((s) => !p[s])).toEqual([]);
  });
});
