import { QUALITY_FLAGS, SPIKE_MARGIN, type QualityFlag } from '@ess/contract';

/**
 * Register normalisation (issue 18 item 4; DOMAIN.md §3), pure: one register of one meter over
 * a run of station-local days. Every figure is in integer Wh (kWh × 1000), so sums are exact and
 * `wh / 1000` has an exact 3-decimal text.
 *
 * The register's known values are points on a time line: the zero readings at the days'
 * boundaries (00:00 station-local), and at each meter replacement two points at the change
 * instant — the old meter's end (segment k) and the new meter's start (segment k + 1). Between two
 * consecutive known points:
 * - of the same segment: the increment b − a counts when it rises; a drop counts 0 (flag
 *   estimated: the day's figure is not a measurement); an increment beyond the physical limit
 *   (rated kW × hours × SPIKE_MARGIN) is clamped to it (flag spike_clamped);
 * - across a replacement (old end → new start): 0, the day flagged meter_replaced;
 * - of different segments without the change readings between them: unknown, 0, flag missing.
 * A point that is estimated flags the intervals it bounds estimated; an interval that skips
 * unknown points (a missing midnight) is flagged missing and its increment is spread over the
 * days it covers in proportion to time (whole Wh by cumulative floors: the shares add up exactly), so a period's
 * total is still last − first and periods stay additive. Days no interval covers get 0, missing.
 */

export interface RegisterPoint {
  /** Epoch ms. */
  t: number;
  /** Wh (integer), null when this point was not read. */
  wh: number | null;
  /** The meter hardware: 0 before the first replacement in the run, k after the k-th. */
  segment: number;
  /** How the value was read: measured, estimated or missing. */
  quality: QualityFlag;
}

export interface NormaliseInput {
  /** The days' boundaries, ascending: day i is [bounds[i], bounds[i+1]). */
  bounds: readonly number[];
  /** Known and unknown points, any order (sorted here by time, then segment). */
  points: readonly RegisterPoint[];
  /** Replacement instants, ascending (the k-th opens segment k). */
  changes: readonly number[];
  /** The meter's physical limit in kW (rated power of what it measures); null: no clamping. */
  limitKw: number | null;
  margin?: number;
}

export interface NormalisedRegister {
  /** Wh per day. */
  days: number[];
  /** Flags per day (empty: measured). */
  flags: QualityFlag[][];
  /** Wh per day and segment: bySegment[day][segment]. */
  bySegment: number[][];
}

const HOUR_MS = 3_600_000;

/** kWh → integer Wh (the 0.001 kWh the readings are stored to). */
export const toWh = (kwh: number) => Math.round(kwh * 1000);
/** Integer Wh → kWh with three exact decimals. */
export const fromWh = (wh: number) => Number((wh / 1000).toFixed(3));

export function normaliseRegister(input: NormaliseInput): NormalisedRegister {
  const { bounds, changes, limitKw } = input;
  const margin = input.margin ?? SPIKE_MARGIN;
  const n = Math.max(0, bounds.length - 1);
  const segments = changes.length + 1;
  const days = new Array<number>(n).fill(0);
  const flagSets = Array.from({ length: n }, () => new Set<QualityFlag>());
  const bySegment = Array.from({ length: n }, () => new Array<number>(segments).fill(0));
  const covered = new Array<boolean>(n).fill(false);
  if (n === 0) return { days, flags: [], bySegment };
  const first = bounds[0]!;
  const last = bounds[n]!;
  const dayOf = (t: number) => {
    // The day containing t (t on a boundary belongs to the day it starts).
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (bounds[mid]! <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  // Days in which a replacement happened.
  for (const c of changes) if (c >= first && c < last) flagSets[dayOf(c)]!.add('meter_replaced');

  const points = [...input.points].sort((a, b) => a.t - b.t || a.segment - b.segment);
  const known = points.filter((p) => p.wh !== null);
  /** Spread `wh` over [a, b) in proportion to time; mark the days covered and flag them. */
  const spread = (a: number, b: number, wh: number, segment: number, flags: QualityFlag[]) => {
    if (b <= a) {
      // A zero-length interval (the change's two points): nothing to spread.
      return;
    }
    const lo = Math.max(a, first);
    const hi = Math.min(b, last);
    if (hi <= lo) return;
    const total = b - a;
    // Cumulative floors: a day's share depends only on the interval and the day's bounds (so a
    // window cut out of a longer run gives the same shares), and the shares add up to wh.
    const upTo = (t: number) => Math.floor((wh * (Math.min(Math.max(t, a), b) - a)) / total);
    const parts: { day: number; share: number }[] = [];
    for (let d = dayOf(lo); d < n && bounds[d]! < hi; d++) {
      if (Math.min(bounds[d + 1]!, b) <= Math.max(bounds[d]!, a)) continue;
      parts.push({ day: d, share: upTo(bounds[d + 1]!) - upTo(bounds[d]!) });
    }
    for (const { day, share } of parts) {
      days[day]! += share;
      bySegment[day]![segment]! += share;
      covered[day] = true;
      for (const f of flags) flagSets[day]!.add(f);
    }
  };

  for (let i = 1; i < known.length; i++) {
    const a = known[i - 1]!;
    const b = known[i]!;
    const flags: QualityFlag[] = [];
    if (a.quality === 'estimated' || b.quality === 'estimated') flags.push('estimated');
    // Unknown points skipped between them: a missing reading.
    if (points.some((p) => p.wh === null && p.t > a.t && p.t < b.t)) flags.push('missing');
    if (a.segment !== b.segment) {
      const isSwap = a.t === b.t && b.segment === a.segment + 1;
      if (!isSwap) spread(a.t, b.t, 0, a.segment, ['missing']);
      continue;
    }
    let inc = b.wh! - a.wh!;
    if (inc < 0) {
      inc = 0;
      flags.push('estimated');
    }
    if (limitKw !== null && limitKw > 0) {
      const limit = Math.floor(limitKw * ((b.t - a.t) / HOUR_MS) * margin * 1000);
      if (inc > limit) {
        inc = limit;
        flags.push('spike_clamped');
      }
    }
    spread(a.t, b.t, inc, a.segment, flags);
  }
  for (let d = 0; d < n; d++) if (!covered[d]) flagSets[d]!.add('missing');
  const order = (f: QualityFlag) => QUALITY_FLAGS.indexOf(f);
  return { days, flags: flagSets.map((s) => [...s].sort((x, y) => order(x) - order(y))), bySegment };
}
