import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import { describe, expect, it } from 'vitest';
import { CHINESE_LITERAL, chineseLiterals, contractTexts, screenTexts, serverTexts } from '../../test/i18n-coverage.ts';
import { packGaps, readPack } from '../../test/packs.ts';

/**
 * Every source text of the report centre: the screen's t() literals and Chinese literals, the
 * contract's labels and refusals (report.ts), and the server module's texts the files are written
 * with (the templates' titles and columns, the documents' labels, its refusals).
 */
export function reportTexts(): string[] {
  return [...new Set([
    ...screenTexts(import.meta.dirname),
    ...chineseLiterals(import.meta.dirname),
    ...contractTexts('report.ts'),
    ...serverTexts('report', { files: (n) => n.endsWith('.ts') && !n.endsWith('.test.ts'), patterns: [CHINESE_LITERAL] }),
  ])];
}

describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the report centre', (locale) => {
  const pack = readPack(locale);

  it('translates every text the screen and the report files show, keeping the placeholders', () => {
    const texts = reportTexts();
    expect(texts.length).toBeGreaterThan(100);
    expect(packGaps(pack, texts)).toEqual({ missing: [], placeholders: [] });
  });
});
