import { PRICE_PERIODS, type PeriodValues, type PricePeriod } from '@ess/contract';
import type { DayTariff } from '../pricing/index.ts';

/**
 * The money of one station-day from its energy per price period and the day's prices
 * (DOMAIN.md §2), without the database: revenue.engine.ts reads the energy and stores the result.
 * Money is settled to the cent per station and day; the parts are rounded first and the totals
 * are sums of the rounded parts, so a screen's sum of parts always equals its total.
 */

/** Energy of a station-day per price period, kWh; null where the station cannot measure it. */
export interface DayEnergy {
  charge: PeriodValues | null;
  discharge: PeriodValues | null;
  pv: PeriodValues | null;
  /** Main meter reverse (export to the grid). */
  gridExport: PeriodValues | null;
  piles: PeriodValues | null;
}

/** What the cycle count needs of the station's key values. */
export interface StorageRating {
  /** kWh */
  installedCapacity: number | null;
  /** % (0–100) */
  depthOfDischarge: number | null;
}

export interface DayFigures {
  currency: string;
  charge: number;
  discharge: number;
  chargeByPeriod: PeriodValues;
  dischargeByPeriod: PeriodValues;
  chargeCost: number;
  dischargeIncome: number;
  arbitrage: number;
  pv: number | null;
  pvSelfUsed: number | null;
  pvExported: number | null;
  pvRevenue: number;
  piles: number | null;
  chargingRevenue: number;
  total: number;
  cycles: number | null;
  pricesComplete: boolean;
}

export const zeroPeriods = (): PeriodValues => ({ tip: 0, peak: 0, flat: 0, valley: 0, deepValley: 0 });

/** Whole cents of an amount (half away from zero, robust to binary fractions like 1.005). */
export const cents = (x: number): number => Math.sign(x) * Math.round(Math.abs(x) * 100 + 1e-6);
export const fromCents = (c: number): number => (c === 0 ? 0 : c / 100);
export const kwh = (x: number): number => {
  const v = Math.round(x * 1000) / 1000;
  return v === 0 ? 0 : v;
};

const sum = (v: PeriodValues) => PRICE_PERIODS.reduce((a, p) => a + v[p], 0);
const rounded = (v: PeriodValues): PeriodValues => ({ tip: kwh(v.tip), peak: kwh(v.peak), flat: kwh(v.flat), valley: kwh(v.valley), deepValley: kwh(v.deepValley) });

/** Equivalent full cycles: (charge + discharge) / (DoD × 2 × capacity); null without a rating. */
export function cycleCount(charge: number, discharge: number, rating: StorageRating): number | null {
  const { installedCapacity: cap, depthOfDischarge: dod } = rating;
  if (cap === null || dod === null || cap <= 0 || dod <= 0) return null;
  return Math.round(((charge + discharge) / ((dod / 100) * 2 * cap)) * 10_000) / 10_000;
}

/**
 * Round-trip efficiency %, discharge / charge; null (shown "–") when there is no round trip to
 * measure: nothing charged, nothing discharged, or more came out than went in.
 */
export function efficiency(charge: number, discharge: number): number | null {
  if (charge <= 0 || discharge <= 0 || discharge > charge) return null;
  return Math.round((discharge / charge) * 10_000) / 100;
}

/**
 * The figures of a day. A period whose price is missing contributes no money and marks the day
 * incomplete (when it carried energy); without a charging service fee, charging earns the
 * electricity price alone; exported PV without a feed-in price earns nothing.
 */
export function dayFigures(energy: DayEnergy, tariff: DayTariff | null, rating: StorageRating, stationCurrency: string): DayFigures {
  let complete = tariff?.prices !== null && tariff?.prices !== undefined;
  const price = (p: PricePeriod, kwhOf: number): number => {
    const v = tariff?.prices?.[p] ?? null;
    if (v === null) {
      if (kwhOf > 0) complete = false;
      return 0;
    }
    return v;
  };
  const charge = energy.charge ?? zeroPeriods();
  const discharge = energy.discharge ?? zeroPeriods();
  let chargeCost = 0;
  let dischargeIncome = 0;
  for (const p of PRICE_PERIODS) {
    chargeCost += charge[p] * price(p, charge[p]);
    dischargeIncome += discharge[p] * price(p, discharge[p]);
  }
  const chargeCostC = cents(chargeCost);
  const dischargeIncomeC = cents(dischargeIncome);

  let pvRevenue = 0;
  let pvSelf: number | null = null;
  let pvExported: number | null = null;
  if (energy.pv) {
    pvSelf = 0;
    pvExported = 0;
    for (const p of PRICE_PERIODS) {
      const produced = energy.pv[p];
      const exported = Math.min(produced, energy.gridExport?.[p] ?? 0);
      const self = produced - exported;
      pvSelf += self;
      pvExported += exported;
      pvRevenue += self * price(p, self);
      const feedIn = tariff?.feedIn?.periods[p] ?? null;
      if (feedIn === null && exported > 0) complete = false;
      pvRevenue += exported * (feedIn ?? 0);
    }
  }
  const pvRevenueC = cents(pvRevenue);

  let chargingRevenue = 0;
  if (energy.piles) {
    const fee = tariff?.serviceFee ?? 0;
    for (const p of PRICE_PERIODS) chargingRevenue += energy.piles[p] * (price(p, energy.piles[p]) + fee);
  }
  const chargingC = cents(chargingRevenue);

  const c = sum(charge);
  const d = sum(discharge);
  const arbitrageC = dischargeIncomeC - chargeCostC;
  return {
    currency: tariff?.template?.currency ?? stationCurrency,
    charge: kwh(c),
    discharge: kwh(d),
    chargeByPeriod: rounded(charge),
    dischargeByPeriod: rounded(discharge),
    chargeCost: fromCents(chargeCostC),
    dischargeIncome: fromCents(dischargeIncomeC),
    arbitrage: fromCents(arbitrageC),
    pv: energy.pv ? kwh(sum(energy.pv)) : null,
    pvSelfUsed: pvSelf === null ? null : kwh(pvSelf),
    pvExported: pvExported === null ? null : kwh(pvExported),
    pvRevenue: fromCents(pvRevenueC),
    piles: energy.piles ? kwh(sum(energy.piles)) : null,
    chargingRevenue: fromCents(chargingC),
    total: fromCents(arbitrageC + pvRevenueC + chargingC),
    cycles: energy.charge || energy.discharge ? cycleCount(c, d, rating) : null,
    pricesComplete: complete,
  };
}
