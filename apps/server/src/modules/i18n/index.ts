import type { Db } from '../../platform/db/database.ts';
import { defineModule } from '../../platform/module.ts';
import { dropDataTranslations, translateAnswer } from './data-translation.ts';
import { COMPLETION_JOB, runCompletion } from './engine.service.ts';
import { i18nRoutes } from './i18n.routes.ts';
import { seededCatalogue } from './i18n.state.ts';
import { seedLanguages } from './language.service.ts';
import { shippedPack } from './packs.ts';
import { seedDataTranslations, seedTextNodes, seedTexts } from './translation.service.ts';

export { exportLanguage, localeOf, translatorOf } from './i18n.language.ts';
export { shippedPacksKey } from './packs.ts';

/** The languages and the shipped packs' texts and translations (the first start's seed; test images hold it made once). */
export async function seedShippedTranslations(db: Db): Promise<void> {
  await seedLanguages(db);
  await seedTexts(db, seededCatalogue, shippedPack);
}

/**
 * Translation management (issue 24): languages, UI texts (the pack fetch serves the database's
 * translations; the shipped packs seed it at first start), business-data text nodes, engines and
 * machine completion, currencies; the caller's language for the files the server writes (exports).
 */
export const i18nModule = defineModule({
  name: 'i18n',
  routes: i18nRoutes,
  seeds: [
    ({ db }) => seedLanguages(db),
    ({ db }) => seedTextNodes(db),
    ({ db }) => seedTexts(db, seededCatalogue, shippedPack),
  ],
  responsePass: translateAnswer,
  start: async (ctx) => {
    ctx.bus.subscribe((m) => {
      if (m.type === 'reload' && m.what === 'translation') dropDataTranslations(ctx.db);
    });
    // After every module's seed (the demo's stations and devices come last).
    await seedDataTranslations(ctx.db, shippedPack);
  },
  jobs: (ctx) => ctx.jobs.handle<{ id: number }>(COMPLETION_JOB, (job) => runCompletion(ctx, job.id)),
});
