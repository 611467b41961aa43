import {
  alarmDictAdd, alarmDictEdit, alarmEndpoints, type AlarmDictRecord, type AlarmOperator, type AlarmRuleKind, type AlarmType,
} from '@ess/contract/alarm';
import { productEndpoints } from '@ess/contract/product';
import { DEVICE_TYPE_LABELS, THING_MODEL, type DeviceType } from '@ess/contract/telemetry';
import { defineResource, type DataOption, type EnumOption, type FormMode, type OptionSource } from '../../components/crud/index.ts';
import { t as translate } from '../../platform/i18n/index.ts';
import { call } from '../../platform/request.ts';
import { DEVICE_TYPE_OPTIONS, productSource } from '../../components/options/products.ts';
import { ENABLED_OPTIONS, KIND_OPTIONS, LEVEL_OPTIONS, OPERATOR_OPTIONS, TYPE_OPTIONS } from './alarm.options.ts';
import { alarmKeys } from './alarm.keys.ts';

export type DictTarget = 'deviceType' | 'product';

/** The dictionary form: the target as a choice, then the fields of the entry's kind. */
export interface DictForm {
  target: DictTarget;
  productId?: number | null;
  deviceType?: DeviceType | null;
  kind: AlarmRuleKind;
  eventCode?: string | null;
  identifier?: string | null;
  operator?: AlarmOperator | null;
  threshold?: number | null;
  clearValue?: number | null;
  level: number;
  alarmType: AlarmType;
  description: string;
  enabled: boolean;
}

export const TARGET_OPTIONS: EnumOption[] = [
  { value: 'deviceType', label: '按设备类型' },
  { value: 'product', label: '按产品' },
];

/** Fault codes or numeric properties of a device type's thing model, as "code · label". */
export function modelOptions(type: string | undefined, kind: AlarmRuleKind | undefined): DataOption[] {
  const model = type ? THING_MODEL[type as DeviceType] : undefined;
  if (!model) return [];
  if (kind === 'event') return model.events.map((e) => ({ value: e.code, label: `${e.code} · ${translate(e.label)}` }));
  return model.properties
    .filter((p) => p.dataType === 'float' || p.dataType === 'int')
    .map((p) => ({ value: p.identifier, label: `${p.identifier} · ${translate(p.label)}${p.unit ? ` (${p.unit})` : ''}` }));
}

/** What the entry can watch: the thing model of the chosen device type, or of the chosen product's type. */
const targetSource =
  (kind: AlarmRuleKind) =>
  (v: Partial<DictForm>): OptionSource | null => {
    if (v.target === 'product' && v.productId) {
      return {
        queryKey: alarmKeys.dictModel('product', v.productId, kind),
        load: async () => {
          const products = await call(productEndpoints.list, {}, { loading: false });
          return modelOptions(products.find((p) => p.id === v.productId)?.type, kind);
        },
      };
    }
    if (v.target !== 'product' && v.deviceType) {
      const type = v.deviceType;
      return { queryKey: alarmKeys.dictModel('type', type, kind), load: () => Promise.resolve(modelOptions(type, kind)) };
    }
    return null;
  };

const isEvent = (v: Partial<DictForm>) => v.kind !== 'threshold';
const isThreshold = (v: Partial<DictForm>) => v.kind === 'threshold';

/** The request body: the chosen target only, and the fields of the entry's kind. */
export function dictBody(v: DictForm, mode: FormMode, id?: number): Record<string, unknown> {
  const event = v.kind === 'event';
  return {
    ...(mode === 'edit' ? { id } : {}),
    productId: v.target === 'product' ? (v.productId ?? undefined) : null,
    deviceType: v.target === 'product' ? null : (v.deviceType ?? undefined),
    kind: v.kind,
    eventCode: event ? (v.eventCode ?? undefined) : null,
    identifier: event ? null : (v.identifier ?? undefined),
    operator: event ? null : (v.operator ?? undefined),
    threshold: event ? null : (v.threshold ?? undefined),
    clearValue: event ? null : (v.clearValue ?? undefined),
    level: v.level === undefined || v.level === null ? undefined : Number(v.level),
    alarmType: v.alarmType,
    description: v.description,
    enabled: v.enabled ?? true,
  };
}

const targetText = (r: AlarmDictRecord, t: (s: string) => string) =>
  r.productId !== null ? `${r.productName ?? ''} (${r.productCode ?? ''})` : t(DEVICE_TYPE_LABELS[r.deviceType!] ?? '');

const ruleText = (r: AlarmDictRecord) =>
  r.kind === 'event' ? (r.eventCode ?? '') : `${r.identifier ?? ''} ${r.operator ?? ''} ${r.threshold ?? ''}${r.unit ? ` ${r.unit}` : ''}`;

/** /alarm/alarm: the alarm dictionary with add, edit, delete and xlsx export and import. */
export const dictResource = defineResource<AlarmDictRecord, DictForm>({
  key: ['alarm-dict'],
  name: '告警字典',
  endpoints: {
    page: alarmEndpoints.dictPage,
    add: alarmEndpoints.dictAdd,
    edit: alarmEndpoints.dictEdit,
    delete: alarmEndpoints.dictDelete,
    export: alarmEndpoints.dictExport,
    import: alarmEndpoints.dictImport,
  },
  columns: [
    { key: 'target', title: '适用对象', width: 180, render: (r, t) => targetText(r, t) },
    { key: 'kind', title: '规则类型', type: 'enum', options: KIND_OPTIONS, width: 90 },
    { key: 'rule', title: '故障码/阈值规则', width: 260, render: (r) => <code>{ruleText(r)}</code> },
    { key: 'targetName', title: '物模型名称', width: 140, render: (r, t) => (r.targetName ? t(r.targetName) : '-') },
    { key: 'clearValue', title: '恢复值', width: 90, render: (r) => (r.clearValue === null ? '-' : `${r.clearValue}${r.unit ? ` ${r.unit}` : ''}`) },
    { key: 'level', title: '告警等级', type: 'enum', options: LEVEL_OPTIONS, width: 110 },
    { key: 'alarmType', title: '告警类型', type: 'enum', options: TYPE_OPTIONS, width: 100 },
    { key: 'description', title: '告警描述', width: 200, ellipsis: true, render: (r, t) => t(r.description) },
    { key: 'enabled', title: '状态', type: 'boolean', options: ENABLED_OPTIONS, width: 80 },
    { key: 'updatedAt', title: '更新时间', type: 'datetime', width: 170 },
  ],
  filters: [
    { key: 'deviceType', title: '设备类型', type: 'enum', options: DEVICE_TYPE_OPTIONS },
    { key: 'productId', title: '产品', type: 'select', source: productSource },
    { key: 'kind', title: '规则类型', type: 'enum', options: KIND_OPTIONS },
    { key: 'level', title: '告警等级', type: 'enum', options: LEVEL_OPTIONS },
    { key: 'alarmType', title: '告警类型', type: 'enum', options: TYPE_OPTIONS },
    { key: 'keyword', title: '故障码/属性/描述' },
  ],
  form: {
    container: 'drawer',
    width: 640,
    columns: 2,
    fields: [
      { name: 'target', label: '适用对象', type: 'radio', options: TARGET_OPTIONS, required: true, wide: true },
      { name: 'deviceType', label: '设备类型', type: 'enum', options: DEVICE_TYPE_OPTIONS, required: true, visible: (v) => v.target !== 'product', wide: true },
      { name: 'productId', label: '产品', type: 'select', source: productSource, required: true, visible: (v) => v.target === 'product', wide: true },
      { name: 'kind', label: '规则类型', type: 'radio', options: KIND_OPTIONS, required: true, wide: true },
      {
        name: 'eventCode', label: '故障码', type: 'select', source: targetSource('event'), required: true, visible: isEvent, wide: true,
        clearOnChangeOf: ['target', 'deviceType', 'productId'], help: '设备上报的事件码（物模型中的事件）',
      },
      {
        name: 'identifier', label: '属性', type: 'select', source: targetSource('threshold'), required: true, visible: isThreshold, wide: true,
        clearOnChangeOf: ['target', 'deviceType', 'productId'],
      },
      { name: 'operator', label: '运算符', type: 'enum', options: OPERATOR_OPTIONS, required: true, visible: isThreshold },
      { name: 'threshold', label: '阈值', type: 'number', required: true, visible: isThreshold },
      {
        name: 'clearValue', label: '恢复值', type: 'number', required: true, visible: isThreshold, wide: true,
        help: '上限告警在数值低于恢复值时结束，下限告警在高于恢复值时结束，避免在阈值附近反复告警',
      },
      { name: 'level', label: '告警等级', type: 'enum', options: LEVEL_OPTIONS, required: true, wide: true },
      { name: 'alarmType', label: '告警类型', type: 'enum', options: TYPE_OPTIONS, required: true, wide: true },
      { name: 'description', label: '告警描述', required: true, maxLength: 200, wide: true },
      { name: 'enabled', label: '启用', type: 'switch', help: '停用后不再产生此类告警，进行中的告警随即结束' },
    ],
    schemas: { add: alarmDictAdd, edit: alarmDictEdit },
    initialValues: { target: 'deviceType', kind: 'event', level: 3, alarmType: 'deviceFault', enabled: true },
    toValues: (r) => ({
      target: r.productId !== null ? 'product' : 'deviceType',
      productId: r.productId, deviceType: r.deviceType, kind: r.kind, eventCode: r.eventCode, identifier: r.identifier, operator: r.operator,
      threshold: r.threshold, clearValue: r.clearValue, level: r.level, alarmType: r.alarmType, description: r.description, enabled: r.enabled,
    }),
    toBody: dictBody,
  },
  actionsWidth: 160,
  pageSize: 20,
  exportName: '告警字典',
});
