import {
  iotRelateCommandAdd, iotRelateCommandEdit, iotRelateEndpoints, iotRelateEventAdd, iotRelateEventEdit, iotRelatePropertyAdd, iotRelatePropertyEdit,
  type IotRelateCommandRecord, type IotRelateEventRecord, type IotRelatePropertyRecord,
} from '@ess/contract/iot';
import { Badge, Space, Tag } from 'antd';
import { defineResource, type ColumnDef, type FieldDef, type FormMode, type ResourceDef } from '../../components/crud/index.ts';
import { iotKeys } from './iot.keys.ts';
import { consoleProductSource, ENABLED_OPTIONS, platformDeviceSource, platformItemSource, thingModelSource } from './iot.options.ts';
import { ValueMapField, type ValueMapEntry } from './ValueMapField.tsx';

export type RelationKind = 'property' | 'event' | 'command';
type AnyRelation = IotRelatePropertyRecord | IotRelateEventRecord | IotRelateCommandRecord;

export interface RelationForm {
  id?: number;
  iotDeviceId?: number | null;
  item: number;
  productId: number;
  identifier: string;
  scale?: number;
  offset?: number;
  valueMap?: ValueMapEntry[];
  active: boolean;
  remark?: string | null;
}

const ITEM = { property: 'iotPropertyId', event: 'iotEventId', command: 'iotCommandId' } as const;
const ITEM_LABEL = { property: '平台属性', event: '平台事件', command: '平台命令' } as const;
const TARGET_LABEL = { property: '属性标识', event: '事件编码', command: '命令标识' } as const;
const NAME = { property: '属性关联', event: '事件关联', command: '命令关联' } as const;
const ENDPOINTS = {
  property: { page: iotRelateEndpoints.propertyPage, one: iotRelateEndpoints.propertyOne, add: iotRelateEndpoints.propertyAdd, edit: iotRelateEndpoints.propertyEdit, delete: iotRelateEndpoints.propertyDelete },
  event: { page: iotRelateEndpoints.eventPage, one: iotRelateEndpoints.eventOne, add: iotRelateEndpoints.eventAdd, edit: iotRelateEndpoints.eventEdit, delete: iotRelateEndpoints.eventDelete },
  command: { page: iotRelateEndpoints.commandPage, one: iotRelateEndpoints.commandOne, add: iotRelateEndpoints.commandAdd, edit: iotRelateEndpoints.commandEdit, delete: iotRelateEndpoints.commandDelete },
};
const SCHEMAS = {
  property: { add: iotRelatePropertyAdd, edit: iotRelatePropertyEdit },
  event: { add: iotRelateEventAdd, edit: iotRelateEventEdit },
  command: { add: iotRelateCommandAdd, edit: iotRelateCommandEdit },
};
export const ACTIVE_ENDPOINTS = { property: iotRelateEndpoints.propertyActive, event: iotRelateEndpoints.eventActive, command: iotRelateEndpoints.commandActive };

const itemIdentifier = (r: AnyRelation): string =>
  'iotPropertyIdentifier' in r ? r.iotPropertyIdentifier : 'iotEventIdentifier' in r ? r.iotEventIdentifier : r.iotCommandIdentifier;
const itemId = (r: AnyRelation): number => ('iotPropertyId' in r ? r.iotPropertyId : 'iotEventId' in r ? r.iotEventId : r.iotCommandId);

/** A value map as coloured tags (platform value → label and status). */
export function ValueMapTags({ map }: { map: readonly { platformValue: string; status: number; label: string; colour?: string }[] }) {
  if (map.length === 0) return <>-</>;
  return (
    <Space size={[2, 2]} wrap>
      {map.map((m) => (
        <Tag key={m.platformValue}>
          {m.colour ? <Badge color={m.colour} /> : null} {`${m.platformValue} → ${m.status} ${m.label}`}
        </Tag>
      ))}
    </Space>
  );
}

/**
 * The relations of one kind of a platform product (or of one of its devices: `iotDeviceId`): list,
 * add, edit, delete; `active` switched by the row action. A device-level relation overrides the
 * product-level one for that device.
 */
export function relationResource(kind: RelationKind, iotProductId: number, iotDeviceId?: number): ResourceDef<AnyRelation, RelationForm> {
  const withMap = kind !== 'command';
  const columns: ColumnDef<AnyRelation>[] = [
    { key: 'item', title: ITEM_LABEL[kind], width: 160, render: (r) => <code>{itemIdentifier(r)}</code> },
    { key: 'level', title: '层级', width: 140, render: (r, t) => (r.iotDeviceName ? `${t('设备')} · ${r.iotDeviceName}` : t('产品级')) },
    { key: 'productName', title: '产品', width: 140, ellipsis: true },
    { key: 'identifier', title: TARGET_LABEL[kind], type: 'code', width: 150 },
    ...(kind === 'property'
      ? [{ key: 'scale', title: '换算（×倍率+偏移）', width: 150, render: (r: AnyRelation) => ('scale' in r ? `× ${r.scale} + ${r.offset}` : '-') }]
      : []),
    ...(withMap ? [{ key: 'valueMap', title: '值映射', width: 220, render: (r: AnyRelation) => ('valueMap' in r ? <ValueMapTags map={r.valueMap} /> : '-') }] : []),
    ...(kind === 'command' ? [{ key: 'paramCount', title: '参数关联', width: 90, render: (r: AnyRelation) => ('paramCount' in r ? r.paramCount : 0) }] : []),
    { key: 'active', title: '状态', type: 'boolean', options: ENABLED_OPTIONS, width: 90 },
    { key: 'remark', title: '备注', inTable: false },
    { key: 'updatedAt', title: '更新时间', type: 'datetime', width: 170 },
  ];
  const fields: FieldDef<RelationForm>[] = [
    { name: 'item', label: ITEM_LABEL[kind], type: 'select', required: true, source: platformItemSource(kind, iotProductId) },
    ...(iotDeviceId === undefined
      ? [{
          name: 'iotDeviceId', label: '适用设备', type: 'select', source: platformDeviceSource(iotProductId),
          help: '留空为产品级关联（适用于该产品的所有设备）；选择设备则只对该设备生效并覆盖产品级关联',
        } satisfies FieldDef<RelationForm>]
      : []),
    { name: 'productId', label: '产品', type: 'select', required: true, source: consoleProductSource, help: '同一物联网产品的关联须映射到同一产品' },
    { name: 'identifier', label: TARGET_LABEL[kind], type: 'select', required: true, source: (v) => thingModelSource(kind, v.productId), clearOnChangeOf: ['productId'] },
    ...(kind === 'property'
      ? ([
          { name: 'scale', label: '倍率', type: 'number', help: '平台值 × 倍率 + 偏移 = 产品属性的值（单位换算）' },
          { name: 'offset', label: '偏移', type: 'number' },
        ] satisfies FieldDef<RelationForm>[])
      : []),
    ...(withMap
      ? [{
          name: 'valueMap', label: '值映射', type: 'custom', wide: true, help: '平台值、状态值、名称和颜色各自不能重复',
          render: (p) => <ValueMapField id={p.id} value={p.value} onChange={p.onChange} mode={p.mode} form={p.form as never} />,
        } satisfies FieldDef<RelationForm>]
      : []),
    { name: 'active', label: '启用', type: 'switch' },
    { name: 'remark', label: '备注', type: 'textarea', maxLength: 200, wide: true },
  ];
  const toBody = (v: RelationForm, mode: FormMode, id?: number): Record<string, unknown> => {
    const body: Record<string, unknown> = {
      iotProductId,
      iotDeviceId: iotDeviceId ?? v.iotDeviceId ?? null,
      [ITEM[kind]]: v.item,
      productId: v.productId,
      identifier: v.identifier,
      active: v.active,
      remark: v.remark || null,
      ...(kind === 'property' ? { scale: v.scale ?? 1, offset: v.offset ?? 0 } : {}),
      ...(withMap ? { valueMap: (v.valueMap ?? []).map((e) => ({ ...e, ...(e.colour ? {} : { colour: undefined }) })) } : {}),
    };
    return mode === 'edit' ? { id, ...body } : body;
  };
  return defineResource<AnyRelation, RelationForm, AnyRelation>({
    key: [...iotKeys.relations(kind), String(iotProductId), iotDeviceId ? String(iotDeviceId) : 'product'],
    name: NAME[kind],
    endpoints: ENDPOINTS[kind],
    columns,
    filters: [{ key: 'active', title: '状态', type: 'enum', options: ENABLED_OPTIONS }],
    fixedFilters: { iotProductId, ...(iotDeviceId ? { iotDeviceId } : {}) },
    form: {
      container: 'drawer',
      width: 760,
      columns: 2,
      fields,
      schemas: SCHEMAS[kind],
      initialValues: { active: true, scale: 1, offset: 0, valueMap: [], ...(iotDeviceId ? { iotDeviceId } : {}) },
      toValues: (r) => ({
        id: r.id, iotDeviceId: r.iotDeviceId, item: itemId(r), productId: r.productId, identifier: r.identifier, active: r.active, remark: r.remark,
        ...('scale' in r ? { scale: r.scale, offset: r.offset } : {}),
        ...('valueMap' in r ? { valueMap: r.valueMap } : {}),
      }),
      toBody,
    },
    detail: false,
    actionsWidth: kind === 'command' ? 320 : 240,
    pageSize: 10,
  });
}
