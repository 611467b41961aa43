import { logEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import * as logs from './log.service.ts';

const area = 'System administration';
/** Log rows are limited to the caller's companies (rows of no company to built-in users). */
const inScope = { global: "log rows filtered to the caller's data scope; names no object" };

export const logRoutes = [
  route(api.loginPage, {
    access: 'menu', name: '登录日志分页', area, kind: 'page', scope: inScope,
    handler: ({ ctx, user, body }) => logs.loginLogPage(ctx, user, body),
  }),
  route(api.loginExport, {
    access: 'menu', name: '导出登录日志', area, kind: 'export', scope: inScope,
    handler: ({ ctx, user, body, req, reply }) => logs.loginLogExport(ctx, user, body, req, reply),
  }),
  route(api.accessPage, {
    access: 'menu', name: '接口日志分页', area, kind: 'page', scope: inScope,
    handler: ({ ctx, user, body }) => logs.accessLogPage(ctx, user, body),
  }),
  route(api.accessOne, {
    access: 'menu', name: '接口日志详情', area, kind: 'one',
    scope: { entity: 'accessLog' },
    handler: ({ ctx, user, body }) => logs.accessLogOne(ctx, user, body.id),
  }),
  route(api.accessExport, {
    access: 'menu', name: '导出接口日志', area, kind: 'export', scope: inScope,
    handler: ({ ctx, user, body, req, reply }) => logs.accessLogExport(ctx, user, body, req, reply),
  }),
];
