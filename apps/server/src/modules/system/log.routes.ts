import { accessLogFilter, accessLogPage, idBody, loginLogFilter, loginLogPage } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import * as logs from './log.service.ts';

const area = 'System administration';

export const logRoutes = [
  route({
    method: 'POST', path: '/system/loginLog/query/page', access: 'menu', name: '登录日志分页', area, kind: 'page', body: loginLogPage,
    handler: ({ ctx, user, body }) => logs.loginLogPage(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/system/loginLog/export', access: 'menu', name: '导出登录日志', area, kind: 'export', body: loginLogFilter, raw: true,
    handler: ({ ctx, user, body, req, reply }) => logs.loginLogExport(ctx, user, body, req, reply),
  }),
  route({
    method: 'POST', path: '/system/access/log/query/page', access: 'menu', name: '接口日志分页', area, kind: 'page', body: accessLogPage,
    handler: ({ ctx, user, body }) => logs.accessLogPage(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/system/access/log/query/one', access: 'menu', name: '接口日志详情', area, kind: 'one', body: idBody,
    scope: { entity: 'accessLog' },
    handler: ({ ctx, user, body }) => logs.accessLogOne(ctx, user, body.id),
  }),
  route({
    method: 'POST', path: '/system/access/log/export', access: 'menu', name: '导出接口日志', area, kind: 'export', body: accessLogFilter, raw: true,
    handler: ({ ctx, user, body, req, reply }) => logs.accessLogExport(ctx, user, body, req, reply),
  }),
];
