import { roleAdd, roleEdit, roleEndpoints, type RoleOne, type RoleRow } from '@ess/contract/system';
import { defineResource } from '../../components/crud/index.ts';
import { InterfacePicker } from './InterfacePicker.tsx';
import { MenuPermissionTree } from './MenuPermissionTree.tsx';
import { companyTreeSource } from '../../components/options/companies.ts';

export interface RoleForm {
  companyId?: number;
  name: string;
  code?: string | null;
  remark?: string | null;
  menuIds: number[];
  interfaceIds: number[];
}

export const BUILT_IN = [
  { value: true, label: '是', color: 'processing' },
  { value: false, label: '否', color: 'default' },
] as const;

/** Roles: a name, the menus they grant and interfaces granted directly; never empty. */
export const roleResource = defineResource<RoleRow, RoleForm, RoleOne>({
  key: ['system', 'role'],
  name: '角色',
  endpoints: { page: roleEndpoints.page, one: roleEndpoints.one, add: roleEndpoints.add, edit: roleEndpoints.edit, delete: roleEndpoints.delete },
  columns: [
    { key: 'name', title: '角色名称', builtIn: true },
    { key: 'code', title: '角色编码' },
    { key: 'companyName', title: '所属公司' },
    { key: 'userCount', title: '用户数', type: 'number', width: 90 },
    { key: 'buildIn', title: '内置', type: 'boolean', options: BUILT_IN, width: 90 },
    { key: 'remark', title: '备注', ellipsis: true, width: 200 },
    { key: 'createdAt', title: '创建时间', type: 'datetime' },
  ],
  detailColumns: [
    { key: 'name', title: '角色名称', builtIn: true },
    { key: 'code', title: '角色编码' },
    { key: 'companyName', title: '所属公司' },
    { key: 'userCount', title: '用户数', type: 'number' },
    { key: 'buildIn', title: '内置', type: 'boolean', options: BUILT_IN },
    { key: 'createdAt', title: '创建时间', type: 'datetime' },
    { key: 'menuIds', title: '菜单权限', render: (r, t) => t('$1 个菜单', r.menuIds.length) },
    { key: 'interfaceIds', title: '接口权限', render: (r, t) => t('$1 个接口', r.interfaceIds.length) },
    { key: 'remark', title: '备注', type: 'longText', detailSpan: 2 },
  ],
  filters: [
    { key: 'name', title: '角色名称' },
    { key: 'companyId', title: '所属公司', type: 'treeSelect', source: companyTreeSource },
  ],
  form: {
    container: 'drawer',
    width: 720,
    columns: 2,
    fields: [
      { name: 'companyId', label: '所属公司', type: 'treeSelect', source: companyTreeSource, modes: ['add'], help: '不选则为本人所在公司', wide: true },
      { name: 'name', label: '角色名称', required: true, maxLength: 64 },
      { name: 'code', label: '角色编码', maxLength: 64 },
      { name: 'remark', label: '备注', type: 'textarea', maxLength: 500, wide: true },
      {
        name: 'menuIds',
        label: '菜单权限',
        type: 'custom',
        wide: true,
        render: (p) => <MenuPermissionTree id={p.id} value={p.value} onChange={p.onChange} />,
      },
      {
        name: 'interfaceIds',
        label: '接口权限',
        type: 'custom',
        wide: true,
        help: '菜单已包含其页面所需的接口；此处单独授予额外接口',
        render: (p) => <InterfacePicker id={p.id} value={p.value} onChange={p.onChange} />,
      },
    ],
    schemas: { add: roleAdd, edit: roleEdit },
    initialValues: { menuIds: [], interfaceIds: [] },
    toValues: (r) => ({ name: r.name, code: r.code, remark: r.remark, menuIds: r.menuIds, interfaceIds: r.interfaceIds }),
    toBody: (v, mode, id) => ({
      ...(mode === 'edit' ? { id } : v.companyId ? { companyId: v.companyId } : {}),
      name: v.name,
      code: v.code ?? null,
      remark: v.remark ?? null,
      menuIds: v.menuIds ?? [],
      interfaceIds: v.interfaceIds ?? [],
    }),
  },
  canDelete: (r) => !r.buildIn,
});
