import { idBody, userAdd, userEdit, userFilter, userPage } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { addUser, editUser, userList, userOne, userPage as pageUsers } from './user.service.ts';

const area = 'System administration';

export const userRoutes = [
  route({
    method: 'POST', path: '/system/user/query/page', access: 'menu', name: '用户分页', area, kind: 'page', body: userPage,
    handler: ({ ctx, user, body }) => pageUsers(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/system/user/query/list', access: 'menu', name: '用户列表', area, kind: 'list', body: userFilter,
    handler: ({ ctx, user, body }) => userList(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/system/user/query/one', access: 'menu', name: '用户详情', area, kind: 'one', body: idBody,
    scope: { entity: 'user' },
    handler: ({ ctx, user, body }) => userOne(ctx, user, body.id),
  }),
  route({
    method: 'POST', path: '/system/user/add', access: 'menu', name: '新增用户', area, kind: 'add', body: userAdd,
    handler: ({ ctx, user, body }) => addUser(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/system/user/edit', access: 'menu', name: '编辑用户', area, kind: 'edit', body: userEdit,
    scope: { entity: 'user', input: (id) => ({ id, name: '越权修改', companyId: 1, roleIds: [1] }) },
    handler: async ({ ctx, user, body }) => {
      await editUser(ctx, user, body);
      return true;
    },
  }),
];
