import { z } from 'zod';
import { idBody, interfaceFilter, menuEdit } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { interfaceList } from './interface.service.ts';
import { editMenu, menuOne, menuTree, refreshMenus } from './menu.service.ts';

const area = 'System administration';
const noFilter = z.object({}).optional();

export const menuRoutes = [
  route({
    method: 'POST', path: '/system/interface/query/list', access: 'menu', name: '接口列表', area, kind: 'list', body: interfaceFilter,
    handler: ({ ctx, body }) => interfaceList(ctx, body),
  }),
  route({
    method: 'POST', path: '/system/menu/refresh', access: 'menu', name: '刷新菜单', area, kind: 'action', body: noFilter,
    handler: async ({ ctx }) => {
      await refreshMenus(ctx);
      return true;
    },
  }),
  route({
    method: 'POST', path: '/system/menu/query/tree', access: 'menu', name: '菜单树', area, kind: 'list', body: noFilter,
    handler: ({ ctx }) => menuTree(ctx),
  }),
  route({
    method: 'POST', path: '/system/menu/query/one', access: 'menu', name: '菜单详情', area, kind: 'one', body: idBody,
    handler: ({ ctx, body }) => menuOne(ctx, body.id),
  }),
  route({
    method: 'POST', path: '/system/menu/edit', access: 'menu', name: '编辑菜单', area, kind: 'edit', body: menuEdit,
    handler: async ({ ctx, user, body }) => {
      await editMenu(ctx, user, body);
      return true;
    },
  }),
];
