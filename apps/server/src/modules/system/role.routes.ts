import { roleEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { addRole, deleteRole, editRole, roleList, roleOne, rolePage as pageRoles } from './role.service.ts';

const area = 'System administration';
/** A filter naming a company outside the caller's scope answers nothing (it is not refused). */
const inScope = { global: "lists the roles of the caller's data scope; names no object" };

export const roleRoutes = [
  route(api.list, {
    access: 'menu', name: '角色列表', area, kind: 'list', scope: inScope,
    handler: ({ ctx, user, body }) => roleList(ctx, user, body),
  }),
  route(api.page, {
    access: 'menu', name: '角色分页', area, kind: 'page', scope: inScope,
    handler: ({ ctx, user, body }) => pageRoles(ctx, user, body),
  }),
  route(api.one, {
    access: 'menu', name: '角色详情', area, kind: 'one',
    scope: { entity: 'role' },
    handler: ({ ctx, user, body }) => roleOne(ctx, user, body.id),
  }),
  route(api.add, {
    access: 'menu', name: '新增角色', area, kind: 'add',
    scope: { entity: 'company', input: (id) => ({ companyId: id, name: '越权新增', menuIds: [1] }) },
    handler: ({ ctx, user, body }) => addRole(ctx, user, body),
  }),
  route(api.edit, {
    access: 'menu', name: '编辑角色', area, kind: 'edit',
    scope: { entity: 'role', input: (id) => ({ id, name: '越权修改', menuIds: [1] }) },
    handler: async ({ ctx, user, body }) => {
      await editRole(ctx, user, body);
      return true;
    },
  }),
  route(api.delete, {
    access: 'menu', name: '删除角色', area, kind: 'delete',
    scope: { entity: 'role' },
    handler: async ({ ctx, user, query }) => {
      await deleteRole(ctx, user, query.id);
      return true;
    },
  }),
];
