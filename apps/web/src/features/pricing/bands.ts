import {
  BAND_STEP_MINUTES, DAY_MINUTES, PRICE_FIELD, cycleIssues, minutesOf, normalizeBands, timeOf, type BillingSystem, type PriceBand,
  type PriceCycleRecord, type PriceIssue, type PricePeriod, type priceCycleInput,
} from '@ess/contract/pricing';
import { PRICE_PERIODS } from '@ess/contract/constants';
import type { z } from 'zod';

/**
 * The cycle editor's model, without React: a draft of one cycle and the edits a person makes to
 * its 24 h bands. Edits keep neighbours joined where they were (moving a boundary moves both
 * sides), and the contract's own rules (`cycleIssues`, the server's 406 checks) judge the result,
 * so the editor refuses to save exactly what the server would refuse.
 */

export interface CycleDraft {
  name: string;
  months: number[];
  bands: PriceBand[];
  prices: Record<PricePeriod, number | null>;
  demandPrice: number | null;
  capacityPrice: number | null;
}

const byStart = (a: PriceBand, b: PriceBand) => minutesOf(a.start) - minutesOf(b.start) || minutesOf(a.end) - minutesOf(b.end);
const sorted = (bands: readonly PriceBand[]) => [...bands].sort(byStart);

/** A draft of an existing cycle, or of a new one: the whole day flat, over the months still free. */
export function draftOf(cycle: PriceCycleRecord | null, freeMonths: number[] = []): CycleDraft {
  if (!cycle) {
    return {
      name: '',
      months: freeMonths,
      bands: [{ start: '00:00', end: '24:00', period: 'flat' }],
      prices: { tip: null, peak: null, flat: null, valley: null, deepValley: null },
      demandPrice: null,
      capacityPrice: null,
    };
  }
  return {
    name: cycle.name,
    months: [...cycle.months],
    bands: sorted(cycle.periods),
    prices: Object.fromEntries(PRICE_PERIODS.map((p) => [p, cycle[PRICE_FIELD[p]]])) as Record<PricePeriod, number | null>,
    demandPrice: cycle.demandPrice,
    capacityPrice: cycle.capacityPrice,
  };
}

/**
 * Splits a band at its middle (on a quarter hour); both halves keep its type. A band of one
 * quarter hour cannot be split.
 */
export function splitBand(bands: readonly PriceBand[], i: number): PriceBand[] {
  const list = sorted(bands);
  const b = list[i];
  if (!b) return list;
  const s = minutesOf(b.start);
  const e = minutesOf(b.end);
  const half = Math.floor((e - s) / (2 * BAND_STEP_MINUTES)) * BAND_STEP_MINUTES;
  if (half < BAND_STEP_MINUTES) return list;
  const mid = timeOf(s + half);
  return [...list.slice(0, i), { ...b, end: mid }, { ...b, start: mid }, ...list.slice(i + 1)];
}

/** Joins a band with the next one: it takes the next band's time and keeps its own type. */
export function mergeWithNext(bands: readonly PriceBand[], i: number): PriceBand[] {
  const list = sorted(bands);
  const b = list[i];
  const next = list[i + 1];
  if (!b || !next) return list;
  return [...list.slice(0, i), { ...b, end: next.end }, ...list.slice(i + 2)];
}

/**
 * Removes a band; its neighbour takes its time (the previous band, or the next one for the
 * first), so the day stays covered. The last remaining band cannot be removed.
 */
export function removeBand(bands: readonly PriceBand[], i: number): PriceBand[] {
  const list = sorted(bands);
  const b = list[i];
  if (!b || list.length === 1) return list;
  const prev = list[i - 1];
  const next = list[i + 1];
  if (prev && prev.end === b.start) return [...list.slice(0, i - 1), { ...prev, end: b.end }, ...list.slice(i + 1)];
  if (!prev && next && next.start === b.end) return [{ ...next, start: b.start }, ...list.slice(i + 2)];
  return [...list.slice(0, i), ...list.slice(i + 1)];
}

export function setPeriod(bands: readonly PriceBand[], i: number, period: PricePeriod): PriceBand[] {
  return sorted(bands).map((b, j) => (j === i ? { ...b, period } : b));
}

/**
 * Moves a band's end (or start); a neighbour that touched the moved boundary moves with it, as
 * long as it keeps at least a quarter hour. Times outside 00:00–24:00 or crossing the band's own
 * other end are ignored.
 */
export function moveBoundary(bands: readonly PriceBand[], i: number, side: 'start' | 'end', time: string): PriceBand[] {
  const list = sorted(bands);
  const b = list[i];
  if (!b) return list;
  const m = minutesOf(time);
  if (m < 0 || m > DAY_MINUTES) return list;
  if (side === 'end') {
    if (m <= minutesOf(b.start)) return list;
    const next = list[i + 1];
    const out = list.map((x, j) => (j === i ? { ...x, end: time } : x));
    if (next && next.start === b.end && m < minutesOf(next.end)) out[i + 1] = { ...next, start: time };
    return out;
  }
  if (m >= minutesOf(b.end)) return list;
  const prev = list[i - 1];
  const out = list.map((x, j) => (j === i ? { ...x, start: time } : x));
  if (prev && prev.end === b.start && m > minutesOf(prev.start)) out[i - 1] = { ...prev, end: time };
  return sorted(out);
}

/** Adds a band: it fills the first uncovered stretch of the day, or else halves the longest band. */
export function addBand(bands: readonly PriceBand[]): PriceBand[] {
  const list = sorted(bands);
  let cursor = 0;
  for (const b of list) {
    if (minutesOf(b.start) > cursor) return sorted([...list, { start: timeOf(cursor), end: b.start, period: 'flat' }]);
    cursor = Math.max(cursor, minutesOf(b.end));
  }
  if (cursor < DAY_MINUTES) return [...list, { start: timeOf(cursor), end: '24:00', period: 'flat' }];
  let longest = 0;
  list.forEach((b, j) => {
    const len = minutesOf(b.end) - minutesOf(b.start);
    if (len > minutesOf(list[longest]!.end) - minutesOf(list[longest]!.start)) longest = j;
  });
  return splitBand(list, longest);
}

/** Times a band boundary may take: every quarter hour from 00:00 to 24:00. */
export const QUARTER_HOURS: string[] = Array.from({ length: DAY_MINUTES / BAND_STEP_MINUTES + 1 }, (_, k) => timeOf(k * BAND_STEP_MINUTES));

/** The request body of a draft (cycle fields of add/batch and edit). */
export function cycleBody(d: CycleDraft): z.input<typeof priceCycleInput> {
  const used = new Set(d.bands.map((b) => b.period));
  const price = (p: PricePeriod) => (used.has(p) ? d.prices[p] : null);
  return {
    name: d.name.trim(),
    months: [...d.months].sort((a, b) => a - b),
    periods: normalizeBands(d.bands),
    tipPrice: price('tip'),
    peakPrice: price('peak'),
    flatPrice: price('flat'),
    valleyPrice: price('valley'),
    deepValleyPrice: price('deepValley'),
    demandPrice: d.demandPrice,
    capacityPrice: d.capacityPrice,
  };
}

/** What keeps a draft from being saved: the server's rules, plus a name and at least one month. */
export function draftIssues(d: CycleDraft, billingSystem: BillingSystem, others: readonly { name: string; months: readonly number[] }[]): PriceIssue[] {
  const issues: PriceIssue[] = [];
  if (!d.name.trim()) issues.push({ text: '周期名称不能为空', args: [] });
  else if (others.some((o) => o.name === d.name.trim())) issues.push({ text: '同一模板下已有同名周期', args: [] });
  if (!d.months.length) issues.push({ text: '请选择适用月份', args: [] });
  const body = cycleBody(d) as Parameters<typeof cycleIssues>[0];
  return [...issues, ...cycleIssues({ ...body, periods: d.bands }, billingSystem, others)];
}

/** Months of the year no cycle covers (the station has no energy price in them). */
export const uncoveredMonths = (cycles: readonly { months: readonly number[] }[]) =>
  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].filter((m) => !cycles.some((c) => c.months.includes(m)));
