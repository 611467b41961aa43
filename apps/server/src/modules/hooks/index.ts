import { defineModule } from '../../platform/module.ts';
import { dispatchRoutes, dispatchSubscribers, registerDispatchJobs, startDispatch, stopDispatch } from './dispatch.module.ts';
import { seedHooksDemo } from './hooks.demo.ts';
import { hookRoutes } from './hooks.routes.ts';
import { scanTriggers } from './trigger.service.ts';

/**
 * Hooks (issue 21; decisions 0041, 0042): the trigger catalogue built from the modules' declared
 * domain events (scanned at every start and on demand), the companies' parameters (constants and
 * sealed secrets), the hooks (trigger + filter + script + target + limits, signing secret,
 * circuit), the installation's hook settings, the demo's hooks to the local receiver (npm run
 * hook-catcher), and the dispatcher (an outbox subscriber planning deliveries, sent signed through
 * the SSRF guard with retries and a circuit breaker) with its execution records.
 */
export const hooksModule = defineModule({
  name: 'hooks',
  routes: [...hookRoutes, ...dispatchRoutes],
  seeds: [seedHooksDemo],
  subscribers: dispatchSubscribers,
  jobs: registerDispatchJobs,
  start: async (ctx) => {
    const r = await scanTriggers(ctx);
    if (r.added.length || r.gone.length || r.revived.length || r.changed.length) ctx.log.info({ ...r }, 'hook trigger catalogue updated');
    await startDispatch(ctx);
  },
  stop: stopDispatch,
});

export { dispatcherOf, type Dispatcher } from './dispatch.send.ts';
export { isInstallationAdmin } from './hooks.context.ts';
