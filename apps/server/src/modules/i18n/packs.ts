import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEFAULT_LOCALE, type Locale, type PackRow } from '@ess/contract';
import { runtimePath } from '../../platform/dist.ts';

/**
 * Where the shipped language packs live: one folder per locale, one JSON object per area inside it
 * (shell.json, config.json, …), each source text → translation; a locale's pack is their union.
 * The build copies them to dist/packs.
 */
export const PACKS_DIR = pathToFileURL(`${runtimePath('packs', join(import.meta.dirname, 'packs'))}/`);

const cache = new Map<Locale, Promise<PackRow[]>>();

/**
 * The shipped pack of a locale as source/translation pairs. The default locale is the source
 * text itself and has none; a locale without a file has none yet (the console shows source text).
 */
export function shippedPack(locale: Locale): Promise<PackRow[]> {
  if (locale === DEFAULT_LOCALE) return Promise.resolve([]);
  let p = cache.get(locale);
  if (!p) {
    p = loadPack(new URL(`${locale}/`, PACKS_DIR));
    cache.set(locale, p);
    p.catch(() => cache.delete(locale));
  }
  return p;
}

async function loadPack(dir: URL): Promise<PackRow[]> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const merged = new Map<string, string>();
  for (const f of files) {
    const map = JSON.parse(await readFile(new URL(f, dir), 'utf8')) as Record<string, string>;
    for (const [source, translation] of Object.entries(map)) merged.set(source, translation);
  }
  return [...merged].map(([source, translation]) => ({ source, translation }));
}

/** A digest of every shipped pack file (test database images that hold the seeded packs are keyed by it). */
export function shippedPacksKey(): string {
  const h = createHash('sha256');
  const root = fileURLToPath(PACKS_DIR);
  for (const f of (readdirSync(root, { recursive: true, encoding: 'utf8' })).filter((x) => x.endsWith('.json')).sort()) h.update(f).update(readFileSync(join(root, f)));
  return h.digest('hex');
}
