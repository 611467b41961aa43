import { PRICE_PERIODS, daysBetween, localTime, periodMinutesPerDay, periodMinutesUntil, type PricePeriod } from '@ess/contract';
import type { DeviceDef, Fleet, StationDef } from './fleet.ts';
import { hashRange } from './random.ts';
import { outdoorTemperature } from './environment.ts';

/**
 * The dynamic state of a simulated fleet. Plain JSON-able data: `step` clones it and returns
 * the next state, commands and faults change the `controls` and `faults` parts.
 */

export type Registers = Record<PricePeriod, number>;

export interface MeterState {
  /** kW, positive = forward (see METER_PURPOSES in the contract). */
  power: number;
  reactivePower: number;
  forward: Registers;
  reverse: Registers;
  demandWindowStart: number;
  demandWindowEnergy: number;
  demand: number;
  maxDemand: number;
  maxDemandTime: number;
}

export interface Vehicle {
  capacity: number;
  soc: number;
  targetSoc: number;
  maxPower: number;
}

export type GunPhase = 'idle' | 'plugged' | 'charging' | 'finished';

export interface GunState {
  phase: GunPhase;
  /** When the current plugged/finished phase ends. */
  phaseUntil: number;
  vehicle: Vehicle | null;
  sessionStart: number;
  sessionEnergy: number;
  /** kW DC delivered to the vehicle. */
  power: number;
  totalEnergy: number;
  /** Last 15-minute arrival slot already considered. */
  lastSlot: number;
}

export interface CabinetState {
  airTemperature: number;
  humidity: number;
  compressor: boolean;
  heater: boolean;
  /** Electric power of its air conditioner, kW. */
  acPower: number;
  acEnergy: number;
}

export interface AirConditionerControls {
  on: boolean;
  /** AIR_CONDITIONER_MODES value. */
  mode: number;
  setpoint: number;
  fanSpeed: number;
}

export interface StationControls {
  runMode: 0 | 1;
  manualPowerSetpoint: number;
  chargePowerSetpoint: number;
  dischargePowerSetpoint: number;
  socUpperLimit: number;
  socLowerLimit: number;
  transformerProtectionPower: number;
  antiBackflow: boolean;
  /** 0 = none. */
  demandLimit: number;
  pcsPowerLimit: number;
  /** Devices switched off (switch command), by code. */
  off: Record<string, boolean>;
  /** Devices in the middle of a reboot, by code. */
  rebooting: Record<string, boolean>;
  airConditioners: Record<string, AirConditionerControls>;
  pilePowerLimit: Record<string, number>;
  gunMaxPower: Record<string, number>;
  warnMask: Record<string, number>;
}

/** Instantaneous flows of the last sub-step, kW. */
export interface Flows {
  /** Site load including auxiliaries (air conditioners). */
  load: number;
  /** Air conditioners' part of load. */
  aux: number;
  irradiance: number;
  outdoorTemperature: number;
  /** AC-coupled PV output, total and per inverter (after curtailment). */
  pvAc: number;
  pvInverterAc: Record<string, number>;
  pvInverterDc: Record<string, number>;
  /** DC-coupled PV: PV side and DC-bus side of the DCDC (after curtailment). */
  dcdcPv: number;
  dcdcOut: number;
  /** PCS AC power, + discharge / − charge. */
  pcs: number;
  /** Battery DC power, + discharge / − charge. */
  battery: number;
  /** Charging piles' AC input, total and per pile. */
  pile: number;
  pileAc: Record<string, number>;
  /** Main meter, + import / − export. */
  grid: number;
  strategy: 0 | 1 | 2;
  period: PricePeriod;
}

export interface Counters {
  pcsCharge: number;
  pcsDischarge: number;
  batteryCharge: number;
  batteryDischarge: number;
  pv: number;
  load: number;
  /** per device code (dcdc, pv inverter, pile). */
  device: Record<string, number>;
  pileSessions: Record<string, number>;
}

export interface StationDynamics {
  dateKey: string;
  monthKey: string;
  /** Usable energy in the battery, kWh (capacity = installed × soh). */
  energy: number;
  soh: number;
  controls: StationControls;
  flows: Flows;
  today: Counters;
  total: Counters;
  meters: Record<string, MeterState>;
  cabinets: Record<string, CabinetState>;
  guns: Record<string, GunState>;
  transformerOilTemperature: number;
  /** Faults injected from outside (injectFault), by device code: they stay until cleared. */
  injectedFaults: Record<string, string[]>;
  /** Faults raised by thresholds (cell temperature, transformer load), with hysteresis. */
  autoFaults: Record<string, string[]>;
  /** Random demo faults (SimOptions.randomFaultsPerDevicePerDay) currently active. */
  randomFaults: Record<string, string[]>;
  /** Random fault instances ("code@slot") cleared early by faultRecover. */
  recoveredRandom: string[];
}

export interface StationState {
  /** Static definition, shared between states (never mutated). */
  def: StationDef;
  dyn: StationDynamics;
}

export interface SimOptions {
  /** Expected random faults per device per day (0 = none, the default). */
  randomFaultsPerDevicePerDay: number;
}

export interface SimState {
  seed: number;
  timeMs: number;
  options: SimOptions;
  stations: StationState[];
}

const zeroRegisters = (): Registers => Object.fromEntries(PRICE_PERIODS.map((p) => [p, 0])) as Registers;

export function capacityOf(def: StationDef, dyn: Pick<StationDynamics, 'soh'>): number {
  return def.storage.installedEnergy * dyn.soh;
}

export function socOf(def: StationDef, dyn: StationDynamics): number {
  return (dyn.energy / capacityOf(def, dyn)) * 100;
}

const byType = new WeakMap<StationDef, Map<DeviceDef['type'], DeviceDef[]>>();

/** A station's devices of one type, in definition order (cached: definitions are immutable). */
export function devicesOf(def: StationDef, type: DeviceDef['type']): DeviceDef[] {
  let m = byType.get(def);
  if (!m) {
    m = new Map();
    for (const d of def.devices) m.set(d.type, [...(m.get(d.type) ?? []), d]);
    byType.set(def, m);
  }
  return m.get(type) ?? [];
}

/** Hours spent in each period from the commissioning date's midnight to an instant (station-local). */
function periodHoursSince(def: StationDef, epochMs: number): Registers {
  const local = localTime(epochMs, def.timeZone);
  const days = Math.max(0, daysBetween(def.commissioningDate, local.dateKey));
  const perDay = periodMinutesPerDay(def.touSchedule);
  const today = periodMinutesUntil(def.touSchedule, local.minuteOfDay);
  const out = zeroRegisters();
  for (const p of PRICE_PERIODS) out[p] = (days * perDay[p] + today[p]) / 60;
  return out;
}

const CHARGE_PERIODS: readonly PricePeriod[] = ['valley', 'deepValley'];
const DISCHARGE_PERIODS: readonly PricePeriod[] = ['peak', 'tip'];

/**
 * Typical average power (kW) a meter counts in a period, for the registers' starting values: as if
 * the station had run since commissioning. Continuity across simulator restarts comes from the
 * state file (main.ts), not from these.
 */
function typicalMeterPower(def: StationDef, purpose: DeviceDef['meterPurpose'], dir: 'forward' | 'reverse', period: PricePeriod): number {
  const storage = def.storage.installedPower;
  const charging = CHARGE_PERIODS.includes(period);
  const discharging = DISCHARGE_PERIODS.includes(period);
  const pile = (def.charging?.pileCount ?? 0) * (def.charging?.pileRatedPower ?? 0) * 0.25;
  const pv = (def.pv?.peakPower ?? 0) * 0.16;
  switch (purpose) {
    case 'main': {
      if (dir === 'reverse') return 0;
      const load = (def.load.base + def.load.peak) / 2;
      return Math.max(load * 0.2, load + pile - pv + (charging ? storage * 0.35 : 0) - (discharging ? storage * 0.3 : 0));
    }
    case 'storage':
      if (dir === 'forward') return charging ? storage * 0.35 : storage * 0.01;
      return discharging ? storage * 0.3 : storage * 0.005;
    case 'pv':
      return dir === 'forward' ? pv : 0;
    case 'pile':
      return dir === 'forward' ? pile : 0;
    case undefined:
      return 0;
  }
}

function baselineRegisters(def: StationDef, purpose: DeviceDef['meterPurpose'], dir: 'forward' | 'reverse', hours: Registers): Registers {
  const out = zeroRegisters();
  for (const p of PRICE_PERIODS) out[p] = hours[p] * typicalMeterPower(def, purpose, dir, p);
  return out;
}

function createStation(def: StationDef, seed: number, startMs: number): StationState {
  const local = localTime(startMs, def.timeZone);
  const hours = periodHoursSince(def, startMs);
  const elapsedHours = Object.values(hours).reduce((a, b) => a + b, 0);
  const soh = def.storage.soh;
  const capacity = def.storage.installedEnergy * soh;
  const dod = def.storage.depthOfDischarge;
  const socLower = Math.round(((1 - dod) / 2) * 1000) / 10;
  const socUpper = 100 - socLower;
  const soc0 = hashRange(35, 65, seed, def.code, 'soc0');

  const meters: Record<string, MeterState> = {};
  for (const m of devicesOf(def, 'meter')) {
    meters[m.code] = {
      power: 0,
      reactivePower: 0,
      forward: baselineRegisters(def, m.meterPurpose, 'forward', hours),
      reverse: baselineRegisters(def, m.meterPurpose, 'reverse', hours),
      demandWindowStart: Math.floor(startMs / 900_000) * 900_000,
      demandWindowEnergy: 0,
      demand: 0,
      maxDemand: 0,
      maxDemandTime: 0,
    };
  }

  const tOut = outdoorTemperature(def, seed, startMs);
  const cabinets: Record<string, CabinetState> = {};
  for (const c of def.cabinets) {
    cabinets[c.code] = {
      airTemperature: 24 + hashRange(-1, 1, seed, c.code, 't0'),
      humidity: 55,
      compressor: false,
      heater: false,
      acPower: 0,
      acEnergy: elapsedHours * 1.2,
    };
  }

  const airConditioners: Record<string, AirConditionerControls> = {};
  for (const ac of devicesOf(def, 'airConditioner')) airConditioners[ac.code] = { on: true, mode: 5, setpoint: 25, fanSpeed: 0 };

  const guns: Record<string, GunState> = {};
  const gunMaxPower: Record<string, number> = {};
  const warnMask: Record<string, number> = {};
  for (const g of devicesOf(def, 'chargingGun')) {
    guns[g.code] = {
      phase: 'idle', phaseUntil: 0, vehicle: null, sessionStart: 0, sessionEnergy: 0, power: 0,
      totalEnergy: elapsedHours * (g.ratedPower ?? 0) * 0.25,
      lastSlot: Math.floor(startMs / 900_000),
    };
    gunMaxPower[g.code] = g.ratedPower ?? 60;
    warnMask[g.code] = 0;
  }
  const pilePowerLimit: Record<string, number> = {};
  for (const p of devicesOf(def, 'chargingPile')) pilePowerLimit[p.code] = p.ratedPower ?? 120;

  const storagePower = def.storage.installedPower;
  const totalDevice: Record<string, number> = {};
  for (const d of def.devices) {
    if (d.type === 'dcdc' || d.type === 'pvInverter') totalDevice[d.code] = elapsedHours * (d.ratedPower ?? 0) * 0.16;
    if (d.type === 'chargingPile') totalDevice[d.code] = elapsedHours * (d.ratedPower ?? 0) * 0.25;
  }
  const emptyFlows: Flows = {
    load: 0, aux: 0, irradiance: 0, outdoorTemperature: tOut, pvAc: 0, pvInverterAc: {}, pvInverterDc: {}, dcdcPv: 0, dcdcOut: 0,
    pcs: 0, battery: 0, pile: 0, pileAc: {}, grid: 0, strategy: 0, period: 'flat',
  };
  // About 1.5 full cycles a day since commissioning.
  const dailyThroughput = def.storage.installedEnergy * def.storage.depthOfDischarge * 1.5;
  const days = elapsedHours / 24;
  const counters = (scale: number): Counters => ({
    pcsCharge: days * dailyThroughput * scale,
    pcsDischarge: days * dailyThroughput * 0.89 * scale,
    batteryCharge: days * dailyThroughput * 0.975 * scale,
    batteryDischarge: days * dailyThroughput * 0.915 * scale,
    pv: elapsedHours * (def.pv?.peakPower ?? 0) * 0.16 * scale,
    load: elapsedHours * ((def.load.base + def.load.peak) / 2) * scale,
    device: scale ? totalDevice : {},
    pileSessions: {},
  });

  return {
    def,
    dyn: {
      dateKey: local.dateKey,
      monthKey: local.monthKey,
      energy: (capacity * soc0) / 100,
      soh,
      controls: {
        runMode: 0,
        manualPowerSetpoint: 0,
        chargePowerSetpoint: storagePower,
        dischargePowerSetpoint: storagePower,
        socUpperLimit: socUpper,
        socLowerLimit: socLower,
        transformerProtectionPower: def.transformer.protectionPower,
        antiBackflow: true,
        demandLimit: 0,
        pcsPowerLimit: storagePower,
        off: {},
        rebooting: {},
        airConditioners,
        pilePowerLimit,
        gunMaxPower,
        warnMask,
      },
      flows: emptyFlows,
      today: counters(0),
      total: counters(1),
      meters,
      cabinets,
      guns,
      transformerOilTemperature: tOut + 12,
      injectedFaults: {},
      autoFaults: {},
      randomFaults: {},
      recoveredRandom: [],
    },
  };
}

/** The state of a fleet at `startMs`: mid-range SOC (seeded), registers as if running since commissioning. */
export function createState(fleet: Fleet, startMs: number, options: Partial<SimOptions> = {}): SimState {
  return {
    seed: fleet.seed,
    timeMs: startMs,
    options: { randomFaultsPerDevicePerDay: options.randomFaultsPerDevicePerDay ?? 0 },
    stations: fleet.stations.map((def) => createStation(def, fleet.seed, startMs)),
  };
}

export function findStation(state: SimState, deviceCode: string): { station: StationState; device: DeviceDef } | null {
  for (const station of state.stations) {
    const device = station.def.devices.find((d) => d.code === deviceCode);
    if (device) return { station, device };
  }
  return null;
}

/** Injected ∪ threshold ∪ random faults of a device. */
export function activeFaults(dyn: StationDynamics, deviceCode: string): string[] {
  const set = new Set([
    ...(dyn.injectedFaults[deviceCode] ?? []),
    ...(dyn.autoFaults[deviceCode] ?? []),
    ...(dyn.randomFaults[deviceCode] ?? []),
  ]);
  return [...set].sort();
}

export function hasFault(dyn: StationDynamics, deviceCode: string): boolean {
  return (
    (dyn.injectedFaults[deviceCode]?.length ?? 0) > 0 ||
    (dyn.autoFaults[deviceCode]?.length ?? 0) > 0 ||
    (dyn.randomFaults[deviceCode]?.length ?? 0) > 0
  );
}
