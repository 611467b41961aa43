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

/**
 * A cell's fixed, seeded offsets (its SOC spread, resistance factor, voltage offset and temperature
 * offset): pure functions of the seed and the cell's name, hashed once per station and seed rather
 * than at every reading (a station has thousands of cells; the demo's history reads them every
 * 5 minutes for weeks).
 */
interface CellConstants {
  soc: number;
  r: number;
  v: number;
  t: number;
}
const constants = new WeakMap<StationDef, Map<number, Map<number, CellConstants[][]>>>();

function cellConstants(def: StationDef, seed: number, clusterNo: number, packNo: number): CellConstants[] {
  let bySeed = constants.get(def);
  if (!bySeed) constants.set(def, (bySeed = new Map<number, Map<number, CellConstants[][]>>()));
  let byCluster = bySeed.get(seed);
  if (!byCluster) bySeed.set(seed, (byCluster = new Map<number, CellConstants[][]>()));
  let packs = byCluster.get(clusterNo);
  if (!packs) byCluster.set(clusterNo, (packs = []));
  let cells = packs[packNo];
  if (!cells) {
    cells = [];
    for (let n = 1; n <= def.storage.cellsPerPack; n++) {
      cells.push({
        soc: hashNormal(seed, def.code, 'cell-soc', clusterNo, packNo, n) * 0.6,
        r: CELL_R * (1 + hashRange(0, 0.3, seed, def.code, 'cell-r', clusterNo, packNo, n)),
        v: hashRange(-0.002, 0.002, seed, def.code, 'cell-v', clusterNo, packNo, n),
        t: hashNormal(seed, def.code, 'cell-t', clusterNo, packNo, n) * 0.35,
      });
    }
    packs[packNo] = cells;
  }
  return cells;
}

function voltageOf(k: CellConstants, packSocValue: number, current: number): number {
  return clamp(ocv(packSocValue + k.soc) - current * k.r + k.v, CELL_MIN_V, CELL_MAX_V);
}

export function cellVoltage(def: StationDef, dyn: StationDynamics, seed: number, clusterNo: number, packNo: number, cellNo: number): number {
  const k = cellConstants(def, seed, clusterNo, packNo)[cellNo - 1]!;
  return voltageOf(k, packSoc(def, dyn, seed, clusterNo, packNo), clusterCurrent(def, dyn, seed, clusterNo));
}

/** Extra cell temperature from current (I²R heating against the pack's thermal paths), K. */
function currentHeating(def: StationDef, dyn: StationDynamics, seed: number, clusterNo: number): number {
  const ratedCurrent = def.storage.cellCapacityAh * 0.5;
  const x = clusterCurrent(def, dyn, seed, clusterNo) / ratedCurrent;
  return 5 * x * x;
}

const rackPosition = (def: StationDef, packNo: number) => 1.2 * Math.sin((Math.PI * packNo) / (def.storage.packsPerCluster + 1));

export function cellTemperature(
  def: StationDef, dyn: StationDynamics, seed: number, cabinetTemperature: number, clusterNo: number, packNo: number, cellNo: number,
): number {
  const k = cellConstants(def, seed, clusterNo, packNo)[cellNo - 1]!;
  return cabinetTemperature + 1 + currentHeating(def, dyn, seed, clusterNo) + rackPosition(def, packNo) + k.t;
}

/**
 * Every cell of a pack at once: the same values as cellVoltage and cellTemperature cell by cell,
 * with the pack's SOC and the cluster's current worked out once.
 */
export function packCells(
  def: StationDef, dyn: StationDynamics, seed: number, cabinetTemperature: number, clusterNo: number, packNo: number,
): { voltage: number[]; temperature: number[] } {
  const soc = packSoc(def, dyn, seed, clusterNo, packNo);
  const current = clusterCurrent(def, dyn, seed, clusterNo);
  const warm = cabinetTemperature + 1 + currentHeating(def, dyn, seed, clusterNo) + rackPosition(def, packNo);
  const ks = cellConstants(def, seed, clusterNo, packNo);
  return { voltage: ks.map((k) => voltageOf(k, soc, current)), temperature: ks.map((k) => warm + k.t) };
}

/** An upper bound of any cell's temperature in a cluster (for the over-temperature threshold). */
export function hottestCellEstimate(def: StationDef, dyn: StationDynamics, seed: number, cabinetTemperature: number, clusterNo: number): number {
  return cabinetTemperature + 1 + currentHeating(def, dyn, seed, clusterNo) + 1.2 + 1.4;
}
