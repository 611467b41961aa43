import { and, eq, inArray, like } from 'drizzle-orm';
import { PRICE_PERIODS, todayIn, type PeriodValues, type RevenueEnergy, type RevenueMoney } from '@ess/contract';
import { company } from '../../db/schema/system.ts';
import { site, siteKeyValue } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { assertCompany, assertSites, inSiteScope } from '../../platform/http/scope.ts';
import { efficiency } from './revenue.calc.ts';

/**
 * SQL over revenue_daily: sums of the stored station-days. Every query is bounded by station
 * ids the caller may see (checked before) and uses the primary key (site_id, day).
 */

export interface ScopedStation {
  id: number;
  name: string;
  companyId: number;
  timeZone: string;
  currency: string;
  siteType: string;
  commissioningDate: string | null;
  installedCapacity: number | null;
  installedPower: number | null;
  /** Station-local today. */
  today: string;
}

/** Stations of a company (and its subsidiaries) that the caller may see; the company itself must be in scope. */
export async function companyStations(ctx: AppContext, user: AuthUser, companyId: number, now = Date.now()): Promise<ScopedStation[]> {
  await assertCompany(ctx.db, user, companyId);
  const [c] = await ctx.db.select({ path: company.path }).from(company).where(eq(company.id, companyId));
  const under = ctx.db.select({ id: company.id }).from(company).where(like(company.path, `${c!.path}%`));
  return stations(ctx, and(inArray(site.companyId, under), inSiteScope(site.id, ctx.db, user)), now);
}

/** The stations an arbitrage query names: its siteIds (each must be visible), else its company's, else all the caller sees. */
export async function filterStations(ctx: AppContext, user: AuthUser, f: { companyId?: number | null; siteIds?: number[] | null }, now = Date.now()): Promise<ScopedStation[]> {
  if (f.siteIds?.length) {
    await assertSites(ctx.db, user, f.siteIds);
    const list = await stations(ctx, and(inArray(site.id, f.siteIds), inSiteScope(site.id, ctx.db, user)), now);
    if (f.companyId) {
      await assertCompany(ctx.db, user, f.companyId);
      const [c] = await ctx.db.select({ path: company.path }).from(company).where(eq(company.id, f.companyId));
      const ids = new Set((await ctx.db.select({ id: company.id }).from(company).where(like(company.path, `${c!.path}%`))).map((r) => r.id));
      if (list.some((s) => !ids.has(s.companyId))) throw new AppError('INVALID_PARAM', '所选站点不属于该公司');
    }
    return list;
  }
  if (f.companyId) return companyStations(ctx, user, f.companyId, now);
  return stations(ctx, inSiteScope(site.id, ctx.db, user), now);
}

async function stations(ctx: AppContext, where: ReturnType<typeof and>, now: number): Promise<ScopedStation[]> {
  const rows = await ctx.db
    .select({
      id: site.id, name: site.name, companyId: site.companyId, timeZone: site.timeZone, currency: site.currency, siteType: site.siteType,
      commissioningDate: site.commissioningDate, installedCapacity: siteKeyValue.installedCapacity, installedPower: siteKeyValue.installedPower,
    })
    .from(site)
    .leftJoin(siteKeyValue, eq(siteKeyValue.siteId, site.id))
    .where(where)
    .orderBy(site.id);
  return rows.map((r) => ({ ...r, today: todayIn(r.timeZone, new Date(now)) }));
}

/** A Postgres array literal bound as one text parameter (same on node-postgres and PGlite). */
export const intArray = (ids: readonly number[]) => `{${ids.map((i) => Math.trunc(i)).join(',')}}`;
export const dateArray = (dates: readonly string[]) => `{${dates.join(',')}}`;

/**
 * The sum columns of revenue_daily, optionally under a filter, named with a prefix. The sums per
 * price period read jsonb and cost most of an aggregate's time: only where asked (`periods`).
 */
export function sumColumns(prefix = '', filter?: string, periods = false): string {
  const f = filter ? ` filter (where ${filter})` : '';
  const cols = [
    ['arbitrage', 'sum(arbitrage)'], ['charge_cost', 'sum(charge_cost)'], ['discharge_income', 'sum(discharge_income)'], ['pv_revenue', 'sum(pv_revenue)'],
    ['charging_revenue', 'sum(charging_revenue)'], ['total', 'sum(total)'], ['charge', 'sum(charge)'], ['discharge', 'sum(discharge)'], ['pv', 'sum(pv)'],
    ['pv_self_used', 'sum(pv_self_used)'], ['pv_exported', 'sum(pv_exported)'], ['piles', 'sum(piles)'], ['cycles', 'sum(cycles)'], ['days', 'count(*)'],
    ['incomplete', 'count(*) filter (where not prices_complete)'],
    ...(periods ? PRICE_PERIODS : []).flatMap((p) => [
      [`c_${p.toLowerCase()}`, `sum((charge_by_period->>'${p}')::float8)`],
      [`d_${p.toLowerCase()}`, `sum((discharge_by_period->>'${p}')::float8)`],
    ]),
  ];
  return cols.map(([name, expr]) => {
    const e = expr!.includes(' filter (') || !f ? expr! : `${expr!}${f}`;
    return `(${e})::float8 as ${prefix}${name}`;
  }).join(', ');
}

const num = (x: unknown) => (x === null || x === undefined ? 0 : Number(x));
const numOrNull = (x: unknown) => (x === null || x === undefined ? null : Number(x));
const m2 = (x: unknown) => Math.round(num(x) * 100) / 100 || 0;
const k3 = (x: unknown) => Math.round(num(x) * 1000) / 1000 || 0;

function periods(row: Record<string, unknown>, prefix: string, dir: 'c' | 'd'): PeriodValues {
  // Unquoted column names come back in lower case.
  return Object.fromEntries(PRICE_PERIODS.map((p) => [p, k3(row[`${prefix}${dir}_${p.toLowerCase()}`])])) as PeriodValues;
}

export interface Sums extends RevenueMoney, RevenueEnergy {
  days: number;
  pricesComplete: boolean;
}

/** Reads the columns of `sumColumns(prefix)` from a row. */
export function sumsOf(row: Record<string, unknown> | undefined, prefix: string, currency: string): Sums {
  const r = row ?? {};
  const charge = k3(r[`${prefix}charge`]);
  const discharge = k3(r[`${prefix}discharge`]);
  const pv = numOrNull(r[`${prefix}pv`]);
  const piles = numOrNull(r[`${prefix}piles`]);
  const cycles = numOrNull(r[`${prefix}cycles`]);
  // Money: arbitrage and total from their rounded parts, so the parts always add up.
  const chargeCost = m2(r[`${prefix}charge_cost`]);
  const dischargeIncome = m2(r[`${prefix}discharge_income`]);
  const pvRevenue = m2(r[`${prefix}pv_revenue`]);
  const charging = m2(r[`${prefix}charging_revenue`]);
  const arbitrage = Math.round((dischargeIncome - chargeCost) * 100) / 100 || 0;
  return {
    currency,
    arbitrage,
    chargeCost,
    dischargeIncome,
    pvRevenue,
    chargingRevenue: charging,
    total: Math.round((arbitrage + pvRevenue + charging) * 100) / 100 || 0,
    charge,
    discharge,
    chargeByPeriod: periods(r, prefix, 'c'),
    dischargeByPeriod: periods(r, prefix, 'd'),
    pvSelfUsed: pv === null ? null : k3(r[`${prefix}pv_self_used`]),
    pvExported: pv === null ? null : k3(r[`${prefix}pv_exported`]),
    piles: piles === null ? null : k3(piles),
    cycles: cycles === null ? null : Math.round(cycles * 10_000) / 10_000,
    efficiency: efficiency(charge, discharge),
    days: num(r[`${prefix}days`]),
    pricesComplete: num(r[`${prefix}incomplete`]) === 0,
    pv: pv === null ? null : k3(pv),
  };
}

/** Station ids with their local dates (today, first of month, first of year) as SQL-ready array literals. */
export function stationDates(list: readonly ScopedStation[]) {
  return {
    ids: intArray(list.map((s) => s.id)),
    today: dateArray(list.map((s) => s.today)),
    month: dateArray(list.map((s) => `${s.today.slice(0, 7)}-01`)),
    year: dateArray(list.map((s) => `${s.today.slice(0, 4)}-01-01`)),
  };
}

/** `with s(...)` joining every station to its local dates; $1..$4 are stationDates' literals. */
export const STATIONS_CTE = `with s as (select * from unnest($1::int[], $2::date[], $3::date[], $4::date[]) as x(site_id, today, month_start, year_start))`;

/** Totals per currency of the stations: today, this month, this year (station-local) and all time. */
export async function periodTotals(ctx: AppContext, list: readonly ScopedStation[]): Promise<Map<string, { today: Sums; month: Sums; year: Sums; total: Sums }>> {
  const out = new Map<string, { today: Sums; month: Sums; year: Sums; total: Sums }>();
  if (list.length === 0) return out;
  const d = stationDates(list);
  const { rows } = await ctx.database.sql.query<Record<string, unknown>>(
    `${STATIONS_CTE}
     select r.currency, ${sumColumns('t_', 'r.day = s.today')}, ${sumColumns('m_', 'r.day >= s.month_start')},
            ${sumColumns('y_', 'r.day >= s.year_start')}, ${sumColumns('a_')}
       from revenue_daily r join s on s.site_id = r.site_id
      group by r.currency order by r.currency`,
    [d.ids, d.today, d.month, d.year],
  );
  for (const row of rows) {
    const c = String(row.currency);
    out.set(c, { today: sumsOf(row, 't_', c), month: sumsOf(row, 'm_', c), year: sumsOf(row, 'y_', c), total: sumsOf(row, 'a_', c) });
  }
  return out;
}

/** Stations with stored days whose prices were not (all) configured, with how many such days, per currency of the figures. */
export async function incompletePriceDays(ctx: AppContext, siteIds: readonly number[]): Promise<{ siteId: number; currency: string; days: number }[]> {
  if (siteIds.length === 0) return [];
  const { rows } = await ctx.database.sql.query<{ site_id: unknown; currency: unknown; days: unknown }>(
    `select site_id, currency, count(*)::int as days from revenue_daily
      where site_id = any($1::int[]) and not prices_complete group by site_id, currency order by site_id, currency`,
    [intArray(siteIds)],
  );
  return rows.map((r) => ({ siteId: Number(r.site_id), currency: String(r.currency), days: Number(r.days) }));
}

/** Sums grouped by currency and a bucket (day or month) over [from, to] (local dates) of the stations. */
export async function bucketSums(
  ctx: AppContext, siteIds: readonly number[], from: string, to: string, bucket: 'day' | 'month', byCurrency = true, periods = false,
): Promise<{ currency: string; bucket: string; sums: Sums }[]> {
  if (siteIds.length === 0) return [];
  const b = bucket === 'day' ? `to_char(day, 'YYYY-MM-DD')` : `to_char(day, 'YYYY-MM')`;
  const cur = byCurrency ? 'currency' : `''::text`;
  const { rows } = await ctx.database.sql.query<Record<string, unknown>>(
    `select ${cur} as currency, ${b} as bucket, ${sumColumns('', undefined, periods)}
       from revenue_daily where site_id = any($1::int[]) and day between $2::date and $3::date
      group by 1, 2 order by 1, 2`,
    [intArray(siteIds), from, to],
  );
  return rows.map((r) => ({ currency: String(r.currency), bucket: String(r.bucket), sums: sumsOf(r, '', String(r.currency)) }));
}

/** Calendar helpers on YYYY-MM-DD text. */
export const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return d.toISOString().slice(0, 7);
}
export function dateLabels(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}
export function monthLabels(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = from.slice(0, 7); m <= to.slice(0, 7); m = addMonths(m, 1)) out.push(m);
  return out;
}
