import { defineModule } from '../../platform/module.ts';
import { siteRoutes } from './site.routes.ts';

/** Station configuration: stations, key values, cabinets, distribution diagrams, parameters, callbacks. */
export const siteModule = defineModule({ name: 'site', routes: siteRoutes });

// The module's public interface: what other modules (and the demo) may use.
export { siteInScope, underCompany } from './site.service.ts';
