import {
  firmwareGrouping, firmwareRolloutAdd, maintenanceWindow, type FirmwareRolloutAdd, type FirmwareRolloutDetail, type FirmwareSettingRecord,
} from '@ess/contract/firmware';
import { validateWith, type FieldErrors, type Translate } from '../../components/crud/index.ts';

/** The rollout form's values (the contract's body, flattened for the form). */
export interface RolloutForm {
  name?: string;
  packageId?: number;
  siteIds?: number[];
  productIds?: number[];
  versions?: string[];
  /** Explicit devices picked in the preview (empty: every device that matches). */
  deviceIds?: number[];
  canarySize?: number;
  splitBy?: 'size' | 'percent';
  groupSize?: number | null;
  groupPercent?: number | null;
  successThreshold?: number;
  errorThreshold?: number;
  requireApproval?: boolean;
  /** ISO instant; empty: when started. */
  startAt?: string | null;
  windows?: { days?: number[]; start?: string; end?: string }[];
  safeGate?: boolean;
  remark?: string | null;
}

/** Labels of the fields (source text; they name the field in error messages). */
export const ROLLOUT_LABELS: Record<string, string> = {
  name: '升级任务名称',
  packageId: '升级包',
  siteIds: '站点',
  productIds: '产品',
  versions: '当前版本',
  canarySize: '金丝雀组设备数',
  groupSize: '每组设备数',
  groupPercent: '每组百分比',
  successThreshold: '成功阈值（%）',
  errorThreshold: '失败阈值（%）',
  requireApproval: '需要审批',
  startAt: '开始时间',
  windows: '维护时段',
  days: '星期',
  start: '开始',
  end: '结束',
  safeGate: '安全门',
  remark: '备注',
};

/** A new rollout's values: the settings' thresholds and approval, a canary of 1, then groups of 50 %. */
export const newRolloutValues = (s: FirmwareSettingRecord | undefined, packageId?: number): RolloutForm => ({
  packageId,
  siteIds: [],
  productIds: [],
  versions: [],
  deviceIds: [],
  canarySize: 1,
  splitBy: 'percent',
  groupSize: null,
  groupPercent: 50,
  successThreshold: s?.successThreshold ?? 50,
  errorThreshold: s?.errorThreshold ?? 50,
  requireApproval: s?.requireApproval ?? false,
  startAt: null,
  windows: [],
  safeGate: true,
  remark: null,
});

export const rolloutValues = (r: FirmwareRolloutDetail): RolloutForm => ({
  name: r.name,
  packageId: r.packageId,
  siteIds: r.target.siteIds,
  productIds: r.target.productIds,
  versions: r.target.versions,
  deviceIds: r.target.deviceIds,
  canarySize: r.grouping.canarySize,
  splitBy: r.grouping.groupPercent !== null ? 'percent' : 'size',
  groupSize: r.grouping.groupSize,
  groupPercent: r.grouping.groupPercent,
  successThreshold: r.successThreshold,
  errorThreshold: r.errorThreshold,
  requireApproval: r.requireApproval,
  startAt: r.startAt,
  windows: r.windows,
  safeGate: r.safeGate,
  remark: r.remark,
});

/** The target of the form (the preview's and the body's). */
export const targetOf = (v: RolloutForm) => ({
  packageId: v.packageId as number,
  siteIds: v.siteIds ?? [],
  productIds: v.productIds ?? [],
  versions: v.versions ?? [],
  deviceIds: v.deviceIds ?? [],
});

export const groupingOf = (v: RolloutForm) => ({
  canarySize: v.canarySize ?? 0,
  groupSize: v.splitBy === 'size' ? (v.groupSize ?? null) : null,
  groupPercent: v.splitBy === 'percent' ? (v.groupPercent ?? null) : null,
});

/**
 * The rollout form checked by the contract: the body's rules (name, thresholds, start time), the
 * grouping (canary 0–1000; size or percentage, one of them) and each maintenance window (HH:mm,
 * start ≠ end). Errors are keyed by form field; a window's by `windows.<i>.<field>`.
 */
export function checkRollout(v: RolloutForm, t: Translate): { ok: true; body: FirmwareRolloutAdd } | { ok: false; errors: FieldErrors } {
  const body = {
    name: v.name,
    target: targetOf(v),
    grouping: groupingOf(v),
    successThreshold: v.successThreshold,
    errorThreshold: v.errorThreshold,
    requireApproval: v.requireApproval ?? false,
    startAt: v.startAt || null,
    windows: (v.windows ?? []).map((w) => ({ days: w.days ?? [], start: w.start ?? '', end: w.end ?? '' })),
    safeGate: v.safeGate ?? true,
    remark: v.remark || null,
  };
  const errors: FieldErrors = { fields: {}, form: [] };
  const merge = (e: FieldErrors, prefix = '') => {
    for (const [k, list] of Object.entries(e.fields)) (errors.fields[`${prefix}${k}`] ??= []).push(...list.filter((x) => !errors.fields[`${prefix}${k}`]?.includes(x)));
    errors.form.push(...e.form);
  };
  const all = validateWith(firmwareRolloutAdd, body, ROLLOUT_LABELS, t);
  if (!all.ok) {
    const { target, grouping: _grouping, windows: _windows, ...rest } = all.errors.fields;
    merge({ fields: rest, form: all.errors.form });
    if (target) (errors.fields.packageId ??= []).push(...target);
  }
  const g = validateWith(firmwareGrouping, body.grouping, ROLLOUT_LABELS, t);
  if (!g.ok) {
    const { groupSize, groupPercent, ...rest } = g.errors.fields;
    merge({ fields: rest, form: g.errors.form });
    // "size or percentage": the message goes to the field the form shows.
    const list = [...(groupSize ?? []), ...(groupPercent ?? [])];
    if (list.length) merge({ fields: { [v.splitBy === 'percent' ? 'groupPercent' : 'groupSize']: list }, form: [] });
  }
  body.windows.forEach((w, i) => {
    const c = validateWith(maintenanceWindow, w, ROLLOUT_LABELS, t);
    if (!c.ok) merge(c.errors, `windows.${i}.`);
  });
  if (!v.packageId) errors.fields.packageId = [t('$1不能为空', t(ROLLOUT_LABELS.packageId!))];
  if (Object.keys(errors.fields).length || errors.form.length) return { ok: false, errors };
  return { ok: true, body: body as FirmwareRolloutAdd };
}

/** A form field name as antd takes it (`windows.0.end` → ['windows', 0, 'end']). */
export const fieldPath = (name: string): (string | number)[] => name.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
