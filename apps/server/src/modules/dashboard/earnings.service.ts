import { and, eq } from 'drizzle-orm';
import type { EarningsChartQuery, EarningsQuery, SiteEarnings, SiteEarningsChart } from '@ess/contract';
import { revenueDaily } from '../../db/schema/dashboard.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { resolveDate } from '../../platform/time/local-time.ts';
import { siteInScope } from '../site/index.ts';
import { bucketSums, dateLabels, monthLabels, sumColumns, sumsOf, type Sums } from './revenue.repository.ts';

/**
 * Site monitoring's two money calls: one station's revenue of a day (default today), its month,
 * its year and all time, and the chart per day of a month or per month of a year. A station
 * bills in one currency (its price template's); should it have changed, the newest is shown and
 * the figures are those of that currency.
 */

const strip = ({ days: _d, pricesComplete: _p, ...s }: Sums) => s;

export async function siteEarnings(ctx: AppContext, user: AuthUser, q: EarningsQuery): Promise<SiteEarnings> {
  const st = await siteInScope(ctx.db, user, q.siteId);
  const date = resolveDate(st.timeZone, q.date, Date.now());
  const month = `${date.slice(0, 7)}-01`;
  const year = `${date.slice(0, 4)}-01-01`;
  const currency = await currencyOf(ctx, st.id, st.currency);
  const { rows } = await ctx.database.sql.query<Record<string, unknown>>(
    `select ${sumColumns('d_', 'day = $2::date', true)}, ${sumColumns('m_', 'day >= $3::date and day <= $2::date', true)},
            ${sumColumns('y_', 'day >= $4::date and day <= $2::date', true)}, ${sumColumns('a_', undefined, true)}
       from revenue_daily where site_id = $1 and currency = $5`,
    [st.id, date, month, year, currency],
  );
  const row = rows[0];
  const [stored] = await ctx.db
    .select({ computedAt: revenueDaily.computedAt })
    .from(revenueDaily)
    .where(and(eq(revenueDaily.siteId, st.id), eq(revenueDaily.day, date)));
  const day = sumsOf(row, 'd_', currency);
  const m = sumsOf(row, 'm_', currency);
  const y = sumsOf(row, 'y_', currency);
  return {
    siteId: st.id,
    date,
    timeZone: st.timeZone,
    currency,
    day: strip(day),
    month: strip(m),
    year: strip(y),
    total: strip(sumsOf(row, 'a_', currency)),
    computedAt: stored ? stored.computedAt.toISOString() : null,
    pricesComplete: y.pricesComplete,
  };
}

/** The currency of the station's newest figure, else the station's own. */
async function currencyOf(ctx: AppContext, siteId: number, fallback: string): Promise<string> {
  const { rows } = await ctx.database.sql.query<{ currency: string }>(
    'select currency from revenue_daily where site_id = $1 order by day desc limit 1',
    [siteId],
  );
  return rows[0]?.currency ?? fallback;
}

export async function siteEarningsChart(ctx: AppContext, user: AuthUser, q: EarningsChartQuery): Promise<SiteEarningsChart> {
  const st = await siteInScope(ctx.db, user, q.siteId);
  const type = q.type ?? 'month';
  const date = resolveDate(st.timeZone, q.date, Date.now());
  const currency = await currencyOf(ctx, st.id, st.currency);
  let from: string;
  let to: string;
  let keys: string[];
  let labels: string[];
  if (type === 'month') {
    from = `${date.slice(0, 7)}-01`;
    const [y, mo] = date.split('-').map(Number) as [number, number];
    to = new Date(Date.UTC(y, mo, 0)).toISOString().slice(0, 10);
    keys = dateLabels(from, to);
    labels = keys.map((k) => k.slice(5));
  } else {
    from = `${date.slice(0, 4)}-01-01`;
    to = `${date.slice(0, 4)}-12-31`;
    keys = monthLabels(from, to);
    labels = keys;
  }
  const rows = (await bucketSums(ctx, [st.id], from, to, type === 'month' ? 'day' : 'month')).filter((r) => r.currency === currency);
  const by = new Map(rows.map((r) => [r.bucket, r.sums]));
  const series = (f: (s: Sums) => number) => keys.map((k) => {
    const s = by.get(k);
    return s ? f(s) : 0;
  });
  return {
    siteId: st.id,
    type,
    date,
    timeZone: st.timeZone,
    currency,
    labels,
    arbitrage: series((s) => s.arbitrage),
    pvRevenue: series((s) => s.pvRevenue),
    chargingRevenue: series((s) => s.chargingRevenue),
    total: series((s) => s.total),
    charge: series((s) => s.charge),
    discharge: series((s) => s.discharge),
  };
}
