import { declareEvents } from '../../platform/events/catalogue.ts';
import { defineModule } from '../../platform/module.ts';
import { maintenanceNotifySubscriber } from './maintenance.notify.ts';
import { registerOrderJobs } from './orders.jobs.ts';
import { repairRoutes, workOrderRoutes } from './orders.routes.ts';
import './maintenance.events.ts';
import { overviewRoutes } from './overview.routes.ts';
import { registerPlanJobs } from './plan.generator.ts';
import { planRoutes } from './plan.routes.ts';

/**
 * Maintenance (api-catalogue "Inspection" and "Repair"): inspection items, plans and their
 * generator, work orders and their log, defects, repair orders with the alarm → repair loop, and
 * the overview.
 */
export const maintenanceModule = defineModule({
  name: 'maintenance',
  events: declareEvents(
    'plan.started', 'plan.stopped', 'plan.activated', 'plan.paused', 'plan.expired',
    'workorder.created', 'workorder.assigned', 'workorder.handled', 'workorder.completed', 'workorder.closed', 'defect.recorded',
    'repair.created', 'repair.assigned', 'repair.checkedIn', 'repair.handled', 'repair.accepted', 'repair.rejected', 'repair.closed',
  ),
  routes: [...planRoutes, ...overviewRoutes, ...workOrderRoutes, ...repairRoutes],
  jobs: (ctx) => {
    registerPlanJobs(ctx);
    registerOrderJobs(ctx);
  },
  subscribers: [maintenanceNotifySubscriber],
});

/** The maintenance demo (items, plans, two weeks of orders, repairs from the demo alarms), written once after the demo's history. */
export { seedMaintenanceDemo } from './maintenance.demo.ts';

/** The work-order overview's statistic (the report centre's maintenance report). */
export { overviewService, overviewStatistic } from './overview.service.ts';
