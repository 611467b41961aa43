import { DEVICE_TYPE_LABELS, DEVICE_TYPES } from '@ess/contract';
import { deviceEndpoints } from '@ess/contract/device';
import {
  FIRMWARE_CAPTURE_STATE_LABELS, FIRMWARE_CAPTURE_STATES, FIRMWARE_GROUP_STATE_LABELS, FIRMWARE_GROUP_STATES, FIRMWARE_KEY_ALGORITHM_LABELS,
  FIRMWARE_KEY_ALGORITHMS, FIRMWARE_LOG_STATE_LABELS, FIRMWARE_LOG_STATES, FIRMWARE_PACKAGE_STATE_LABELS, FIRMWARE_PACKAGE_STATES,
  FIRMWARE_ROLLOUT_STATE_LABELS, FIRMWARE_ROLLOUT_STATES, FIRMWARE_SKIP_REASON_LABELS, FIRMWARE_SKIP_REASONS, FIRMWARE_TASK_STATE_LABELS,
  FIRMWARE_TASK_STATES, FIRMWARE_WAIT_REASON_LABELS, FIRMWARE_WAIT_REASONS, firmwarePackageEndpoints,
  type FirmwareCaptureState, type FirmwareGroupState, type FirmwareLogState, type FirmwarePackageState, type FirmwareRolloutState,
  type FirmwareTaskState,
} from '@ess/contract/firmware';
import type { EnumOption, OptionSource } from '../../components/crud/index.ts';
import type { Tone } from '../../components/ToneTag.tsx';
import { sharedKeys } from '../../components/options/keys.ts';
import { call } from '../../platform/request.ts';
import { firmwareKeys } from './firmware.keys.ts';

/** Enumerations and pickers of the firmware screens; labels are the contract's (zh-CN source text, product-spec §4). */

const labelled = <K extends string>(values: readonly K[], labels: Record<K, string>): EnumOption[] => values.map((v) => ({ value: v, label: labels[v] }));

export const DEVICE_TYPE_OPTIONS = labelled(DEVICE_TYPES, DEVICE_TYPE_LABELS);
export const TASK_STATE_OPTIONS = labelled(FIRMWARE_TASK_STATES, FIRMWARE_TASK_STATE_LABELS);
export const ROLLOUT_STATE_OPTIONS = labelled(FIRMWARE_ROLLOUT_STATES, FIRMWARE_ROLLOUT_STATE_LABELS);
export const GROUP_STATE_OPTIONS = labelled(FIRMWARE_GROUP_STATES, FIRMWARE_GROUP_STATE_LABELS);
export const PACKAGE_STATE_OPTIONS = labelled(FIRMWARE_PACKAGE_STATES, FIRMWARE_PACKAGE_STATE_LABELS);
export const LOG_STATE_OPTIONS = labelled(FIRMWARE_LOG_STATES, FIRMWARE_LOG_STATE_LABELS);
export const CAPTURE_STATE_OPTIONS = labelled(FIRMWARE_CAPTURE_STATES, FIRMWARE_CAPTURE_STATE_LABELS);
export const SKIP_REASON_OPTIONS = labelled(FIRMWARE_SKIP_REASONS, FIRMWARE_SKIP_REASON_LABELS);
export const WAIT_REASON_OPTIONS = labelled(FIRMWARE_WAIT_REASONS, FIRMWARE_WAIT_REASON_LABELS);
export const KEY_ALGORITHM_OPTIONS: EnumOption[] = FIRMWARE_KEY_ALGORITHMS.map((a) => ({ value: a, label: FIRMWARE_KEY_ALGORITHM_LABELS[a], literal: true }));
export const SIGNED_OPTIONS: EnumOption[] = [
  { value: true, label: '已签名', color: 'success' },
  { value: false, label: '未签名', color: 'default' },
];
export const ENABLED_OPTIONS: EnumOption[] = [
  { value: true, label: '已启用', color: 'success' },
  { value: false, label: '已停用', color: 'default' },
];
/** Weekdays of a maintenance window (1 Monday … 7 Sunday). */
export const WEEKDAY_OPTIONS: EnumOption[] = ['周一', '周二', '周三', '周四', '周五', '周六', '周日'].map((label, i) => ({ value: i + 1, label }));

/**
 * The task's state as a coloured tag: waiting grey, under way blue, failed red, success green,
 * cancelled grey; "issued success" is a step under way (blue), "issued failed" a failure (red).
 */
export const TASK_STATE_TONES: Record<FirmwareTaskState, Tone> = {
  pendingStart: 'default',
  issuedSuccess: 'processing',
  issuedFailed: 'error',
  downloading: 'processing',
  downloaded: 'processing',
  flashing: 'warning',
  downloadFailed: 'error',
  verifyFailed: 'error',
  flashFailed: 'error',
  upgradeFailed: 'error',
  success: 'success',
  cancelled: 'default',
};
export const ROLLOUT_STATE_TONES: Record<FirmwareRolloutState, Tone> = {
  pendingApproval: 'warning',
  ready: 'default',
  running: 'processing',
  paused: 'warning',
  finished: 'success',
  stopped: 'default',
  rejected: 'error',
};
export const GROUP_STATE_TONES: Record<FirmwareGroupState, Tone> = {
  waiting: 'default',
  running: 'processing',
  succeeded: 'success',
  finished: 'success',
  errorThreshold: 'error',
  cancelled: 'default',
};
export const LOG_STATE_TONES: Record<FirmwareLogState, Tone> = { pending: 'default', uploading: 'processing', uploaded: 'success', timeout: 'warning', failed: 'error' };
export const CAPTURE_STATE_TONES: Record<FirmwareCaptureState, Tone> = { running: 'processing', finished: 'success' };
export const PACKAGE_STATE_TONES: Record<FirmwarePackageState, Tone> = { released: 'success', withdrawn: 'default' };

/** Released packages the caller sees, as "name version · type" (a rollout's package). */
export const packageSource: OptionSource = {
  queryKey: firmwareKeys.options(firmwareKeys.packages, 'released'),
  load: async () =>
    (await call(firmwarePackageEndpoints.list, { state: 'released' }, { loading: false })).map((p) => ({
      value: p.id,
      label: `${p.name} ${p.version}`,
    })),
};

/** The devices of some stations (a log capture's devices), as "name (code)". */
export const deviceQuery = (siteIds: readonly number[]) => ({
  queryKey: sharedKeys.device.list({ as: 'firmware', siteIds }),
  queryFn: () => call(deviceEndpoints.list, siteIds.length ? { siteIds: [...siteIds] } : {}, { loading: false }),
  staleTime: 30_000,
});

/** Bytes as B / KB / MB / GB (binary units, one decimal). */
export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '-';
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u += 1;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}
