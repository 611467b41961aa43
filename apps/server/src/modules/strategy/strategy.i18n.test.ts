import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISO_WEEKDAY_LABELS, STRATEGY_MODE_LABELS, STRATEGY_SYNC_LABELS, STRATEGY_TEXTS } from '@ess/contract/strategy';
import { literals, serverPack } from '../../../test/packs.ts';

/** What the strategy calls can say as it is: labels, the rules' texts, schema messages, refusals. */
function strategyTexts(): string[] {
  const out = new Set<string>([
    ...Object.values(STRATEGY_MODE_LABELS), ...Object.values(STRATEGY_SYNC_LABELS), ...Object.values(ISO_WEEKDAY_LABELS), ...Object.values(STRATEGY_TEXTS),
  ]);
  const contract = readFileSync(join(import.meta.dirname, '../../../../../packages/contract/src/strategy.ts'), 'utf8');
  for (const s of literals(contract, /export const [A-Z_]+ = '([^'a-z]+)'/g)) if (!/^[A-Z_]+$/.test(s)) out.add(s);
  for (const s of literals(contract, /(?:min|max|gt|int)\([^,()]+, '([^']+)'\)/g)) out.add(s);
  for (const file of ['strategy.service.ts', 'strategy.sync.ts']) {
    const src = readFileSync(join(import.meta.dirname, file), 'utf8');
    for (const s of literals(src, /AppError\('\w+', '([^'`]+)'\)/g)) out.add(s);
    for (const s of literals(src, /found\([^,]+, '([^']+)'\)/g)) out.add(s);
  }
  return [...out];
}

describe('en-US pack for strategies', () => {
  it('translates the labels, the rules and the refusals', () => {
    const texts = strategyTexts();
    expect(texts.length).toBeGreaterThan(40);
    const p = serverPack('en-US');
    expect(texts.filter((s) => !p[s])).toEqual([]);
  });
});
