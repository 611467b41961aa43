import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEMAND_LIVE_STATE_LABELS, DEMAND_OUTCOME_LABELS, DEMAND_PRICE_KIND_LABELS, DEMAND_QUALITY_LABELS, DEMAND_RECONCILE_STATE_LABELS,
} from '@ess/contract/demand';
import { literals, serverPack } from '../../../test/packs.ts';
import { BILL_FUTURE_MONTH } from './demand.service.ts';
import { PRE_ALARM_CLEARED, PRE_ALARM_DESCRIPTION } from './demand.sink.ts';

/** What demand can show as it is: labels, the contract's and the service's refusals, the pre-alarm's texts. */
function demandTexts(): string[] {
  const out = new Set<string>([
    ...Object.values(DEMAND_LIVE_STATE_LABELS), ...Object.values(DEMAND_OUTCOME_LABELS), ...Object.values(DEMAND_PRICE_KIND_LABELS),
    ...Object.values(DEMAND_QUALITY_LABELS), ...Object.values(DEMAND_RECONCILE_STATE_LABELS), BILL_FUTURE_MONTH, PRE_ALARM_DESCRIPTION, PRE_ALARM_CLEARED,
  ]);
  const contract = readFileSync(join(import.meta.dirname, '../../../../../packages/contract/src/demand.ts'), 'utf8');
  for (const s of literals(contract, /export const [A-Z_]+ = '([^'a-z]+)'/g)) out.add(s);
  for (const s of literals(contract, /, '([^'a-zA-Z]*[\u4e00-\u9fff][^']*)'\)/g)) out.add(s);
  const service = readFileSync(join(import.meta.dirname, 'demand.service.ts'), 'utf8');
  for (const s of literals(service, /AppError\('\w+', '([^'`]+)'\)/g)) out.add(s);
  for (const s of literals(service, /found\([^,]+, '([^']+)'\)/g)) out.add(s);
  return [...out];
}

describe('language packs for demand', () => {
  const texts = demandTexts();
  it('finds the texts it checks', () => {
    expect(texts.length).toBeGreaterThan(25);
  });
  it.each(['en-US', 'de-DE', 'ja-JP', 'zh-TW'])('%s translates the labels, refusals and the pre-alarm', (locale) => {
    const p = serverPack(locale);
    expect(texts.filter((s) => !p[s])).toEqual([]);
  });
});
