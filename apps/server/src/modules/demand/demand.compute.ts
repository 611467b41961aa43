import { DEMAND_WINDOW_MS, DEMAND_DECIMALS } from '@ess/contract/demand';
import { zoneOffsetMs } from '@ess/contract';

/**
 * The demand arithmetic, pure and in memory (DOMAIN.md §4; issue 19 items 1, 3, 6): fixed
 * 15-minute windows aligned to the quarter hour in the station's zone, a window's energy from the
 * cumulative registers at its two boundaries (demand = energy × 4), the counterfactual without
 * storage, and the live projection of the window in progress. The ingest's demand sink and the
 * demo's history feed the same tracker, so live and past windows are computed alike.
 */

const Q = DEMAND_WINDOW_MS;
const HOUR = 3_600_000;
/** Windows per hour: demand (kW) = window energy (kWh) × 4. */
export const WINDOWS_PER_HOUR = HOUR / Q;
/**
 * A boundary is measured when a reading lies on it or the two readings around it are at most this
 * far apart (live reports every few seconds); else it is interpolated across a gap: estimated.
 */
export const MEASURED_SPAN_MS = 120_000;
/** Beyond this gap between two readings no window is made across it (the tracker starts again). */
export const MAX_INTERPOLATION_MS = 2 * HOUR;

const round = (x: number, d = DEMAND_DECIMALS) => {
  const f = 10 ** d;
  return Math.round(x * f) / f;
};
export const roundKw = (x: number) => round(x);

/** The start of the 15-minute window holding `ts` in the zone (quarter hours of local wall time). */
export function windowStartOf(ts: number, timeZone: string): number {
  const off = zoneOffsetMs(timeZone, ts);
  let s = Math.floor((ts + off) / Q) * Q - off;
  // Across a DST change the boundary's own offset decides; offsets are multiples of 15 minutes.
  if (s > ts) s -= Q;
  else if (s + Q <= ts) s += Q;
  return s;
}

/** Demand of a window's energy: kWh × 4, to 0.001 kW. */
export const demandOf = (energyKwh: number) => roundKw(energyKwh * WINDOWS_PER_HOUR);

/**
 * The counterfactual demand without storage (DOMAIN.md §4): import + storage discharge − storage
 * charge over the window, × 4; never below 0 (the grid would not have been fed back: the storage
 * charging from the grid is what the station imported on its behalf).
 */
export function counterfactualOf(importKwh: number, chargeKwh: number, dischargeKwh: number): number {
  return Math.max(0, roundKw((importKwh + dischargeKwh - chargeKwh) * WINDOWS_PER_HOUR));
}

/** What `feed` returns when it closed nothing (shared, never written to). */
const NONE: readonly ClosedWindow[] = Object.freeze([]);

/** A closed window of one meter: the registers' increments and their boundary values. */
export interface ClosedWindow {
  start: number;
  /** Register increments in the window, kWh (same order as fed). */
  deltas: number[];
  startValues: number[];
  endValues: number[];
  estimated: boolean;
}

/**
 * One meter's rolling state: the last reading and the window in progress with its start
 * registers. `feed` costs a few arithmetic operations unless the reading crosses a boundary.
 */
export class WindowTracker {
  private prevTs = Number.NaN;
  private prev: number[] = [];
  /** The window in progress; its start values are unknown (NaN) until a boundary was passed. */
  winStart = Number.NaN;
  private startValues: number[] | null = null;
  private startEstimated = false;

  constructor(readonly timeZone: string) {}

  private restart(ts: number, values: readonly number[]): void {
    this.winStart = windowStartOf(ts, this.timeZone);
    const onBoundary = this.winStart === ts;
    this.startValues = onBoundary ? values.slice() : null;
    this.startEstimated = false;
    this.prevTs = ts;
    this.prev = values.slice();
  }

  /** Feeds a reading (registers in kWh); returns the windows it closed (usually none). */
  feed(ts: number, values: readonly number[]): readonly ClosedWindow[] {
    if (Number.isNaN(this.prevTs)) {
      this.restart(ts, values);
      return NONE;
    }
    if (ts <= this.prevTs) return NONE;
    for (let i = 0; i < values.length; i++) {
      // A register going back (a meter replaced or reset): no window across it.
      if (values[i]! < this.prev[i]!) {
        this.restart(ts, values);
        return NONE;
      }
    }
    const span = ts - this.prevTs;
    if (span > MAX_INTERPOLATION_MS) {
      this.restart(ts, values);
      return NONE;
    }
    let out: ClosedWindow[] | null = null;
    for (let b = this.winStart + Q; b <= ts; b += Q) {
      const f = (b - this.prevTs) / span;
      const at = b === ts ? values.slice() : this.prev.map((p, i) => p + (values[i]! - p) * f);
      const estimated = !(b === ts || b === this.prevTs || span <= MEASURED_SPAN_MS);
      if (this.startValues) {
        const sv = this.startValues;
        (out ??= []).push({
          start: this.winStart,
          deltas: at.map((v, i) => Math.max(0, v - sv[i]!)),
          startValues: sv,
          endValues: at,
          estimated: estimated || this.startEstimated,
        });
      }
      this.winStart = b;
      this.startValues = at;
      this.startEstimated = estimated;
    }
    this.prevTs = ts;
    // In place: a feed that closes nothing allocates nothing here.
    for (let i = 0; i < values.length; i++) this.prev[i] = values[i]!;
    return out ?? NONE;
  }

  /** Energy of register `i` so far in the window in progress (kWh), null when its start is unknown. */
  energySoFar(i = 0): number | null {
    return this.startValues ? Math.max(0, this.prev[i]! - this.startValues[i]!) : null;
  }

  get lastTs(): number {
    return this.prevTs;
  }
}

/**
 * The live guard's projection (DOMAIN.md §4, issue 19 item 6): the window's demand if the current
 * import power held to its end = (energy so far + current power × remaining time) × 4, in kW.
 * A negative power (export) counts as 0.
 */
/**
 * How far (kW) a projection may pass the pre-alarm line before it counts as above it: the EMS holds
 * the import at the line itself (decision 0040), and a projection from registers read to 0.01 kWh
 * and powers to 0.01 kW scatters by about ±0.1 kW around it; a pre-alarm there would be noise.
 */
export const LINE_TOLERANCE_KW = 0.5;

export function projectDemand(energySoFarKwh: number, currentKw: number, now: number, windowStart: number): number {
  const remainingH = Math.max(0, windowStart + Q - now) / HOUR;
  return roundKw((energySoFarKwh + Math.max(0, currentKw) * remainingH) * WINDOWS_PER_HOUR);
}

/**
 * The discharge that brings the projection down to the threshold by the window's end: the energy
 * over it, (projected − threshold) / 4 kWh, spread over the remaining time; rounded up to 0.1 kW.
 */
export function guardDischargeKw(projectedKw: number, thresholdKw: number, now: number, windowStart: number): number {
  const remainingH = Math.max(0, windowStart + Q - now) / HOUR;
  if (remainingH <= 0 || projectedKw <= thresholdKw) return 0;
  const kwh = (projectedKw - thresholdKw) / WINDOWS_PER_HOUR;
  return Math.ceil((kwh / remainingH) * 10 - 1e-9) / 10;
}
