import { readdirSync, readFileSync } from 'node:fs';
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
