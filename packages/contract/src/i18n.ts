import { z } from 'zod';
import { LOCALES } from './constants.ts';
import { endpoint } from './endpoint.ts';

/**
 * Language packs (api-catalogue "Translation"): the shipped translations of a locale as
 * source text → translation pairs. Public: the login page loads its language before sign-in.
 */

export const languagePackQuery = z.object({ languageId: z.enum(LOCALES) });

export const packRow = z.object({ source: z.string(), translation: z.string() });
export type PackRow = z.infer<typeof packRow>;

export const i18nEndpoints = {
  pack: endpoint({ method: 'GET', path: '/i18n/text/translation/view', query: languagePackQuery, response: z.array(packRow) }),
};
