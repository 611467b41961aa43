import { defineModule } from '../../platform/module.ts';
import { closeCommandChannel } from './command.channel.ts';
import { monitorRoutes } from './monitor.routes.ts';

/** Device monitoring and control over MQTT. */
export const monitorModule = defineModule({ name: 'monitor', routes: monitorRoutes, stop: closeCommandChannel });

// The module's public interface: what other modules (and the demo) may use.
export { assertType, assertWithinDay } from './monitor.service.ts';
/** The instance's MQTT command channel (the strategy module synchronises through it). */
export { commandChannel } from './command.channel.ts';
