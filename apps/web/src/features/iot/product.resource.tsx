import { iotQueryEndpoints, type IotDeviceRecord, type IotProductRecord } from '@ess/contract/iot';
import { defineResource } from '../../components/crud/index.ts';
import { iotKeys } from './iot.keys.ts';
import { configSource, DEVICE_STATE_OPTIONS, iotProductSource } from './iot.options.ts';

/** /iot/productManagement: the platforms' products as last synchronised. */
export const productResource = defineResource<IotProductRecord>({
  key: iotKeys.products,
  name: '物联网产品',
  endpoints: { page: iotQueryEndpoints.productPage },
  columns: [
    { key: 'name', title: '产品名称', width: 180, ellipsis: true },
    { key: 'externalId', title: '平台产品编号', type: 'code', width: 200 },
    { key: 'configName', title: '物联网应用', width: 140, ellipsis: true },
    { key: 'model', title: '属性/事件/命令', width: 130, render: (r) => `${r.propertyCount} / ${r.eventCount} / ${r.commandCount}` },
    { key: 'deviceCount', title: '设备数', type: 'number', width: 90 },
    { key: 'productName', title: '关联产品', width: 150, render: (r, t) => r.productName ?? t('未关联') },
    { key: 'description', title: '描述', width: 200, ellipsis: true, render: (r) => r.description ?? '-' },
    { key: 'syncedAt', title: '同步时间', type: 'datetime', width: 170 },
  ],
  filters: [
    { key: 'name', title: '产品名称' },
    { key: 'configId', title: '物联网应用', type: 'select', source: configSource },
  ],
  detail: false,
  actionsWidth: 200,
  pageSize: 20,
});

/** /iot/device: the platforms' devices as last synchronised, with the console device each feeds. */
export const deviceResource = defineResource<IotDeviceRecord>({
  key: iotKeys.devices,
  name: '物联网设备',
  endpoints: { page: iotQueryEndpoints.devicePage },
  columns: [
    { key: 'name', title: '设备名称', width: 180, ellipsis: true },
    { key: 'externalId', title: '平台设备编号', type: 'code', width: 200 },
    { key: 'state', title: '状态', type: 'enum', options: DEVICE_STATE_OPTIONS, width: 100 },
    { key: 'iotProductName', title: '物联网产品', width: 160, ellipsis: true },
    { key: 'configName', title: '物联网应用', width: 140, ellipsis: true },
    { key: 'deviceCode', title: '绑定设备', width: 160, render: (r, t) => (r.deviceCode ? `${r.deviceCode}${r.siteName ? ` · ${r.siteName}` : ''}` : t('未绑定')) },
    { key: 'syncedAt', title: '同步时间', type: 'datetime', width: 170 },
  ],
  filters: [
    { key: 'name', title: '设备名称' },
    { key: 'configId', title: '物联网应用', type: 'select', source: configSource },
    { key: 'iotProductId', title: '物联网产品', type: 'select', source: iotProductSource },
    { key: 'state', title: '状态', type: 'enum', options: DEVICE_STATE_OPTIONS },
  ],
  detail: false,
  actionsWidth: 200,
  pageSize: 20,
});
