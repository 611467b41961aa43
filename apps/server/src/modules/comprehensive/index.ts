import { defineModule } from '../../platform/module.ts';
import { comprehensiveRoutes } from './comprehensive.routes.ts';

/** Site monitoring: live stations, power flow, day energy, curves, PV and charging, handling. */
export const comprehensiveModule = defineModule({ name: 'comprehensive', routes: comprehensiveRoutes });

// The module's public interface: what other modules (and the demo) may use.
export { growthByBucket } from './energy.ts';
export { siteOverview, sitePerformance, sitePowerData, stationToday, stationTotals } from './comprehensive.service.ts';
export { stateCounts } from './solar.service.ts';
export { POWER_TYPES, addCounts, emptyCounts, productSlots, rolesOf, stationDevices, statusCounts, subsystemsOf, type Slots, type StationDevice } from './station.ts';
