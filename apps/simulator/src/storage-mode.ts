import { STORAGE_MODE_RUN_MODE, type CommandPayload, type StorageMode } from '@ess/contract';
import type { DeviceDef } from './fleet.ts';
import type { StationControls, StationState } from './state.ts';

/**
 * The storageMode command (docs/decisions/0038-storage-control.md), kept apart from the EMS's
 * strategy: it only sets the station's run mode, the manual set-point and when manual ends.
 *
 * - `auto` (runMode 0): the strategy decides (step.ts).
 * - `manual` (runMode 1): the PCS holds `powerKw` (+ discharge, − charge), within the SOC limits
 *   and what the BMS allows; with `durationMin` it returns to auto by itself at `manualUntil`
 *   (reported as runMode 0 and manualEndTime 0 from then on).
 * - `standby` (runMode 2): the battery neither charges nor discharges.
 */

type StorageModeParams = Extract<CommandPayload, { command: 'storageMode' }>['params'];

export interface StorageModeOutcome {
  ok: boolean;
  result?: { mode: StorageMode; powerKw: number; durationMin: number | null; until: number | null };
  error?: string;
}

/** What the device may be asked for, kW: the station's PCS rating (its installed power). */
export function storageRating(station: StationState): number {
  return station.def.storage.installedPower;
}

/** Validates and applies a storageMode command at `nowMs` (the simulated time). */
export function applyStorageMode(station: StationState, device: DeviceDef, params: StorageModeParams, nowMs: number): StorageModeOutcome {
  if (device.type !== 'ems' && device.type !== 'pcs') return { ok: false, error: `storageMode is not supported by ${device.type}` };
  const c = station.dyn.controls;
  const { mode } = params;
  if (mode !== 'manual') {
    if (params.powerKw !== undefined || params.durationMin !== undefined) return { ok: false, error: `powerKw and durationMin apply to manual mode only` };
    c.runMode = STORAGE_MODE_RUN_MODE[mode];
    c.manualUntil = 0;
    return { ok: true, result: { mode, powerKw: 0, durationMin: null, until: null } };
  }
  const rating = storageRating(station);
  const power = params.powerKw;
  if (power === undefined || !Number.isFinite(power)) return { ok: false, error: 'manual mode needs powerKw' };
  if (Math.abs(power) > rating) return { ok: false, error: `powerKw ${power} exceeds the rated power ±${rating} kW` };
  c.runMode = 1;
  c.manualPowerSetpoint = power;
  const until = params.durationMin !== undefined ? nowMs + params.durationMin * 60_000 : 0;
  c.manualUntil = until;
  return { ok: true, result: { mode, powerKw: power, durationMin: params.durationMin ?? null, until: until || null } };
}

/** Ends a timed manual period whose end has come: back to auto. True when it ended now. */
export function expireManualMode(c: StationControls, nowMs: number): boolean {
  if (c.runMode !== 1 || !c.manualUntil || nowMs < c.manualUntil) return false;
  c.runMode = 0;
  c.manualUntil = 0;
  return true;
}

/** Standby holds the battery at 0 kW whatever the strategy, limits or protections would ask. */
export const isStandby = (c: StationControls): boolean => c.runMode === 2;
