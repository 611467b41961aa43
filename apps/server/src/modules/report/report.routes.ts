import { reportEndpoints as api } from '@ess/contract/report';
import { route } from '../../platform/http/route.ts';
import { zoneOf } from '../../platform/time/client-zone.ts';
import { localeOf } from '../i18n/index.ts';
import { addExport, exportDownload, exportOne, exportPage } from './report.export.ts';
import { preview, templateList } from './report.service.ts';

const params = (id: number) => ({ template: 'revenue', siteIds: [id], start: '2026-01-01', end: '2026-01-31' });
const own = { global: "the caller's own exports (another user's is not found)" };

export const reportRoutes = [
  route(api.templates, {
    access: 'menu', name: '报表模板列表', kind: 'list', scope: { global: 'the shipped templates, the same for every company' },
    handler: () => templateList(),
  }),
  route(api.preview, {
    access: 'menu', name: '报表预览', kind: 'other', scope: { entity: 'site', input: (id) => ({ ...params(id), current: 1, pageSize: 10 }) },
    handler: ({ ctx, user, body }) => preview(ctx, user, body),
  }),
  route(api.exportAdd, {
    access: 'menu', name: '生成报表文件', kind: 'add', scope: { entity: 'site', input: (id) => ({ params: params(id), format: 'xlsx' }) },
    handler: ({ ctx, user, body, req }) => addExport(ctx, user, body, localeOf(req), zoneOf(req)),
  }),
  route(api.exportPage, {
    access: 'menu', name: '报表文件分页', kind: 'page', scope: own,
    handler: ({ ctx, user, body }) => exportPage(ctx, user, body),
  }),
  route(api.exportOne, {
    access: 'menu', name: '报表文件详情', kind: 'one', scope: own,
    handler: ({ ctx, user, body }) => exportOne(ctx, user, body.id),
  }),
  route(api.exportDownload, {
    access: 'menu', name: '下载报表文件', kind: 'export', scope: own,
    handler: ({ ctx, user, query, reply }) => exportDownload(ctx, user, query.id, reply),
  }),
];
