// @vitest-environment node
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import {
  MAIL_TLS_MODE_LABELS, MESSAGE_CHANNEL_LABELS, MESSAGE_EVENT_LABELS, MESSAGE_ORIGIN_LABELS, MESSAGE_STATE_LABELS, MESSAGE_VARIABLE_LABELS,
  SMS_PROVIDER_LABELS,
} from '@ess/contract/messaging';
import { describe, expect, it } from 'vitest';
import { contractTexts, resourceTexts, screenTexts } from '../../test/i18n-coverage.ts';
import { packGaps, readPack } from '../../test/packs.ts';
import { mailLogResource, smsLogResource } from './log.resource.tsx';
import { mailAccountResource } from './mail-account.resource.tsx';
import { mailTemplateResource } from './mail-template.resource.tsx';
import { ruleResource } from './rule.resource.tsx';
import { smsChannelResource } from './sms-channel.resource.tsx';
import { smsTemplateResource } from './sms-template.resource.tsx';

/** Every source text the messaging screens show: t() literals, the resources' declarations, the contract's labels and the rules its forms check. */
export function messagingScreenTexts(): string[] {
  const resources = [mailAccountResource, mailTemplateResource, mailLogResource, smsChannelResource, smsTemplateResource, smsLogResource, ruleResource];
  return [...new Set([
    ...screenTexts(import.meta.dirname),
    ...resourceTexts(resources),
    ...[MAIL_TLS_MODE_LABELS, MESSAGE_CHANNEL_LABELS, MESSAGE_EVENT_LABELS, MESSAGE_ORIGIN_LABELS, MESSAGE_STATE_LABELS, MESSAGE_VARIABLE_LABELS, SMS_PROVIDER_LABELS]
      .flatMap<string>((labels) => Object.values(labels)),
    ...contractTexts('messaging.ts'),
  ])];
}

/** zh-CN is the source text; every other shipped locale translates every text of the screens. */
describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the messaging screens', (locale) => {
  const pack = readPack(locale);

  it('translates every text the screens show, keeping the placeholders', () => {
    const texts = messagingScreenTexts();
    expect(texts.length).toBeGreaterThan(150);
    expect(packGaps(pack, texts)).toEqual({ missing: [], placeholders: [] });
  });
});
