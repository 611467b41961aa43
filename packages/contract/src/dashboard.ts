import { z } from 'zod';
import { id, pageRequest } from './common.ts';
import { stateCount } from './comprehensive.ts';
import { PRICE_PERIODS } from './constants.ts';
import { endpoint, FILE, isoTime, pageOf } from './endpoint.ts';

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

const pricePeriod = z.enum(PRICE_PERIODS);
/** A station-local date (YYYY-MM-DD) or month (YYYY-MM) on the wire. */
const localDay = z.string();

/** kWh (or money) per price period; a period the day never had is 0. */
export const periodValues = z.record(pricePeriod, z.number());
export type PeriodValues = z.infer<typeof periodValues>;

/** A money amount in one currency (ISO 4217 code), to the cent. */
export const currencyAmount = z.object({
  currency: z.string(),
  amount: z.number(),
});
export type CurrencyAmount = z.infer<typeof currencyAmount>;

/** The money of a station-day (or a sum of them), one currency, to the cent. */
export const revenueMoney = z.object({
  currency: z.string(),
  /** Σ discharge × price − Σ charge × price. */
  arbitrage: z.number(),
  /** Σ charge × price (what charging the storage cost). */
  chargeCost: z.number(),
  /** Σ discharge × price (what the discharged energy was worth). */
  dischargeIncome: z.number(),
  /** PV revenue (self-consumed at the buy price + exported at the feed-in price). */
  pvRevenue: z.number(),
  /** Charging-pile revenue (electricity + service fee). */
  chargingRevenue: z.number(),
  /** arbitrage + pvRevenue + chargingRevenue. */
  total: z.number(),
});
export type RevenueMoney = z.infer<typeof revenueMoney>;

/** Energy and figures of a station-day (or a sum of them). */
export const revenueEnergy = z.object({
  charge: z.number(),
  discharge: z.number(),
  chargeByPeriod: periodValues,
  dischargeByPeriod: periodValues,
  pv: z.number().nullable(),
  pvSelfUsed: z.number().nullable(),
  pvExported: z.number().nullable(),
  piles: z.number().nullable(),
  /** Equivalent full cycles (sum over the days). */
  cycles: z.number().nullable(),
  /** Round trip, %: discharge / charge × 100; null without charge. */
  efficiency: z.number().nullable(),
});
export type RevenueEnergy = z.infer<typeof revenueEnergy>;

/** Money and energy of a period of one station. */
const revenueFigures = revenueMoney.extend(revenueEnergy.shape);

// ── Responses ─────────────────────────────────────────────────────────────────────────

/** GET /home/page/top */
export const homeTop = z.object({
  companyId: z.number(),
  stationCount: z.number(),
  /** Stations by site type (storage, storagePv, storagePvCharging). */
  stationsByType: z.record(z.string(), z.number()),
  /** Σ installed capacity kWh and power kW of the stations' storage. */
  installedCapacity: z.number(),
  installedPower: z.number(),
  devices: z.object({ total: z.number(), online: z.number(), offline: z.number(), disabled: z.number(), inactive: z.number() }),
  /** Lifetime energy, kWh: the sum of the stations' lifetime registers, the same figures as each station's overview total. */
  totalCharge: z.number(),
  totalDischarge: z.number(),
  totalPv: z.number(),
  totalPiles: z.number(),
  /** Lifetime revenue per currency. */
  totalRevenue: z.array(currencyAmount),
  /** Today's revenue per currency (today = each station's own local day). */
  todayRevenue: z.array(currencyAmount),
  /** Days since the earliest commissioning date among the stations (null without one). */
  operatingDays: z.number().nullable(),
});
export type HomeTop = z.infer<typeof homeTop>;

/** One station-local date's energy summed over stations. */
export const energyDay = z.object({
  date: localDay,
  charge: z.number(),
  discharge: z.number(),
  pv: z.number(),
  piles: z.number(),
});
export type EnergyDay = z.infer<typeof energyDay>;

/** GET /home/page/energy: storage and PV energy of the company's stations. */
export const homeEnergy = z.object({
  companyId: z.number(),
  unit: z.literal('kWh'),
  today: energyDay,
  month: energyDay.omit({ date: true }),
  year: energyDay.omit({ date: true }),
  /** Last 30 days (oldest first), including today; days without figures are zeros. */
  days: z.array(energyDay),
  /** Round-trip efficiency this month, %. */
  efficiencyMonth: z.number().nullable(),
  /** Equivalent full cycles this month, averaged over the stations with storage. */
  cyclesMonth: z.number().nullable(),
});
export type HomeEnergy = z.infer<typeof homeEnergy>;

/** GET /home/page/charge: charging piles of the company's stations. */
export const homeCharge = z.object({
  companyId: z.number(),
  pileCount: z.number(),
  gunCount: z.number(),
  /** Guns by live state (GUN_STATES: idle, plugged, charging, finished, fault, offline), as on site monitoring. */
  gunStates: z.array(stateCount),
  /** Delivered energy, kWh. */
  todayEnergy: z.number(),
  monthEnergy: z.number(),
  yearEnergy: z.number(),
  totalEnergy: z.number(),
  /** Charging revenue (electricity + service fee) per currency. */
  todayRevenue: z.array(currencyAmount),
  monthRevenue: z.array(currencyAmount),
  totalRevenue: z.array(currencyAmount),
  /** Last 30 days, kWh. */
  days: z.array(z.object({ date: localDay, energy: z.number() })),
});
export type HomeCharge = z.infer<typeof homeCharge>;

/** GET /home/page/error: alarms of the company's stations. */
export const homeError = z.object({
  companyId: z.number(),
  /** Open (in progress) alarms by level 1–5. */
  openByLevel: z.record(z.enum(['1', '2', '3', '4', '5']), z.number()),
  open: z.number(),
  /** Alarms that began / ended within the last 24 hours. */
  raised24h: z.number(),
  ended24h: z.number(),
  /** Stations with at least one open alarm. */
  stationsWithAlarms: z.number(),
  /** Newest open alarms, at most 10. */
  recent: z.array(
    z.object({
      id: z.number(),
      siteId: z.number(),
      siteName: z.string(),
      deviceName: z.string().nullable(),
      level: z.number(),
      description: z.string(),
      startTime: isoTime,
    }),
  ),
});
export type HomeError = z.infer<typeof homeError>;

/** Revenue parts of a day or a month of the home page's charts. */
const incomeParts = { arbitrage: z.number(), pvRevenue: z.number(), chargingRevenue: z.number(), total: z.number() };

/**
 * GET /home/page/income: revenue of the company's stations, per currency: every currency its
 * stations bill in (or have figures in), the one with the most stations first.
 */
export const homeIncome = z.object({
  companyId: z.number(),
  currencies: z.array(
    z.object({
      currency: z.string(),
      /** Stations in scope billing in this currency (the station's currency): the card opens on the currency with the most. */
      stationCount: z.number(),
      /** Stations with days whose prices (some periods or all) were not configured: those periods earn 0. */
      missingPrices: z.array(z.object({ siteId: z.number(), siteName: z.string(), days: z.number() })),
      today: revenueMoney,
      month: revenueMoney,
      year: revenueMoney,
      total: revenueMoney,
      /** Last 30 days, oldest first. */
      days: z.array(z.object({ date: localDay, ...incomeParts })),
      /** Last 12 months, oldest first (YYYY-MM). */
      months: z.array(z.object({ month: localDay, ...incomeParts })),
    }),
  ),
});
export type HomeIncome = z.infer<typeof homeIncome>;

/** GET /comprehensive/site/overview/earnings: one station's revenue. */
export const siteEarnings = z.object({
  siteId: z.number(),
  date: localDay,
  timeZone: z.string(),
  currency: z.string(),
  day: revenueFigures,
  month: revenueFigures,
  year: revenueFigures,
  total: revenueFigures,
  /** When the station's figure of `date` was last computed (ISO), or null if never. */
  computedAt: isoTime.nullable(),
  /** False when a day of the period had no price (its money then counts as 0). */
  pricesComplete: z.boolean(),
});
export type SiteEarnings = z.infer<typeof siteEarnings>;

/** GET /comprehensive/site/overview/earnings/chart */
export const siteEarningsChart = z.object({
  siteId: z.number(),
  type: z.enum(EARNINGS_CHART_TYPES),
  date: localDay,
  timeZone: z.string(),
  currency: z.string(),
  /** Bucket labels, station-local: MM-DD (month) or YYYY-MM (year). */
  labels: z.array(z.string()),
  arbitrage: z.array(z.number()),
  pvRevenue: z.array(z.number()),
  chargingRevenue: z.array(z.number()),
  total: z.array(z.number()),
  charge: z.array(z.number()),
  discharge: z.array(z.number()),
});
export type SiteEarningsChart = z.infer<typeof siteEarningsChart>;

/** POST /overview/energy/arbitrage/summary */
export const arbitrageSummary = z.object({
  start: localDay,
  end: localDay,
  stationCount: z.number(),
  charge: z.number(),
  discharge: z.number(),
  chargeByPeriod: periodValues,
  dischargeByPeriod: periodValues,
  efficiency: z.number().nullable(),
  /** Σ cycles over the stations' days / station count. */
  cycles: z.number().nullable(),
  money: z.array(revenueMoney.pick({ currency: true, arbitrage: true, chargeCost: true, dischargeIncome: true })),
});
export type ArbitrageSummary = z.infer<typeof arbitrageSummary>;

/** POST /overview/energy/arbitrage/curve/fee: money per bucket, one series set per currency. */
export const arbitrageFeeCurve = z.object({
  bucket: z.enum(ARBITRAGE_BUCKETS),
  /** YYYY-MM-DD (day) or YYYY-MM (month), every bucket of the range. */
  labels: z.array(z.string()),
  currencies: z.array(
    z.object({ currency: z.string(), chargeCost: z.array(z.number()), dischargeIncome: z.array(z.number()), arbitrage: z.array(z.number()) }),
  ),
});
export type ArbitrageFeeCurve = z.infer<typeof arbitrageFeeCurve>;

/** POST /overview/energy/arbitrage/curve/quantity: kWh per bucket and price period. */
export const arbitrageQuantityCurve = z.object({
  bucket: z.enum(ARBITRAGE_BUCKETS),
  labels: z.array(z.string()),
  charge: z.array(z.number()),
  discharge: z.array(z.number()),
  chargeByPeriod: z.record(pricePeriod, z.array(z.number())),
  dischargeByPeriod: z.record(pricePeriod, z.array(z.number())),
  efficiency: z.array(z.number().nullable()),
});
export type ArbitrageQuantityCurve = z.infer<typeof arbitrageQuantityCurve>;

/** POST /overview/energy/arbitrage/detail/page (and the export's rows): one station-day. */
export const arbitrageDetail = z.object({
  siteId: z.number(),
  siteName: z.string(),
  date: localDay,
  currency: z.string(),
  charge: z.number(),
  discharge: z.number(),
  chargeByPeriod: periodValues,
  dischargeByPeriod: periodValues,
  chargeCost: z.number(),
  dischargeIncome: z.number(),
  arbitrage: z.number(),
  cycles: z.number().nullable(),
  efficiency: z.number().nullable(),
  pricesComplete: z.boolean(),
  computedAt: isoTime,
});
export type ArbitrageDetail = z.infer<typeof arbitrageDetail>;

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

/** The home page: a company's stations added up, one call per part. */
export const homeEndpoints = {
  top: endpoint({ method: 'GET', path: '/home/page/top', query: homeQuery, response: homeTop }),
  energy: endpoint({ method: 'GET', path: '/home/page/energy', query: homeQuery, response: homeEnergy }),
  charge: endpoint({ method: 'GET', path: '/home/page/charge', query: homeQuery, response: homeCharge }),
  error: endpoint({ method: 'GET', path: '/home/page/error', query: homeQuery, response: homeError }),
  income: endpoint({ method: 'GET', path: '/home/page/income', query: homeQuery, response: homeIncome }),
};

/** A station's earnings (site monitoring) and the energy-arbitrage overview. */
export const revenueEndpoints = {
  earnings: endpoint({ method: 'GET', path: '/comprehensive/site/overview/earnings', query: earningsQuery, response: siteEarnings }),
  earningsChart: endpoint({ method: 'GET', path: '/comprehensive/site/overview/earnings/chart', query: earningsChartQuery, response: siteEarningsChart }),
  arbitrageSummary: endpoint({ method: 'POST', path: '/overview/energy/arbitrage/summary', body: arbitrageFilter, response: arbitrageSummary }),
  arbitrageFee: endpoint({ method: 'POST', path: '/overview/energy/arbitrage/curve/fee', body: arbitrageFilter, response: arbitrageFeeCurve }),
  arbitrageQuantity: endpoint({ method: 'POST', path: '/overview/energy/arbitrage/curve/quantity', body: arbitrageFilter, response: arbitrageQuantityCurve }),
  arbitrageDetail: endpoint({ method: 'POST', path: '/overview/energy/arbitrage/detail/page', body: arbitragePage, response: pageOf(arbitrageDetail) }),
  arbitrageExport: endpoint({ method: 'POST', path: '/overview/energy/arbitrage/detail/export', body: arbitrageFilter, response: FILE }),
};
