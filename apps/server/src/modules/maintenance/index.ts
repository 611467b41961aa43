import { defineModule } from '../../platform/module.ts';
import { maintenanceNotifySubscriber } from './maintenance.notify.ts';
import { registerOrderJobs } from './orders.jobs.ts';
import { repairRoutes, workOrderRoutes } from './orders.routes.ts';
import './maintenance.events.ts';

/**
 * Maintenance (api-catalogue "Inspection" and "Repair"): inspection items, plans and their
 * generator, work orders and their log, defects, repair orders with the alarm → repair loop, and
 * the overview. Routes, jobs and subscribers are added by their services.
 */
export const maintenanceModule = defineModule({
  name: 'maintenance',
  routes: [...workOrderRoutes, ...repairRoutes],
  jobs: registerOrderJobs,
  subscribers: [maintenanceNotifySubscriber],
});
