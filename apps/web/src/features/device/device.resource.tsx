import { DEVICE_STATUS_LABELS, DEVICE_STATUSES, deviceEndpoints, type DeviceRecord, deviceEditBody, type DeviceChangeRecord, type DeviceImportRecord } from '@ess/contract/device';
import { DEVICE_TYPES, METER_PURPOSE_LABELS, METER_PURPOSES } from '@ess/contract/telemetry';
import { Link } from 'react-router';
import { defineResource, type EnumOption } from '../../components/crud/index.ts';
import { typeLabel } from '../../components/device-types.ts';
import { LiveStatus } from './LiveStatus.tsx';
import { stationDeviceSource } from './device.api.ts';
import { siteSource } from '../../components/options/sites.ts';
import { productSource } from '../../components/options/products.ts';
import { translateBuiltIn } from '../../platform/i18n/translate.ts';

export const DETAIL_PATH = '/product/equipmentDetail';
export const detailHref = (id: number) => `${DETAIL_PATH}?id=${id}`;

const TYPE_OPTIONS: EnumOption[] = DEVICE_TYPES.map((d) => ({ value: d, label: typeLabel(d) }));
const STATUS_OPTIONS: EnumOption[] = DEVICE_STATUSES.map((s) => ({
  value: s,
  label: DEVICE_STATUS_LABELS[s].label,
  color: s === 'online' ? 'success' : s === 'disabled' ? 'error' : s === 'inactive' ? 'warning' : 'default',
}));
export const METER_PURPOSE_OPTIONS: EnumOption[] = METER_PURPOSES.map((m) => ({ value: m, label: METER_PURPOSE_LABELS[m] }));
const YES_NO: EnumOption[] = [
  { value: true, label: '是', color: 'error' },
  { value: false, label: '否', color: 'default' },
];

export interface DeviceForm {
  siteId?: number;
  code: string;
  name: string;
  barcode?: string | null;
  parentId?: number | null;
  meterPurpose?: string | null;
  ratedPower?: number | null;
  no?: number | null;
  subNo?: number | null;
  firmwareName?: string | null;
  firmwareVersion?: string | null;
  disabled?: boolean;
  sort?: number;
}

/** /product/equipment: the device registry of the stations in scope, with live state. */
export const deviceResource = defineResource<DeviceRecord, DeviceForm, DeviceRecord>({
  key: ['equipment', 'device'],
  name: '设备',
  endpoints: {
    page: deviceEndpoints.page,
    one: deviceEndpoints.one,
    edit: deviceEndpoints.edit,
    export: deviceEndpoints.export,
    import: deviceEndpoints.import,
  },
  // The import button of this screen shows the per-row report (EquipmentPage).
  showImport: false,
  exportName: '设备.xlsx',
  pageSize: 20,
  actionsWidth: 170,
  columns: [
    { key: 'name', title: '设备名称', width: 170, ellipsis: true, render: (r) => <Link to={detailHref(r.id)}>{translateBuiltIn(r.name)}</Link> },
    { key: 'code', title: '设备编码', type: 'code', width: 150 },
    { key: 'status', title: '状态', width: 90, render: (r) => <LiveStatus row={r} /> },
    { key: 'type', title: '设备类型', type: 'enum', options: TYPE_OPTIONS, width: 120 },
    { key: 'siteName', title: '所属站点', width: 140, ellipsis: true },
    { key: 'parentName', title: '上级设备', width: 140, ellipsis: true, builtIn: true },
    { key: 'barcode', title: '条码', width: 120 },
    { key: 'lastSeenAt', title: '最后上报时间', type: 'datetime', width: 170 },
    { key: 'productName', title: '产品', width: 150, ellipsis: true, builtIn: true },
    { key: 'firmwareVersion', title: '固件版本', width: 90 },
    { key: 'meterPurpose', title: '电表用途', type: 'enum', options: METER_PURPOSE_OPTIONS, inTable: false },
    { key: 'ratedPower', title: '额定功率', type: 'number', inTable: false },
    { key: 'cabinetName', title: '储能柜', inTable: false },
    { key: 'no', title: '序号', type: 'number', inTable: false },
    { key: 'subNo', title: '子序号', type: 'number', inTable: false },
    { key: 'firmwareName', title: '固件名称', inTable: false },
    { key: 'disabled', title: '禁用', type: 'boolean', options: YES_NO, inTable: false },
    { key: 'createdAt', title: '创建时间', type: 'datetime', inTable: false },
  ],
  filters: [
    { key: 'siteId', title: '所属站点', type: 'select', source: siteSource },
    { key: 'productId', title: '产品', type: 'select', source: productSource },
    { key: 'type', title: '设备类型', type: 'enum', options: TYPE_OPTIONS },
    { key: 'status', title: '状态', type: 'enum', options: STATUS_OPTIONS },
    { key: 'keyword', title: '编码、名称或条码' },
  ],
  form: {
    container: 'drawer',
    width: 720,
    columns: 2,
    schemas: { edit: deviceEditBody },
    toValues: (d) => ({
      siteId: d.siteId, code: d.code, name: d.name, barcode: d.barcode, parentId: d.parentId, meterPurpose: d.meterPurpose, ratedPower: d.ratedPower,
      no: d.no, subNo: d.subNo, firmwareName: d.firmwareName, firmwareVersion: d.firmwareVersion, disabled: d.disabled,
    }),
    toBody: (v, _mode, id) => ({
      id, code: v.code, name: v.name, barcode: v.barcode ?? null, parentId: v.parentId ?? null, meterPurpose: v.meterPurpose ?? null,
      ratedPower: v.ratedPower ?? null, no: v.no ?? null, subNo: v.subNo ?? null, firmwareName: v.firmwareName ?? null,
      firmwareVersion: v.firmwareVersion ?? null, disabled: v.disabled ?? false,
    }),
    fields: [
      { name: 'code', label: '设备编码', required: true, maxLength: 64, help: '设备上报数据使用的编码，修改后立即生效' },
      { name: 'name', label: '设备名称', required: true, maxLength: 64 },
      { name: 'barcode', label: '条码', maxLength: 64 },
      { name: 'parentId', label: '上级设备', type: 'select', source: (v) => stationDeviceSource(v.siteId) },
      { name: 'meterPurpose', label: '电表用途', type: 'enum', options: METER_PURPOSE_OPTIONS },
      { name: 'ratedPower', label: '额定功率', type: 'number' },
      { name: 'no', label: '序号', type: 'number' },
      { name: 'subNo', label: '子序号', type: 'number' },
      { name: 'firmwareName', label: '固件名称', maxLength: 64 },
      { name: 'firmwareVersion', label: '固件版本', maxLength: 32 },
      { name: 'disabled', label: '禁用', type: 'switch' },
    ],
  },
});

/** The device changes of the stations in scope (/product/replace). */
export const changeResource = defineResource<DeviceChangeRecord>({
  key: ['equipment', 'change'],
  name: '更换记录',
  endpoints: { page: deviceEndpoints.changePage, one: deviceEndpoints.changeOne },
  columns: [
    { key: 'changedAt', title: '更换时间', type: 'datetime', width: 160 },
    { key: 'siteName', title: '所属站点', width: 130, ellipsis: true },
    { key: 'newName', title: '设备名称', width: 130, ellipsis: true, render: (r) => <Link to={detailHref(r.deviceId)}>{r.newName}</Link> },
    { key: 'oldCode', title: '原设备编码', type: 'code', width: 150 },
    { key: 'newCode', title: '新设备编码', type: 'code', width: 150 },
    { key: 'oldBarcode', title: '原条码', width: 120 },
    { key: 'newBarcode', title: '新条码', width: 120 },
    { key: 'reason', title: '更换原因', ellipsis: true, width: 140 },
    { key: 'deviceType', title: '设备类型', type: 'enum', options: TYPE_OPTIONS, inTable: false },
    { key: 'username', title: '操作人', width: 100 },
    { key: 'productName', title: '产品', inTable: false },
    { key: 'oldName', title: '原设备名称', inTable: false },
    { key: 'oldFirmwareVersion', title: '原固件版本', inTable: false },
    { key: 'newFirmwareVersion', title: '新固件版本', inTable: false },
  ],
  filters: [
    { key: 'siteId', title: '所属站点', type: 'select', source: siteSource },
    { key: 'keyword', title: '设备编码或条码' },
  ],
});

const IMPORT_KIND_OPTIONS: EnumOption[] = [
  { value: 'device', label: '设备' },
  { value: 'product', label: '产品数据' },
];
const IMPORT_STATUS_OPTIONS: EnumOption[] = [
  { value: 'success', label: '成功', color: 'success' },
  { value: 'failed', label: '失败', color: 'error' },
];

/** Imports of the caller's companies: file, outcome, counts and the row errors of a refused file. */
export const importHistoryResource = defineResource<DeviceImportRecord>({
  key: ['equipment', 'import-history'],
  name: '导入记录',
  endpoints: { page: deviceEndpoints.importHistoryPage },
  detail: true,
  actionsWidth: 90,
  columns: [
    { key: 'createdAt', title: '导入时间', type: 'datetime', width: 170 },
    { key: 'fileName', title: '文件名', width: 180, ellipsis: true },
    { key: 'kind', title: '类型', type: 'enum', options: IMPORT_KIND_OPTIONS, width: 90 },
    { key: 'status', title: '结果', type: 'enum', options: IMPORT_STATUS_OPTIONS, width: 80 },
    { key: 'totalRows', title: '总行数', type: 'number', width: 80 },
    { key: 'createdCount', title: '新增', type: 'number', width: 70 },
    { key: 'updatedCount', title: '更新', type: 'number', width: 70 },
    { key: 'errorCount', title: '错误数', type: 'number', width: 80 },
    { key: 'username', title: '操作人', width: 100 },
    {
      key: 'errors', title: '错误明细', inTable: false, detailSpan: 2,
      render: (r, t) =>
        r.errors.length ? (
          <ul style={{ margin: 0, paddingInlineStart: 18 }}>
            {r.errors.map((e, i) => (
              <li key={i}>{`${e.row > 0 ? t('第$1行', e.row) : ''}${e.column ? `「${e.column}」` : ''} ${e.message}`}</li>
            ))}
          </ul>
        ) : '-',
    },
  ],
  filters: [
    { key: 'kind', title: '类型', type: 'enum', options: IMPORT_KIND_OPTIONS },
    { key: 'status', title: '结果', type: 'enum', options: IMPORT_STATUS_OPTIONS },
    { key: 'fileName', title: '文件名' },
  ],
});
