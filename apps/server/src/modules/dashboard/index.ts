import { defineModule } from '../../platform/module.ts';
import { priceChangeSubscriber, registerRevenueJobs } from './revenue.jobs.ts';
import { dashboardRoutes } from './dashboard.routes.ts';

/** The dashboard's money: the revenue engine and the money calls: home page, earnings, energy arbitrage. */
export const dashboardModule = defineModule({ name: 'dashboard', routes: dashboardRoutes, jobs: registerRevenueJobs, subscribers: [priceChangeSubscriber] });

// The module's public interface.
export { refreshAll as refreshRevenue } from './revenue.jobs.ts';

/** The energy-arbitrage overview's answers (the report centre's operations and revenue reports are built from them). */
export { arbitrageFeeCurve, arbitrageQuantityCurve, arbitrageSummary } from './arbitrage.service.ts';
export { siteEarningsChart } from './earnings.service.ts';
