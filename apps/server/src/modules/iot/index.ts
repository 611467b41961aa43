import { defineModule } from '../../platform/module.ts';
import { iotConfigRoutes, iotQueryRoutes, iotRelateRoutes, iotSyncRoutes } from './iot.routes.ts';

/**
 * IoT platform sync (issue 23; decision 0048; contract packages/contract/src/iot.ts): IoT
 * applications (ThingsBoard, JetLinks: adapters/ behind one interface; passwords sealed at rest),
 * the sync (dry-run diff, approval, idempotent apply, the record of each run), what the syncs
 * read, and the relations from platform items to the console's thing model.
 */
export const iotModule = defineModule({
  name: 'iot',
  routes: [...iotConfigRoutes, ...iotSyncRoutes, ...iotQueryRoutes, ...iotRelateRoutes],
});
