/**
 * The meters of bench/ingest: every station has a main (grid) meter and a storage meter, devices
 * of type `meter` with `meter_purpose` main / storage on the seeded meter product, which is what
 * the demand sink (apps/server/src/modules/demand/demand.sink.ts) follows. Their readings are a
 * deterministic function of the station and the reading's number, so the publisher (which sends
 * them) and the parent (which checks the stored windows) compute the same registers.
 *
 * Time-lapse: a window is a quarter hour of the station's clock and a bench stage lasts seconds,
 * so the meters report on a clock of their own that starts at yesterday's 00:00 UTC (a quarter-hour
 * boundary, in a day partition that exists) and advances STEP_MS per reading: a reading lies on
 * every boundary (windows measured, not estimated) and a window closes every 9 readings. Their ts
 * are therefore in the past; the ingest counts them in its ≥ 60 s latency bucket, which the bench
 * takes out again (their reports go through the same COPY batches as the others).
 */
import { DEMAND_WINDOW_MS } from '@ess/contract/demand';

export type MeterRole = 'main' | 'storage';

/** Simulated time between two readings of a meter (the window, 15 min, is 9 of them). */
export const STEP_MS = 100_000;
export const READINGS_PER_WINDOW = DEMAND_WINDOW_MS / STEP_MS;
const STEP_H = STEP_MS / 3_600_000;

/** The meter clock's start: yesterday 00:00 UTC. */
export function meterEpoch(now = Date.now()): number {
  const day = 86_400_000;
  return Math.floor(now / day) * day - day;
}

/** Storage power over step k, kW: > 0 charging (forward register), < 0 discharging (reverse). */
function storageKw(station: number, k: number): number {
  const phase = Math.floor((k + station * 5) / 12) % 4;
  return phase === 0 ? 60 + (station % 5) * 10 : phase === 2 ? -(80 + (station % 7) * 10) : 0;
}

/** The station's load over step k, kW (varies per step so that windows differ). */
function loadKw(station: number, k: number): number {
  return 300 + (station % 11) * 20 + ((k * 37 + station * 13) % 50) * 2;
}

/** Main meter import power over step k: the load plus the storage's charging, less its discharge (never exported). */
export function mainKw(station: number, k: number): number {
  return Math.max(0, loadKw(station, k) + storageKw(station, k));
}

export interface MeterRegisters {
  /** Main: import; storage: charge. */
  forward: number;
  /** Main: export (stays); storage: discharge. */
  reverse: number;
}

/**
 * The registers (kWh) of a meter after `k` readings' steps, updated in place from step k−1 to k:
 * the increment of step j is its power × STEP_MS, so the registers rise consistently with the
 * power reported.
 */
export function advance(role: MeterRole, station: number, reg: MeterRegisters, k: number): void {
  const kw = role === 'main' ? mainKw(station, k) : storageKw(station, k);
  if (kw >= 0) reg.forward += kw * STEP_H;
  else reg.reverse += -kw * STEP_H;
}

export const startRegisters = (role: MeterRole, station: number): MeterRegisters =>
  role === 'main' ? { forward: 100_000 + station * 1000, reverse: 12 } : { forward: 20_000 + station * 100, reverse: 18_000 + station * 100 };

/** The registers at reading `k` (0 = the first), recomputed from the start in the same order as the publisher does. */
export function registersAt(role: MeterRole, station: number, k: number): MeterRegisters {
  const reg = startRegisters(role, station);
  for (let j = 0; j < k; j++) advance(role, station, reg, j);
  return reg;
}

/** Power reported with reading k, kW: the power of the step that starts there. */
export const powerAt = (role: MeterRole, station: number, k: number) => (role === 'main' ? mainKw(station, k) : storageKw(station, k));
