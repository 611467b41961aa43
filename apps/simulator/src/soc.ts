import type { StationDef } from './fleet.ts';
import { hash01, hashRange } from './random.ts';
import type { StationDynamics } from './state.ts';
import { socOf } from './state.ts';

/**
 * The BMS's SOC estimate, and why a real LFP station now and then reaches its SOC limits.
 *
 * The BMS counts coulombs: its SOC is the last calibration point plus the charge counted since.
 * The count drifts (the current sensor's gain and offset, the cells' coulombic efficiency), and on
 * LFP the open-circuit voltage is flat between about 10 % and 95 %, so the voltage cannot correct
 * it there. Only the two ends of the curve are steep: when the real pack reaches the top knee
 * (cells past ~3.45 V at rest, the charge cut-off) the BMS recalibrates to full; when it reaches
 * the bottom knee (the weakest cells down to ~2.9 V under load) its low-voltage protection
 * corrects the estimate down to where the pack really is. Between the two, the error grows with
 * every kWh moved.
 *
 * The EMS dispatches on the estimate and keeps it inside socLowerLimit…socUpperLimit. With the
 * estimate a few points above the truth, the evening discharge runs the real pack down to the
 * bottom knee before the estimate reaches the lower limit: the BMS then corrects its SOC to ~3 %
 * (below the lower limit, so the PCS is derated to no discharge) and reports that until the next
 * charge. With the estimate a few points below the truth, the night charge fills the real pack
 * before the estimate reaches the upper limit: the BMS recalibrates to ~99 % (above the upper
 * limit, no more charge) and reports that until the next discharge takes it down.
 *
 * The error is `dyn.socError` (estimate − truth, points of SOC). After each calibration the BMS
 * counts with a new seeded drift rate (per calibration number, `dyn.socCalibrations`): its size
 * 0.2–0.8 % of the SOC moved (a 0.5 % class current measurement), its sign either way. A station
 * cycling 5 %↔95 % once or twice a day therefore meets a knee every two to five days: a handful of
 * SOC-limit episodes per station in two weeks. The drift is a function of the seed, the calibration
 * number and the energy moved, stepped per minute like the rest of the physics, so it does not
 * depend on the step size. The operating life's rate (SimOptions.randomFaultsPerDevicePerDay) at
 * 0 plays an ideal BMS: no drift.
 */

/** True SOC, %, of the bottom knee of the LFP curve: OCV ~3.04 V, the weakest cells ~2.9 V under load. */
export const SOC_LOW_KNEE = 3;
/** True SOC, %, at which the real pack reaches the top knee (OCV ~3.45 V, charge cut-off). */
export const SOC_HIGH_KNEE = 99;
/** Size of the drift rate after a calibration: this share of the SOC moved. */
const DRIFT_MIN = 0.002;
const DRIFT_MAX = 0.008;

/** What the BMS reports as the SOC, %: the truth plus its estimation error. */
export function estimatedSoc(def: StationDef, dyn: StationDynamics): number {
  return Math.max(0, Math.min(100, socOf(def, dyn) + dyn.socError));
}

/** The drift of the estimate per point of true SOC moved, after calibration number `n` (signed). */
export function socDriftRate(seed: number, stationCode: string, n: number): number {
  const size = hashRange(DRIFT_MIN, DRIFT_MAX, seed, stationCode, 'soc-drift', n);
  return hash01(seed, stationCode, 'soc-drift-sign', n) < 0.5 ? -size : size;
}

/**
 * After the battery moved from `socBefore` to the present true SOC: the estimate drifts by the
 * calibration's rate (when `drift`), and a knee crossed in the direction of travel calibrates it
 * (estimate = truth, the next calibration number). Returns the knee crossed, if any.
 */
export function trackSocEstimate(def: StationDef, dyn: StationDynamics, seed: number, socBefore: number, drift: boolean): 'low' | 'high' | null {
  const soc = socOf(def, dyn);
  if (drift) dyn.socError += socDriftRate(seed, def.code, dyn.socCalibrations) * Math.abs(soc - socBefore);
  const knee = socBefore > SOC_LOW_KNEE && soc <= SOC_LOW_KNEE ? 'low' : socBefore < SOC_HIGH_KNEE && soc >= SOC_HIGH_KNEE ? 'high' : null;
  if (knee) {
    dyn.socError = 0;
    dyn.socCalibrations += 1;
  }
  return knee;
}
