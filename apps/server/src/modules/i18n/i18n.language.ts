import type { FastifyRequest } from 'fastify';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@ess/contract';
import { zoneOf } from '../../platform/time/client-zone.ts';
import type { ExportLanguage } from '../../platform/xlsx/xlsx.ts';
import { shippedPack } from './i18n.routes.ts';

/**
 * The caller's language: the Client-Language header the console sends on every call with the
 * stored locale (product-spec §7; absent for the default, zh-CN). An unknown value is the default.
 */
export function localeOf(req: FastifyRequest): Locale {
  const h = req.headers['client-language'];
  const v = typeof h === 'string' ? h.trim() : '';
  return (LOCALES as readonly string[]).includes(v) ? (v as Locale) : DEFAULT_LOCALE;
}

/** Replaces `$1`, `$2`… with the given values (the language pack's placeholders). */
export function fill(text: string, args: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (whole, n: string) => {
    const i = Number(n) - 1;
    return i >= 0 && i < args.length ? String(args[i]) : whole;
  });
}

const translators = new Map<Locale, Promise<ExportLanguage['t']>>();

/** `t` of a locale's shipped pack: source text → translation (the source text where the pack has none). */
export function translatorOf(locale: Locale): Promise<ExportLanguage['t']> {
  let p = translators.get(locale);
  if (!p) {
    p = shippedPack(locale).then((rows) => {
      const pack = new Map(rows.map((r) => [r.source, r.translation]));
      return (source: string, ...args: unknown[]) => fill(pack.get(source) ?? source, args);
    });
    translators.set(locale, p);
    p.catch(() => translators.delete(locale));
  }
  return p;
}

/** What a file made for this request is written in: the caller's language and time zone. */
export async function exportLanguage(req: FastifyRequest): Promise<ExportLanguage> {
  const locale = localeOf(req);
  return { locale, t: await translatorOf(locale), zone: zoneOf(req) };
}
