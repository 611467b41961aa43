import { siteAdd, siteEdit, siteEndpoints, type SiteRecord, type SiteType } from '@ess/contract/site';
import { bodyOfFields, defineResource } from '../../components/crud/index.ts';
import { RegionName, RegionPicker } from '../../components/RegionPicker.tsx';
import { companyTreeSource } from '../../components/options/companies.ts';
import { DateField } from '../../components/DateField.tsx';
import { SITE_TYPE_OPTIONS, timeZoneOptions } from './site.options.ts';
import { currencySource } from '../../components/options/sites.ts';

export type SiteRow = SiteRecord;

export interface SiteForm {
  companyId?: number;
  name: string;
  code: string;
  timeZone: string;
  commissioningDate?: string | null;
  serviceEndDate?: string | null;
  regionCode?: string | null;
  address?: string | null;
  longitude?: number | null;
  latitude?: number | null;
  contact?: string | null;
  phone?: string | null;
  email?: string | null;
  currency: string;
  siteType: SiteType;
  projectNo?: string | null;
  projectName?: string | null;
  investor?: string | null;
  powerUser?: string | null;
  reconciliationContact?: string | null;
  reconciliationPhone?: string | null;
  investorShareRatio?: number | null;
  remark?: string | null;
}

const FORM_KEYS = [
  'companyId', 'name', 'code', 'timeZone', 'commissioningDate', 'serviceEndDate', 'regionCode', 'address', 'longitude', 'latitude',
  'contact', 'phone', 'email', 'currency', 'siteType', 'projectNo', 'projectName', 'investor', 'powerUser', 'reconciliationContact',
  'reconciliationPhone', 'investorShareRatio', 'remark',
] as const satisfies readonly (keyof SiteForm)[];

/** The request body of the form: every field, empty ones as null. */
export const siteBody = bodyOfFields<SiteForm>(FORM_KEYS);

/** Stations (product-spec §3): identity, location, dates, contacts, investor and settlement fields. */
export const siteResource = defineResource<SiteRow, SiteForm>({
  key: ['configure', 'site'],
  name: '站点',
  endpoints: { page: siteEndpoints.page, one: siteEndpoints.one, add: siteEndpoints.add, edit: siteEndpoints.edit, delete: siteEndpoints.delete, export: siteEndpoints.export },
  columns: [
    { key: 'name', title: '站点名称', width: 180 },
    { key: 'code', title: '站点编码', type: 'code' },
    { key: 'companyName', title: '所属公司' },
    { key: 'siteType', title: '站点类型', type: 'enum', options: SITE_TYPE_OPTIONS },
    { key: 'regionCode', title: '所在地区', render: (row) => <RegionName code={row.regionCode} /> },
    { key: 'address', title: '详细地址', ellipsis: true, inTable: false, detailSpan: 2 },
    { key: 'timeZone', title: '时区' },
    { key: 'currency', title: '币种', width: 80 },
    { key: 'commissioningDate', title: '投运日期' },
    { key: 'serviceEndDate', title: '服务到期日期' },
    { key: 'deviceCount', title: '设备数', type: 'number', width: 90 },
    { key: 'longitude', title: '经度', inTable: false },
    { key: 'latitude', title: '纬度', inTable: false },
    { key: 'contact', title: '联系人', inTable: false },
    { key: 'phone', title: '联系电话', inTable: false },
    { key: 'email', title: '邮箱', inTable: false },
    { key: 'projectNo', title: '项目编号', inTable: false },
    { key: 'projectName', title: '项目名称', inTable: false },
    { key: 'investor', title: '投资方', inTable: false },
    { key: 'powerUser', title: '用电方', inTable: false },
    { key: 'reconciliationContact', title: '对账联系人', inTable: false },
    { key: 'reconciliationPhone', title: '对账联系电话', inTable: false },
    { key: 'investorShareRatio', title: '投资方分成比例(%)', inTable: false },
    { key: 'remark', title: '备注', type: 'longText', inTable: false, detailSpan: 2 },
    { key: 'createdAt', title: '创建时间', type: 'datetime', inTable: false },
    { key: 'updatedAt', title: '更新时间', type: 'datetime', inTable: false },
  ],
  filters: [
    { key: 'keyword', title: '名称/编码' },
    { key: 'companyId', title: '所属公司', type: 'treeSelect', source: companyTreeSource },
    { key: 'siteType', title: '站点类型', type: 'enum', options: SITE_TYPE_OPTIONS },
  ],
  form: {
    container: 'drawer',
    width: 760,
    columns: 2,
    fields: [
      { name: 'companyId', label: '所属公司', type: 'treeSelect', source: companyTreeSource, required: true, wide: true },
      { name: 'name', label: '站点名称', required: true, maxLength: 64 },
      { name: 'code', label: '站点编码', required: true, maxLength: 32, help: '设备按站点编码上报数据；站点下有设备后不能修改' },
      { name: 'siteType', label: '站点类型', type: 'select', options: SITE_TYPE_OPTIONS, required: true },
      { name: 'timeZone', label: '时区', type: 'select', options: timeZoneOptions(), required: true },
      { name: 'currency', label: '币种', type: 'select', source: currencySource, required: true, help: '从币种管理中启用的币种选择' },
      { name: 'investorShareRatio', label: '投资方分成比例(%)', type: 'number', help: '取值0-100' },
      { name: 'commissioningDate', label: '投运日期', type: 'custom', render: (p) => <DateField id={p.id} value={p.value} onChange={p.onChange} /> },
      {
        name: 'serviceEndDate', label: '服务到期日期', type: 'custom', help: '不早于投运日期，且不早于站点时区的今天',
        render: (p) => <DateField id={p.id} value={p.value} onChange={p.onChange} />,
      },
      { name: 'regionCode', label: '所在地区', type: 'custom', render: (p) => <RegionPicker id={p.id} value={p.value} onChange={p.onChange} /> },
      { name: 'address', label: '详细地址', maxLength: 256 },
      { name: 'longitude', label: '经度', type: 'number' },
      { name: 'latitude', label: '纬度', type: 'number' },
      { name: 'contact', label: '联系人', maxLength: 64 },
      { name: 'phone', label: '联系电话', maxLength: 20 },
      { name: 'email', label: '邮箱', maxLength: 128 },
      { name: 'projectNo', label: '项目编号', maxLength: 64 },
      { name: 'projectName', label: '项目名称', maxLength: 128 },
      { name: 'investor', label: '投资方', maxLength: 128 },
      { name: 'powerUser', label: '用电方', maxLength: 128 },
      { name: 'reconciliationContact', label: '对账联系人', maxLength: 64 },
      { name: 'reconciliationPhone', label: '对账联系电话', maxLength: 20 },
      { name: 'remark', label: '备注', type: 'textarea', maxLength: 500, wide: true },
    ],
    schemas: { add: siteAdd, edit: siteEdit },
    initialValues: { timeZone: 'Asia/Shanghai', currency: 'CNY', siteType: 'storage' },
    toValues: (s) => ({ ...s }),
    toBody: siteBody,
  },
  actionsWidth: 200,
  canDelete: (row) => row.deviceCount === 0,
});
