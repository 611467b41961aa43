import { defineModule } from '../../platform/module.ts';
import { i18nRoutes } from './i18n.routes.ts';

export { exportLanguage, localeOf, translatorOf } from './i18n.language.ts';

/** Language packs; the caller's language for the files the server writes (exports). */
export const i18nModule = defineModule({ name: 'i18n', routes: i18nRoutes });
