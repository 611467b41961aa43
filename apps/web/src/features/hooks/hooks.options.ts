import {
  HOOK_CIRCUIT_STATE_LABELS, HOOK_CIRCUIT_STATES, HOOK_EVENT_LABELS, HOOK_METHODS, HOOK_PARAM_KIND_LABELS, HOOK_PARAM_KINDS, HOOK_RECORD_ORIGIN_LABELS,
  HOOK_RECORD_ORIGINS, HOOK_RECORD_STATE_LABELS, HOOK_RECORD_STATES, HOOK_TRIGGER_STATUS_LABELS, HOOK_TRIGGER_STATUSES, hookEndpoints,
  type HookCircuitState, type HookRecordState,
} from '@ess/contract/hooks';
import type { EnumOption, OptionSource } from '../../components/crud/index.ts';
import type { Tone } from '../../components/ToneTag.tsx';
import { call } from '../../platform/request.ts';
import { hookKeys } from './hooks.keys.ts';

/** Enumerations and pickers of the hook screens; labels are the contract's (zh-CN source text). */

const labelled = <K extends string>(values: readonly K[], labels: Record<K, string>, colors?: Partial<Record<K, EnumOption['color']>>): EnumOption[] =>
  values.map((v) => ({ value: v, label: labels[v], ...(colors?.[v] ? { color: colors[v] } : {}) }));

export const TRIGGER_STATUS_OPTIONS = labelled(HOOK_TRIGGER_STATUSES, HOOK_TRIGGER_STATUS_LABELS, { active: 'success', gone: 'default' });
export const CIRCUIT_OPTIONS = labelled(HOOK_CIRCUIT_STATES, HOOK_CIRCUIT_STATE_LABELS, { closed: 'success', open: 'error' });
export const RECORD_STATE_OPTIONS = labelled(HOOK_RECORD_STATES, HOOK_RECORD_STATE_LABELS);
export const ORIGIN_OPTIONS = labelled(HOOK_RECORD_ORIGINS, HOOK_RECORD_ORIGIN_LABELS);
export const PARAM_KIND_OPTIONS = labelled(HOOK_PARAM_KINDS, HOOK_PARAM_KIND_LABELS);
/** HTTP methods are codes, shown as they are. */
export const METHOD_OPTIONS: EnumOption[] = HOOK_METHODS.map((m) => ({ value: m, label: m, literal: true }));
export const LEVEL_OPTIONS: EnumOption[] = [1, 2, 3, 4, 5].map((l) => ({ value: l, label: `${l}`, literal: true }));
export const ACTIVE_OPTIONS: EnumOption[] = [
  { value: true, label: '已启用', color: 'success' },
  { value: false, label: '已停用', color: 'default' },
];

/** A record's state as a coloured tag: running blue, skipped grey, delivered green, retrying orange, failed red. */
export const RECORD_STATE_TONES: Record<HookRecordState, Tone> = { running: 'processing', skipped: 'default', delivered: 'success', retrying: 'warning', failed: 'error' };
export const CIRCUIT_TONES: Record<HookCircuitState, Tone> = { closed: 'success', open: 'error' };

/** The event's name (source text) of the contract, or the event type itself when the catalogue knows more than this console. */
export const eventLabel = (eventType: string): string => (HOOK_EVENT_LABELS as Record<string, string>)[eventType] ?? eventType;

/** Every trigger of the catalogue as "name · event type" (gone ones disabled: no new hook attaches to them). */
export const triggerSource: OptionSource = {
  queryKey: hookKeys.options(hookKeys.triggers, 'list'),
  load: async () =>
    (await call(hookEndpoints.triggerList, {}, { loading: false })).map((tr) => ({ value: tr.eventType, label: `${tr.eventType}`, disabled: tr.status === 'gone' })),
};

/** The hooks the caller sees, by name (the record filter). */
export const hookSource: OptionSource = {
  queryKey: hookKeys.options(hookKeys.hooks, 'list'),
  load: async () => (await call(hookEndpoints.relateTriggerPage, { current: 1, pageSize: 500 }, { loading: false })).records.map((h) => ({ value: h.id, label: h.name })),
};
