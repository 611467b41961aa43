import { defineModule } from '../../platform/module.ts';
import { i18nRoutes } from './i18n.routes.ts';

/** Language packs. */
export const i18nModule = defineModule({ name: 'i18n', routes: i18nRoutes });
