import { defineModule } from '../../platform/module.ts';
import { dictionaryRoutes } from './dictionary.routes.ts';

/** The administrative-region tree. */
export const dictionaryModule = defineModule({ name: 'dictionary', routes: dictionaryRoutes });
