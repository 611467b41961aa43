import { declareEvents } from '../../platform/events/catalogue.ts';
import { defineModule } from '../../platform/module.ts';
import { diagramSanitiser } from './diagram.service.ts';
import { SvgSanitiser } from './diagram-svg.ts';
import { siteRoutes } from './site.routes.ts';

/** Station configuration: stations, key values, cabinets, distribution diagrams, parameters, callbacks. */
export const siteModule = defineModule({
  name: 'site',
  events: declareEvents('site.changed'),
  routes: siteRoutes,
  start: (ctx) => {
    diagramSanitiser.set(ctx, new SvgSanitiser(ctx.log));
    return Promise.resolve();
  },
  stop: async (ctx) => {
    await diagramSanitiser.get(ctx)?.close();
    diagramSanitiser.delete(ctx);
  },
});

// The module's public interface: what other modules (and the demo) may use.
export { assertCurrency, siteInScope, underCompany } from './site.service.ts';
