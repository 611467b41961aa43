import { defineModule } from '../../platform/module.ts';
import { electricRoutes } from './electric.routes.ts';

/** Meter data from the rollups. */
export const meterModule = defineModule({ name: 'meter', routes: electricRoutes });
