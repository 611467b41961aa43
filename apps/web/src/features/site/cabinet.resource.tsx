import { cabinetAdd, cabinetEdit, cabinetEndpoints, type CabinetRecord } from '@ess/contract/site';
import { defineResource } from '../../components/crud/index.ts';
import { siteSource } from '../../components/options/sites.ts';

export type CabinetRow = CabinetRecord;
export interface CabinetForm {
  siteId?: number;
  code: string;
  name: string;
}

/** Energy cabinets of the stations: code, name, station, and how many devices stand in each. */
export const cabinetResource = defineResource<CabinetRow, CabinetForm>({
  key: ['configure', 'cabinet'],
  name: '储能柜',
  endpoints: {
    page: cabinetEndpoints.page, one: cabinetEndpoints.one, add: cabinetEndpoints.add, edit: cabinetEndpoints.edit, delete: cabinetEndpoints.delete,
  },
  columns: [
    { key: 'code', title: '储能柜编码', type: 'code' },
    { key: 'name', title: '储能柜名称' },
    { key: 'siteName', title: '所属站点' },
    { key: 'siteCode', title: '站点编码', type: 'code', inTable: false },
    { key: 'deviceCount', title: '设备数', type: 'number', width: 90 },
    { key: 'createdAt', title: '创建时间', type: 'datetime' },
    { key: 'updatedAt', title: '更新时间', type: 'datetime', inTable: false },
  ],
  filters: [
    { key: 'siteId', title: '所属站点', type: 'select', source: siteSource },
    { key: 'keyword', title: '编码/名称' },
  ],
  form: {
    fields: [
      { name: 'siteId', label: '所属站点', type: 'select', source: siteSource, required: true },
      { name: 'code', label: '储能柜编码', required: true, maxLength: 64 },
      { name: 'name', label: '储能柜名称', required: true, maxLength: 64 },
    ],
    schemas: { add: cabinetAdd, edit: cabinetEdit },
    toValues: (c) => ({ siteId: c.siteId, code: c.code, name: c.name }),
  },
  canDelete: (row) => row.deviceCount === 0,
});
