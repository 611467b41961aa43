import { defineModule } from '../../platform/module.ts';
import { electricRoutes } from './electric.routes.ts';
import { registerReadingJobs } from './reading.jobs.ts';
import { readingRoutes } from './reading.routes.ts';
import { ensureDefaultTiming } from './timing-reading.service.ts';

/**
 * Meters: electric data from the rollups, and the readings (zero, timing, the subsystems' period
 * readings with re-meter) with their normalisation.
 */
export const meterModule = defineModule({
  name: 'meter',
  routes: [...electricRoutes, ...readingRoutes],
  seeds: [ensureDefaultTiming],
  jobs: registerReadingJobs,
});

/** The normalised period energy of a station's meters (settlement and statements use it). */
export { periodEnergy } from './period-energy.ts';
export type { DayEnergy, MeterPeriodEnergy, PeriodEnergyQuery, RegisterEnergy } from './period-energy.ts';
/** One sweep of the readings (the demo runs one after writing its history). */
export { sweepReadings } from './reading.jobs.ts';
