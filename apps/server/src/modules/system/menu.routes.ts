import { menuEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { interfaceList } from './interface.service.ts';
import { editMenu, menuOne, menuTree, refreshMenus } from './menu.service.ts';

const area = 'System administration';
/** Menus and interfaces are the installation's route table, shared by every company. */
const shared = { global: 'menus and interfaces are the route table shared by every company' };

export const menuRoutes = [
  route(api.interfaces, {
    access: 'menu', name: '接口列表', area, kind: 'list', scope: shared,
    handler: ({ ctx, body }) => interfaceList(ctx, body),
  }),
  route(api.refresh, {
    access: 'menu', name: '刷新菜单', area, kind: 'action', scope: shared,
    handler: async ({ ctx }) => {
      await refreshMenus(ctx);
      return true;
    },
  }),
  route(api.tree, {
    access: 'menu', name: '菜单树', area, kind: 'list', scope: shared,
    handler: ({ ctx, body }) => menuTree(ctx, body),
  }),
  route(api.one, {
    access: 'menu', name: '菜单详情', area, kind: 'one', scope: shared,
    handler: ({ ctx, body }) => menuOne(ctx, body.id),
  }),
  route(api.edit, {
    access: 'menu', name: '编辑菜单', area, kind: 'edit', scope: shared,
    handler: async ({ ctx, user, body }) => {
      await editMenu(ctx, user, body);
      return true;
    },
  }),
];
