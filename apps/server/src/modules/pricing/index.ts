import { declareEvents } from '../../platform/events/catalogue.ts';
import { defineModule } from '../../platform/module.ts';
import { pricingRoutes } from './pricing.routes.ts';

/** Time-of-use prices: templates, cycles, a station's prices and feed-in. */
export const pricingModule = defineModule({ name: 'pricing', routes: pricingRoutes, events: declareEvents('price.changed') });

// The module's public interface: what other modules (and the demo) may use.
export { bandAt, tariffsForSite, type DayTariff, type PriceChange } from './pricing.service.ts';
export { templateTariffs } from './what-if.ts';
export { SETTLED_PERIOD_PRICE, STARTED_PRICE_DELETE } from './price-history.ts';
