import type { FastifyReply } from 'fastify';
import {
  PRICE_PERIODS, PRICE_PERIOD_LABELS, type ArbitrageDetail, type ArbitrageFeeCurve, type ArbitrageFilter, type ArbitragePage, type ArbitrageQuantityCurve,
  type ArbitrageSummary, type Page, type PeriodValues, type PricePeriod,
} from '@ess/contract';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { streamXlsx, type ExportLanguage, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';
import { efficiency } from './revenue.calc.ts';
import { bucketSums, dateLabels, filterStations, intArray, monthLabels, sumColumns, sumsOf, type ScopedStation } from './revenue.repository.ts';

/**
 * Overview (energy arbitrage): charge and discharge of the chosen stations over station-local
 * dates, priced per period, from revenue_daily. Money per currency.
 */

/** Rows of one export at most. */
export const EXPORT_MAX = 100_000;

export async function arbitrageSummary(ctx: AppContext, user: AuthUser, f: ArbitrageFilter): Promise<ArbitrageSummary> {
  const list = await filterStations(ctx, user, f);
  const ids = list.map((s) => s.id);
  const rows = ids.length
    ? (await ctx.database.sql.query<Record<string, unknown>>(
        `select currency, ${sumColumns('', undefined, true)} from revenue_daily where site_id = any($1::int[]) and day between $2::date and $3::date group by currency order by currency`,
        [intArray(ids), f.start, f.end],
      )).rows
    : [];
  const sums = rows.map((r) => sumsOf(r, '', String(r.currency)));
  const add = (pick: (s: (typeof sums)[number]) => number) => Math.round(sums.reduce((a, s) => a + pick(s), 0) * 1000) / 1000;
  const periods = (dir: 'chargeByPeriod' | 'dischargeByPeriod') =>
    Object.fromEntries(PRICE_PERIODS.map((p) => [p, add((s) => s[dir][p])])) as PeriodValues;
  const charge = add((s) => s.charge);
  const discharge = add((s) => s.discharge);
  const cycles = sums.some((s) => s.cycles !== null) ? sums.reduce((a, s) => a + (s.cycles ?? 0), 0) : null;
  const storageStations = new Set(list.filter((s) => s.installedCapacity !== null && s.installedCapacity > 0).map((s) => s.id)).size;
  return {
    start: f.start,
    end: f.end,
    stationCount: list.length,
    charge,
    discharge,
    chargeByPeriod: periods('chargeByPeriod'),
    dischargeByPeriod: periods('dischargeByPeriod'),
    efficiency: efficiency(charge, discharge),
    cycles: cycles === null || storageStations === 0 ? null : Math.round((cycles / storageStations) * 10_000) / 10_000,
    money: sums.map((s) => ({ currency: s.currency, arbitrage: s.arbitrage, chargeCost: s.chargeCost, dischargeIncome: s.dischargeIncome })),
  };
}

const bucketOf = (f: ArbitrageFilter) => f.bucket ?? 'day';
const labelsOf = (f: ArbitrageFilter) => (bucketOf(f) === 'day' ? dateLabels(f.start, f.end) : monthLabels(f.start, f.end));

export async function arbitrageFeeCurve(ctx: AppContext, user: AuthUser, f: ArbitrageFilter): Promise<ArbitrageFeeCurve> {
  const list = await filterStations(ctx, user, f);
  const rows = await bucketSums(ctx, list.map((s) => s.id), f.start, f.end, bucketOf(f));
  const labels = labelsOf(f);
  const currencies = [...new Set(rows.map((r) => r.currency))];
  return {
    bucket: bucketOf(f),
    labels,
    currencies: currencies.map((currency) => {
      const by = new Map(rows.filter((r) => r.currency === currency).map((r) => [r.bucket, r.sums]));
      const series = (k: 'chargeCost' | 'dischargeIncome' | 'arbitrage') => labels.map((l) => by.get(l)?.[k] ?? 0);
      return { currency, chargeCost: series('chargeCost'), dischargeIncome: series('dischargeIncome'), arbitrage: series('arbitrage') };
    }),
  };
}

export async function arbitrageQuantityCurve(ctx: AppContext, user: AuthUser, f: ArbitrageFilter): Promise<ArbitrageQuantityCurve> {
  const list = await filterStations(ctx, user, f);
  const rows = await bucketSums(ctx, list.map((s) => s.id), f.start, f.end, bucketOf(f), false, true);
  const labels = labelsOf(f);
  const by = new Map(rows.map((r) => [r.bucket, r.sums]));
  const per = (dir: 'chargeByPeriod' | 'dischargeByPeriod') =>
    Object.fromEntries(PRICE_PERIODS.map((p) => [p, labels.map((l) => by.get(l)?.[dir][p] ?? 0)])) as Record<PricePeriod, number[]>;
  return {
    bucket: bucketOf(f),
    labels,
    charge: labels.map((l) => by.get(l)?.charge ?? 0),
    discharge: labels.map((l) => by.get(l)?.discharge ?? 0),
    chargeByPeriod: per('chargeByPeriod'),
    dischargeByPeriod: per('dischargeByPeriod'),
    efficiency: labels.map((l) => by.get(l)?.efficiency ?? null),
  };
}

interface DetailRow {
  site_id: number;
  day: string;
  currency: string;
  charge: number;
  discharge: number;
  charge_by_period: PeriodValues;
  discharge_by_period: PeriodValues;
  charge_cost: string;
  discharge_income: string;
  arbitrage: string;
  cycles: number | null;
  prices_complete: boolean;
  computed_at: Date;
}

const DETAIL_SQL = `select site_id, to_char(day, 'YYYY-MM-DD') as day, currency, charge, discharge, charge_by_period, discharge_by_period,
  charge_cost::text, discharge_income::text, arbitrage::text, cycles, prices_complete, computed_at
  from revenue_daily where site_id = any($1::int[]) and day between $2::date and $3::date order by day desc, site_id`;

function toDetail(r: DetailRow, names: Map<number, ScopedStation>): ArbitrageDetail {
  const charge = Number(r.charge);
  const discharge = Number(r.discharge);
  return {
    siteId: Number(r.site_id),
    siteName: names.get(Number(r.site_id))?.name ?? '',
    date: r.day,
    currency: r.currency,
    charge,
    discharge,
    chargeByPeriod: r.charge_by_period,
    dischargeByPeriod: r.discharge_by_period,
    chargeCost: Number(r.charge_cost),
    dischargeIncome: Number(r.discharge_income),
    arbitrage: Number(r.arbitrage),
    cycles: r.cycles === null ? null : Number(r.cycles),
    efficiency: efficiency(charge, discharge),
    pricesComplete: r.prices_complete,
    computedAt: new Date(r.computed_at).toISOString(),
  };
}

export async function arbitrageDetailPage(ctx: AppContext, user: AuthUser, q: ArbitragePage): Promise<Page<ArbitrageDetail>> {
  const list = await filterStations(ctx, user, q);
  const names = new Map(list.map((s) => [s.id, s]));
  const params = [intArray(list.map((s) => s.id)), q.start, q.end];
  const [{ rows: count }, { rows }] = await Promise.all([
    ctx.database.sql.query<{ n: number }>('select count(*)::int as n from revenue_daily where site_id = any($1::int[]) and day between $2::date and $3::date', params),
    ctx.database.sql.query<DetailRow>(`${DETAIL_SQL} limit ${q.pageSize} offset ${(q.current - 1) * q.pageSize}`, params),
  ]);
  return { records: rows.map((r) => toDetail(r, names)), total: count[0]?.n ?? 0, current: q.current, pageSize: q.pageSize };
}

export async function arbitrageExport(ctx: AppContext, user: AuthUser, f: ArbitrageFilter, lang: ExportLanguage, reply: FastifyReply) {
  const list = await filterStations(ctx, user, f);
  const names = new Map(list.map((s) => [s.id, s]));
  const { rows } = await ctx.database.sql.query<DetailRow>(`${DETAIL_SQL} limit ${EXPORT_MAX}`, [intArray(list.map((s) => s.id)), f.start, f.end]);
  const periodColumns = (dir: 'chargeByPeriod' | 'dischargeByPeriod', label: string): XlsxColumn<ArbitrageDetail>[] =>
    PRICE_PERIODS.map((p) => ({ header: `${label}（${PRICE_PERIOD_LABELS[p]}）kWh`, width: 14, value: (r) => r[dir][p] }));
  const columns: XlsxColumn<ArbitrageDetail>[] = [
    { header: '日期', width: 12, value: (r) => r.date },
    { header: '站点', width: 20, value: (r) => r.siteName },
    { header: '币种', width: 8, value: (r) => r.currency },
    { header: '充电量 kWh', width: 14, value: (r) => r.charge },
    ...periodColumns('chargeByPeriod', '充电量'),
    { header: '放电量 kWh', width: 14, value: (r) => r.discharge },
    ...periodColumns('dischargeByPeriod', '放电量'),
    { header: '充电成本', width: 12, value: (r) => r.chargeCost },
    { header: '放电收益', width: 12, value: (r) => r.dischargeIncome },
    { header: '套利收益', width: 12, value: (r) => r.arbitrage },
    { header: '循环次数', width: 10, value: (r) => r.cycles },
    { header: '充放电效率 %', width: 12, value: (r) => r.efficiency },
    { header: '电价完整', width: 10, kind: 'label', value: (r) => (r.pricesComplete ? '是' : '否') },
  ];
  return streamXlsx(reply, { fileName: '峰谷套利明细', columns }, rows.map((r) => toDetail(r, names)), lang);
}
