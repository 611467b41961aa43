import { defineModule } from '../../platform/module.ts';
import { priceChangeSubscriber, registerRevenueJobs } from './revenue.jobs.ts';
import { revenueRoutes } from './revenue.routes.ts';

/** The revenue engine and the money calls: home page, earnings, energy arbitrage. */
export const revenueModule = defineModule({ name: 'revenue', routes: revenueRoutes, jobs: registerRevenueJobs, subscribers: [priceChangeSubscriber] });

// The module's public interface.
export { refreshAll as refreshRevenue } from './revenue.jobs.ts';
