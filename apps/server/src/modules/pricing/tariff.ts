import { PRICE_FIELD, PRICE_PERIODS, minutesOf, type BillingSystem, type PriceBand, type PricePeriod } from '@ess/contract';
import { zoneOffsetMs } from '../../platform/time/local-time.ts';

/**
 * Resolving a station's prices for station-local days (DOMAIN.md §2, §7), without the database:
 * pricing.service.ts loads the rows and calls `resolveTariffs`.
 *
 * A cycle's partition is wall-clock time of the station's zone. Each band is also given as the
 * UTC instants it covers, so a reader never has to redo the zone arithmetic: on the day clocks
 * go forward (23 h) a band inside the skipped hour lasts 0 minutes and the band across it one
 * hour less; on the day they go back (25 h) the band across the repeated hour lasts one hour
 * more. A wall-clock time that does not exist is read as the same time after the jump (02:30 in
 * a 02:00→03:00 gap is 03:30), one that occurs twice as its first occurrence — the "compatible"
 * reading of Temporal and of most schedulers.
 */

const DAY_MS = 86_400_000;

/** The UTC instant of a station-local date and minute of the day (1440 = the next day's 00:00). */
export function localInstant(timeZone: string, date: string, minuteOfDay: number): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const naive = Date.UTC(y, m - 1, d) + minuteOfDay * 60_000;
  // The offsets a day before and after bracket any single transition near this wall-clock time.
  const before = zoneOffsetMs(timeZone, naive - DAY_MS);
  const after = zoneOffsetMs(timeZone, naive + DAY_MS);
  const valid = [...new Set([before, after])].map((o) => naive - o).filter((t) => zoneOffsetMs(timeZone, t) === naive - t);
  if (valid.length) return Math.min(...valid);
  // In a gap: read with the offset before the jump, which lands after it.
  return naive - before;
}

/** The next calendar date (YYYY-MM-DD). */
export function nextDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

export interface TariffCycle {
  id: number;
  name: string;
  months: number[];
  periods: PriceBand[];
  tipPrice: number | null;
  peakPrice: number | null;
  flatPrice: number | null;
  valleyPrice: number | null;
  deepValleyPrice: number | null;
  demandPrice: number | null;
  capacityPrice: number | null;
}

export interface TariffTemplate {
  id: number;
  name: string;
  billingSystem: BillingSystem;
  currency: string;
  cycles: TariffCycle[];
}

/** A station's configure price cycle with its template. */
export interface TariffConfig {
  id: number;
  startDate: string;
  endDate: string | null;
  serviceFee: number | null;
  template: TariffTemplate;
}

export interface SolarConfig {
  id: number;
  startDate: string;
  endDate: string | null;
  price: number;
  periodPrices: Partial<Record<PricePeriod, number>> | null;
}

export interface TariffInput {
  timeZone: string;
  /** The station's currency (feed-in prices are in it). */
  currency: string;
  configs: TariffConfig[];
  solar: SolarConfig[];
}

export interface TariffBand {
  /** Station-local wall clock, HH:MM; `end` may be 24:00. */
  start: string;
  end: string;
  period: PricePeriod;
  /** Buy price per kWh in the template's currency; null when the cycle has none for this period. */
  price: number | null;
  /** PV feed-in price per kWh for this band, or null without a solar price cycle that day. */
  feedInPrice: number | null;
  /** UTC instants [startMs, endMs). */
  startMs: number;
  endMs: number;
  /** Real duration; 0 for a band inside a skipped DST hour. */
  minutes: number;
}

export interface DayTariff {
  /** Station-local date, YYYY-MM-DD. */
  date: string;
  /** The local day as UTC instants [startMs, endMs) and its length (23, 24 or 25 h). */
  startMs: number;
  endMs: number;
  hours: number;
  /** The configure price cycle, template and cycle in force, or null. */
  configId: number | null;
  template: { id: number; name: string; billingSystem: BillingSystem; currency: string } | null;
  cycle: { id: number; name: string } | null;
  /** The partition with prices; null when no template or no cycle covers the day's month. */
  bands: TariffBand[] | null;
  prices: Record<PricePeriod, number | null> | null;
  /** Per kW per month / per kVA per month (two-part tariffs). */
  demandPrice: number | null;
  capacityPrice: number | null;
  /** Charging service fee per kWh. */
  serviceFee: number | null;
  /** PV feed-in: the solar price cycle in force, its base price and the price per period type. */
  feedIn: { id: number; price: number; periods: Record<PricePeriod, number> } | null;
}

const covers = (r: { startDate: string; endDate: string | null }, date: string) => r.startDate <= date && (r.endDate === null || date <= r.endDate);

/** Every station-local day from `from` to `to` (inclusive) with its prices. */
export function resolveTariffs(input: TariffInput, from: string, to: string): DayTariff[] {
  const days: DayTariff[] = [];
  for (let date = from; date <= to; date = nextDate(date)) {
    const startMs = localInstant(input.timeZone, date, 0);
    const endMs = localInstant(input.timeZone, nextDate(date), 0);
    const month = Number(date.slice(5, 7));
    const config = input.configs.find((c) => covers(c, date)) ?? null;
    const cycle = config?.template.cycles.find((c) => c.months.includes(month)) ?? null;
    const solar = input.solar.find((s) => covers(s, date)) ?? null;
    const feedIn = solar
      ? { id: solar.id, price: solar.price, periods: Object.fromEntries(PRICE_PERIODS.map((p) => [p, solar.periodPrices?.[p] ?? solar.price])) as Record<PricePeriod, number> }
      : null;
    const prices = cycle ? (Object.fromEntries(PRICE_PERIODS.map((p) => [p, cycle[PRICE_FIELD[p]]])) as Record<PricePeriod, number | null>) : null;
    const bands = cycle
      ? cycle.periods.map((b): TariffBand => {
          const s = localInstant(input.timeZone, date, minutesOf(b.start));
          const e = localInstant(input.timeZone, date, minutesOf(b.end));
          return {
            start: b.start, end: b.end, period: b.period, price: prices![b.period],
            feedInPrice: feedIn ? feedIn.periods[b.period] : null,
            startMs: s, endMs: e, minutes: Math.max(0, Math.round((e - s) / 60_000)),
          };
        })
      : null;
    days.push({
      date,
      startMs,
      endMs,
      hours: Math.round((endMs - startMs) / 3_600_000),
      configId: config?.id ?? null,
      template: config ? { id: config.template.id, name: config.template.name, billingSystem: config.template.billingSystem, currency: config.template.currency } : null,
      cycle: cycle ? { id: cycle.id, name: cycle.name } : null,
      bands,
      prices,
      demandPrice: cycle?.demandPrice ?? null,
      capacityPrice: cycle?.capacityPrice ?? null,
      serviceFee: config?.serviceFee ?? null,
      feedIn,
    });
  }
  return days;
}

/** The band of a resolved day in force at an instant, or null (outside the day, or no prices). */
export function bandAt(day: DayTariff, ms: number): TariffBand | null {
  return day.bands?.find((b) => b.startMs <= ms && ms < b.endMs) ?? null;
}
