// @vitest-environment node
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import { describe, expect, it } from 'vitest';
import { chineseLiterals, contractTexts, resourceTexts, screenTexts, serverTexts } from '../../test/i18n-coverage.ts';
import { packGaps, readPack } from '../../test/packs.ts';
import { currencyResource } from './currency.resource.tsx';
import { engineResource } from './engine.resource.tsx';
import { languageResource } from './language.resource.tsx';

/**
 * Every source text the globalization screens and translate mode show: t() literals and the other
 * Chinese literals of the folder, the resources' declarations, the contract's texts (states,
 * checks, field rules) and the translation module's refusals.
 */
export function globalizationScreenTexts(): string[] {
  return [...new Set([
    ...screenTexts(import.meta.dirname),
    ...chineseLiterals(import.meta.dirname),
    ...resourceTexts([languageResource, engineResource([]), currencyResource]),
    ...contractTexts('i18n.ts'),
    ...serverTexts('i18n'),
    // Codes, formats and placeholders (en-US, YYYY-MM-DD, €) are shown as written.
  ].filter((s) => /[\u4e00-\u9fff]/.test(s)))];
}

/** zh-CN is the source text; every other shipped locale translates every text of the screens. */
describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the globalization screens', (locale) => {
  const pack = readPack(locale);

  it('translates every text the screens show, keeping the placeholders', () => {
    const texts = globalizationScreenTexts();
    expect(texts.length).toBeGreaterThan(120);
    expect(packGaps(pack, texts)).toEqual({ missing: [], placeholders: [] });
  });
});
