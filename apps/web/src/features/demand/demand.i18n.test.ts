import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import { pluralForms } from '@ess/contract/pack-text';
import { describe, expect, it } from 'vitest';
import { contractTexts, resourceTexts, screenTexts } from '../../test/i18n-coverage.ts';
import { readPack } from '../../test/packs.ts';
import { settingResource } from './setting.resource.tsx';

/** Every source text the demand screens show: t() literals, the settings' declaration, the contract's labels and the rules its forms check. */
export function demandScreenTexts(): string[] {
  return [...new Set([...screenTexts(import.meta.dirname), ...resourceTexts([settingResource]), ...contractTexts('demand.ts')])];
}

/** zh-CN is the source text; every other shipped locale translates every text of the screens. */
describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the demand screens', (locale) => {
  const pack = readPack(locale);
  const placeholders = (s: string) => ((pluralForms(s)?.other ?? s).match(/\$\d+/g) ?? []).sort().join();

  it('translates every text the screens show, keeping the placeholders', () => {
    const texts = demandScreenTexts();
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
    expect(texts.filter((s) => placeholders(pack[s] ?? '') !== placeholders(s))).toEqual([]);
  });
});
