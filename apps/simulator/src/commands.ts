import type { CommandPayload, DeviceType, TelemetryValue, ThingProperty } from '@ess/contract';
import { THING_MODEL, writableProperties } from '@ess/contract';
import type { DeviceDef } from './fleet.ts';
import type { AirConditionerControls, SimState, StationState } from './state.ts';
import { activeFaults } from './state.ts';
import { resetIncidents } from './incidents.ts';
import { applyStorageMode } from './storage-mode.ts';
import { allowedBatteryPower } from './step.ts';
import { applyStrategy, demandGuard, strategyPropertyWritten } from './strategy.ts';

/** What a device answers, and whether the agent must now play a reboot. */
export interface CommandOutcome {
  ok: boolean;
  result?: Record<string, unknown>;
  error?: string;
  reboot?: boolean;
}

const fail = (error: string): CommandOutcome => ({ ok: false, error });

function checkValue(prop: ThingProperty, value: TelemetryValue): string | null {
  switch (prop.dataType) {
    case 'bool':
      return typeof value === 'boolean' ? null : `${prop.identifier} must be a boolean`;
    case 'enum':
      return typeof value === 'number' && (prop.enumValues ?? []).some((e) => e.value === value)
        ? null
        : `${prop.identifier} must be one of ${(prop.enumValues ?? []).map((e) => e.value).join(', ')}`;
    case 'int':
    case 'float': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${prop.identifier} must be a number`;
      if (prop.dataType === 'int' && !Number.isInteger(value)) return `${prop.identifier} must be an integer`;
      if ((prop.min !== undefined && value < prop.min) || (prop.max !== undefined && value > prop.max)) {
        return `${prop.identifier} must be within ${prop.min ?? '-∞'}..${prop.max ?? '∞'}`;
      }
      return null;
    }
    case 'string':
      return typeof value === 'string' ? null : `${prop.identifier} must be text`;
  }
}

function airConditioner(station: StationState, code: string): AirConditionerControls {
  const c = station.dyn.controls.airConditioners;
  c[code] ??= { on: true, mode: 5, setpoint: 25, fanSpeed: 0 };
  return c[code];
}

/** Writes one already-validated writable property into the station's controls. */
function writeProperty(station: StationState, device: DeviceDef, identifier: string, value: TelemetryValue): void {
  const c = station.dyn.controls;
  const num = typeof value === 'number' ? value : 0;
  const type: DeviceType = device.type;
  switch (type) {
    case 'ems':
      if (identifier === 'runMode') {
        c.runMode = num === 1 ? 1 : num === 2 ? 2 : 0;
        c.manualUntil = 0;
      } else if (identifier === 'manualPowerSetpoint') c.manualPowerSetpoint = num;
      else if (identifier === 'chargePowerSetpoint') c.chargePowerSetpoint = num;
      else if (identifier === 'dischargePowerSetpoint') c.dischargePowerSetpoint = num;
      else if (identifier === 'socUpperLimit') c.socUpperLimit = num;
      else if (identifier === 'socLowerLimit') c.socLowerLimit = num;
      else if (identifier === 'transformerProtectionPower') c.transformerProtectionPower = num;
      else if (identifier === 'antiBackflow') c.antiBackflow = value === true;
      else if (identifier === 'demandLimit') c.demandLimit = num;
      strategyPropertyWritten(c, identifier, value);
      return;
    case 'pcs':
      if (identifier === 'powerLimit') c.pcsPowerLimit = num;
      return;
    case 'airConditioner': {
      const ac = airConditioner(station, device.code);
      if (identifier === 'onOff') ac.on = value === true;
      else if (identifier === 'mode') ac.mode = num;
      else if (identifier === 'setTemperature') ac.setpoint = num;
      else if (identifier === 'fanSpeed') ac.fanSpeed = num;
      return;
    }
    case 'chargingPile':
      if (identifier === 'powerLimit') c.pilePowerLimit[device.code] = num;
      return;
    case 'chargingGun':
      if (identifier === 'maxPower') c.gunMaxPower[device.code] = num;
      return;
    case 'bms':
    case 'batteryCluster':
    case 'batteryPack':
    case 'dcdc':
    case 'pvInverter':
    case 'transformer':
    case 'meter':
      return;
  }
}

/** Clears a device's faults (all, or one code); returns the codes that were active. */
export function recoverFaults(state: SimState, station: StationState, deviceCode: string, code?: string): string[] {
  const dyn = station.dyn;
  const before = activeFaults(dyn, deviceCode);
  const keep = (list: string[] | undefined) => (list ?? []).filter((c) => code !== undefined && c !== code);
  dyn.injectedFaults[deviceCode] = keep(dyn.injectedFaults[deviceCode]);
  dyn.autoFaults[deviceCode] = keep(dyn.autoFaults[deviceCode]);
  // A latched fault of the station's operating life ends with the reset; a communication loss does not.
  resetIncidents(dyn, deviceCode, state.timeMs, code);
  const lost = new Set(dyn.incidents.filter((i) => i.kind !== 'fault' && i.codeDevice === deviceCode && i.start <= state.timeMs).map((i) => i.code));
  dyn.randomFaults[deviceCode] = (dyn.randomFaults[deviceCode] ?? []).filter((c) => lost.has(c) || (code !== undefined && c !== code));
  return before.filter((c) => (code === undefined || c === code) && !lost.has(c));
}

/**
 * Applies a command to the station's controls, as the device would, and says what to answer.
 * A reboot is only acknowledged here: the agent plays the offline period.
 */
export function applyCommand(state: SimState, station: StationState, device: DeviceDef, cmd: CommandPayload): CommandOutcome {
  const model = THING_MODEL[device.type];
  if (!model.commands.includes(cmd.command)) return fail(`command ${cmd.command} is not supported by ${device.type}`);
  const c = station.dyn.controls;
  switch (cmd.command) {
    case 'reboot':
      return { ok: true, result: {}, reboot: true };
    case 'setProperty': {
      const writable = writableProperties(device.type);
      const entries = Object.entries(cmd.params.values);
      if (entries.length === 0) return fail('no values');
      for (const [identifier, value] of entries) {
        const prop = writable.get(identifier);
        if (!prop) return fail(`${identifier} is not a writable property of ${device.type}`);
        const problem = checkValue(prop, value);
        if (problem) return fail(problem);
      }
      if (device.type === 'ems') {
        const upper = cmd.params.values.socUpperLimit ?? c.socUpperLimit;
        const lower = cmd.params.values.socLowerLimit ?? c.socLowerLimit;
        if (typeof upper === 'number' && typeof lower === 'number' && lower >= upper) return fail('socLowerLimit must be below socUpperLimit');
      }
      for (const [identifier, value] of entries) writeProperty(station, device, identifier, value);
      return { ok: true, result: { values: cmd.params.values } };
    }
    case 'switch':
      if (device.type === 'airConditioner') airConditioner(station, device.code).on = cmd.params.on;
      else c.off[device.code] = !cmd.params.on;
      return { ok: true, result: { on: cmd.params.on } };
    case 'faultRecover':
      return { ok: true, result: { cleared: recoverFaults(state, station, device.code, cmd.params.code) } };
    case 'remoteSet': {
      const ac = airConditioner(station, device.code);
      if (cmd.params.onOff !== undefined) ac.on = cmd.params.onOff;
      if (cmd.params.mode !== undefined) ac.mode = cmd.params.mode;
      if (cmd.params.fanSpeed !== undefined) ac.fanSpeed = cmd.params.fanSpeed;
      return { ok: true, result: { onOff: ac.on, mode: ac.mode, fanSpeed: ac.fanSpeed } };
    }
    case 'temperature':
      airConditioner(station, device.code).setpoint = cmd.params.setpoint;
      return { ok: true, result: { setpoint: cmd.params.setpoint } };
    case 'warnMask':
      if (cmd.params.mask !== undefined) c.warnMask[device.code] = cmd.params.mask;
      return { ok: true, result: { mask: c.warnMask[device.code] ?? 0 } };
    case 'storageMode':
      return applyStorageMode(station, device, cmd.params, state.timeMs);
    case 'applyStrategy':
      return applyStrategy(c, cmd.params);
    case 'demandGuard':
      return demandGuard(c, cmd.params, state.timeMs, Math.min(station.def.storage.installedPower, c.pcsPowerLimit), allowedBatteryPower(station.def, station.dyn).discharge);
  }
}

/**
 * Fault codes of a device that are reported as events: a charging gun's warning mask hides
 * bit i = THING_MODEL.chargingGun.events[i].
 */
export function reportedFaults(station: StationState, device: DeviceDef): string[] {
  const active = activeFaults(station.dyn, device.code);
  if (device.type !== 'chargingGun') return active;
  const mask = station.dyn.controls.warnMask[device.code] ?? 0;
  const events = THING_MODEL.chargingGun.events;
  return active.filter((code) => {
    const bit = events.findIndex((e) => e.code === code);
    return bit < 0 || (mask & (1 << bit)) === 0;
  });
}

/** The human text of a fault code for a device type (the thing model's label), or the code. */
export function faultLabel(type: DeviceType, code: string): string {
  return THING_MODEL[type].events.find((e) => e.code === code)?.label ?? code;
}
