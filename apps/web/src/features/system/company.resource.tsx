import { companyAdd, companyEdit, companyEndpoints, type CompanyRow } from '@ess/contract/system';
import { defineResource } from '../../components/crud/index.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { RegionName, RegionPicker } from '../../components/RegionPicker.tsx';
import { companyTreeSource } from '../../components/options/companies.ts';

export interface CompanyForm {
  parentId?: number | null;
  name: string;
  code?: string | null;
  contact?: string | null;
  phone?: string | null;
  email?: string | null;
  regionCode?: string | null;
  address?: string | null;
  remark?: string | null;
}

/** Companies: a tree under the caller's company (a search lists matches flat). */
export const companyResource = defineResource<CompanyRow, CompanyForm>({
  key: ['system', 'company'],
  name: '公司',
  endpoints: {
    tree: companyEndpoints.tree,
    list: companyEndpoints.list,
    one: companyEndpoints.one,
    add: companyEndpoints.add,
    edit: companyEndpoints.edit,
    delete: companyEndpoints.delete,
  },
  columns: [
    { key: 'name', title: '公司名称', width: 220 },
    { key: 'code', title: '公司编码' },
    { key: 'parentName', title: '上级公司', inTable: false },
    { key: 'contact', title: '联系人' },
    { key: 'phone', title: '联系电话' },
    { key: 'email', title: '邮箱', inTable: false },
    { key: 'regionCode', title: '所在地区', render: (row) => <RegionName code={row.regionCode} /> },
    { key: 'address', title: '详细地址', ellipsis: true, width: 200 },
    { key: 'remark', title: '备注', type: 'longText', inTable: false, detailSpan: 2 },
    { key: 'createdAt', title: '创建时间', type: 'datetime' },
    { key: 'updatedAt', title: '更新时间', type: 'datetime', inTable: false },
  ],
  filters: [{ key: 'name', title: '公司名称' }],
  form: {
    columns: 2,
    fields: [
      { name: 'parentId', label: '上级公司', type: 'treeSelect', source: companyTreeSource, required: (mode) => mode === 'add', wide: true },
      { name: 'name', label: '公司名称', required: true, maxLength: 64 },
      { name: 'code', label: '公司编码', maxLength: 32 },
      { name: 'contact', label: '联系人', maxLength: 64 },
      { name: 'phone', label: '联系电话', maxLength: 20 },
      { name: 'email', label: '邮箱', maxLength: 128 },
      { name: 'regionCode', label: '所在地区', type: 'custom', render: (p) => <RegionPicker id={p.id} value={p.value} onChange={p.onChange} /> },
      { name: 'address', label: '详细地址', maxLength: 256, wide: true },
      { name: 'remark', label: '备注', type: 'textarea', maxLength: 500, wide: true },
    ],
    schemas: { add: companyAdd, edit: companyEdit },
    toValues: (c) => ({ ...c }),
    toBody: (v, mode, id) => {
      const body: Record<string, unknown> = {
        name: v.name, code: v.code ?? null, contact: v.contact ?? null, phone: v.phone ?? null, email: v.email ?? null,
        regionCode: v.regionCode ?? null, address: v.address ?? null, remark: v.remark ?? null,
      };
      // The top company of the caller has no parent; it keeps none.
      if (v.parentId !== null && v.parentId !== undefined) body.parentId = v.parentId;
      return mode === 'edit' ? { id, ...body } : body;
    },
  },
  actionsWidth: 300,
  // One's own company (the top of the tree) cannot be deleted.
  canDelete: (row) => row.id !== useUserStore.getState().info?.companyId,
});
