import { userEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { exportLanguage } from '../i18n/index.ts';
import { addUser, deleteUser, editUser, userExport, userList, userOne, userPage as pageUsers } from './user.service.ts';

const area = 'System administration';
/** A filter naming a company or role outside the caller's scope answers nothing (it is not refused). */
const inScope = { global: "lists the users of the caller's data scope; names no object" };

export const userRoutes = [
  route(api.page, {
    access: 'menu', name: '用户分页', area, kind: 'page', scope: inScope,
    handler: ({ ctx, user, body }) => pageUsers(ctx, user, body),
  }),
  route(api.list, {
    access: 'menu', name: '用户列表', area, kind: 'list', scope: inScope,
    handler: ({ ctx, user, body }) => userList(ctx, user, body),
  }),
  route(api.export, {
    access: 'menu', name: '导出用户', area, kind: 'export', scope: inScope,
    handler: async ({ ctx, user, body, req, reply }) => userExport(ctx, user, body, await exportLanguage(req), reply),
  }),
  route(api.one, {
    access: 'menu', name: '用户详情', area, kind: 'one',
    scope: { entity: 'user' },
    handler: ({ ctx, user, body }) => userOne(ctx, user, body.id),
  }),
  route(api.add, {
    access: 'menu', name: '新增用户', area, kind: 'add',
    scope: { entity: 'company', input: (id) => ({ username: `probe-add-${id}`, password: 'Passw0rd1', name: '越权新增', companyId: id, roleIds: [1] }) },
    handler: ({ ctx, user, body }) => addUser(ctx, user, body),
  }),
  route(api.edit, {
    access: 'menu', name: '编辑用户', area, kind: 'edit',
    scope: { entity: 'user', input: (id) => ({ id, name: '越权修改', companyId: 1, roleIds: [1] }) },
    handler: async ({ ctx, user, body }) => {
      await editUser(ctx, user, body);
      return true;
    },
  }),
  route(api.delete, {
    access: 'menu', name: '删除用户', area, kind: 'delete',
    scope: { entity: 'user' },
    handler: ({ ctx, user, query }) => deleteUser(ctx, user, query.id),
  }),
];
