import { defineModule } from '../../platform/module.ts';
import { startLive, stopLive } from './live/live.service.ts';
import { iotConfigRoutes, iotQueryRoutes, iotRelateRoutes, iotSyncRoutes, iotUnmappedRoutes } from './iot.routes.ts';

/**
 * IoT platform sync (issue 23; decision 0048; contract packages/contract/src/iot.ts): IoT
 * applications (ThingsBoard, JetLinks: adapters/ behind one interface; passwords sealed at rest),
 * the sync (dry-run diff, approval, idempotent apply, the record of each run), what the syncs
 * read, and the relations from platform items to the console's thing model; the live streams of
 * the related devices into the ingest, commands through the platforms, and the unmapped keys
 * (decision 0051). After the telemetry module: its streams feed the running ingest, and stop
 * before it.
 */
export const iotModule = defineModule({
  name: 'iot',
  routes: [...iotConfigRoutes, ...iotSyncRoutes, ...iotQueryRoutes, ...iotRelateRoutes, ...iotUnmappedRoutes],
  start: startLive,
  stop: stopLive,
});

// The module's public interface: commands to devices fed through a platform (the monitor module's control).
export { platformCommand } from './live/command.service.ts';
