import { defineModule } from '../../platform/module.ts';
import { startIngestRole, stopIngestRole } from './runtime.ts';
import { registerTelemetryJobs } from './telemetry.jobs.ts';
import { telemetryRoutes } from './telemetry.routes.ts';

/**
 * Device data: MQTT ingest, latest values, status, rollups, retention. Starts after the modules
 * that add rule sinks to the ingest (alarm), so it comes late in the module list.
 */
export const telemetryModule = defineModule({
  name: 'telemetry',
  routes: telemetryRoutes,
  jobs: registerTelemetryJobs,
  start: startIngestRole,
  stop: stopIngestRole,
});

// The module's public interface: what other modules (and the demo) may use.
export { copyDriver } from './copy-writer.ts';
export { deviceHistory } from './history.service.ts';
export { type IngestRules } from './ingest.ts';
export { loadProductSlots, productSlotsOf, valuesOf, type DeviceRegistry, type ProductSlots, type RegisteredDevice } from './registry.ts';
export { ROLLUP_TABLES, RollupAccumulator, writeAggregates, type Granularity } from './rollup.ts';
export { addIngestRules, deviceRegistryOf, ingestOf } from './runtime.ts';
export type { Ingest } from './ingest.ts';
