import { z } from 'zod';
import { id, pageRequest } from './common.ts';
import type { StateCount } from './comprehensive.ts';
import type { PricePeriod } from './pricing.ts';

/**
 * Revenue (issue 5; DOMAIN.md §2): per station and station-local day, from the meter registers
 * and the station's time-of-use prices, stored as daily figures (table revenue_daily) that are
 * recomputed when a price changes. Every money call answers from those stored figures.
 *
 * - charge / discharge kWh per price period: the storage meter's forward / reverse registers of
 *   each period (DOMAIN.md §3: settle by register differences); without a storage meter, the
 *   converters' (DC-coupled PV: the BMS') total registers split over the day's price bands
 *   by their 5-minute (older days: hourly) growth.
 * - arbitrage = Σ discharge_p × price_p − Σ charge_p × price_p.
 * - PV revenue = Σ self-consumed_p × buy price_p + exported_p × feed-in price_p, where
 *   exported_p = min(PV_p, main meter reverse_p) and self-consumed_p = PV_p − exported_p.
 * - charging revenue = Σ pile kWh_p × (price_p + service fee).
 * - cycles = (charge + discharge) / (depth of discharge × 2 × installed capacity).
 * - efficiency (round trip, %) = discharge / charge × 100 over the period asked.
 *
 * Money is rounded to the cent per station and day (as a settlement would) and summed from
 * those; kWh to 3 decimals. A figure is null where the station cannot measure it.
 * Stations may bill in different currencies: every money figure that adds stations up comes
 * per currency (`CurrencyAmount[]`), never summed across currencies.
 */

// ── Requests ──────────────────────────────────────────────────────────────────────────

const localDate = z.iso.date('日期格式不正确，应为YYYY-MM-DD');

/** GET /home/page/* : the stations of a company (and its subsidiaries) that the caller may see. */
export const homeQuery = z.object({ companyId: id });
export type HomeQuery = z.infer<typeof homeQuery>;

/**
 * GET /comprehensive/site/overview/earnings and …/earnings/chart: one station; `date`
 * (station-local, default today) picks the day, month or year the figures are of.
 * Chart `type`: month — per day of the month of `date` (default); year — per month of its year.
 */
export const EARNINGS_CHART_TYPES = ['month', 'year'] as const;
export type EarningsChartType = (typeof EARNINGS_CHART_TYPES)[number];
export const earningsQuery = z.object({ siteId: id, date: localDate.optional() });
export type EarningsQuery = z.infer<typeof earningsQuery>;
export const earningsChartQuery = earningsQuery.extend({ type: z.enum(EARNINGS_CHART_TYPES, '应为 month 或 year').optional() });
export type EarningsChartQuery = z.infer<typeof earningsChartQuery>;

/** Longest range of an arbitrage query in days (day buckets) — longer ranges use month buckets. */
export const ARBITRAGE_MAX_DAYS = 366;
export const ARBITRAGE_MAX_MONTH_DAYS = 3700;
export const ARBITRAGE_BUCKETS = ['day', 'month'] as const;
export type ArbitrageBucket = (typeof ARBITRAGE_BUCKETS)[number];

/**
 * POST /overview/energy/arbitrage/* body: station-local dates `start`..`end` (inclusive) of the
 * stations asked — `siteIds`, else every station of `companyId` (and subsidiaries), else every
 * station in the caller's scope. `bucket` (curves): day (default, range ≤ 366 days) or month.
 */
export const arbitrageFilter = z
  .object({
    companyId: z.number().int().positive().max(2 ** 31 - 1).optional().nullable(),
    siteIds: z.array(z.number().int().positive().max(2 ** 31 - 1)).max(1000, '站点最多1000个').optional().nullable(),
    start: localDate,
    end: localDate,
    bucket: z.enum(ARBITRAGE_BUCKETS, '应为 day 或 month').optional(),
  })
  .refine((b) => b.start <= b.end, { message: '开始日期不能晚于结束日期', path: ['start'] })
  .refine(
    (b) => (Date.parse(b.end) - Date.parse(b.start)) / 86_400_000 < (b.bucket === 'month' ? ARBITRAGE_MAX_MONTH_DAYS : ARBITRAGE_MAX_DAYS),
    { message: '日期范围过长：按日最多366天，按月最多10年', path: ['end'] },
  );
export type ArbitrageFilter = z.infer<typeof arbitrageFilter>;
export const arbitragePage = pageRequest.extend({
  companyId: z.number().int().positive().max(2 ** 31 - 1).optional().nullable(),
  siteIds: z.array(z.number().int().positive().max(2 ** 31 - 1)).max(1000, '站点最多1000个').optional().nullable(),
  start: localDate,
  end: localDate,
}).refine((b) => b.start <= b.end, { message: '开始日期不能晚于结束日期', path: ['start'] })
  .refine((b) => (Date.parse(b.end) - Date.parse(b.start)) / 86_400_000 < ARBITRAGE_MAX_MONTH_DAYS, { message: '日期范围过长：最多10年', path: ['end'] });
export type ArbitragePage = z.infer<typeof arbitragePage>;

// ── Shared pieces ─────────────────────────────────────────────────────────────────────

/** kWh (or money) per price period; a period the day never had is 0. */
export type PeriodValues = Record<PricePeriod, number>;

/** A money amount in one currency (ISO 4217 code), to the cent. */
export interface CurrencyAmount {
  currency: string;
  amount: number;
}

/** The money of a station-day (or a sum of them), one currency, to the cent. */
export interface RevenueMoney {
  currency: string;
  /** Σ discharge × price − Σ charge × price. */
  arbitrage: number;
  /** Σ charge × price (what charging the storage cost). */
  chargeCost: number;
  /** Σ discharge × price (what the discharged energy was worth). */
  dischargeIncome: number;
  /** PV revenue (self-consumed at the buy price + exported at the feed-in price). */
  pvRevenue: number;
  /** Charging-pile revenue (electricity + service fee). */
  chargingRevenue: number;
  /** arbitrage + pvRevenue + chargingRevenue. */
  total: number;
}

/** Energy and figures of a station-day (or a sum of them). */
export interface RevenueEnergy {
  charge: number;
  discharge: number;
  chargeByPeriod: PeriodValues;
  dischargeByPeriod: PeriodValues;
  pv: number | null;
  pvSelfUsed: number | null;
  pvExported: number | null;
  piles: number | null;
  /** Equivalent full cycles (sum over the days). */
  cycles: number | null;
  /** Round trip, %: discharge / charge × 100; null without charge. */
  efficiency: number | null;
}

// ── Responses ─────────────────────────────────────────────────────────────────────────

/** GET /home/page/top */
export interface HomeTop {
  companyId: number;
  stationCount: number;
  /** Stations by site type (storage, storagePv, storagePvCharging). */
  stationsByType: Record<string, number>;
  /** Σ installed capacity kWh and power kW of the stations' storage. */
  installedCapacity: number;
  installedPower: number;
  devices: { total: number; online: number; offline: number; disabled: number; inactive: number };
  /** Lifetime (all stored days) energy, kWh. */
  totalCharge: number;
  totalDischarge: number;
  totalPv: number;
  totalPiles: number;
  /** Lifetime revenue per currency. */
  totalRevenue: CurrencyAmount[];
  /** Today's revenue per currency (today = each station's own local day). */
  todayRevenue: CurrencyAmount[];
  /** Days since the earliest commissioning date among the stations (null without one). */
  operatingDays: number | null;
}

/** One station-local date's energy summed over stations. */
export interface EnergyDay {
  date: string;
  charge: number;
  discharge: number;
  pv: number;
  piles: number;
}

/** GET /home/page/energy: storage and PV energy of the company's stations. */
export interface HomeEnergy {
  companyId: number;
  unit: 'kWh';
  today: EnergyDay;
  month: Omit<EnergyDay, 'date'>;
  year: Omit<EnergyDay, 'date'>;
  /** Last 30 days (oldest first), including today; days without figures are zeros. */
  days: EnergyDay[];
  /** Round-trip efficiency this month, %. */
  efficiencyMonth: number | null;
  /** Equivalent full cycles this month, averaged over the stations with storage. */
  cyclesMonth: number | null;
}

/** GET /home/page/charge: charging piles of the company's stations. */
export interface HomeCharge {
  companyId: number;
  pileCount: number;
  gunCount: number;
  /** Guns by live state (GUN_STATES: idle, plugged, charging, finished, fault, offline), as on site monitoring. */
  gunStates: StateCount[];
  /** Delivered energy, kWh. */
  todayEnergy: number;
  monthEnergy: number;
  yearEnergy: number;
  totalEnergy: number;
  /** Charging revenue (electricity + service fee) per currency. */
  todayRevenue: CurrencyAmount[];
  monthRevenue: CurrencyAmount[];
  totalRevenue: CurrencyAmount[];
  /** Last 30 days, kWh. */
  days: { date: string; energy: number }[];
}

/** GET /home/page/error: alarms of the company's stations. */
export interface HomeError {
  companyId: number;
  /** Open (in progress) alarms by level 1–5. */
  openByLevel: Record<'1' | '2' | '3' | '4' | '5', number>;
  open: number;
  /** Alarms that began / ended within the last 24 hours. */
  raised24h: number;
  ended24h: number;
  /** Stations with at least one open alarm. */
  stationsWithAlarms: number;
  /** Newest open alarms, at most 10. */
  recent: { id: number; siteId: number; siteName: string; deviceName: string | null; level: number; description: string; startTime: string }[];
}

/** GET /home/page/income: revenue of the company's stations, per currency. */
export interface HomeIncome {
  companyId: number;
  currencies: {
    currency: string;
    today: RevenueMoney;
    month: RevenueMoney;
    year: RevenueMoney;
    total: RevenueMoney;
    /** Last 30 days, oldest first. */
    days: { date: string; arbitrage: number; pvRevenue: number; chargingRevenue: number; total: number }[];
    /** Last 12 months, oldest first (YYYY-MM). */
    months: { month: string; arbitrage: number; pvRevenue: number; chargingRevenue: number; total: number }[];
  }[];
}

/** GET /comprehensive/site/overview/earnings: one station's revenue. */
export interface SiteEarnings {
  siteId: number;
  date: string;
  timeZone: string;
  currency: string;
  day: RevenueMoney & RevenueEnergy;
  month: RevenueMoney & RevenueEnergy;
  year: RevenueMoney & RevenueEnergy;
  total: RevenueMoney & RevenueEnergy;
  /** When the station's figure of `date` was last computed (ISO), or null if never. */
  computedAt: string | null;
  /** False when a day of the period had no price (its money then counts as 0). */
  pricesComplete: boolean;
}

/** GET /comprehensive/site/overview/earnings/chart */
export interface SiteEarningsChart {
  siteId: number;
  type: EarningsChartType;
  date: string;
  timeZone: string;
  currency: string;
  /** Bucket labels, station-local: MM-DD (month) or YYYY-MM (year). */
  labels: string[];
  arbitrage: number[];
  pvRevenue: number[];
  chargingRevenue: number[];
  total: number[];
  charge: number[];
  discharge: number[];
}

/** POST /overview/energy/arbitrage/summary */
export interface ArbitrageSummary {
  start: string;
  end: string;
  stationCount: number;
  charge: number;
  discharge: number;
  chargeByPeriod: PeriodValues;
  dischargeByPeriod: PeriodValues;
  efficiency: number | null;
  /** Σ cycles over the stations' days / station count. */
  cycles: number | null;
  money: Pick<RevenueMoney, 'currency' | 'arbitrage' | 'chargeCost' | 'dischargeIncome'>[];
}

/** POST /overview/energy/arbitrage/curve/fee: money per bucket, one series set per currency. */
export interface ArbitrageFeeCurve {
  bucket: ArbitrageBucket;
  /** YYYY-MM-DD (day) or YYYY-MM (month), every bucket of the range. */
  labels: string[];
  currencies: { currency: string; chargeCost: number[]; dischargeIncome: number[]; arbitrage: number[] }[];
}

/** POST /overview/energy/arbitrage/curve/quantity: kWh per bucket and price period. */
export interface ArbitrageQuantityCurve {
  bucket: ArbitrageBucket;
  labels: string[];
  charge: number[];
  discharge: number[];
  chargeByPeriod: Record<PricePeriod, number[]>;
  dischargeByPeriod: Record<PricePeriod, number[]>;
  efficiency: (number | null)[];
}

/** POST /overview/energy/arbitrage/detail/page (and the export's rows): one station-day. */
export interface ArbitrageDetail {
  siteId: number;
  siteName: string;
  date: string;
  currency: string;
  charge: number;
  discharge: number;
  chargeByPeriod: PeriodValues;
  dischargeByPeriod: PeriodValues;
  chargeCost: number;
  dischargeIncome: number;
  arbitrage: number;
  cycles: number | null;
  efficiency: number | null;
  pricesComplete: boolean;
  computedAt: string;
}
