import { itemAdd, itemEdit, maintenanceEndpoints, type CheckType, type ItemRecord } from '@ess/contract/maintenance';
import { DEVICE_TYPE_LABELS, type DeviceType } from '@ess/contract/telemetry';
import { defineResource, type FormMode } from '../../components/crud/index.ts';
import { DEVICE_TYPE_OPTIONS, productSource } from '../../components/options/products.ts';
import { CHECK_TYPE_OPTIONS } from './maintenance.options.ts';

/** The item form: what it applies to (a device type or a product, or the station as a whole), how it is checked. */
export interface ItemForm {
  name: string;
  target: 'station' | 'deviceType' | 'product';
  deviceType?: DeviceType | null;
  productId?: number | null;
  checkType: CheckType;
  unit?: string | null;
  min?: number | null;
  max?: number | null;
  standard?: string | null;
  remark?: string | null;
}

export const ITEM_TARGET_OPTIONS = [
  { value: 'deviceType', label: '按设备类型' },
  { value: 'product', label: '按产品' },
  { value: 'station', label: '整个站点' },
];

/** The request body: the chosen target only; range and unit only for number items. */
export function itemBody(v: ItemForm, mode: FormMode, id?: number): Record<string, unknown> {
  const number = v.checkType === 'number';
  return {
    ...(mode === 'edit' ? { id } : {}),
    name: v.name,
    deviceType: v.target === 'deviceType' ? (v.deviceType ?? undefined) : null,
    productId: v.target === 'product' ? (v.productId ?? undefined) : null,
    checkType: v.checkType,
    unit: number ? (v.unit ?? null) : null,
    min: number ? (v.min ?? null) : null,
    max: number ? (v.max ?? null) : null,
    standard: v.standard ?? null,
    remark: v.remark ?? null,
  };
}

const range = (r: Pick<ItemRecord, 'min' | 'max' | 'unit'>) => {
  if (r.min === null && r.max === null) return '-';
  const u = r.unit ? ` ${r.unit}` : '';
  if (r.min !== null && r.max !== null) return `${r.min} ~ ${r.max}${u}`;
  return r.min !== null ? `≥ ${r.min}${u}` : `≤ ${r.max}${u}`;
};

/** /patrol/work: inspection items with add, edit, delete (refused while a plan uses one) and xlsx export and import. */
export const itemResource = defineResource<ItemRecord, ItemForm>({
  key: ['maintenance', 'item'],
  name: '巡检项',
  endpoints: {
    page: maintenanceEndpoints.itemPage,
    add: maintenanceEndpoints.itemAdd,
    edit: maintenanceEndpoints.itemEdit,
    delete: maintenanceEndpoints.itemDelete,
    export: maintenanceEndpoints.itemExport,
    import: maintenanceEndpoints.itemImport,
  },
  columns: [
    { key: 'name', title: '巡检项名称', width: 180, builtIn: true },
    {
      key: 'target', title: '适用对象', width: 160,
      render: (r, t) => (r.productId !== null ? `${r.productName ?? ''} (${r.productCode ?? ''})` : r.deviceType ? t(DEVICE_TYPE_LABELS[r.deviceType]) : t('整个站点')),
    },
    { key: 'checkType', title: '检查类型', type: 'enum', options: CHECK_TYPE_OPTIONS, width: 100 },
    { key: 'range', title: '允许范围', width: 140, render: (r) => range(r) },
    { key: 'standard', title: '检查标准', width: 240, ellipsis: true, builtIn: true, render: (r, t) => (r.standard ? t(r.standard) : '-') },
    { key: 'planCount', title: '使用计划数', type: 'number', width: 100 },
    { key: 'companyName', title: '所属公司', width: 140, inTable: false },
    { key: 'remark', title: '备注', inTable: false },
    { key: 'updatedAt', title: '更新时间', type: 'datetime', width: 170 },
  ],
  filters: [
    { key: 'deviceType', title: '设备类型', type: 'enum', options: DEVICE_TYPE_OPTIONS },
    { key: 'productId', title: '产品', type: 'select', source: productSource },
    { key: 'checkType', title: '检查类型', type: 'enum', options: CHECK_TYPE_OPTIONS },
    { key: 'keyword', title: '名称/标准' },
  ],
  form: {
    container: 'drawer',
    width: 640,
    columns: 2,
    fields: [
      { name: 'name', label: '巡检项名称', required: true, maxLength: 64, wide: true },
      { name: 'target', label: '适用对象', type: 'radio', options: ITEM_TARGET_OPTIONS, required: true, wide: true },
      { name: 'deviceType', label: '设备类型', type: 'enum', options: DEVICE_TYPE_OPTIONS, required: true, visible: (v) => v.target === 'deviceType', wide: true },
      { name: 'productId', label: '产品', type: 'select', source: productSource, required: true, visible: (v) => v.target === 'product', wide: true },
      { name: 'checkType', label: '检查类型', type: 'radio', options: CHECK_TYPE_OPTIONS, required: true, wide: true },
      { name: 'unit', label: '单位', maxLength: 16, visible: (v) => v.checkType === 'number', wide: true },
      { name: 'min', label: '下限', type: 'number', visible: (v) => v.checkType === 'number', help: '测量值低于下限记为异常' },
      { name: 'max', label: '上限', type: 'number', visible: (v) => v.checkType === 'number', help: '测量值高于上限记为异常' },
      { name: 'standard', label: '检查标准', type: 'textarea', maxLength: 200, wide: true, help: '判断正常的依据，执行人在工单中可见' },
      { name: 'remark', label: '备注', type: 'textarea', maxLength: 200, wide: true },
    ],
    schemas: { add: itemAdd, edit: itemEdit },
    initialValues: { target: 'deviceType', checkType: 'status' },
    toValues: (r) => ({
      name: r.name,
      target: r.productId !== null ? 'product' : r.deviceType ? 'deviceType' : 'station',
      deviceType: r.deviceType, productId: r.productId, checkType: r.checkType, unit: r.unit, min: r.min, max: r.max, standard: r.standard, remark: r.remark,
    }),
    toBody: itemBody,
  },
  actionsWidth: 200,
  pageSize: 20,
  exportName: '巡检项',
});
