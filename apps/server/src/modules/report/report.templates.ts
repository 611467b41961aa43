import { inArray } from 'drizzle-orm';
import { ALARM_LEVEL_LABELS, ALARM_TYPE_LABELS, PRICE_PERIODS, PRICE_PERIOD_LABELS, daysBetween, localDayStart, todayIn, type AlarmRecord } from '@ess/contract';
import { STATEMENT_STATE_LABELS, type StatementRecord } from '@ess/contract/statement';
import type { ReportChart, ReportColumn, ReportFigure, ReportParams, ReportTemplate } from '@ess/contract/report';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { site } from '../../db/schema/site.ts';
import { alarmPage } from '../alarm/index.ts';
import { siteOverview, sitePerformance, sitePowerData } from '../comprehensive/index.ts';
import { arbitrageFeeCurve, arbitrageQuantityCurve, arbitrageSummary, siteEarningsChart } from '../dashboard/index.ts';
import { analysisInfo, monthlyBrief } from '../demand/index.ts';
import { overviewService, overviewStatistic } from '../maintenance/index.ts';
import { add, dec, fixed, statementPageOf } from '../statement/index.ts';

/**
 * The shipped report templates. Each builds its figures, tables and charts by calling the very
 * service that answers the screen it summarises (decision 0050): nothing here reads a table of
 * another domain or recomputes a figure another way; it only adds up per-station answers and
 * lays them out.
 */

export type Cell = number | string | null;
export type Row = Record<string, Cell>;
export interface FullTable {
  key: string;
  title: string;
  columns: ReportColumn[];
  rows: Row[];
}
export interface Station {
  id: number;
  name: string;
  timeZone: string;
}
export interface Built {
  figures: ReportFigure[];
  tables: FullTable[];
  charts: ReportChart[];
}

// Source texts (the language packs translate them).
export const RT = {
  station: '站点',
  period: '时间',
  currency: '币种',
  charge: '充电量',
  discharge: '放电量',
  efficiency: '充放电效率',
  cycles: '循环次数',
  stations: '站点数',
  chargeCost: '充电成本',
  dischargeIncome: '放电收入',
  arbitrage: '套利收益',
  arbitrageOf: '套利收益 ($1)',
  byPeriod: '按时间统计',
  byStation: '按站点统计',
  byPricePeriod: '按电价时段统计',
  pricePeriod: '电价时段',
  energyChart: '充放电量',
  feeChart: '收益趋势 ($1)',
  count: '数量',
  level: '告警等级',
  alarmType: '告警类型',
  device: '设备',
  fault: '故障',
  code: '编码',
  alarms: '告警总数',
  open: '未结束',
  ended: '已结束',
  meanDuration: '平均持续时长',
  byLevel: '按等级统计',
  byType: '按类型统计',
  byDevice: '按设备统计',
  topFaults: '高发故障',
  inspectionCreated: '巡检工单创建',
  inspectionCompleted: '巡检工单完成',
  repairCreated: '维修工单创建',
  repairCompleted: '维修工单完成',
  defectsFound: '发现缺陷',
  mtt: '告警工单响应与修复',
  month: '月份',
  orders: '工单数',
  mtta: '平均响应时长',
  mttr: '平均修复时长',
  orderChart: '工单趋势',
  maxDemand: '最大需量',
  target: '目标需量',
  headroom: '需量余量',
  exceeded: '超目标',
  demandPrice: '需量电价',
  demandCharge: '需量电费',
  demandChargeOf: '需量电费 ($1)',
  demandChart: '月最大需量',
  yes: '是',
  no: '否',
  statementCode: '结算单号',
  state: '状态',
  storageRevenue: '储能收益',
  pvRevenue: '光伏收益',
  pileRevenue: '充电桩收益',
  totalRevenue: '总收益',
  totalRevenueOf: '总收益 ($1)',
  investorAmount: '投资方分成',
  statements: '结算单数',
  minutes: 'min',
  pv: '光伏发电量',
  piles: '充电桩用电量',
  load: '负荷用电量',
  gridImport: '购电量',
  gridExport: '上网电量',
  availability: '可用率',
  socMin: 'SOC 最低',
  socMax: 'SOC 最高',
  chargingRevenue: '充电收益',
  pvRevenueOf: '光伏收益 ($1)',
  chargingRevenueOf: '充电收益 ($1)',
  completed: '已完成',
  onTime: '按时完成',
  onTimeRate: '按时完成率',
  shaved: '削减需量',
  saving: '节省需量电费',
  savingOf: '节省需量电费 ($1)',
} as const;

const col = (key: string, title: string, o: Partial<Omit<ReportColumn, 'key' | 'title'>> = {}): ReportColumn => ({
  key, title, unit: o.unit ?? null, kind: o.kind ?? (o.decimals !== undefined ? 'number' : 'text'), decimals: o.decimals ?? null, sum: o.sum ?? false,
});
const fig = (key: string, label: string, value: number | null, unit: string | null, decimals: number, args: string[] = []): ReportFigure => ({ key, label, args, value, unit, decimals });
const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;
const stationCol = col('station', RT.station, { kind: 'name' });

/** Months (YYYY-MM) from the start's to the end's. */
export function monthsOf(start: string, end: string): string[] {
  const out: string[] = [];
  let [y, m] = start.slice(0, 7).split('-').map(Number) as [number, number];
  const last = end.slice(0, 7);
  for (let k = `${start.slice(0, 7)}`; k <= last; ) {
    out.push(k);
    m += 1;
    if (m > 12) { m = 1; y += 1; }
    k = `${y}-${String(m).padStart(2, '0')}`;
  }
  return out;
}

// ── Station operations ─────────────────────────────────────────────────────────────────
// Charge, discharge, efficiency and cycles: the energy-arbitrage overview. PV, piles, load and
// grid energy: the station overview of each date (/comprehensive/site/overview?date); availability:
// the storage performance of each date (/comprehensive/site/performance?date); the SOC range: the
// lowest and highest point of the station's SOC curve of each date (/comprehensive/site/powerData?date).

const ENERGY_KEYS = ['pv', 'piles', 'load', 'gridImport', 'gridExport'] as const;
type EnergyKey = (typeof ENERGY_KEYS)[number];
type DayFigures = Record<EnergyKey | 'availability' | 'socMin' | 'socMax', number | null>;
/** One station's figures of each station-local date of the report, up to its today. */
export interface StationDay extends DayFigures {
  date: string;
}

/** The report's dates of one station that have begun (up to the station's local today). */
export function datesOf(s: Station, p: Pick<ReportParams, 'start' | 'end'>): string[] {
  const today = todayIn(s.timeZone);
  const out: string[] = [];
  for (let d = p.start; d <= p.end && d <= today; d = nextDay(d)) out.push(d);
  return out;
}

/** The screens' figures of each date of one station (three calls a date, the dates one after another). */
async function stationDays(ctx: AppContext, user: AuthUser, s: Station, p: ReportParams): Promise<StationDay[]> {
  const out: StationDay[] = [];
  for (const date of datesOf(s, p)) {
    const q = { siteId: s.id, date };
    const [ov, perf, curves] = await Promise.all([siteOverview(ctx, user, q), sitePerformance(ctx, user, q), sitePowerData(ctx, user, q)]);
    const soc = (curves.series.find((x) => x.key === 'soc')?.points ?? []).map(([, v]) => v).filter((v): v is number => v !== null);
    out.push({
      date, ...Object.fromEntries(ENERGY_KEYS.map((k) => [k, ov.day[k]])) as Record<EnergyKey, number | null>,
      availability: perf.availability, socMin: soc.length ? Math.min(...soc) : null, socMax: soc.length ? Math.max(...soc) : null,
    });
  }
  return out;
}

const present = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null);
/** Energy summed (null when no day reported it), availability the mean of the days', the SOC's extremes. */
export function combineDays(days: readonly DayFigures[]): DayFigures {
  const sumOf = (k: EnergyKey) => (present(days.map((d) => d[k])).length ? round(present(days.map((d) => d[k])).reduce((a, b) => a + b, 0), 3) : null);
  const av = present(days.map((d) => d.availability));
  const lo = present(days.map((d) => d.socMin));
  const hi = present(days.map((d) => d.socMax));
  return {
    ...Object.fromEntries(ENERGY_KEYS.map((k) => [k, sumOf(k)])) as Record<EnergyKey, number | null>,
    availability: av.length ? round(av.reduce((a, b) => a + b, 0) / av.length, 2) : null,
    socMin: lo.length ? Math.min(...lo) : null,
    socMax: hi.length ? Math.max(...hi) : null,
  };
}

const energyCols = () => ENERGY_KEYS.map((k) => col(k, RT[k], { unit: 'kWh', decimals: 3, sum: true }));
const stateCols = () => [col('availability', RT.availability, { unit: '%', decimals: 2 }), col('socMin', RT.socMin, { unit: '%', decimals: 2 }), col('socMax', RT.socMax, { unit: '%', decimals: 2 })];

async function operations(ctx: AppContext, user: AuthUser, p: ReportParams, stations: Station[]): Promise<Built> {
  if (daysBetween(p.start, p.end) > 366) throw new AppError('INVALID_PARAM', '运行报表的时间范围不能超过366天');
  const f = { siteIds: stations.map((s) => s.id), start: p.start, end: p.end, bucket: p.granularity };
  const [sum, curve, per, days] = await Promise.all([
    arbitrageSummary(ctx, user, f),
    arbitrageQuantityCurve(ctx, user, f),
    Promise.all(stations.map((s) => arbitrageSummary(ctx, user, { siteIds: [s.id], start: p.start, end: p.end }))),
    Promise.all(stations.map((s) => stationDays(ctx, user, s, p))),
  ]);
  const bucketOf = (date: string) => (p.granularity === 'day' ? date : date.slice(0, 7));
  const byBucket = curve.labels.map((l) => combineDays(days.flat().filter((d) => bucketOf(d.date) === l)));
  const perStation = days.map((d) => combineDays(d));
  const all = combineDays(days.flat());
  return {
    figures: [
      fig('stations', RT.stations, sum.stationCount, null, 0),
      fig('charge', RT.charge, sum.charge, 'kWh', 3),
      fig('discharge', RT.discharge, sum.discharge, 'kWh', 3),
      fig('efficiency', RT.efficiency, sum.efficiency, '%', 2),
      fig('cycles', RT.cycles, sum.cycles, null, 4),
      ...ENERGY_KEYS.map((k) => fig(k, RT[k], all[k], 'kWh', 3)),
      fig('availability', RT.availability, all.availability, '%', 2),
      fig('socMin', RT.socMin, all.socMin, '%', 2),
      fig('socMax', RT.socMax, all.socMax, '%', 2),
    ],
    tables: [
      {
        key: 'byPeriod', title: RT.byPeriod,
        columns: [col('period', RT.period), col('charge', RT.charge, { unit: 'kWh', decimals: 3, sum: true }), col('discharge', RT.discharge, { unit: 'kWh', decimals: 3, sum: true }), col('efficiency', RT.efficiency, { unit: '%', decimals: 2 }), ...energyCols(), ...stateCols()],
        rows: curve.labels.map((l, i) => ({ period: l, charge: curve.charge[i] ?? 0, discharge: curve.discharge[i] ?? 0, efficiency: curve.efficiency[i] ?? null, ...byBucket[i]! })),
      },
      {
        key: 'byStation', title: RT.byStation,
        columns: [stationCol, col('charge', RT.charge, { unit: 'kWh', decimals: 3, sum: true }), col('discharge', RT.discharge, { unit: 'kWh', decimals: 3, sum: true }), col('efficiency', RT.efficiency, { unit: '%', decimals: 2 }), col('cycles', RT.cycles, { decimals: 4 }), ...energyCols(), ...stateCols()],
        rows: stations.map((s, i) => ({ station: s.name, charge: per[i]!.charge, discharge: per[i]!.discharge, efficiency: per[i]!.efficiency, cycles: per[i]!.cycles, ...perStation[i]! })),
      },
      {
        key: 'byPricePeriod', title: RT.byPricePeriod,
        columns: [col('pricePeriod', RT.pricePeriod, { kind: 'label' }), col('charge', RT.charge, { unit: 'kWh', decimals: 3, sum: true }), col('discharge', RT.discharge, { unit: 'kWh', decimals: 3, sum: true })],
        rows: PRICE_PERIODS.map((pp) => ({ pricePeriod: PRICE_PERIOD_LABELS[pp], charge: sum.chargeByPeriod[pp], discharge: sum.dischargeByPeriod[pp] })),
      },
    ],
    charts: [{
      key: 'energy', title: RT.energyChart, kind: 'bar', labels: curve.labels,
      series: [
        { name: RT.charge, unit: 'kWh', data: curve.charge }, { name: RT.discharge, unit: 'kWh', data: curve.discharge },
        ...ENERGY_KEYS.filter((k) => all[k] !== null).map((k) => ({ name: RT[k], unit: 'kWh', data: byBucket.map((b) => b[k]) })),
      ],
    }],
  };
}

// ── Revenue: the energy-arbitrage overview's money, with the PV and charging revenue of the
// station's earnings chart (/comprehensive/site/overview/earnings/chart, per day of each month) ──

interface StationEarnings {
  currency: string;
  /** Per report date in the period: [date, PV revenue, charging revenue]. */
  days: [string, number, number][];
}

/** One station's PV and charging revenue of each report date, from its earnings chart of each month. */
export async function stationEarnings(ctx: AppContext, user: AuthUser, s: Station, p: Pick<ReportParams, 'start' | 'end'>): Promise<StationEarnings> {
  const thisMonth = todayIn(s.timeZone).slice(0, 7);
  const out: StationEarnings = { currency: '', days: [] };
  for (const m of monthsOf(p.start, p.end).filter((x) => x <= thisMonth)) {
    const c = await siteEarningsChart(ctx, user, { siteId: s.id, type: 'month', date: `${m}-01` });
    out.currency = c.currency;
    c.labels.forEach((l, i) => {
      const date = `${m.slice(0, 4)}-${l}`;
      if (date >= p.start && date <= p.end) out.days.push([date, c.pvRevenue[i] ?? 0, c.chargingRevenue[i] ?? 0]);
    });
  }
  return out;
}

const cents = (v: number) => Math.round(v * 100) / 100 || 0;

async function revenue(ctx: AppContext, user: AuthUser, p: ReportParams, stations: Station[]): Promise<Built> {
  const f = { siteIds: stations.map((s) => s.id), start: p.start, end: p.end, bucket: p.granularity };
  const [sum, fee, per, earn] = await Promise.all([
    arbitrageSummary(ctx, user, f),
    arbitrageFeeCurve(ctx, user, f),
    Promise.all(stations.map((s) => arbitrageSummary(ctx, user, { siteIds: [s.id], start: p.start, end: p.end }))),
    Promise.all(stations.map((s) => stationEarnings(ctx, user, s, p))),
  ]);
  const keep = (c: string) => !p.currency || c === p.currency;
  const rows: Row[] = [];
  stations.forEach((s, i) => {
    const e = earn[i]!;
    const pv = cents(e.days.reduce((a, d) => a + d[1], 0));
    const charging = cents(e.days.reduce((a, d) => a + d[2], 0));
    const money = per[i]!.money.filter((x) => keep(x.currency));
    if (e.days.length && keep(e.currency) && !money.some((m) => m.currency === e.currency)) money.push({ currency: e.currency, chargeCost: 0, dischargeIncome: 0, arbitrage: 0 });
    for (const m of money) {
      const own = m.currency === e.currency;
      const pvRevenue = own ? pv : 0;
      const chargingRevenue = own ? charging : 0;
      rows.push({
        station: s.name, currency: m.currency, chargeCost: m.chargeCost, dischargeIncome: m.dischargeIncome, arbitrage: m.arbitrage,
        pvRevenue, chargingRevenue, totalRevenue: cents(m.arbitrage + pvRevenue + chargingRevenue),
      });
    }
  });
  // Per currency: the overview's arbitrage, the stations' PV and charging revenue added up.
  const currencies = [...new Set([...sum.money.map((m) => m.currency), ...rows.map((r) => r.currency as string)])].filter(keep).sort();
  const byCurrency = currencies.map((currency) => {
    const m = sum.money.find((x) => x.currency === currency) ?? { chargeCost: 0, dischargeIncome: 0, arbitrage: 0 };
    const mine = rows.filter((r) => r.currency === currency);
    const pvRevenue = cents(mine.reduce((a, r) => a + (r.pvRevenue as number), 0));
    const chargingRevenue = cents(mine.reduce((a, r) => a + (r.chargingRevenue as number), 0));
    return { currency, chargeCost: m.chargeCost, dischargeIncome: m.dischargeIncome, arbitrage: m.arbitrage, pvRevenue, chargingRevenue, totalRevenue: cents(m.arbitrage + pvRevenue + chargingRevenue) };
  });
  const single = new Set(rows.map((r) => r.currency)).size <= 1;
  const moneyCols = (total: boolean) => [
    col('chargeCost', RT.chargeCost, { decimals: 2, sum: total }), col('dischargeIncome', RT.dischargeIncome, { decimals: 2, sum: total }), col('arbitrage', RT.arbitrage, { decimals: 2, sum: total }),
    col('pvRevenue', RT.pvRevenue, { decimals: 2, sum: total }), col('chargingRevenue', RT.chargingRevenue, { decimals: 2, sum: total }), col('totalRevenue', RT.totalRevenue, { decimals: 2, sum: total }),
  ];
  return {
    figures: [
      fig('stations', RT.stations, sum.stationCount, null, 0),
      ...byCurrency.flatMap((m) => [
        fig(`arbitrage.${m.currency}`, RT.arbitrageOf, m.arbitrage, m.currency, 2, [m.currency]),
        fig(`pvRevenue.${m.currency}`, RT.pvRevenueOf, m.pvRevenue, m.currency, 2, [m.currency]),
        fig(`chargingRevenue.${m.currency}`, RT.chargingRevenueOf, m.chargingRevenue, m.currency, 2, [m.currency]),
        fig(`total.${m.currency}`, RT.totalRevenueOf, m.totalRevenue, m.currency, 2, [m.currency]),
      ]),
    ],
    tables: [
      { key: 'byStation', title: RT.byStation, columns: [stationCol, col('currency', RT.currency), ...moneyCols(single)], rows },
      { key: 'byCurrency', title: RT.currency, columns: [col('currency', RT.currency), ...moneyCols(false)], rows: byCurrency },
    ],
    charts: fee.currencies.filter((c) => keep(c.currency)).map((c) => ({
      key: `fee.${c.currency}`, title: RT.feeChart, kind: 'line' as const, labels: fee.labels,
      series: [
        { name: RT.chargeCost, unit: c.currency, data: c.chargeCost },
        { name: RT.dischargeIncome, unit: c.currency, data: c.dischargeIncome },
        { name: RT.arbitrage, unit: c.currency, data: c.arbitrage },
        ...(['pvRevenue', 'chargingRevenue'] as const).map((k) => ({
          name: RT[k], unit: c.currency,
          data: fee.labels.map((l) => cents(earn.filter((e) => e.currency === c.currency).flatMap((e) => e.days).filter(([d]) => (p.granularity === 'day' ? d : d.slice(0, 7)) === l).reduce((a, d) => a + d[k === 'pvRevenue' ? 1 : 2], 0))),
        })),
      ],
    })),
  };
}

// ── Alarms: the alarm monitor's list (every page), counted ─────────────────────────────

/** The date after a station-local date. */
function nextDay(d: string): string {
  return new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** The instants the alarm monitor is called with for a station and the report's station-local dates (tests compare with it). */
export function alarmRange(s: Station, p: Pick<ReportParams, 'start' | 'end'>) {
  return { start: new Date(localDayStart(s.timeZone, p.start)), end: new Date(localDayStart(s.timeZone, nextDay(p.end))) };
}

/** Every alarm of one station raised in the station-local dates, through the monitor's paged call. */
async function stationAlarms(ctx: AppContext, user: AuthUser, s: Station, p: ReportParams): Promise<AlarmRecord[]> {
  const out: AlarmRecord[] = [];
  for (let current = 1; ; current++) {
    const page = await alarmPage(ctx, user, { siteId: s.id, ...alarmRange(s, p), current, pageSize: 500 });
    out.push(...page.records);
    if (out.length >= page.total || page.records.length === 0) return out;
  }
}

function countBy<T>(items: T[], key: (t: T) => string): [string, number][] {
  const m = new Map<string, number>();
  for (const i of items) m.set(key(i), (m.get(key(i)) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/**
 * MTTA and MTTR of the stations' alarms: alarms carry no acknowledgement of their own; the
 * response to one is its repair order (DOMAIN.md §5: MTTA = alarm start → order accepted, MTTR =
 * alarm start → completed), which the work-order overview answers per station and month.
 */
export function mttOf(rows: readonly { orders: number; mttaMinutes: number | null; mttrMinutes: number | null }[]) {
  const mean = (k: 'mttaMinutes' | 'mttrMinutes') => {
    const xs = rows.filter((r) => r[k] !== null);
    const n = xs.reduce((a, r) => a + r.orders, 0);
    return n ? round(xs.reduce((a, r) => a + r[k]! * r.orders, 0) / n, 1) : null;
  };
  return { mtta: mean('mttaMinutes'), mttr: mean('mttrMinutes') };
}
const mttTable = (rows: Row[]): FullTable => ({
  key: 'mtt', title: RT.mtt,
  columns: [stationCol, col('month', RT.month), col('orders', RT.orders, { decimals: 0, sum: true }), col('mtta', RT.mtta, { unit: RT.minutes, decimals: 1 }), col('mttr', RT.mttr, { unit: RT.minutes, decimals: 1 })],
  rows,
});

async function alarms(ctx: AppContext, user: AuthUser, p: ReportParams, stations: Station[]): Promise<Built> {
  if (daysBetween(p.start, p.end) > 366) throw new AppError('INVALID_PARAM', '告警报表的时间范围不能超过366天');
  const [per, orders] = await Promise.all([
    Promise.all(stations.map((s) => stationAlarms(ctx, user, s, p))),
    Promise.all(stations.map((s) => overviewStatistic(ctx, user, { siteId: s.id, from: p.start, to: p.end, bucket: 'month' }))),
  ]);
  const mttRows = orders.flatMap((st) => st.mtt);
  const mtt = mttOf(mttRows);
  const all = per.flat();
  const ended = all.filter((a) => a.endedAt !== null);
  const mean = ended.length ? round(ended.reduce((a, x) => a + x.durationMs, 0) / ended.length / 60_000, 1) : null;
  const countCol = col('count', RT.count, { decimals: 0, sum: true });
  return {
    figures: [
      fig('alarms', RT.alarms, all.length, null, 0),
      fig('open', RT.open, all.length - ended.length, null, 0),
      fig('ended', RT.ended, ended.length, null, 0),
      fig('meanDuration', RT.meanDuration, mean, RT.minutes, 1),
      fig('mtta', RT.mtta, mtt.mtta, RT.minutes, 1),
      fig('mttr', RT.mttr, mtt.mttr, RT.minutes, 1),
    ],
    tables: [
      {
        key: 'byStation', title: RT.byStation, columns: [stationCol, countCol],
        rows: stations.map((s, i) => ({ station: s.name, count: per[i]!.length })),
      },
      {
        key: 'byLevel', title: RT.byLevel, columns: [col('level', RT.level, { kind: 'label' }), countCol],
        rows: countBy(all, (a) => String(a.level)).sort((a, b) => Number(a[0]) - Number(b[0])).map(([l, n]) => ({ level: ALARM_LEVEL_LABELS[Number(l) as keyof typeof ALARM_LEVEL_LABELS] ?? l, count: n })),
      },
      {
        key: 'byType', title: RT.byType, columns: [col('alarmType', RT.alarmType, { kind: 'label' }), countCol],
        rows: countBy(all, (a) => a.alarmType).map(([k, n]) => ({ alarmType: ALARM_TYPE_LABELS[k as AlarmRecord['alarmType']] ?? k, count: n })),
      },
      {
        key: 'byDevice', title: RT.byDevice, columns: [stationCol, col('device', RT.device, { kind: 'name' }), countCol],
        rows: countBy(all, (a) => `${a.siteName}\u0000${a.deviceName}`).map(([k, n]) => ({ station: k.split('\u0000')[0]!, device: k.split('\u0000')[1]!, count: n })),
      },
      // The 20 most frequent: no total row (it would not be the alarms' total).
      {
        key: 'topFaults', title: RT.topFaults, columns: [col('code', RT.code), col('fault', RT.fault, { kind: 'name' }), col('count', RT.count, { decimals: 0 })],
        rows: countBy(all, (a) => `${a.code}\u0000${a.description}`).slice(0, 20).map(([k, n]) => ({ code: k.split('\u0000')[0]!, fault: k.split('\u0000')[1]!, count: n })),
      },
      mttTable(mttRows.map((m) => ({ station: m.siteName, month: m.month, orders: m.orders, mtta: m.mttaMinutes, mttr: m.mttrMinutes }))),
    ],
    charts: [{
      key: 'byStation', title: RT.byStation, kind: 'bar', labels: stations.map((s) => s.name),
      series: [{ name: RT.alarms, unit: null, data: per.map((a) => a.length) }],
    }],
  };
}

// ── Maintenance: the work-order overview's statistic per station, added up ──────────────

const ORDER_KEYS = ['inspectionCreated', 'inspectionCompleted', 'repairCreated', 'repairCompleted', 'defectsFound'] as const;

async function maintenance(ctx: AppContext, user: AuthUser, p: ReportParams, stations: Station[]): Promise<Built> {
  if (daysBetween(p.start, p.end) > 366) throw new AppError('INVALID_PARAM', '运维报表的时间范围不能超过366天');
  const [per, service] = await Promise.all([
    Promise.all(stations.map((s) => overviewStatistic(ctx, user, { siteId: s.id, from: p.start, to: p.end, bucket: p.granularity }))),
    // On time: the work-order overview's service per assignee (/inspection/overview/service), per station.
    Promise.all(stations.map((s) => overviewService(ctx, user, { siteId: s.id, from: p.start, to: p.end }))),
  ]);
  const onTime = service.map((list) => ({ completed: list.reduce((a, x) => a + x.completed, 0), onTime: list.reduce((a, x) => a + x.onTime, 0) }));
  const rate = (o: { completed: number; onTime: number }) => (o.completed ? round((o.onTime / o.completed) * 100, 1) : null);
  const allOnTime = { completed: onTime.reduce((a, x) => a + x.completed, 0), onTime: onTime.reduce((a, x) => a + x.onTime, 0) };
  const mtt = mttOf(per.flatMap((st) => st.mtt));
  const labels = per[0]?.points.map((x) => x.date) ?? [];
  const series = Object.fromEntries(ORDER_KEYS.map((k) => [k, labels.map((_, i) => per.reduce((a, st) => a + (st.points[i]?.[k] ?? 0), 0))])) as Record<(typeof ORDER_KEYS)[number], number[]>;
  const total = (k: (typeof ORDER_KEYS)[number]) => series[k].reduce((a, b) => a + b, 0);
  const countCols = ORDER_KEYS.map((k) => col(k, RT[k], { decimals: 0, sum: true }));
  return {
    figures: [
      ...ORDER_KEYS.map((k) => fig(k, RT[k], total(k), null, 0)),
      fig('onTimeRate', RT.onTimeRate, rate(allOnTime), '%', 1),
      fig('mtta', RT.mtta, mtt.mtta, RT.minutes, 1),
      fig('mttr', RT.mttr, mtt.mttr, RT.minutes, 1),
    ],
    tables: [
      { key: 'byPeriod', title: RT.byPeriod, columns: [col('period', RT.period), ...countCols], rows: labels.map((l, i) => ({ period: l, ...Object.fromEntries(ORDER_KEYS.map((k) => [k, series[k][i]!])) })) },
      {
        key: 'byStation', title: RT.byStation,
        columns: [stationCol, ...countCols, col('completed', RT.completed, { decimals: 0, sum: true }), col('onTime', RT.onTime, { decimals: 0, sum: true }), col('onTimeRate', RT.onTimeRate, { unit: '%', decimals: 1 })],
        rows: stations.map((s, i) => ({
          station: s.name, ...Object.fromEntries(ORDER_KEYS.map((k) => [k, per[i]!.points.reduce((a, x) => a + x[k], 0)])),
          completed: onTime[i]!.completed, onTime: onTime[i]!.onTime, onTimeRate: rate(onTime[i]!),
        })),
      },
      mttTable(per.flatMap((st) => st.mtt.map((m) => ({ station: m.siteName, month: m.month, orders: m.orders, mtta: m.mttaMinutes, mttr: m.mttrMinutes })))),
    ],
    charts: [{ key: 'orders', title: RT.orderChart, kind: 'bar', labels, series: ORDER_KEYS.map((k) => ({ name: RT[k], unit: null, data: series[k] })) }],
  };
}

// ── Demand: demand tracking's month card per station and month ─────────────────────────

async function demand(ctx: AppContext, user: AuthUser, p: ReportParams, stations: Station[]): Promise<Built> {
  const months = monthsOf(p.start, p.end);
  const per = await Promise.all(stations.map(async (s) => {
    const thisMonth = todayIn(s.timeZone).slice(0, 7);
    // Savings: demand analysis of the month (/demand/analysis/info): what storage shaved and saved.
    return Promise.all(months.filter((m) => m <= thisMonth).map(async (m) => ({ ...await monthlyBrief(ctx, user, s.id, m), analysis: await analysisInfo(ctx, user, s.id, m) })));
  }));
  const rows: Row[] = per.flat().filter((b) => !p.currency || b.currency === p.currency).map((b) => ({
    station: b.siteName, month: b.month, maxDemand: b.maxDemandKw, target: b.targetKw, headroom: b.headroomKw, exceeded: b.exceeded ? RT.yes : RT.no,
    currency: b.currency, demandPrice: b.demandPrice === null ? null : Number(b.demandPrice), demandCharge: b.demandCharge === null ? null : Number(b.demandCharge),
    shaved: b.analysis.shavedKw, saving: b.analysis.saving === null ? null : Number(b.analysis.saving),
  }));
  const charges = new Map<string, string>();
  const savings = new Map<string, string>();
  for (const b of per.flat()) {
    if (p.currency && b.currency !== p.currency) continue;
    if (b.demandCharge !== null) charges.set(b.currency, fixed(add(dec(charges.get(b.currency) ?? '0'), dec(b.demandCharge)), 2));
    if (b.analysis.saving !== null) savings.set(b.currency, fixed(add(dec(savings.get(b.currency) ?? '0'), dec(b.analysis.saving)), 2));
  }
  const single = new Set(rows.map((r) => r.currency)).size <= 1;
  return {
    figures: [
      fig('maxDemand', RT.maxDemand, rows.reduce<number | null>((a, r) => (typeof r.maxDemand === 'number' && (a === null || r.maxDemand > a) ? r.maxDemand : a), null), 'kW', 3),
      ...[...charges].map(([c, v]) => fig(`demandCharge.${c}`, RT.demandChargeOf, Number(v), c, 2, [c])),
      ...[...savings].map(([c, v]) => fig(`saving.${c}`, RT.savingOf, Number(v), c, 2, [c])),
    ],
    tables: [{
      key: 'byMonth', title: RT.byStation,
      columns: [
        stationCol, col('month', RT.month), col('maxDemand', RT.maxDemand, { unit: 'kW', decimals: 3 }), col('target', RT.target, { unit: 'kW', decimals: 3 }),
        col('headroom', RT.headroom, { unit: 'kW', decimals: 3 }), col('exceeded', RT.exceeded, { kind: 'label' }), col('currency', RT.currency),
        col('demandPrice', RT.demandPrice, { decimals: 4 }), col('demandCharge', RT.demandCharge, { decimals: 2, sum: single }),
        col('shaved', RT.shaved, { unit: 'kW', decimals: 3 }), col('saving', RT.saving, { decimals: 2, sum: single }),
      ],
      rows,
    }],
    charts: [{
      key: 'maxDemand', title: RT.demandChart, kind: 'line', labels: months,
      series: stations.map((s, i) => ({ name: s.name, unit: 'kW', data: months.map((m) => per[i]!.find((b) => b.month === m)?.maxDemandKw ?? null) })),
    }],
  };
}

// ── Statement summary: the statements of the stations and months ──────────────────────

async function statements(ctx: AppContext, user: AuthUser, p: ReportParams, stations: Station[]): Promise<Built> {
  const all: StatementRecord[] = [];
  for (const s of stations) {
    for (let current = 1; ; current++) {
      const page = await statementPageOf(ctx, user, { siteId: s.id, monthFrom: p.start.slice(0, 7), monthTo: p.end.slice(0, 7), current, pageSize: 500, sortField: 'month', sortOrder: 'asc' });
      all.push(...page.records);
      if (page.records.length === 0 || current * 500 >= page.total) break;
    }
  }
  const list = all.filter((r) => !p.currency || r.currency === p.currency);
  const totals = new Map<string, string>();
  for (const r of list) totals.set(r.currency, fixed(add(dec(totals.get(r.currency) ?? '0'), dec(r.totalRevenue)), 2));
  const single = new Set(list.map((r) => r.currency)).size <= 1;
  const money = (key: string, title: string) => col(key, title, { decimals: 2, sum: single });
  return {
    figures: [fig('statements', RT.statements, list.length, null, 0), ...[...totals].map(([c, v]) => fig(`total.${c}`, RT.totalRevenueOf, Number(v), c, 2, [c]))],
    tables: [{
      key: 'statements', title: RT.statements,
      columns: [
        col('code', RT.statementCode), stationCol, col('month', RT.month), col('state', RT.state, { kind: 'label' }), col('currency', RT.currency),
        col('charge', RT.charge, { unit: 'kWh', decimals: 3, sum: true }), col('discharge', RT.discharge, { unit: 'kWh', decimals: 3, sum: true }),
        money('storageRevenue', RT.storageRevenue), money('pvRevenue', RT.pvRevenue), money('pileRevenue', RT.pileRevenue), money('totalRevenue', RT.totalRevenue), money('investorAmount', RT.investorAmount),
      ],
      rows: list.map((r) => ({
        code: r.code, station: r.siteName, month: r.month, state: STATEMENT_STATE_LABELS[r.state], currency: r.currency,
        charge: Number(r.chargeEnergy), discharge: Number(r.dischargeEnergy), storageRevenue: Number(r.storageRevenue), pvRevenue: Number(r.pvRevenue),
        pileRevenue: Number(r.pileRevenue), totalRevenue: Number(r.totalRevenue), investorAmount: Number(r.investorAmount),
      })),
    }],
    charts: [],
  };
}

export const TEMPLATES: Record<ReportTemplate, (ctx: AppContext, user: AuthUser, p: ReportParams, stations: Station[]) => Promise<Built>> = {
  operations,
  revenue,
  alarm: alarms,
  maintenance,
  demand,
  statement: statements,
};

/** The stations named, in the caller's scope (a foreign one is refused by the services, 403), in the order given. */
export async function stationsOf(ctx: AppContext, ids: number[]): Promise<Station[]> {
  const rows = await ctx.db.select({ id: site.id, name: site.name, timeZone: site.timeZone }).from(site).where(inArray(site.id, ids));
  const by = new Map(rows.map((r) => [r.id, r]));
  return [...new Set(ids)].map((id) => by.get(id)).filter((s): s is Station => s !== undefined);
}
