import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { PUSH_JOB, runScheduledPush, type PushJobData } from './notification.service.ts';

const pushJobData = z.object({ id: z.number().int().positive(), pushAt: z.string().min(1) });

/** Scheduled notification pushes (ctx.jobs.send(PUSH_JOB, { id, pushAt }, pushAt)). */
export function registerNotificationJobs(ctx: AppContext): void {
  ctx.jobs.handle<PushJobData>(PUSH_JOB, async (data) => {
    const parsed = pushJobData.safeParse(data);
    if (!parsed.success) {
      ctx.log.warn({ data }, 'ignored a malformed notification push job');
      return;
    }
    const result = await runScheduledPush(ctx, parsed.data);
    ctx.log.info({ settingId: parsed.data.id, result }, 'scheduled notification push');
  });
}
