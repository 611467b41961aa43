import { readFile } from 'node:fs/promises';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@ess/contract';
import { z } from 'zod';
import { route } from '../../platform/http/route.ts';

/** Where the shipped language packs live: one JSON object per locale, source text → translation. */
export const PACKS_DIR = new URL('./packs/', import.meta.url);

export interface PackRow {
  source: string;
  translation: string;
}

const cache = new Map<Locale, Promise<PackRow[]>>();

/**
 * The shipped pack of a locale as source/translation pairs. The default locale is the source
 * text itself and has none; a locale without a file has none yet (the console shows source text).
 */
export function shippedPack(locale: Locale): Promise<PackRow[]> {
  if (locale === DEFAULT_LOCALE) return Promise.resolve([]);
  let p = cache.get(locale);
  if (!p) {
    p = readFile(new URL(`${locale}.json`, PACKS_DIR), 'utf8').then(
      (text) => {
        const map = JSON.parse(text) as Record<string, string>;
        return Object.entries(map).map(([source, translation]) => ({ source, translation }));
      },
      (e: NodeJS.ErrnoException) => {
        if (e.code === 'ENOENT') return [];
        throw e;
      },
    );
    cache.set(locale, p);
    p.catch(() => cache.delete(locale));
  }
  return p;
}

export const i18nRoutes = [
  route({
    // Public: the login page loads its language before anyone signs in.
    method: 'GET', path: '/i18n/text/translation/view', access: 'public', name: '获取语言包', area: 'Translation', kind: 'query',
    query: z.object({ languageId: z.enum(LOCALES) }),
    handler: ({ query }) => shippedPack(query.languageId),
  }),
];
