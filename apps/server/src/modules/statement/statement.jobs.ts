import { prevMonth, todayIn } from '@ess/contract';
import { eq } from 'drizzle-orm';
import { site } from '../../db/schema/site.ts';
import { siteStatementSetting } from '../../db/schema/statement.ts';
import type { AppContext } from '../../platform/context.ts';
import { subscriber } from '../../platform/events/outbox.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { PriceChange } from '../pricing/index.ts';
import { generate, recomputeDraftsAfterPriceChange } from './statement.service.ts';

const HOUR = 3_600_000;
const RECOMPUTE_JOB = 'statement.recompute';

/** The latest month whose billing period has ended at a station today (its billing day has come). */
export function lastEndedMonth(today: string, billingDay: number): string {
  const month = today.slice(0, 7);
  return Number(today.slice(8, 10)) >= billingDay ? prevMonth(month) : prevMonth(prevMonth(month));
}

/**
 * Drafts after each billing day (issue 18 item 10): every station with settings gets the
 * statement of its last ended period, once (the unique station-month makes a second run and a
 * second instance harmless). A station whose statement exists, or whose readings fail, is left
 * for the next run.
 */
export async function generateDue(ctx: AppContext, now = new Date()): Promise<number> {
  const rows = await ctx.db
    .select({ siteId: siteStatementSetting.siteId, billingDay: siteStatementSetting.billingDay, timeZone: site.timeZone })
    .from(siteStatementSetting)
    .innerJoin(site, eq(site.id, siteStatementSetting.siteId));
  let made = 0;
  for (const r of rows) {
    const month = lastEndedMonth(todayIn(r.timeZone, now), r.billingDay);
    try {
      await generate(ctx, null, r.siteId, month, now);
      made += 1;
    } catch (err) {
      if (!(err instanceof AppError)) ctx.log.warn({ err, siteId: r.siteId, month }, 'statement generation failed');
    }
  }
  return made;
}

/** Price changes recompute the drafts of the stations (confirmed and locked statements keep theirs). */
export const statementPriceSubscriber = subscriber({
  name: 'statement.recompute',
  events: ['price.changed'],
  transactional: false,
  handle: async (events, _tx, ctx) => {
    for (const e of events) await ctx.jobs.send(RECOMPUTE_JOB, e.payload);
  },
});

export function registerStatementJobs(ctx: AppContext): void {
  ctx.jobs.handle<PriceChange>(RECOMPUTE_JOB, async (change) => {
    const n = await recomputeDraftsAfterPriceChange(ctx, change.siteIds, change.fromDate);
    ctx.log.info({ siteIds: change.siteIds, fromDate: change.fromDate, drafts: n }, 'draft statements recomputed after a price change');
  });
  ctx.jobs.every(HOUR, async () => {
    await generateDue(ctx);
  });
}
