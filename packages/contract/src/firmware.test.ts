import { describe, expect, it } from 'vitest';
import {
  FIRMWARE_DEVICE_PACKAGE_PATH, FIRMWARE_EVENT_PAYLOADS, FIRMWARE_ROLLOUT_MACHINE, FIRMWARE_TASK_STATE_LABELS, FIRMWARE_TASK_STATES, FIRMWARE_LOG_STATE_LABELS,
  firmwareEndpoints, firmwareGrouping, firmwareLogAdd, firmwareSettingEdit, firmwareUploadStart, firmwareVersion, LOG_RANGE_INVALID, SHA256_INVALID, VERSION_NOT_SEMVER,
} from './firmware.ts';
import { HOOK_EVENT_LABELS, HOOK_EVENT_PAYLOADS } from './hooks.ts';
import { MENUS, menuCovers } from './menus.ts';
import { allowedActions, canTransition } from './state-machine.ts';

const firstError = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;
const start = { companyId: 1, deviceType: 'bms', name: 'bms-fw', version: '1.2.3', fileName: 'bms.bin', size: 1024 };

describe('firmware contract', () => {
  it('takes semantic versions and refuses what is not one', () => {
    for (const v of ['1.2.3', '0.0.1', '2.0.0-rc.1', '1.2.3+build.5', '10.20.30-alpha.1+sha.abc']) expect(firmwareVersion.safeParse(v).success, v).toBe(true);
    for (const v of ['1.2', 'v1.2.3', '1.2.3.4', '01.2.3', '1.2.3-', 'latest', '']) expect(firstError(firmwareVersion.safeParse(v)), v).toBe(VERSION_NOT_SEMVER);
  });

  it('checks an upload’s description: device type, SHA-256, signature text, size', () => {
    expect(firmwareUploadStart.safeParse(start).success).toBe(true);
    expect(firmwareUploadStart.safeParse({ ...start, deviceType: 'toaster' }).success).toBe(false);
    expect(firstError(firmwareUploadStart.safeParse({ ...start, sha256: 'abc' }))).toBe(SHA256_INVALID);
    const upper = firmwareUploadStart.safeParse({ ...start, sha256: 'A'.repeat(64) });
    expect(upper.success && upper.data.sha256).toBe('a'.repeat(64));
    expect(firmwareUploadStart.safeParse({ ...start, signature: 'not base64 !' }).success).toBe(false);
    expect(firmwareUploadStart.safeParse({ ...start, size: 0 }).success).toBe(false);
    // 2 GB passes the contract: the limit is the settings', checked by the server at start.
    expect(firmwareUploadStart.safeParse({ ...start, size: 2 * 1024 ** 3 }).success).toBe(true);
  });

  it('splits by a size or a percentage, not both, and checks the settings’ SOC band and the log range', () => {
    expect(firmwareGrouping.safeParse({ canarySize: 2, groupSize: 10 }).success).toBe(true);
    expect(firmwareGrouping.safeParse({ canarySize: 2, groupPercent: 25 }).success).toBe(true);
    expect(firmwareGrouping.safeParse({ canarySize: 2 }).success).toBe(false);
    expect(firmwareGrouping.safeParse({ canarySize: 2, groupSize: 10, groupPercent: 25 }).success).toBe(false);
    const s = { maxPackageMb: 256, allowUnsigned: true, tokenTtlMinutes: 30, successThreshold: 50, errorThreshold: 50, requireApproval: false, commandTimeoutSeconds: 30, downloadTimeoutMinutes: 30, flashTimeoutMinutes: 20, socMin: 20, socMax: 90, logTimeoutMinutes: 10 };
    expect(firmwareSettingEdit.safeParse(s).success).toBe(true);
    expect(firmwareSettingEdit.safeParse({ ...s, socMin: 90, socMax: 20 }).success).toBe(false);
    expect(firmwareSettingEdit.safeParse({ ...s, maxPackageMb: 4096 }).success).toBe(false);
    const log = { companyId: 1, name: 'L', deviceIds: [1], from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' };
    expect(firstError(firmwareLogAdd.safeParse(log))).toBe(LOG_RANGE_INVALID);
  });

  it('labels every state with the spec’s names', () => {
    expect(FIRMWARE_TASK_STATES.filter((s) => !FIRMWARE_TASK_STATE_LABELS[s])).toEqual([]);
    expect(FIRMWARE_TASK_STATE_LABELS.pendingStart).toBe('待开始');
    expect(FIRMWARE_TASK_STATE_LABELS.issuedSuccess).toBe('下发成功');
    expect(FIRMWARE_TASK_STATE_LABELS.verifyFailed).toBe('校验失败');
    expect(Object.values(FIRMWARE_LOG_STATE_LABELS)).toEqual(['待下发', '上传中', '上传完成', '上传超时', '上传失败']);
  });

  it('a rollout is approved before it starts, pauses and resumes, and is stopped from any live state', () => {
    const m = FIRMWARE_ROLLOUT_MACHINE;
    expect(canTransition(m, 'pendingApproval', 'start')).toBe(false);
    expect(canTransition(m, 'pendingApproval', 'approve')).toBe(true);
    expect(canTransition(m, 'ready', 'start')).toBe(true);
    expect(allowedActions(m, 'running')).toEqual(['pause', 'stop', 'retry']);
    expect(allowedActions(m, 'paused')).toEqual(['resume', 'stop', 'retry']);
    expect(canTransition(m, 'finished', 'stop')).toBe(false);
  });

  it('declares its events for hooks', () => {
    for (const t of Object.keys(FIRMWARE_EVENT_PAYLOADS)) {
      expect(HOOK_EVENT_PAYLOADS[t as keyof typeof HOOK_EVENT_PAYLOADS], t).toBeDefined();
      expect(HOOK_EVENT_LABELS[t as keyof typeof HOOK_EVENT_LABELS], t).toBeTruthy();
    }
  });

  it('every firmware call but the device’s is granted by a firmware page, under /firmware/', () => {
    const pages = MENUS.filter((m) => m.path.startsWith('/firmware/'));
    expect(pages.map((p) => p.path)).toEqual(['/firmware/firmware', '/firmware/detail', '/firmware/upgrade', '/firmware/log']);
    for (const e of Object.values(firmwareEndpoints)) {
      expect(e.path.startsWith('/firmware/'), e.path).toBe(true);
      const granted = pages.some((m) => menuCovers(m.interfaces, e.path));
      expect(granted, e.path).toBe(e.path !== FIRMWARE_DEVICE_PACKAGE_PATH);
    }
    // No page grants the device's calls.
    expect(MENUS.some((m) => menuCovers(m.interfaces, FIRMWARE_DEVICE_PACKAGE_PATH))).toBe(false);
  });
});
