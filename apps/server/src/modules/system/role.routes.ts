import { idBody, idQuery, roleAdd, roleEdit, roleFilter, rolePage } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { addRole, deleteRole, editRole, roleList, roleOne, rolePage as pageRoles } from './role.service.ts';

const area = 'System administration';

export const roleRoutes = [
  route({
    method: 'POST', path: '/system/role/query/list', access: 'menu', name: '角色列表', area, kind: 'list', body: roleFilter,
    handler: ({ ctx, user, body }) => roleList(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/system/role/query/page', access: 'menu', name: '角色分页', area, kind: 'page', body: rolePage,
    handler: ({ ctx, user, body }) => pageRoles(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/system/role/query/one', access: 'menu', name: '角色详情', area, kind: 'one', body: idBody,
    scope: { entity: 'role' },
    handler: ({ ctx, user, body }) => roleOne(ctx, user, body.id),
  }),
  route({
    method: 'POST', path: '/system/role/add', access: 'menu', name: '新增角色', area, kind: 'add', body: roleAdd,
    handler: ({ ctx, user, body }) => addRole(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/system/role/edit', access: 'menu', name: '编辑角色', area, kind: 'edit', body: roleEdit,
    scope: { entity: 'role', input: (id) => ({ id, name: '越权修改', menuIds: [1] }) },
    handler: async ({ ctx, user, body }) => {
      await editRole(ctx, user, body);
      return true;
    },
  }),
  route({
    method: 'GET', path: '/system/role/delete', access: 'menu', name: '删除角色', area, kind: 'delete', query: idQuery,
    scope: { entity: 'role' },
    handler: async ({ ctx, user, query }) => {
      await deleteRole(ctx, user, query.id);
      return true;
    },
  }),
];
