import type { AppContext } from '../../platform/context.ts';
import { pruneSmsLog } from './sms.log.service.ts';
import { runSmsJob, SMS_SEND_JOB, sweepDueSms } from './sms.send.ts';

const MINUTE = 60_000;

/** The SMS side of the messaging jobs: attempts, the sweep of due rows whose job was lost, the log's daily pruning. */
export function registerSmsJobs(ctx: AppContext): void {
  ctx.jobs.handle<{ logId: number }>(SMS_SEND_JOB, (data) => runSmsJob(ctx, data));
  ctx.jobs.every(MINUTE, async () => {
    await sweepDueSms(ctx);
  });
  ctx.jobs.every(24 * 60 * MINUTE, async () => {
    const n = await pruneSmsLog(ctx);
    if (n) ctx.log.info({ rows: n }, 'SMS log pruned');
  });
}
