import type { StationDef } from './fleet.ts';
import { hashNormal, hashRange } from './random.ts';
import type { StationDynamics } from './state.ts';
import { socOf } from './state.ts';

/**
 * LFP cells. A cell is not a device: each battery pack reports its cells as numbered
 * identifiers cellVoltage1…16 and cellTemperature1…16. A cell's voltage is the open-circuit
 * voltage of its SOC (the pack's SOC plus a fixed seeded spread) minus its current times its
 * internal resistance; its temperature is the cabinet air plus current heating plus offsets.
 */

export const CELL_MIN_V = 2.8;
export const CELL_MAX_V = 3.65;
/** Cell internal resistance, Ω (280 Ah prismatic LFP). */
const CELL_R = 0.00025;

/** Open-circuit voltage of an LFP cell by SOC %. */
const OCV: readonly [number, number][] = [
  [0, 2.85], [2, 3.0], [5, 3.12], [10, 3.2], [20, 3.245], [30, 3.265], [40, 3.28], [50, 3.29],
  [60, 3.3], [70, 3.315], [80, 3.33], [90, 3.345], [95, 3.37], [98, 3.41], [100, 3.48],
];

export function ocv(soc: number): number {
  const s = Math.max(0, Math.min(100, soc));
  for (let i = 1; i < OCV.length; i++) {
    const [s1, v1] = OCV[i]!;
    const [s0, v0] = OCV[i - 1]!;
    if (s <= s1) return v0 + ((v1 - v0) * (s - s0)) / (s1 - s0);
  }
  return OCV[OCV.length - 1]![1];
}

export const clamp = (x: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, x));

export function seriesCellsPerCluster(def: StationDef): number {
  return def.storage.packsPerCluster * def.storage.cellsPerPack;
}

export function clusterSoc(def: StationDef, dyn: StationDynamics, seed: number, clusterNo: number): number {
  return clamp(socOf(def, dyn) + hashRange(-0.8, 0.8, seed, def.code, 'cluster-soc', clusterNo), 0, 100);
}

export function packSoc(def: StationDef, dyn: StationDynamics, seed: number, clusterNo: number, packNo: number): number {
  return clamp(clusterSoc(def, dyn, seed, clusterNo) + hashRange(-0.3, 0.3, seed, def.code, 'pack-soc', clusterNo, packNo), 0, 100);
}

/** Cluster DC bus voltage at rest, V. */
export function clusterOpenVoltage(def: StationDef, dyn: StationDynamics, seed: number, clusterNo: number): number {
  return seriesCellsPerCluster(def) * ocv(clusterSoc(def, dyn, seed, clusterNo));
}

/** Cluster current, A, + discharge: the battery power shared over clusters with a small fixed imbalance. */
export function clusterCurrent(def: StationDef, dyn: StationDynamics, seed: number, clusterNo: number): number {
  const n = def.storage.clusterCount;
  const share = (dyn.flows.battery * 1000) / n;
  const v = clusterOpenVoltage(def, dyn, seed, clusterNo);
  return (share / v) * (1 + hashRange(-0.015, 0.015, seed, def.code, 'cluster-imbalance', clusterNo));
}

export function cellVoltage(def: StationDef, dyn: StationDynamics, seed: number, clusterNo: number, packNo: number, cellNo: number): number {
  const soc = packSoc(def, dyn, seed, clusterNo, packNo) + hashNormal(seed, def.code, 'cell-soc', clusterNo, packNo, cellNo) * 0.6;
  const r = CELL_R * (1 + hashRange(0, 0.3, seed, def.code, 'cell-r', clusterNo, packNo, cellNo));
  const v = ocv(soc) - clusterCurrent(def, dyn, seed, clusterNo) * r + hashRange(-0.002, 0.002, seed, def.code, 'cell-v', clusterNo, packNo, cellNo);
  return clamp(v, CELL_MIN_V, CELL_MAX_V);
}

/** Extra cell temperature from current (I²R heating against the pack's thermal paths), K. */
function currentHeating(def: StationDef, dyn: StationDynamics, seed: number, clusterNo: number): number {
  const ratedCurrent = def.storage.cellCapacityAh * 0.5;
  const x = clusterCurrent(def, dyn, seed, clusterNo) / ratedCurrent;
  return 5 * x * x;
}

export function cellTemperature(
  def: StationDef, dyn: StationDynamics, seed: number, cabinetTemperature: number, clusterNo: number, packNo: number, cellNo: number,
): number {
  const n = def.storage.packsPerCluster;
  const rackPosition = 1.2 * Math.sin((Math.PI * packNo) / (n + 1));
  return (
    cabinetTemperature + 1 + currentHeating(def, dyn, seed, clusterNo) + rackPosition +
    hashNormal(seed, def.code, 'cell-t', clusterNo, packNo, cellNo) * 0.35
  );
}

/** An upper bound of any cell's temperature in a cluster (for the over-temperature threshold). */
export function hottestCellEstimate(def: StationDef, dyn: StationDynamics, seed: number, cabinetTemperature: number, clusterNo: number): number {
  return cabinetTemperature + 1 + currentHeating(def, dyn, seed, clusterNo) + 1.2 + 1.4;
}
