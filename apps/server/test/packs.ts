import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The server's language packs: one folder per locale, one JSON file per area. */
export const PACKS = join(import.meta.dirname, '../src/modules/i18n/packs');

/** The locales with a pack (the folders; the text catalogue is a file beside them). */
export const packLocales = (): string[] => readdirSync(PACKS).filter((d) => statSync(join(PACKS, d)).isDirectory()).sort();

/** Every area of a locale's pack as one dictionary (source text → translation). */
export function serverPack(locale: string): Record<string, string> {
  const out: Record<string, string> = {};
  const dir = join(PACKS, locale);
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) Object.assign(out, JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, string>);
  return out;
}

/** The first group of each match of `re` in a source file, leaving out templates with a value in them. */
export const literals = (src: string, re: RegExp) => [...src.matchAll(re)].map((m) => m[1]!).filter((s) => !s.includes('${'));
