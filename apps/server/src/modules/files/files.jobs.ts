import type { AppContext } from '../../platform/context.ts';
import { sweepUnreferencedFiles } from './files.service.ts';

const HOUR = 3_600_000;

/** Hourly: uploads no record references, older than UPLOAD_ORPHAN_GRACE_HOURS, are removed. */
export function registerFilesJobs(ctx: AppContext): void {
  ctx.jobs.every(HOUR, async () => {
    const r = await sweepUnreferencedFiles(ctx);
    if (r.removed + r.strays > 0) ctx.log.info(r, 'unreferenced uploads removed');
  });
}
