import { sql } from 'drizzle-orm';
import { todayIn } from '@ess/contract';
import { revenueDaily } from '../../db/schema/dashboard.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import { localDayStart } from '../../platform/time/local-time.ts';
import { productSlots } from '../comprehensive/index.ts';
import type { PriceChange } from '../pricing/index.ts';
import { subscriber } from '../../platform/events/outbox.ts';
import { computeSiteDays } from './revenue.engine.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** How often today's figures are refreshed. */
export const REFRESH_MS = 5 * MINUTE;
/** A station without any figure yet gets this many past days computed (catch-up after install or seeding). */
export const BACKFILL_DAYS = 400;
/** Yesterday is computed once more until this long after its end (late rollups). */
const SETTLE_MS = 30 * MINUTE;
export const RECOMPUTE_JOB = 'revenue.recompute';

const dateMinus = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY).toISOString().slice(0, 10);

/**
 * One refresh pass over every station: today's figures, yesterday's until it settled, and a
 * backfill for stations that have none yet (or a gap since the last stored day).
 */
export async function refreshAll(ctx: AppContext, now = Date.now()): Promise<number> {
  const sites = await ctx.db.select({ id: site.id, timeZone: site.timeZone }).from(site);
  const { rows } = await ctx.database.sql.query<{ site_id: number; last: string; computed_at: Date }>(
    `select distinct on (site_id) site_id, to_char(day, 'YYYY-MM-DD') as last, computed_at from revenue_daily order by site_id, day desc`,
  );
  const lastOf = new Map(rows.map((r) => [Number(r.site_id), r]));
  const slots = await productSlots(ctx);
  let n = 0;
  for (const s of sites) {
    const today = todayIn(s.timeZone, new Date(now));
    const yesterday = dateMinus(today, 1);
    const last = lastOf.get(s.id);
    let from = today;
    if (!last) from = dateMinus(today, BACKFILL_DAYS);
    else if (last.last < yesterday) from = last.last;
    // Yesterday (the local day just ended) once more until late rollups settled.
    else if (now < localDayStart(s.timeZone, today) + SETTLE_MS || last.computed_at.getTime() < localDayStart(s.timeZone, today)) from = yesterday;
    try {
      n += await computeSiteDays(ctx, s.id, from, today, now, slots);
    } catch (err) {
      ctx.log.error({ err, siteId: s.id }, 'revenue refresh failed');
    }
  }
  return n;
}

/** Recomputes the stations' days from a date on (after a price change). */
export async function recompute(ctx: AppContext, change: PriceChange, now = Date.now()): Promise<number> {
  let n = 0;
  for (const siteId of change.siteIds) n += await computeSiteDays(ctx, siteId, change.fromDate, undefined, now);
  return n;
}

/**
 * Price changes (`price.changed`, written with the change) queue the recompute of the stations'
 * days. Queued at least once; a repeated recompute writes the same figures.
 */
export const priceChangeSubscriber = subscriber({
  name: 'revenue.recompute',
  events: ['price.changed'],
  // Queues pg-boss jobs (their own statements), so not inside the delivery's transaction.
  transactional: false,
  handle: async (events, _tx, ctx) => {
    for (const e of events) await ctx.jobs.send(RECOMPUTE_JOB, e.payload);
  },
});

export function registerRevenueJobs(ctx: AppContext): void {
  ctx.jobs.handle<PriceChange>(RECOMPUTE_JOB, async (change) => {
    const n = await recompute(ctx, change);
    ctx.log.info({ siteIds: change.siteIds, fromDate: change.fromDate, days: n }, 'revenue recomputed after a price change');
  });
  ctx.jobs.every(REFRESH_MS, async () => {
    await refreshAll(ctx);
  });
}

/** Stored days of a station (tests). */
export async function storedDays(ctx: AppContext, siteId: number): Promise<string[]> {
  const rows = await ctx.db.select({ day: revenueDaily.day }).from(revenueDaily).where(sql`${revenueDaily.siteId} = ${siteId}`).orderBy(revenueDaily.day);
  return rows.map((r) => r.day);
}
