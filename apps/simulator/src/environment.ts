import type { StationDef } from './fleet.ts';
import { localTime } from '@ess/contract';
import { hash01, valueNoise } from './random.ts';
import { clearSkyIrradiance, solarElevation } from './solar.ts';

/** Weather and demand around a station: pure functions of the seed, the station and the instant. */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Outdoor air temperature °C: a seasonal mean by latitude (warmest late July in the north,
 * late January in the south), a daily swing peaking mid-afternoon, and slow seeded noise.
 */
export function outdoorTemperature(def: StationDef, seed: number, epochMs: number): number {
  const local = localTime(epochMs, def.timeZone);
  const lat = Math.abs(def.latitude);
  const annualMean = 27 - 0.35 * lat;
  const seasonalAmplitude = 2 + 0.2 * lat;
  const warmestDay = def.latitude >= 0 ? 205 : 22;
  const seasonal = seasonalAmplitude * Math.cos((2 * Math.PI * (local.dayOfYear - warmestDay)) / 365);
  const daily = 4.5 * Math.cos((2 * Math.PI * (local.minuteOfDay / 60 - 15)) / 24);
  const noise = (valueNoise(epochMs, 6 * HOUR, seed, def.code, 'temp') - 0.5) * 5;
  return annualMean + seasonal + daily + noise;
}

/**
 * Cloud transmittance 0.2–1: each day is clear, mixed or overcast (seeded), with clouds passing
 * on a scale of tens of minutes.
 */
export function cloudFactor(def: StationDef, seed: number, epochMs: number): number {
  const day = Math.floor(epochMs / DAY);
  const kind = hash01(seed, def.code, 'sky', day);
  const slow = valueNoise(epochMs, 3 * HOUR, seed, def.code, 'cloud-slow');
  const fast = valueNoise(epochMs, 20 * 60_000, seed, def.code, 'cloud-fast');
  if (kind < 0.45) return 0.92 + 0.08 * fast; // clear
  if (kind < 0.8) return Math.max(0.2, 0.45 + 0.4 * slow + 0.15 * fast); // mixed
  return 0.2 + 0.2 * slow; // overcast
}

/** Global horizontal irradiance W/m² at the station. */
export function irradiance(def: StationDef, seed: number, epochMs: number): number {
  return clearSkyIrradiance(solarElevation(epochMs, def.latitude, def.longitude)) * cloudFactor(def, seed, epochMs);
}

/** 0–1 shape of a working day's load by local hour. */
function dayShape(profile: StationDef['load']['profile'], hour: number, weekend: boolean): number {
  const bump = (from: number, to: number, ramp: number) =>
    Math.max(0, Math.min(1, (hour - from) / ramp + 1, (to - hour) / ramp + 1));
  switch (profile) {
    case 'factory':
      // two shifts 06–22, lighter at weekends
      return bump(6, 22, 1) * (weekend ? 0.45 : 1);
    case 'office':
      return bump(8, 18.5, 1.5) * (weekend ? 0.15 : 1);
    case 'retail':
      return bump(9, 21.5, 1.5) * (weekend ? 1.1 : 0.9);
  }
}

/** Site load without the air conditioners, kW. */
export function baseLoad(def: StationDef, seed: number, epochMs: number): number {
  const local = localTime(epochMs, def.timeZone);
  const weekend = local.weekday === 0 || local.weekday === 6;
  const shape = dayShape(def.load.profile, local.minuteOfDay / 60, weekend);
  const slow = valueNoise(epochMs, 2 * HOUR, seed, def.code, 'load-slow') - 0.5;
  const fast = valueNoise(epochMs, 5 * 60_000, seed, def.code, 'load-fast') - 0.5;
  const span = def.load.peak - def.load.base;
  return Math.max(0, def.load.base + span * shape * (1 + 0.25 * slow) + span * 0.12 * fast);
}

/** Probability that an EV arrives at an idle gun within a 15-minute slot, by local hour. */
export function arrivalProbability(hour: number, weekend: boolean): number {
  let p: number;
  if (hour < 6) p = 0.02;
  else if (hour < 7) p = 0.08;
  else if (hour < 10) p = 0.22;
  else if (hour < 16) p = 0.14;
  else if (hour < 21) p = 0.26;
  else p = 0.07;
  return weekend ? p * 1.2 : p;
}
