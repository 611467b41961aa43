// @vitest-environment node
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import { describe, expect, it } from 'vitest';
import { contractTexts, resourceTexts, screenTexts } from '../../test/i18n-coverage.ts';
import { packGaps, readPack } from '../../test/packs.ts';
import { settingResource } from './setting.resource.tsx';

/** Every source text the demand screens show: t() literals, the settings' declaration, the contract's labels and the rules its forms check. */
export function demandScreenTexts(): string[] {
  return [...new Set([...screenTexts(import.meta.dirname), ...resourceTexts([settingResource]), ...contractTexts('demand.ts')])];
}

/** zh-CN is the source text; every other shipped locale translates every text of the screens. */
describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the demand screens', (locale) => {
  const pack = readPack(locale);

  it('translates every text the screens show, keeping the placeholders', () => {
    const texts = demandScreenTexts();
    expect(texts.length).toBeGreaterThan(100);
    expect(packGaps(pack, texts)).toEqual({ missing: [], placeholders: [] });
  });
});
