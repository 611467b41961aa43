import { THING_MODEL, type DeviceType } from '@ess/contract';
import type { DeviceDef, StationDef } from './fleet.ts';
import { hash01, hashRange } from './random.ts';
import type { StationDynamics } from './state.ts';
import { devicesOf } from './state.ts';

/**
 * The operating life of a station: things that go wrong now and then, as real stations see them.
 *
 * - **Faults** of the thing models' fault codes. A transient one (a grid voltage excursion, a
 *   sensor glitch, a vehicle that stops answering) clears by itself within minutes; a latched one
 *   (an IGBT fault, a contactor, an emergency stop) stays until a reset: the console's fault
 *   recover command, or the site technician's visit some hours later (seeded), whichever is first.
 * - **A device dropping offline** for some minutes: its gateway stops hearing it, so nothing is
 *   published for it; where the thing model has a communication-loss code on the device that
 *   supervises it (the EMS for its PCS, the BMS for a battery cluster, a meter's own), that code
 *   is raised meanwhile.
 * - **Communication loss of a whole energy cabinet** (its cluster, packs and air conditioner) for
 *   half an hour to two hours, with the BMS raising its cluster-communication fault; rarer.
 *
 * Threshold faults (cell over-temperature, transformer overload) come from the physics (step.ts),
 * not from here. Each incident starts in an hour slot with a probability set by the rate
 * (SimOptions.randomFaultsPerDevicePerDay, weighted per device type), at a seeded minute, and lasts
 * a seeded time: a pure function of the seed, the device and the slot, so the same seed plays the
 * same life whatever the step size. The state keeps the incidents running (so a reset can end one
 * early) and the last slot it looked at.
 */

/** The CLI's and the demo's rate (SIM_FAULT_RATE): a few faults per station per day. */
export const DEFAULT_FAULT_RATE = 0.1;

export type IncidentKind = 'fault' | 'offline' | 'cabinetCommLoss';

export interface Incident {
  id: string;
  kind: IncidentKind;
  /** The device at fault, the device dropping offline, or the cabinet's code. */
  subject: string;
  /** The fault code raised, and on which device (null: none). */
  code: string | null;
  codeDevice: string | null;
  /** Devices not heard from meanwhile. */
  silent: string[];
  start: number;
  end: number;
  /** Stays until a reset (or the technician's visit at `end`). */
  latched: boolean;
}

const HOUR = 3_600_000;
const MIN = 60_000;

/**
 * Fault codes that are played as random incidents: transient (clear by themselves) or latched (need
 * a reset). Codes not listed come from the physics (over-temperature, overload) or from the
 * communication incidents (…_COMM_LOST), or are installation errors (a reversed string).
 */
export const TRANSIENT_FAULTS: ReadonlySet<string> = new Set([
  'EMS_STRATEGY_ERROR', 'PCS_GRID_OVERVOLTAGE', 'PCS_GRID_UNDERVOLTAGE', 'PCS_OVER_TEMPERATURE', 'CLUSTER_CURRENT_IMBALANCE',
  'PACK_CELL_VOLTAGE_DIFF', 'PACK_BALANCING_FAULT', 'AC_HIGH_PRESSURE', 'AC_SENSOR_FAULT', 'DCDC_OVER_TEMPERATURE', 'DCDC_PV_OVERVOLTAGE',
  'PV_GRID_LOST', 'PV_OVER_TEMPERATURE', 'METER_PHASE_LOSS', 'PILE_OVER_TEMPERATURE', 'GUN_OVER_TEMPERATURE', 'GUN_BMS_COMM_LOST',
]);
export const LATCHED_FAULTS: ReadonlySet<string> = new Set([
  'PCS_DC_OVERCURRENT', 'PCS_IGBT_FAULT', 'PCS_FAN_FAULT', 'BMS_INSULATION_LOW', 'CLUSTER_CONTACTOR_FAULT', 'PACK_TEMPERATURE_SENSOR_FAULT',
  'AC_COMPRESSOR_FAULT', 'DCDC_HARDWARE_FAULT', 'PV_ISOLATION_FAULT', 'PILE_EMERGENCY_STOP', 'PILE_INSULATION_FAULT', 'GUN_LOCK_FAULT',
]);

/**
 * Relative fault frequency per device type (× the rate per device per day): converters, piles and
 * air conditioners fail more often than a battery pack's electronics, of which there are many.
 */
const FAULT_WEIGHT: Record<DeviceType, number> = {
  ems: 1, pcs: 2, bms: 0.5, batteryCluster: 1, batteryPack: 0.25, airConditioner: 2, dcdc: 2, pvInverter: 2, transformer: 0,
  meter: 1, chargingPile: 3, chargingGun: 2,
};
/** A device dropping offline: this many times the fault rate, per device. */
const OFFLINE_FACTOR = 0.25;
/** A whole cabinet's communication loss: this many times the fault rate, per cabinet. */
const CABINET_FACTOR = 0.15;
/** Of the faults of a device type that has both kinds, this share is latched. */
const LATCHED_SHARE = 0.3;

/** The communication-loss code raised while a device is offline, and on which device. */
function commLoss(def: StationDef, device: DeviceDef): { code: string; device: string } | null {
  switch (device.type) {
    case 'pcs': {
      const ems = devicesOf(def, 'ems')[0];
      return ems ? { code: 'EMS_COMM_LOST', device: ems.code } : null;
    }
    case 'batteryCluster': {
      const bms = devicesOf(def, 'bms')[0];
      return bms ? { code: 'BMS_COMM_LOST', device: bms.code } : null;
    }
    case 'meter':
      return { code: 'METER_COMM_LOST', device: device.code };
    case 'ems':
    case 'bms':
    case 'batteryPack':
    case 'airConditioner':
    case 'dcdc':
    case 'pvInverter':
    case 'transformer':
    case 'chargingPile':
    case 'chargingGun':
      return null;
  }
}

const faultCodes = new Map<DeviceType, { transient: string[]; latched: string[] }>();
function randomCodes(type: DeviceType): { transient: string[]; latched: string[] } {
  let codes = faultCodes.get(type);
  if (!codes) {
    const all = THING_MODEL[type].events.map((e) => e.code);
    codes = { transient: all.filter((c) => TRANSIENT_FAULTS.has(c)), latched: all.filter((c) => LATCHED_FAULTS.has(c)) };
    faultCodes.set(type, codes);
  }
  return codes;
}

/** The incidents starting in hour slot `k` of a station (a pure function of the seed, the station and k). */
export function incidentsOfSlot(def: StationDef, seed: number, k: number, ratePerDay: number): Incident[] {
  if (ratePerDay <= 0) return [];
  const out: Incident[] = [];
  const slotStart = k * HOUR;
  for (const d of def.devices) {
    const codes = randomCodes(d.type);
    const weight = FAULT_WEIGHT[d.type];
    if (codes.transient.length + codes.latched.length > 0 && weight > 0 && hash01(seed, d.code, 'fault', k) < (ratePerDay * weight) / 24) {
      const latched = codes.transient.length === 0 || (codes.latched.length > 0 && hash01(seed, d.code, 'fault-latched', k) < LATCHED_SHARE);
      const list = latched ? codes.latched : codes.transient;
      const code = list[Math.floor(hash01(seed, d.code, 'fault-code', k) * list.length)]!;
      const start = slotStart + Math.floor(hashRange(0, 59 * MIN, seed, d.code, 'fault-start', k));
      // A transient fault lasts minutes; a latched one until the technician comes (unless reset first).
      const length = latched ? hashRange(3 * HOUR, 30 * HOUR, seed, d.code, 'fault-len', k) : hashRange(2 * MIN, 25 * MIN, seed, d.code, 'fault-len', k);
      out.push({ id: `${d.code}:${code}@${k}`, kind: 'fault', subject: d.code, code, codeDevice: d.code, silent: [], start, end: start + Math.floor(length), latched });
    }
    if (d.type !== 'ems' && hash01(seed, d.code, 'offline', k) < (ratePerDay * OFFLINE_FACTOR) / 24) {
      const loss = commLoss(def, d);
      const start = slotStart + Math.floor(hashRange(0, 59 * MIN, seed, d.code, 'offline-start', k));
      const end = start + Math.floor(hashRange(3 * MIN, 20 * MIN, seed, d.code, 'offline-len', k));
      out.push({ id: `${d.code}:offline@${k}`, kind: 'offline', subject: d.code, code: loss?.code ?? null, codeDevice: loss?.device ?? null, silent: [d.code], start, end, latched: false });
    }
  }
  const bms = devicesOf(def, 'bms')[0];
  for (const cab of def.cabinets) {
    if (hash01(seed, cab.code, 'cabinet-comm', k) >= (ratePerDay * CABINET_FACTOR) / 24) continue;
    const start = slotStart + Math.floor(hashRange(0, 59 * MIN, seed, cab.code, 'cabinet-comm-start', k));
    const end = start + Math.floor(hashRange(30 * MIN, 120 * MIN, seed, cab.code, 'cabinet-comm-len', k));
    const silent = def.devices.filter((d) => d.cabinetCode === cab.code).map((d) => d.code);
    out.push({
      id: `${cab.code}:comm@${k}`, kind: 'cabinetCommLoss', subject: cab.code, code: bms ? 'BMS_COMM_LOST' : null, codeDevice: bms?.code ?? null,
      silent, start, end, latched: false,
    });
  }
  return out;
}

/**
 * Brings the station's incidents to instant t: the slots up to t's are looked at once each, the
 * incidents over are dropped, and the faults and silent devices of those running now are set.
 * Idempotent for the same t, so it does not matter how often it is called.
 */
export function updateIncidents(def: StationDef, dyn: StationDynamics, seed: number, t: number, ratePerDay: number): void {
  const slot = Math.floor(t / HOUR);
  if (ratePerDay > 0) {
    for (let k = dyn.incidentSlot + 1; k <= slot; k++) dyn.incidents.push(...incidentsOfSlot(def, seed, k, ratePerDay));
  }
  dyn.incidentSlot = Math.max(dyn.incidentSlot, slot);
  dyn.incidents = dyn.incidents.filter((i) => i.end > t);
  const faults: Record<string, string[]> = {};
  const offline: Record<string, boolean> = {};
  for (const i of dyn.incidents) {
    if (i.start > t) continue;
    if (i.code && i.codeDevice) {
      const list = (faults[i.codeDevice] ??= []);
      if (!list.includes(i.code)) list.push(i.code);
    }
    for (const code of i.silent) offline[code] = true;
  }
  dyn.randomFaults = faults;
  dyn.offline = offline;
}

/**
 * A reset (fault recover) of a device at t: its fault incidents (one code, or all) end now;
 * communication losses are not faults of the device and go on. Returns the codes ended.
 */
export function resetIncidents(dyn: StationDynamics, deviceCode: string, t: number, code?: string): string[] {
  const ended: string[] = [];
  for (const i of dyn.incidents) {
    if (i.kind !== 'fault' || i.codeDevice !== deviceCode || i.start > t || i.end <= t) continue;
    if (code !== undefined && i.code !== code) continue;
    i.end = t;
    if (i.code) ended.push(i.code);
  }
  return ended;
}
