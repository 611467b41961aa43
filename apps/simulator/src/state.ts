import { PRICE_PERIODS, localTime, type FirmwareInfo, type PricePeriod } from '@ess/contract';
import type { DeviceDef, Fleet, StationDef } from './fleet.ts';
import { hashRange } from './random.ts';
import { outdoorTemperature } from './environment.ts';
import type { Incident } from './incidents.ts';
import type { StrategyControls } from './strategy.ts';

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
  /** 0 auto (strategy), 1 manual, 2 standby (EMS_RUN_MODES). */
  runMode: 0 | 1 | 2;
  manualPowerSetpoint: number;
  /** End of a timed manual period (simulated epoch ms), 0 or absent = none (storage-mode.ts). */
  manualUntil?: number;
  chargePowerSetpoint: number;
  dischargePowerSetpoint: number;
  socUpperLimit: number;
  socLowerLimit: number;
  transformerProtectionPower: number;
  antiBackflow: boolean;
  /** 0 = none. */
  demandLimit: number;
  /** The demand target's margin, kW: the import stays at or under demandLimit − demandMargin (absent in state files of earlier versions: 0). */
  demandMargin?: number;
  pcsPowerLimit: number;
  /** Devices switched off (switch command), by code. */
  off: Record<string, boolean>;
  /** Devices in the middle of a reboot, by code. */
  rebooting: Record<string, boolean>;
  airConditioners: Record<string, AirConditionerControls>;
  pilePowerLimit: Record<string, number>;
  gunMaxPower: Record<string, number>;
  warnMask: Record<string, number>;
  /** The synchronised operation strategy and demand guard (strategy.ts); absent until the first command. */
  ems?: StrategyControls;
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
  /** Faults of the incidents running now (incidents.ts), by device code. */
  randomFaults: Record<string, string[]>;
  /** Devices not heard from now (an incident's communication loss), by code. */
  offline: Record<string, boolean>;
  /** Incidents running or about to start (incidents.ts). */
  incidents: Incident[];
  /** The last hour slot whose incidents were drawn. */
  incidentSlot: number;
  /** The BMS's SOC estimation error, points (estimate − true SOC; soc.ts). */
  socError: number;
  /** Calibrations of the SOC estimate so far (numbers the drift rates; soc.ts). */
  socCalibrations: number;
  /** Firmware flashed over the air (ota.ts), by device code; absent = the fleet's firmwareName/Version. */
  firmware?: Record<string, FirmwareInfo>;
}

export interface StationState {
  /** Static definition, shared between states (never mutated). */
  def: StationDef;
  dyn: StationDynamics;
}

export interface SimOptions {
  /**
   * The rate of the station's operating life (incidents.ts): expected faults per device per day
   * before the device type's weight; offline devices and cabinet communication losses scale with
   * it. Above 0 the BMS's SOC estimate also drifts between calibrations (soc.ts). 0 = none, an
   * ideal station (the default).
   */
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

function createStation(def: StationDef, seed: number, startMs: number): StationState {
  const local = localTime(startMs, def.timeZone);
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
      forward: zeroRegisters(),
      reverse: zeroRegisters(),
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
      acEnergy: 0,
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
      totalEnergy: 0,
      lastSlot: Math.floor(startMs / 900_000),
    };
    gunMaxPower[g.code] = g.ratedPower ?? 60;
    warnMask[g.code] = 0;
  }
  const pilePowerLimit: Record<string, number> = {};
  for (const p of devicesOf(def, 'chargingPile')) pilePowerLimit[p.code] = p.ratedPower ?? 120;

  const storagePower = def.storage.installedPower;
  const emptyFlows: Flows = {
    load: 0, aux: 0, irradiance: 0, outdoorTemperature: tOut, pvAc: 0, pvInverterAc: {}, pvInverterDc: {}, dcdcPv: 0, dcdcOut: 0,
    pcs: 0, battery: 0, pile: 0, pileAc: {}, grid: 0, strategy: 0, period: 'flat',
  };
  const counters = (): Counters => ({ pcsCharge: 0, pcsDischarge: 0, batteryCharge: 0, batteryDischarge: 0, pv: 0, load: 0, device: {}, pileSessions: {} });

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
      today: counters(),
      total: counters(),
      meters,
      cabinets,
      guns,
      transformerOilTemperature: tOut + 12,
      injectedFaults: {},
      autoFaults: {},
      randomFaults: {},
      offline: {},
      incidents: [],
      // The slot before the start's: the start's own slot is drawn at the first step.
      incidentSlot: Math.floor(startMs / 3_600_000) - 1,
      // Calibrated at commissioning.
      socError: 0,
      socCalibrations: 0,
    },
  };
}

/**
 * The state of a fleet at `startMs`, as on the day it was commissioned: mid-range SOC (seeded),
 * every register and counter at zero, so that what they read later is exactly what the station
 * did since (the demo commissions its stations where its history starts). A restarted simulator
 * continues from its state file (persist.ts), not from here.
 */
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

/**
 * Commissioning: every register and counter of the state back to zero, the physics (SOC,
 * temperatures, vehicles) as it is. The demo runs its stations for a day of commissioning tests
 * first, so that the SOC they start their recorded life with is the one their daily schedule
 * keeps at that hour; then the registers read exactly what the station did since. Returns a copy.
 */
export function commission(state: SimState): SimState {
  const zeroCounters = (): Counters => ({ pcsCharge: 0, pcsDischarge: 0, batteryCharge: 0, batteryDischarge: 0, pv: 0, load: 0, device: {}, pileSessions: {} });
  return {
    ...state,
    stations: state.stations.map(({ def, dyn }) => ({
      def,
      dyn: {
        ...dyn,
        today: zeroCounters(),
        total: zeroCounters(),
        meters: Object.fromEntries(
          Object.entries(dyn.meters).map(([code, m]) => [code, { ...m, forward: zeroRegisters(), reverse: zeroRegisters(), demandWindowEnergy: 0, maxDemand: 0, maxDemandTime: 0 }]),
        ),
        cabinets: Object.fromEntries(Object.entries(dyn.cabinets).map(([code, c]) => [code, { ...c, acEnergy: 0 }])),
        guns: Object.fromEntries(Object.entries(dyn.guns).map(([code, g]) => [code, { ...g, totalEnergy: 0, sessionEnergy: 0 }])),
      },
    })),
  };
}
