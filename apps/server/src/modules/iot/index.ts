import { defineModule } from '../../platform/module.ts';
import { seedIotDemo, stopIotDemo } from './iot.demo.ts';
import { startLive, stopLive } from './live/live.service.ts';
import { iotConfigRoutes, iotQueryRoutes, iotRelateRoutes, iotSyncRoutes, iotUnmappedRoutes } from './iot.routes.ts';

/**
 * IoT platform sync (issue 23; decision 0048; contract packages/contract/src/iot.ts): IoT
 * applications (ThingsBoard, JetLinks: adapters/ behind one interface; passwords sealed at rest),
 * the sync (dry-run diff, approval, idempotent apply, the record of each run), what the syncs
 * read, and the relations from platform items to the console's thing model; the live streams of
 * the related devices into the ingest, commands through the platforms, and the unmapped keys
 * (decision 0051). After the telemetry module: its streams feed the running ingest, and stop
 * before it. The demo (SEED_DEMO; decision 0055): an application on the platform the station
 * simulator plays, synced and related in the background once it answers (started by the demo).
 */
export const iotModule = defineModule({
  name: 'iot',
  routes: [...iotConfigRoutes, ...iotSyncRoutes, ...iotQueryRoutes, ...iotRelateRoutes, ...iotUnmappedRoutes],
  seeds: [seedIotDemo],
  start: startLive,
  stop: async (ctx) => {
    await stopIotDemo(ctx);
    await stopLive(ctx);
  },
});

// The module's public interface: commands to devices fed through a platform (the monitor module's control).
export { platformCommand } from './live/command.service.ts';
// The demo's first sync, once the simulator plays its platform (demo/index.ts).
export { startIotDemo } from './iot.demo.ts';
