import { declareEvents } from '../../platform/events/catalogue.ts';
import { defineModule } from '../../platform/module.ts';
import './strategy.events.ts';
import { registerStrategyJobs, strategyReconnectSubscriber, strategyRetargetSubscriber } from './strategy.jobs.ts';
import { strategyRoutes } from './strategy.routes.ts';
import { seedStrategyAlarms } from './strategy.seed.ts';

/**
 * Operation strategy (api-catalogue "Strategy"; DOMAIN.md §6a; issue 19 items 7, 9): a station's
 * schedules and limits, checked by the contract's rules, synchronised to the station's EMS over
 * MQTT (applyStrategy), with the EMS's confirmation, re-sending on reconnect, and drift (the
 * hash the EMS reports) raising an alarm through the alarm engine.
 */
export const strategyModule = defineModule({
  name: 'strategy',
  events: declareEvents('strategy.synchronised', 'strategy.drifted'),
  routes: strategyRoutes,
  // The drift alarm's dictionary entry, also in databases seeded before it existed (decision 0040).
  seeds: [({ db }) => seedStrategyAlarms(db)],
  jobs: registerStrategyJobs,
  subscribers: [strategyReconnectSubscriber, strategyRetargetSubscriber],
});

export { sweepStrategies, synchronise } from './strategy.sync.ts';
export { seedStrategyDemo, syncedStrategies } from './strategy.demo.ts';
