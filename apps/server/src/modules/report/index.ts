import { defineModule } from '../../platform/module.ts';
import { REPORT_EXPORT_JOB, pruneExports, runExport } from './report.export.ts';
import { reportRoutes } from './report.routes.ts';
import { pruneReportMail, runDueSchedules } from './report.schedule.ts';

/**
 * The report centre (issue 25; decision 0050; contract packages/contract/src/report.ts): the
 * shipped templates built from the screens' own services, the preview, and xlsx / PDF exports by
 * a background job with progress.
 */
export const reportModule = defineModule({
  name: 'report',
  routes: reportRoutes,
  jobs: (ctx) => {
    ctx.jobs.handle<{ userId: number; id: string }>(REPORT_EXPORT_JOB, ({ userId, id }) => runExport(ctx, userId, id));
    // Hourly: exports older than a week are removed.
    ctx.jobs.every(3_600_000, async () => {
      const n = await pruneExports(ctx);
      if (n) ctx.log.info({ n }, 'old report exports removed');
      await pruneReportMail(ctx);
    });
    // Every minute: schedules come due (each claimed by one instance, see report.schedule.ts).
    ctx.jobs.every(60_000, async () => {
      await runDueSchedules(ctx);
    });
  },
});
