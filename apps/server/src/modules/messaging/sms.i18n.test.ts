import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '@ess/contract';
import { literals, serverPack } from '../../../test/packs.ts';

/** What the SMS server code can show as it is: refusals, the log's reasons, export headers, the preview's samples. */
function smsTexts(): string[] {
  const out = new Set<string>();
  const files = ['sms.channel.service.ts', 'sms.template.service.ts', 'sms.send.ts', 'sms.log.service.ts', 'sms-providers/provider.ts', 'sms-providers/tencent.ts', 'sms-providers/twilio.ts'];
  for (const f of files) {
    const src = readFileSync(join(import.meta.dirname, f), 'utf8');
    for (const s of literals(src, /export const [A-Z_]+ = '([^']*[\u4e00-\u9fff][^']*)'/g)) out.add(s);
    for (const s of literals(src, /header: '([^']+)'/g)) out.add(s);
    for (const s of literals(src, /\bt\('([^']+)'\)/g)) out.add(s);
    for (const s of literals(src, /fileName: '([^']+)'/g)) out.add(s);
  }
  return [...out];
}

describe('language packs for SMS', () => {
  const texts = smsTexts();
  it('finds the texts it checks', () => {
    expect(texts.length).toBeGreaterThan(25);
  });
  it.each(LOCALES.filter((l) => l !== 'zh-CN'))('%s translates them', (locale) => {
    const p = serverPack(locale);
    expect(texts.filter((s) => !p[s])).toEqual([]);
  });
});
