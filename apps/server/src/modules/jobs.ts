import type { AppContext } from '../platform/context.ts';
import { registerNotificationJobs } from './system/notification.jobs.ts';
import { registerRevenueJobs } from './revenue/revenue.jobs.ts';
import { registerTelemetryJobs } from './telemetry/telemetry.jobs.ts';

/** Registers every module's background job handlers. */
export function registerJobs(ctx: AppContext): void {
  // Modules add their handlers here.
  registerNotificationJobs(ctx);
  registerTelemetryJobs(ctx);
  registerRevenueJobs(ctx);
}
