import { PRICE_PERIODS } from '@ess/contract/constants';
import { PRICE_PERIOD_LABELS, type PricePeriod } from '@ess/contract/pricing';
import { PERIOD_COLORS } from '../../components/options/levels.ts';
import type { ArbitrageFeeCurve, ArbitrageQuantityCurve, CurrencyAmount, EnergyDay } from '@ess/contract/dashboard';
import type { ChartOption } from '../../components/chart/EChart.tsx';
import { emptyNote, formatNumber } from '../../components/chart/chart-options.ts';
import { formatMoney } from '../../components/number-format.ts';
import { SERIES_COLOURS } from './charts.ts';

type Translate = (source: string, ...args: unknown[]) => string;

/** An amount with its currency as the locale writes it, to the currency's minor units (components/number-format.ts). */
export { formatMoney };

/**
 * Amounts in several currencies, never added across them: "1.00 CNY · 2.00 EUR"; '-' for none.
 * `skipZero` leaves out currencies with nothing (stations of that currency lack the part), but
 * keeps one amount when all are zero.
 */
export function formatAmounts(list: readonly CurrencyAmount[] | undefined, skipZero = false): string {
  if (!list || list.length === 0) return '-';
  const shown = skipZero && list.some((a) => a.amount !== 0) ? list.filter((a) => a.amount !== 0) : skipZero ? list.slice(0, 1) : list;
  return shown.map((a) => formatMoney(a.amount, a.currency)).join(' · ');
}

/** Colours of the money parts and of the price periods (the same on every revenue chart). */
export const MONEY_COLOURS = { arbitrage: SERIES_COLOURS.storage!, pvRevenue: SERIES_COLOURS.pv!, chargingRevenue: SERIES_COLOURS.piles!, chargeCost: '#cf1322', dischargeIncome: '#1677ff' };
/** The price periods keep the colours of the price screens (hot to cold). */
export const PERIOD_COLOURS: Record<PricePeriod, string> = PERIOD_COLORS;

const kwh = (v: unknown) => (typeof v === 'number' ? `${formatNumber(v)} kWh` : '-');
const hasAny = (arrays: readonly (readonly (number | null)[])[]) => arrays.some((a) => a.some((v) => v !== null && v !== 0));

function bars(labels: readonly string[], unit: string, emptyText: string, has: boolean, series: object[], extra: Record<string, unknown> = {}): ChartOption {
  return {
    animation: false,
    grid: { left: 64, right: 24, top: 40, bottom: 32 },
    legend: { top: 0 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: unknown) => (typeof v === 'number' ? `${formatNumber(v)} ${unit}` : '-') },
    xAxis: { type: 'category', data: [...labels] },
    yAxis: { type: 'value', name: unit },
    series,
    graphic: emptyNote(has ? undefined : emptyText),
    ...extra,
  };
}

/** Revenue per bucket split into arbitrage, PV and charging (stacked), in one currency. */
export function incomeBarsOption(
  labels: readonly string[], parts: { arbitrage: readonly number[]; pvRevenue: readonly number[]; chargingRevenue: readonly number[] }, currency: string, t: Translate, emptyText: string,
): ChartOption {
  const series = (['arbitrage', 'pvRevenue', 'chargingRevenue'] as const).map((k) => ({
    id: k, type: 'bar', stack: 'money', name: t(k === 'arbitrage' ? '储能套利' : k === 'pvRevenue' ? '光伏收益' : '充电收益'),
    itemStyle: { color: MONEY_COLOURS[k] }, data: [...parts[k]], barMaxWidth: 18,
  }));
  return bars(labels, currency, emptyText, hasAny([parts.arbitrage, parts.pvRevenue, parts.chargingRevenue]), series);
}

/** Energy per day: storage charge and discharge, PV and charging piles (kWh), grouped. */
export function energyBarsOption(days: readonly EnergyDay[], t: Translate, emptyText: string, parts: { pv: boolean; piles: boolean }): ChartOption {
  const keys = [
    ['charge', '充电量', SERIES_COLOURS.grid!],
    ['discharge', '放电量', SERIES_COLOURS.storage!],
    ...(parts.pv ? [['pv', '光伏发电量', SERIES_COLOURS.pv!]] : []),
    ...(parts.piles ? [['piles', '充电桩电量', SERIES_COLOURS.piles!]] : []),
  ] as [keyof Omit<EnergyDay, 'date'>, string, string][];
  const series = keys.map(([k, name, colour]) => ({ id: k, type: 'bar', name: t(name), itemStyle: { color: colour }, data: days.map((d) => d[k]), barMaxWidth: 10 }));
  return bars(days.map((d) => d.date.slice(5)), 'kWh', emptyText, hasAny(keys.map(([k]) => days.map((d) => d[k]))), series);
}

/** Charging energy per day (kWh). */
export function pileBarsOption(days: readonly { date: string; energy: number }[], t: Translate, emptyText: string): ChartOption {
  const series = [{ id: 'energy', type: 'bar', name: t('充电量'), itemStyle: { color: SERIES_COLOURS.piles }, data: days.map((d) => d.energy), barMaxWidth: 14 }];
  return bars(days.map((d) => d.date.slice(5)), 'kWh', emptyText, hasAny([days.map((d) => d.energy)]), series);
}

/** One currency of the fee curve: what charging cost (below zero), what discharging earned, and the arbitrage line. */
export function feeCurveOption(c: ArbitrageFeeCurve | undefined, currency: string | undefined, t: Translate, emptyText: string): ChartOption {
  const cur = c?.currencies.find((x) => x.currency === currency) ?? c?.currencies[0];
  const unit = cur?.currency ?? '';
  const series = cur
    ? [
        { id: 'dischargeIncome', type: 'bar', stack: 'fee', name: t('放电收入'), itemStyle: { color: MONEY_COLOURS.dischargeIncome }, data: cur.dischargeIncome, barMaxWidth: 18 },
        { id: 'chargeCost', type: 'bar', stack: 'fee', name: t('充电成本'), itemStyle: { color: MONEY_COLOURS.chargeCost }, data: cur.chargeCost.map((v) => -v), barMaxWidth: 18 },
        { id: 'arbitrage', type: 'line', name: t('套利收益'), itemStyle: { color: MONEY_COLOURS.arbitrage }, lineStyle: { width: 2 }, data: cur.arbitrage, symbolSize: 4 },
      ]
    : [];
  return bars(c?.labels ?? [], unit, emptyText, !!cur && hasAny([cur.chargeCost, cur.dischargeIncome]), series);
}

/**
 * kWh per bucket by price period: charge (stacked by period) beside discharge (stacked by period),
 * and the round-trip efficiency (%) on a second axis. Periods never used in the range are left out.
 */
export function quantityCurveOption(q: ArbitrageQuantityCurve | undefined, t: Translate, emptyText: string): ChartOption {
  const used = PRICE_PERIODS.filter((p) => q && (q.chargeByPeriod[p].some((v) => v !== 0) || q.dischargeByPeriod[p].some((v) => v !== 0)));
  const way = (kind: 'charge' | 'discharge') =>
    used.map((p) => ({
      id: `${kind}-${p}`, type: 'bar', stack: kind, name: t(kind === 'charge' ? '充电-$1' : '放电-$1', t(PRICE_PERIOD_LABELS[p])),
      // Charge in the period's colour, lighter; discharge in full.
      itemStyle: { color: PERIOD_COLOURS[p], opacity: kind === 'charge' ? 0.5 : 1 },
      tooltip: { valueFormatter: kwh },
      data: q![kind === 'charge' ? 'chargeByPeriod' : 'dischargeByPeriod'][p], barMaxWidth: 14,
    }));
  const series = [
    ...way('charge'),
    ...way('discharge'),
    ...(q ? [{ id: 'efficiency', type: 'line', yAxisIndex: 1, name: t('充放电效率'), itemStyle: { color: '#722ed1' }, data: q.efficiency, connectNulls: false, symbolSize: 4,
      tooltip: { valueFormatter: (v: unknown) => (typeof v === 'number' ? `${formatNumber(v)}%` : '-') } }] : []),
  ];
  const base = bars(q?.labels ?? [], 'kWh', emptyText, !!q && hasAny([q.charge, q.discharge]), series) as Record<string, unknown>;
  return {
    ...base,
    grid: { left: 64, right: 56, top: 64, bottom: 32 },
    legend: { top: 0, type: 'scroll' },
    yAxis: [{ type: 'value', name: 'kWh' }, { type: 'value', name: '%', min: 0, max: 100, splitLine: { show: false } }],
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
  };
}
