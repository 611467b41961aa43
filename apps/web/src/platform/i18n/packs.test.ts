// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import { pluralForms } from '@ess/contract/pack-text';
import { describe, expect, it } from 'vitest';
import { PACKS_DIR } from '../../test/packs.ts';

/** en-US is the reference pack: every area it ships, every other locale ships with the same keys. */
const REFERENCE = 'en-US';

const areas = (locale: string) => readdirSync(join(PACKS_DIR, locale)).filter((f) => f.endsWith('.json')).sort();
const readArea = (locale: string, area: string) =>
  JSON.parse(readFileSync(join(PACKS_DIR, locale, area), 'utf8')) as Record<string, unknown>;
const placeholders = (s: string) => (s.match(/\$\d+/g) ?? []).sort();
/** A translation's texts: its plural forms, or itself. */
const variants = (s: string) => Object.values(pluralForms(s) ?? { other: s });

const localeDirs = readdirSync(PACKS_DIR).filter((d) => statSync(join(PACKS_DIR, d)).isDirectory()).sort();

describe('language pack files', () => {
  it('has one folder per non-default locale and no folder for an unknown locale', () => {
    expect(localeDirs).toEqual(LOCALES.filter((l) => l !== DEFAULT_LOCALE).sort());
  });

  it('the reference pack has at least the shell area', () => {
    expect(areas(REFERENCE)).toContain('shell.json');
  });

  describe.each(localeDirs)('%s', (locale) => {
    it.each(areas(REFERENCE))('%s has exactly the keys of en-US, keeps placeholders and has no empty text', (area) => {
      expect(areas(locale), `${locale} lacks ${area}`).toContain(area);
      const reference = readArea(REFERENCE, area);
      const pack = readArea(locale, area);
      expect(Object.keys(pack).sort()).toEqual(Object.keys(reference).sort());
      const bad = Object.entries(pack).filter(
        ([source, text]) =>
          typeof text !== 'string' ||
          variants(text).some((v) => v.trim() === '' || placeholders(v).join() !== placeholders(source).join()) ||
          (pluralForms(text) !== null && !pluralForms(text)!.other),
      );
      expect(bad).toEqual([]);
    });

    it('ships no area file that en-US lacks', () => {
      expect(areas(locale).filter((a) => !areas(REFERENCE).includes(a))).toEqual([]);
    });
  });
});
