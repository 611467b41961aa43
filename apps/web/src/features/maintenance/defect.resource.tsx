import { defectAdd, defectEdit, maintenanceEndpoints, type DefectRecord } from '@ess/contract/maintenance';
import { Link } from 'react-router';
import { defineResource, type FormMode, type OptionSource } from '../../components/crud/index.ts';
import { siteSource } from '../../components/options/sites.ts';
import { call } from '../../platform/request.ts';
import { LevelTag } from '../../components/LevelTag.tsx';
import { maintKeys } from './maintenance.keys.ts';
import { DEFECT_STATE_OPTIONS, LEVEL_OPTIONS } from './maintenance.options.ts';
import { PhotoGallery, PhotoUpload } from './PhotoUpload.tsx';

export interface DefectForm {
  siteId: number;
  deviceId?: number | null;
  level: number;
  description: string;
  photos: string[];
  status?: DefectRecord['status'];
}

export function defectBody(v: DefectForm, mode: FormMode, id?: number): Record<string, unknown> {
  const common = { deviceId: v.deviceId ?? null, level: v.level, description: v.description, photos: v.photos ?? [] };
  return mode === 'edit' ? { id, ...common, ...(v.status ? { status: v.status } : {}) } : { siteId: v.siteId, ...common };
}

/** Devices of the chosen station, with their open defects. */
const stationDevices = (v: Partial<DefectForm>): OptionSource | null => {
  if (!v.siteId) return null;
  const siteId = v.siteId;
  return {
    queryKey: maintKeys.deviceDefects(siteId),
    load: async () =>
      (await call(maintenanceEndpoints.defectDeviceList, { siteId }, { loading: false })).map((d) => ({ value: d.deviceId, label: `${d.deviceName} (${d.deviceCode})` })),
  };
};

/** /patrol/flaw: defects found on site (by hand or from a failed inspection item), with photos. */
export const defectResource = defineResource<DefectRecord, DefectForm>({
  key: ['maintenance', 'defect'],
  name: '缺陷',
  endpoints: {
    page: maintenanceEndpoints.defectPage,
    one: maintenanceEndpoints.defectOne,
    add: maintenanceEndpoints.defectAdd,
    edit: maintenanceEndpoints.defectEdit,
    export: maintenanceEndpoints.defectExport,
  },
  columns: [
    { key: 'no', title: '缺陷编号', type: 'code', width: 170 },
    { key: 'level', title: '等级', width: 100, render: (r) => <LevelTag level={r.level} /> },
    { key: 'description', title: '缺陷描述', width: 220, ellipsis: true, builtIn: true, render: (r, t) => t(r.description) },
    { key: 'status', title: '状态', type: 'enum', options: DEFECT_STATE_OPTIONS, width: 90 },
    { key: 'siteName', title: '站点', width: 140, ellipsis: true },
    { key: 'deviceName', title: '设备', width: 160, ellipsis: true, render: (r) => (r.deviceName ? `${r.deviceName} (${r.deviceCode})` : '-') },
    { key: 'photoCount', title: '照片', width: 70, render: (r) => r.photos.length, inDetail: false },
    {
      key: 'workOrderNo', title: '巡检工单', width: 170,
      render: (r) => (r.workOrderId ? <Link to={`/patrol/order-detail?id=${r.workOrderId}`}>{r.workOrderNo}</Link> : '-'),
    },
    { key: 'itemName', title: '巡检项', inTable: false, render: (r, t) => (r.itemName ? t(r.itemName) : '-') },
    {
      key: 'repairOrderNo', title: '维修工单', width: 170,
      render: (r) => (r.repairOrderId ? <Link to={`/repair/order-detail?id=${r.repairOrderId}`}>{r.repairOrderNo}</Link> : '-'),
    },
    { key: 'foundAt', title: '发现时间', type: 'datetime', width: 170 },
    { key: 'foundByName', title: '发现人', width: 100 },
    { key: 'photos', title: '照片', inTable: false, detailSpan: 2, render: (r) => <PhotoGallery photos={r.photos.map((p) => p.suffix)} /> },
  ],
  filters: [
    { key: 'siteId', title: '站点', type: 'select', source: siteSource },
    { key: 'status', title: '状态', type: 'enum', options: DEFECT_STATE_OPTIONS },
    { key: 'level', title: '等级', type: 'enum', options: LEVEL_OPTIONS },
    { key: 'range', title: '发现时间', type: 'datetimeRange' },
    { key: 'keyword', title: '编号/描述/设备' },
  ],
  form: {
    container: 'drawer',
    width: 640,
    fields: [
      { name: 'siteId', label: '站点', type: 'select', source: siteSource, required: true, lockedOnEdit: true },
      { name: 'deviceId', label: '设备', type: 'select', source: stationDevices, clearOnChangeOf: ['siteId'] },
      { name: 'level', label: '等级', type: 'enum', options: LEVEL_OPTIONS, required: true },
      { name: 'description', label: '缺陷描述', type: 'textarea', maxLength: 500, required: true },
      { name: 'photos', label: '照片', type: 'custom', render: ({ value, onChange, id }) => <PhotoUpload id={id} value={(value as string[]) ?? []} onChange={onChange} /> },
      { name: 'status', label: '状态', type: 'enum', options: DEFECT_STATE_OPTIONS, modes: ['edit'] },
    ],
    schemas: { add: defectAdd, edit: defectEdit },
    initialValues: { level: 3, photos: [] },
    toValues: (r) => ({ siteId: r.siteId, deviceId: r.deviceId, level: r.level, description: r.description, photos: r.photos.map((p) => p.suffix), status: r.status }),
    toBody: defectBody,
  },
  actionsWidth: 280,
  pageSize: 20,
  exportName: '缺陷记录',
});
