import { defineModule } from '../../platform/module.ts';
import { electricRoutes } from './electric.routes.ts';

/** Meter data from the rollups. */
export const meterModule = defineModule({ name: 'meter', routes: electricRoutes });

/** The normalised period energy of a station's meters (settlement and statements use it). */
export { periodEnergy } from './period-energy.ts';
export type { DayEnergy, MeterPeriodEnergy, PeriodEnergyQuery, RegisterEnergy } from './period-energy.ts';
