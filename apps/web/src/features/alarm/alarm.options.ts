import { ALARM_LEVELS } from '@ess/contract/constants';
import {
  ALARM_LEVEL_LABELS, ALARM_OPERATORS, ALARM_RULE_KIND_LABELS, ALARM_RULE_KINDS, ALARM_STATUS_LABELS, ALARM_STATUSES,
  ALARM_TYPE_LABELS, ALARM_TYPES, type AlarmLevel,
} from '@ess/contract/alarm';
import { deviceEndpoints } from '@ess/contract/device';
import type { DataOption, EnumOption, OptionSource, StatusColor } from '../../components/crud/index.ts';
import { call } from '../../platform/request.ts';
import { alarmKeys } from './alarm.keys.ts';

/** Enumerations and pickers of the alarm screens. */

const LEVEL_BADGE: Record<AlarmLevel, StatusColor> = { 1: 'error', 2: 'error', 3: 'warning', 4: 'processing', 5: 'default' };
export const LEVEL_OPTIONS: EnumOption[] = ALARM_LEVELS.map((l) => ({ value: l, label: ALARM_LEVEL_LABELS[l], color: LEVEL_BADGE[l] }));
export const TYPE_OPTIONS: EnumOption[] = ALARM_TYPES.map((v) => ({ value: v, label: ALARM_TYPE_LABELS[v] }));
export const STATUS_OPTIONS: EnumOption[] = ALARM_STATUSES.map((v) => ({ value: v, label: ALARM_STATUS_LABELS[v], color: v === 'active' ? 'error' : 'success' }));
export const KIND_OPTIONS: EnumOption[] = ALARM_RULE_KINDS.map((v) => ({ value: v, label: ALARM_RULE_KIND_LABELS[v] }));
export const OPERATOR_OPTIONS: EnumOption[] = ALARM_OPERATORS.map((v) => ({ value: v, label: v, literal: true }));
export const ENABLED_OPTIONS: EnumOption[] = [
  { value: true, label: '启用', color: 'success' },
  { value: false, label: '停用', color: 'default' },
];

/** Devices of the stations in scope, as "name (code)". */
export const deviceSource: OptionSource = {
  queryKey: alarmKeys.deviceOptions(),
  load: async () =>
    (await call(deviceEndpoints.list, {}, { loading: false })).map((d): DataOption => ({ value: d.id, label: `${d.name} (${d.code})` })),
};

type Translate = (source: string, ...args: unknown[]) => string;

/** A duration in days, hours and minutes ("2小时5分钟"), seconds when under a minute. */
export function formatDuration(ms: number | null | undefined, t: Translate): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '-';
  if (ms < 60_000) return t('$1秒', Math.max(0, Math.round(ms / 1000)));
  const minutes = Math.floor(ms / 60_000);
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  return [d ? t('$1天', d) : '', h ? t('$1小时', h) : '', m || (!d && !h) ? t('$1分钟', m) : ''].filter(Boolean).join(' ');
}
