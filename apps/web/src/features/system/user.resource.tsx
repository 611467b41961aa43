import { userAdd, userEdit, userEndpoints, type UserOne, type UserRow } from '@ess/contract/system';
import { defineResource } from '../../components/crud/index.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { SitePicker } from './SitePicker.tsx';
import { UserStatusSwitch } from './UserStatusSwitch.tsx';
import { roleSource } from './system.options.ts';
import { companyTreeSource } from '../../components/options/companies.ts';
import { TIME_ZONES } from '../../components/time-zones.ts';
import { ACCOUNT_STATUS, userBody, userValues, type UserForm } from './user.model.ts';

/** Stations a user sees: all of the company's (following new ones), or the count granted. */
const siteAccess = (row: UserRow, t: (s: string, ...a: unknown[]) => string) =>
  row.allSites && !row.buildIn ? t('公司全部站点（$1）', row.siteCount) : t('$1 个站点', row.siteCount);

/** IANA zone names, shown as they are (the personal center's list). */
const TIME_ZONE_OPTIONS = TIME_ZONES.map((z) => ({ value: z, label: z, literal: true }));

/** Only the built-in administrator edits themselves; other users are edited by those above them. */
const editable = (row: UserRow) => !row.buildIn || row.id === useUserStore.getState().info?.id;

/** Users: account, company, roles, status and station access. */
export const userResource = defineResource<UserRow, UserForm, UserOne>({
  key: ['system', 'user'],
  name: '用户',
  endpoints: { page: userEndpoints.page, one: userEndpoints.one, add: userEndpoints.add, edit: userEndpoints.edit, delete: userEndpoints.delete, export: userEndpoints.export },
  columns: [
    { key: 'username', title: '用户名' },
    { key: 'name', title: '姓名' },
    { key: 'phone', title: '手机号' },
    { key: 'email', title: '邮箱', inTable: false },
    { key: 'companyName', title: '所属公司' },
    { key: 'roles', title: '角色', type: 'tags', builtIn: true },
    { key: 'status', title: '账号状态', render: (row) => <UserStatusSwitch row={row} />, width: 110 },
    { key: 'siteCount', title: '站点权限', render: (row, t) => siteAccess(row, t), width: 130 },
    { key: 'lastLoginAt', title: '最后登录', type: 'datetime' },
    { key: 'createdAt', title: '创建时间', type: 'datetime', inTable: false },
  ],
  detailColumns: [
    { key: 'username', title: '用户名' },
    { key: 'name', title: '姓名' },
    { key: 'phone', title: '手机号' },
    { key: 'email', title: '邮箱' },
    { key: 'companyName', title: '所属公司' },
    { key: 'roles', title: '角色', type: 'tags', builtIn: true },
    { key: 'status', title: '账号状态', type: 'enum', options: ACCOUNT_STATUS },
    { key: 'siteCount', title: '站点权限', render: (row, t) => siteAccess(row, t) },
    { key: 'timeZone', title: '时区' },
    { key: 'buildIn', title: '内置', type: 'boolean', options: [{ value: true, label: '是' }, { value: false, label: '否' }] },
    { key: 'lastLoginAt', title: '最后登录', type: 'datetime' },
    { key: 'createdAt', title: '创建时间', type: 'datetime' },
    { key: 'updatedAt', title: '更新时间', type: 'datetime' },
  ],
  filters: [
    { key: 'username', title: '用户名' },
    { key: 'name', title: '姓名' },
    { key: 'companyId', title: '所属公司', type: 'treeSelect', source: companyTreeSource },
    { key: 'roleId', title: '角色', type: 'select', source: roleSource },
    { key: 'status', title: '账号状态', type: 'enum', options: ACCOUNT_STATUS },
  ],
  form: {
    container: 'drawer',
    width: 720,
    columns: 2,
    fields: [
      { name: 'username', label: '用户名', required: true, maxLength: 32, lockedOnEdit: true },
      {
        name: 'password',
        label: '密码',
        type: 'password',
        required: (mode) => mode === 'add',
        maxLength: 20,
        help: (mode) => (mode === 'edit' ? '留空则不修改密码' : '8-20位，至少包含大写字母、小写字母、数字中的两种'),
      },
      { name: 'name', label: '姓名', required: true, maxLength: 64 },
      { name: 'phone', label: '手机号', maxLength: 20 },
      { name: 'email', label: '邮箱', maxLength: 128 },
      { name: 'companyId', label: '所属公司', type: 'treeSelect', source: companyTreeSource, required: true },
      { name: 'roleIds', label: '角色', type: 'multiSelect', source: roleSource, required: true, wide: true },
      { name: 'timeZone', label: '时区', type: 'select', options: TIME_ZONE_OPTIONS },
      { name: 'status', label: '账号状态', type: 'switch', help: '关闭即停用账号，其登录会话随即失效' },
      { name: 'allSites', label: '公司全部站点', type: 'switch', help: '可访问所属公司及其下级公司的全部站点，包括以后新建的站点' },
      {
        name: 'siteIds',
        visible: (v) => v.allSites !== true,
        label: '站点权限',
        type: 'custom',
        wide: true,
        render: (p) => <SitePicker id={p.id} value={p.value} onChange={p.onChange} form={p.form} />,
      },
    ],
    schemas: { add: userAdd, edit: userEdit },
    // A new user sees no station until some are chosen, or all stations of the company.
    initialValues: { status: true, roleIds: [], siteIds: [], allSites: false },
    toValues: userValues,
    toBody: userBody,
  },
  canEdit: editable,
  // The server refuses the built-in administrator and oneself too; the button is not offered.
  canDelete: (row) => !row.buildIn && row.id !== useUserStore.getState().info?.id,
});
