import {
  CHECK_TYPE_LABELS, CHECK_TYPES, COUNT_FROM, COUNT_FROM_LABELS, DEFECT_STATE_LABELS, DEFECT_STATES, ITEM_RESULT_LABELS, ITEM_RESULTS,
  MAINT_LEVEL_LABELS, MAINT_LEVELS, maintenanceEndpoints, PLAN_STATE_LABELS, PLAN_STATES, REPAIR_SOURCE_LABELS, REPAIR_SOURCES,
  REPAIR_STATE_LABELS, REPAIR_STATES, SCHEDULE_KIND_LABELS, SCHEDULE_KINDS, SOURCE_ACTION_LABELS, SOURCE_ACTIONS, WEEKDAY_LABELS,
  WORK_ORDER_ORIGIN_LABELS, WORK_ORDER_ORIGINS, WORK_ORDER_STATE_LABELS, WORK_ORDER_STATES,
  type DefectState, type PlanState, type RepairState, type WorkOrderState,
} from '@ess/contract/maintenance';
import { deviceEndpoints } from '@ess/contract/device';
import { userEndpoints } from '@ess/contract/system';
import type { DataOption, EnumOption, OptionSource, StatusColor } from '../../components/crud/index.ts';
import { call } from '../../platform/request.ts';
import { maintKeys } from './maintenance.keys.ts';

/** Enumerations and pickers of the maintenance screens. */

const PLAN_COLOURS: Record<PlanState, StatusColor> = { executing: 'success', pending: 'processing', stopped: 'default' };
const ORDER_COLOURS: Record<WorkOrderState, StatusColor> = {
  toBeAssigned: 'warning', pending: 'processing', processing: 'processing', completed: 'success', closed: 'default',
};
const DEFECT_COLOURS: Record<DefectState, StatusColor> = { open: 'error', repairing: 'processing', resolved: 'success' };
const REPAIR_COLOURS: Record<RepairState, StatusColor> = {
  toBeDispatched: 'warning', pending: 'processing', processing: 'processing', toBeAccepted: 'warning', completed: 'success', closed: 'default',
};

export const CHECK_TYPE_OPTIONS: EnumOption[] = CHECK_TYPES.map((v) => ({ value: v, label: CHECK_TYPE_LABELS[v] }));
export const RESULT_OPTIONS: EnumOption[] = ITEM_RESULTS.map((v) => ({
  value: v, label: ITEM_RESULT_LABELS[v], color: v === 'pass' ? 'success' : v === 'flag' ? 'warning' : 'error',
}));
export const PLAN_STATE_OPTIONS: EnumOption[] = PLAN_STATES.map((v) => ({ value: v, label: PLAN_STATE_LABELS[v], color: PLAN_COLOURS[v] }));
export const ORDER_STATE_OPTIONS: EnumOption[] = WORK_ORDER_STATES.map((v) => ({ value: v, label: WORK_ORDER_STATE_LABELS[v], color: ORDER_COLOURS[v] }));
export const ORIGIN_OPTIONS: EnumOption[] = WORK_ORDER_ORIGINS.map((v) => ({ value: v, label: WORK_ORDER_ORIGIN_LABELS[v] }));
export const DEFECT_STATE_OPTIONS: EnumOption[] = DEFECT_STATES.map((v) => ({ value: v, label: DEFECT_STATE_LABELS[v], color: DEFECT_COLOURS[v] }));
export const REPAIR_STATE_OPTIONS: EnumOption[] = REPAIR_STATES.map((v) => ({ value: v, label: REPAIR_STATE_LABELS[v], color: REPAIR_COLOURS[v] }));
export const REPAIR_SOURCE_OPTIONS: EnumOption[] = REPAIR_SOURCES.map((v) => ({ value: v, label: REPAIR_SOURCE_LABELS[v] }));
export const SOURCE_ACTION_OPTIONS: EnumOption[] = SOURCE_ACTIONS.map((v) => ({ value: v, label: SOURCE_ACTION_LABELS[v] }));
export const LEVEL_OPTIONS: EnumOption[] = MAINT_LEVELS.map((l) => ({ value: l, label: MAINT_LEVEL_LABELS[l], color: l <= 2 ? 'error' : l === 3 ? 'warning' : 'default' }));
export const SCHEDULE_KIND_OPTIONS: EnumOption[] = SCHEDULE_KINDS.map((v) => ({ value: v, label: SCHEDULE_KIND_LABELS[v] }));
export const COUNT_FROM_OPTIONS: EnumOption[] = COUNT_FROM.map((v) => ({ value: v, label: COUNT_FROM_LABELS[v] }));
/** Monday first, as the week is shown; values are 0 = Sunday … 6 = Saturday. */
export const WEEKDAY_OPTIONS: EnumOption[] = [1, 2, 3, 4, 5, 6, 0].map((d) => ({ value: d, label: WEEKDAY_LABELS[d]! }));
export const BOOLEAN_OVERDUE: EnumOption[] = [
  { value: true, label: '已逾期', color: 'error' },
  { value: false, label: '未逾期', color: 'default' },
];

/** The users who may be given orders: "name (username)". */
export const userSource: OptionSource = {
  queryKey: maintKeys.users(),
  load: async () => (await call(userEndpoints.list, {}, { loading: false })).map((u): DataOption => ({ value: u.id, label: `${u.name} (${u.username})` })),
};

/** The inspection items, by name. */
export const itemSource: OptionSource = {
  queryKey: maintKeys.items(),
  load: async () => (await call(maintenanceEndpoints.itemList, {}, { loading: false })).map((i): DataOption => ({ value: i.id, label: i.name })),
};

/** Devices of a station (or of every station in scope), as "name (code)". */
export const deviceSourceOf = (siteId: number | null | undefined): OptionSource => ({
  queryKey: maintKeys.devices(siteId ?? null),
  load: async () =>
    (await call(deviceEndpoints.list, siteId ? { siteId } : {}, { loading: false })).map((d): DataOption => ({ value: d.id, label: `${d.name} (${d.code})` })),
});
