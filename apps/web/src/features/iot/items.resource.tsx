import { iotQueryEndpoints, type IotCommandRecord, type IotEventRecord, type IotPropertyRecord } from '@ess/contract/iot';
import { defineResource, type ResourceDef } from '../../components/crud/index.ts';
import { iotKeys } from './iot.keys.ts';
import { DATA_TYPE_OPTIONS, YES_NO } from './iot.options.ts';

const related = { key: 'relatedIdentifier', title: '关联标识', width: 150, render: (r: { relatedIdentifier: string | null }, t: (s: string) => string) => (r.relatedIdentifier ? <code>{r.relatedIdentifier}</code> : t('未关联')) };
const base = (iotProductId: number) => ({ fixedFilters: { iotProductId }, filters: [{ key: 'keyword', title: '关键字' }], detail: false, pageSize: 10 });

/** A platform product's properties (telemetry and attribute keys, or thing-model properties). */
export const propertyItems = (iotProductId: number): ResourceDef<IotPropertyRecord> =>
  defineResource<IotPropertyRecord>({
    key: [...iotKeys.items('property'), String(iotProductId)],
    name: '平台属性',
    endpoints: { page: iotQueryEndpoints.propertyPage },
    columns: [
      { key: 'identifier', title: '标识', type: 'code', width: 160 },
      { key: 'name', title: '名称', width: 160, ellipsis: true },
      { key: 'dataType', title: '数据类型', type: 'enum', options: DATA_TYPE_OPTIONS, width: 100 },
      { key: 'unit', title: '单位', width: 80, render: (r) => r.unit ?? '-' },
      { key: 'source', title: '来源', type: 'code', width: 110 },
      related,
    ],
    actionsWidth: 1,
    ...base(iotProductId),
  });

/** A platform product's events (alarm types, thing-model events). */
export const eventItems = (iotProductId: number): ResourceDef<IotEventRecord> =>
  defineResource<IotEventRecord>({
    key: [...iotKeys.items('event'), String(iotProductId)],
    name: '平台事件',
    endpoints: { page: iotQueryEndpoints.eventPage },
    columns: [
      { key: 'identifier', title: '标识', type: 'code', width: 160 },
      { key: 'name', title: '名称', width: 160, ellipsis: true },
      { key: 'level', title: '级别', width: 100, render: (r) => r.level ?? '-' },
      related,
    ],
    actionsWidth: 120,
    ...base(iotProductId),
  });

/** A platform product's commands (functions). */
export const commandItems = (iotProductId: number): ResourceDef<IotCommandRecord> =>
  defineResource<IotCommandRecord>({
    key: [...iotKeys.items('command'), String(iotProductId)],
    name: '平台命令',
    endpoints: { page: iotQueryEndpoints.commandPage },
    columns: [
      { key: 'identifier', title: '标识', type: 'code', width: 160 },
      { key: 'name', title: '名称', width: 160, ellipsis: true },
      { key: 'async', title: '异步', type: 'boolean', options: YES_NO, width: 80 },
      related,
    ],
    actionsWidth: 120,
    ...base(iotProductId),
  });
