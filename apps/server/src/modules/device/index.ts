import { declareEvents } from '../../platform/events/catalogue.ts';
import { defineModule } from '../../platform/module.ts';
import { deviceRoutes } from './device.routes.ts';
import { registerPresenceJobs } from './presence.jobs.ts';
import { syncThingModels } from './thing-model.ts';

/** The device registry: devices of the stations, their products, import and replacement. */
export const deviceModule = defineModule({
  name: 'device',
  events: declareEvents('device.online', 'device.offline'),
  routes: deviceRoutes,
  jobs: registerPresenceJobs,
  seeds: [({ db }) => syncThingModels(db)],
});

// The module's public interface: what other modules (and the demo) may use.
export { statusExpr } from './device.repository.ts';
export type { DevicePresenceChange } from './device.events.ts';
export { sweepPresence } from './presence.jobs.ts';
export { deviceFaultWarning, deviceOne, deviceProperties, latestList, latestOne, latestPage } from './device.service.ts';
export { standardProductCode, standardProducts } from './thing-model.ts';
