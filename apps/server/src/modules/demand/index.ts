import { declareEvents } from '../../platform/events/catalogue.ts';
import { defineModule } from '../../platform/module.ts';
import { demandRoutes } from './demand.routes.ts';
import { startDemandSink } from './demand.runtime.ts';
import { seedDemandAlarms } from './demand.seed.ts';

/**
 * Demand management (api-catalogue "Demand"; issue 19): 15-minute demand windows computed on
 * ingest (a rule sink after the alarm engine), tracking, the storage's shaving and its saving,
 * reconciliation with the meter's register and the bill, targets with the live pre-alarm guard.
 */
export const demandModule = defineModule({
  name: 'demand',
  events: declareEvents('demand.targetSet'),
  routes: demandRoutes,
  seeds: [({ db }) => seedDemandAlarms(db)],
  start: (ctx) => Promise.resolve(startDemandSink(ctx)),
});

export { demandSinkOf } from './demand.runtime.ts';
/** The target in force for a station and month (the strategy respects it). */
export { targetInForce } from './demand.service.ts';
export type { DemandTargetSetPayload } from './demand.events.ts';
/** The demand demo: standing targets before the demo's history, its few pre-alarms after it. */
export { seedDemandDemo, seedDemandTargets, type DemoDemandTarget } from './demand.demo.ts';

/** Demand tracking's month card (the report centre's demand report). */
export { analysisInfo, monthlyBrief } from './demand.service.ts';
