import { and, eq, lt } from 'drizzle-orm';
import { z } from 'zod';
import { notificationSetting } from '../../db/schema/system.ts';
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
  ctx.jobs.every(SWEEP_EVERY_MS, async () => {
    await sweepOverduePushes(ctx);
  });
}

const SWEEP_EVERY_MS = 5 * 60_000;
const OVERDUE_MS = 2 * 60_000;

/**
 * Catch-up for scheduled pushes whose job was lost (its retries exhausted, or the queue was
 * reset): pushes still pending well past their time are run now. The push claims the setting,
 * so a sweep racing the job sends nothing twice.
 */
export async function sweepOverduePushes(ctx: AppContext): Promise<number> {
  const overdue = await ctx.db
    .select({ id: notificationSetting.id, pushAt: notificationSetting.pushAt })
    .from(notificationSetting)
    .where(
      and(
        eq(notificationSetting.status, 'pending'),
        eq(notificationSetting.pushMode, 'scheduled'),
        lt(notificationSetting.pushAt, new Date(Date.now() - OVERDUE_MS)),
      ),
    );
  let sent = 0;
  for (const s of overdue) {
    if (!s.pushAt) continue;
    if ((await runScheduledPush(ctx, { id: s.id, pushAt: s.pushAt.toISOString() })) === 'sent') sent += 1;
  }
  if (overdue.length) ctx.log.warn({ overdue: overdue.length, sent }, 'swept overdue scheduled pushes');
  return sent;
}
