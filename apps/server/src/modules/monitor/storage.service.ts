import type { ControlResult, DeviceRecord, StorageControlBody } from '@ess/contract';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { deviceFaultWarning, latestList } from '../device/index.ts';
import { control } from './control.service.ts';

/** The device types storage control serves: the EMS runs the dispatch, the PCS carries it out. */
export const STORAGE_CONTROL_TYPES = ['pcs', 'ems'] as const;

export const STORAGE_OFFLINE_TIP = '设备离线，不能下发储能控制';
export const STORAGE_FAULT_TIP = '设备存在未恢复的故障，不能下发储能控制，请先排除故障';
export const STORAGE_RATING_TIP = 'powerKw: 功率设定超出设备额定功率';
export const STORAGE_NO_RATING_TIP = '设备未登记额定功率，不能设定手动功率';

/**
 * The devices a storage command acts through, and what it may ask of them: a PCS itself; an EMS
 * with the converters under it (their ratings add up). All must be online and free of faults.
 */
async function storageDevices(ctx: AppContext, user: AuthUser, dev: DeviceRecord): Promise<{ devices: Pick<DeviceRecord, 'id' | 'code' | 'status'>[]; ratedPower: number | null }> {
  if (dev.type === 'pcs') return { devices: [dev], ratedPower: dev.ratedPower };
  const pcs = await latestList(ctx, user, { parentId: dev.id, types: ['pcs'] });
  const rated = pcs.length && pcs.every((p) => p.ratedPower !== null) ? pcs.reduce((a, p) => a + (p.ratedPower ?? 0), 0) : null;
  return { devices: [dev, ...pcs], ratedPower: rated };
}

/**
 * POST /monitor/storage/one/control (extension, docs/decisions/0038-storage-control.md): the
 * storage's mode through the common control flow (scope, secondary password, journal, MQTT and
 * the device's reply). Refused before anything is sent, and journaled as refused, when the
 * device (or a converter of an EMS) is offline or has an active fault, or when a manual
 * set-point exceeds the rated power.
 */
export function storageControl(ctx: AppContext, user: AuthUser, path: string, b: StorageControlBody): Promise<ControlResult> {
  const params = b.mode === 'manual' ? { mode: b.mode, powerKw: b.powerKw, durationMin: b.durationMin } : { mode: b.mode };
  return control(ctx, user, {
    path, deviceId: b.deviceId, types: STORAGE_CONTROL_TYPES, command: 'storageMode', params, password: b.password,
    guard: async (dev) => {
      const { devices, ratedPower } = await storageDevices(ctx, user, dev);
      const offline = devices.filter((d) => d.status !== 'online');
      if (offline.length) throw new AppError('RULE_VIOLATION', STORAGE_OFFLINE_TIP, offline.map((d) => `${d.code}: ${d.status}`).join('; '));
      for (const d of devices) {
        const { active } = await deviceFaultWarning(ctx, user, d.id);
        if (active.length) throw new AppError('RULE_VIOLATION', STORAGE_FAULT_TIP, `${d.code}: ${active.map((f) => f.code).join(', ')}`);
      }
      if (b.mode !== 'manual') return;
      if (ratedPower === null) throw new AppError('RULE_VIOLATION', STORAGE_NO_RATING_TIP);
      if (Math.abs(b.powerKw ?? 0) > ratedPower) {
        throw new AppError('INVALID_PARAM', STORAGE_RATING_TIP, `|${b.powerKw} kW| > ${ratedPower} kW (${dev.code})`);
      }
    },
  });
}
