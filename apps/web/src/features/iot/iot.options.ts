import {
  IOT_DATA_TYPES, IOT_DEVICE_STATES, IOT_PLATFORM_LABELS, IOT_PLATFORMS, IOT_SYNC_STATE_LABELS, IOT_SYNC_STATES, iotConfigEndpoints, iotQueryEndpoints,
  type IotDeviceState, type IotSyncState,
} from '@ess/contract/iot';
import { productCommandEndpoints, productEndpoints, productEventEndpoints, productPropertyEndpoints } from '@ess/contract/product';
import type { EnumOption, OptionSource } from '../../components/crud/index.ts';
import type { Tone } from '../../components/ToneTag.tsx';
import { call } from '../../platform/request.ts';
import { iotKeys } from './iot.keys.ts';

/** Enumerations and pickers of the IoT screens; labels are source text (zh-CN) unless literal. */

const quiet = { loading: false } as const;

/** Platform names are product names, shown as they are. */
export const PLATFORM_OPTIONS: EnumOption[] = IOT_PLATFORMS.map((p) => ({ value: p, label: IOT_PLATFORM_LABELS[p], literal: true }));
export const SYNC_STATE_OPTIONS: EnumOption[] = IOT_SYNC_STATES.map((s) => ({ value: s, label: IOT_SYNC_STATE_LABELS[s] }));
export const SYNC_STATE_TONES: Record<IotSyncState, Tone> = { planned: 'processing', applied: 'success', unchanged: 'default', discarded: 'default', failed: 'error' };
export const DEVICE_STATE_LABELS: Record<IotDeviceState, string> = { online: '在线', offline: '离线', inactive: '未激活', unknown: '未知' };
export const DEVICE_STATE_OPTIONS: EnumOption[] = IOT_DEVICE_STATES.map((s) => ({
  value: s, label: DEVICE_STATE_LABELS[s], color: s === 'online' ? 'success' : s === 'offline' ? 'error' : 'default',
}));
/** Data types are the platforms' codes. */
export const DATA_TYPE_OPTIONS: EnumOption[] = IOT_DATA_TYPES.map((d) => ({ value: d, label: d, literal: true }));
export const ENABLED_OPTIONS: EnumOption[] = [
  { value: true, label: '已启用', color: 'success' },
  { value: false, label: '已停用', color: 'default' },
];
export const YES_NO: EnumOption[] = [
  { value: true, label: '是' },
  { value: false, label: '否' },
];
export const CHANGE_LABELS = { added: '新增', changed: '变更', removed: '删除' } as const;
export const KIND_LABELS = { product: '产品', property: '属性', event: '事件', command: '命令', param: '参数', device: '设备' } as const;

/** The applications the caller sees (filters of the product and device lists). */
export const configSource: OptionSource = {
  queryKey: iotKeys.options('configs'),
  load: async () => (await call(iotConfigEndpoints.list, {}, quiet)).map((c) => ({ value: c.id, label: c.name })),
};

/** The platform products of the caller (device filter). */
export const iotProductSource: OptionSource = {
  queryKey: iotKeys.options('products'),
  load: async () => (await call(iotQueryEndpoints.productList, {}, quiet)).map((p) => ({ value: p.id, label: `${p.name} · ${p.configName}` })),
};

/** Console products (the thing model a relation maps to). */
export const consoleProductSource: OptionSource = {
  queryKey: iotKeys.options('console-products'),
  load: async () => (await call(productEndpoints.list, {}, quiet)).map((p) => ({ value: p.id, label: `${p.name} (${p.code})` })),
};

/** A console product's properties, event codes or commands, by identifier. */
export const thingModelSource = (kind: 'property' | 'event' | 'command', productId: unknown): OptionSource | null => {
  if (typeof productId !== 'number') return null;
  const ep = { property: productPropertyEndpoints.list, event: productEventEndpoints.list, command: productCommandEndpoints.list }[kind];
  return {
    queryKey: iotKeys.options('thing-model', kind, productId),
    load: async () => ((await call(ep, { productId }, quiet)) as { identifier: string; name: string }[]).map((x) => ({ value: x.identifier, label: `${x.name} (${x.identifier})` })),
  };
};

/** A platform product's properties, events or commands. */
export const platformItemSource = (kind: 'property' | 'event' | 'command', iotProductId: number): OptionSource => {
  const ep = { property: iotQueryEndpoints.propertyList, event: iotQueryEndpoints.eventList, command: iotQueryEndpoints.commandList }[kind];
  return {
    queryKey: iotKeys.options('platform', kind, iotProductId),
    load: async () => ((await call(ep, { iotProductId }, quiet)) as { id: number; identifier: string; name: string }[]).map((x) => ({ value: x.id, label: `${x.name} (${x.identifier})` })),
  };
};

/** The devices of a platform product (a device-level relation). */
export const platformDeviceSource = (iotProductId: number): OptionSource => ({
  queryKey: iotKeys.options('platform', 'device', iotProductId),
  load: async () => (await call(iotQueryEndpoints.devicePage, { current: 1, pageSize: 500, iotProductId }, quiet)).records.map((d) => ({ value: d.id, label: d.name })),
});
