// @vitest-environment node
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import { describe, expect, it } from 'vitest';
import { contractTexts, screenTexts } from '../../test/i18n-coverage.ts';
import { packGaps, readPack } from '../../test/packs.ts';

/** Every source text the strategy screen shows: t() literals and the contract's labels, rules and refusals (the server sends the same texts). */
export function strategyScreenTexts(): string[] {
  return [...new Set([...screenTexts(import.meta.dirname), ...contractTexts('strategy.ts'), ...contractTexts('pricing.ts').filter((s) => s.startsWith('时间格式'))])];
}

/** zh-CN is the source text; every other shipped locale translates every text of the screen. */
describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the strategy screen', (locale) => {
  const pack = readPack(locale);

  it('translates every text the screen shows, keeping the placeholders', () => {
    const texts = strategyScreenTexts();
    expect(texts.length).toBeGreaterThan(60);
    expect(packGaps(pack, texts)).toEqual({ missing: [], placeholders: [] });
  });
});
