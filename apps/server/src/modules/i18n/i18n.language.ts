import type { FastifyRequest } from 'fastify';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@ess/contract';
import { fillText, translateName } from '@ess/contract/pack-text';
import { zoneOf } from '../../platform/time/client-zone.ts';
import type { ExportLanguage } from '../../platform/xlsx/xlsx.ts';
import { shippedPack } from './packs.ts';

/**
 * The caller's language: the Client-Language header the console sends on every call with the
 * stored locale (product-spec §7; absent for the default, zh-CN). An unknown value is the default.
 */
export function localeOf(req: FastifyRequest): Locale {
  const h = req.headers['client-language'];
  const v = typeof h === 'string' ? h.trim() : '';
  return (LOCALES as readonly string[]).includes(v) ? (v as Locale) : DEFAULT_LOCALE;
}


type Translator = Pick<ExportLanguage, 't' | 'name'>;
const translators = new Map<Locale, Promise<Translator>>();

/** `t` of a locale's shipped pack: source text → translation (the source text where the pack has none); `name` for built-in data. */
export function translatorOf(locale: Locale): Promise<Translator> {
  let p = translators.get(locale);
  if (!p) {
    p = shippedPack(locale).then((rows) => {
      const pack = new Map(rows.map((r) => [r.source, r.translation]));
      return {
        t: (source: string, ...args: unknown[]) => fillText(pack.get(source) ?? source, args, locale),
        name: (name: string) => translateName(name, (k) => pack.get(k), locale),
      };
    });
    translators.set(locale, p);
    p.catch(() => translators.delete(locale));
  }
  return p;
}

/** What a file made for this request is written in: the caller's language and time zone. */
export async function exportLanguage(req: FastifyRequest): Promise<ExportLanguage> {
  const locale = localeOf(req);
  return { locale, ...(await translatorOf(locale)), zone: zoneOf(req) };
}
