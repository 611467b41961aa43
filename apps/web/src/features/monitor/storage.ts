import type { DeviceRecord } from '@ess/contract/device';
import { monitorEndpoints as M, type ControlResult, type StorageControlBody } from '@ess/contract/monitor';
import { STORAGE_MANUAL_MAX_MINUTES, type StorageMode } from '@ess/contract/telemetry';
import { call } from '../../platform/request.ts';

/** The device types whose page has the storage control (docs/decisions/0038-storage-control.md). */
export const STORAGE_CONTROL_TYPES: readonly string[] = ['pcs', 'ems'];
export const hasStorageControl = (d: Pick<DeviceRecord, 'type'>) => STORAGE_CONTROL_TYPES.includes(d.type);

/** Source texts of the modes, in the order the form offers them. */
export const STORAGE_MODE_LABELS: Record<StorageMode, string> = { auto: '自动（跟随策略）', manual: '手动', standby: '待机' };
/** The EMS's runMode values (EMS_RUN_MODES) as storage modes. */
export const RUN_MODE_TO_STORAGE: Record<number, StorageMode> = { 0: 'auto', 1: 'manual', 2: 'standby' };
export const DIRECTION_LABELS = { discharge: '放电', charge: '充电' } as const;
export type Direction = keyof typeof DIRECTION_LABELS;

export const DEFAULT_DURATION_MIN = 15;
export const MAX_DURATION_MIN = STORAGE_MANUAL_MAX_MINUTES;

/** What the operator fills in: the mode, and for manual a direction, a power (kW, positive) and a duration (minutes). */
export interface StorageForm {
  mode: StorageMode;
  direction?: Direction;
  power?: number;
  durationMin?: number;
}

/** The request body: manual power signed as the devices report it (+ discharge, − charge). */
export function storageBody(deviceId: number, f: StorageForm, password: string | undefined): StorageControlBody {
  const body: StorageControlBody = { deviceId, mode: f.mode };
  if (f.mode === 'manual') {
    body.powerKw = (f.direction === 'charge' ? -1 : 1) * (f.power ?? 0);
    body.durationMin = f.durationMin ?? DEFAULT_DURATION_MIN;
  }
  if (password) body.password = password;
  return body;
}

/**
 * The most the form accepts, kW: the PCS's rated power; for an EMS, what the server checks
 * against (the sum of its converters), so no client limit beyond the contract's.
 */
export function ratedPowerOf(d: Pick<DeviceRecord, 'type' | 'ratedPower'>): number | null {
  return d.type === 'pcs' && d.ratedPower !== null && d.ratedPower > 0 ? d.ratedPower : null;
}

/** What the device confirmed, read from its reply. */
export interface StorageReply {
  mode: StorageMode | null;
  powerKw: number | null;
  until: number | null;
  durationMs: number;
}

export function readReply(r: ControlResult): StorageReply {
  const x = r.result;
  const mode = typeof x.mode === 'string' && x.mode in STORAGE_MODE_LABELS ? (x.mode as StorageMode) : null;
  return {
    mode,
    powerKw: typeof x.powerKw === 'number' ? x.powerKw : null,
    until: typeof x.until === 'number' ? x.until : null,
    durationMs: r.durationMs,
  };
}

export const sendStorageControl = (body: StorageControlBody): Promise<ControlResult> => call(M.storageControl, body, { noMessage: true });
