import { readdirSync, readFileSync } from 'node:fs';
import { pluralForms } from '@ess/contract/pack-text';
import { join } from 'node:path';

/** The shipped language packs: one folder per locale, one JSON file per area. */
export const PACKS_DIR = join(import.meta.dirname, '../../../server/src/modules/i18n/packs');

/** A locale's shipped pack as the server serves it: the union of its area files. */
export function readPack(locale: string): Record<string, string> {
  const dir = join(PACKS_DIR, locale);
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
    Object.assign(out, JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, string>);
  }
  return out;
}

/** A text's `$n` placeholders (of its "other" form when it is a plural text), sorted. */
const placeholdersOf = (s: string) => ((pluralForms(s)?.other ?? s).match(/\$\d+/g) ?? []).sort().join();

/** The texts a pack leaves untranslated, and those whose translation drops or adds a placeholder. */
export function packGaps(pack: Record<string, string>, texts: readonly string[]) {
  return {
    missing: texts.filter((s) => !pack[s]),
    placeholders: texts.filter((s) => pack[s] && placeholdersOf(pack[s]) !== placeholdersOf(s)),
  };
}
