import { defineModule } from '../../platform/module.ts';
import { closeCommandChannel } from './command.channel.ts';
import { monitorRoutes } from './monitor.routes.ts';

/** Device monitoring and control over MQTT. */
export const monitorModule = defineModule({ name: 'monitor', routes: monitorRoutes, stop: closeCommandChannel });

// The module's public interface: what other modules (and the demo) may use.
export { assertType, assertWithinDay } from './monitor.service.ts';
/** Commands to devices and their replies (the demand guard sends demandGuard through it). */
export { commandChannel, commandNotSent, type CommandChannel, type CommandOutcome } from './command.channel.ts';
