import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_LOCALE, i18nEndpoints as api, type Locale, type PackRow } from '@ess/contract';
import { runtimePath } from '../../platform/dist.ts';
import { route } from '../../platform/http/route.ts';

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

export const i18nRoutes = [
  route(api.pack, {
    // Public: the login page loads its language before anyone signs in.
    access: 'public', name: '获取语言包', area: 'Translation', kind: 'query',
    scope: { global: 'the shipped language packs are shared by every company' },
    handler: ({ query }) => shippedPack(query.languageId),
  }),
];
