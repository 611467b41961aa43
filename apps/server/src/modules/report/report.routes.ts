import { reportEndpoints as api } from '@ess/contract/report';
import { route } from '../../platform/http/route.ts';
import { zoneOf } from '../../platform/time/client-zone.ts';
import { localeOf } from '../i18n/index.ts';
import { addExport, exportDownload, exportOne, exportPage } from './report.export.ts';
import { embedEdit, embedOne, embedUrl } from './report.embed.ts';
import { runPage, scheduleAdd, scheduleDelete, scheduleEdit, scheduleOne, schedulePage } from './report.schedule.ts';
import { preview, templateList } from './report.service.ts';

const params = (id: number) => ({ template: 'revenue', siteIds: [id], start: '2026-01-01', end: '2026-01-31' });
const schedule = (companyId: number) => ({ companyId, name: `probe-${companyId}`, template: 'revenue', siteIds: [1], format: 'xlsx', frequency: 'daily', userIds: [1] });
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

  route(api.schedulePage, {
    access: 'menu', name: '报表计划分页', kind: 'page', scope: { global: "the schedules of the caller's companies" },
    handler: ({ ctx, user, body }) => schedulePage(ctx, user, body),
  }),
  route(api.scheduleOne, {
    access: 'menu', name: '报表计划详情', kind: 'one', scope: { entity: 'reportSchedule' },
    handler: ({ ctx, user, body }) => scheduleOne(ctx, user, body.id),
  }),
  route(api.scheduleAdd, {
    access: 'menu', name: '新增报表计划', kind: 'add', scope: { entity: 'company', input: schedule },
    handler: ({ ctx, user, body }) => scheduleAdd(ctx, user, body),
  }),
  route(api.scheduleEdit, {
    access: 'menu', name: '修改报表计划', kind: 'edit', scope: { entity: 'reportSchedule', input: (id) => ({ id, ...schedule(1) }) },
    handler: ({ ctx, user, body }) => scheduleEdit(ctx, user, body),
  }),
  route(api.scheduleDelete, {
    access: 'menu', name: '删除报表计划', kind: 'delete', scope: { entity: 'reportSchedule' },
    handler: ({ ctx, user, query }) => scheduleDelete(ctx, user, query.id),
  }),
  route(api.runPage, {
    access: 'menu', name: '报表计划执行记录', kind: 'page', scope: { global: "the runs of the caller's companies' schedules" },
    handler: ({ ctx, user, body }) => runPage(ctx, user, body),
  }),
  route(api.embedOne, {
    access: 'menu', name: '外部报表工具设置', kind: 'one', scope: { global: 'installation-wide settings, the secret never answered' },
    handler: ({ ctx, user }) => embedOne(ctx, user),
  }),
  route(api.embedEdit, {
    access: 'menu', name: '修改外部报表工具设置', kind: 'edit', scope: { global: 'installation-wide settings; only an administrator of the top company edits them' },
    handler: ({ ctx, user, body }) => embedEdit(ctx, user, body),
  }),
  route(api.embedUrl, {
    access: 'menu', name: '外部报表签名地址', kind: 'other', scope: { global: "the URL's locked parameters are the caller's own stations" },
    handler: ({ ctx, user, body }) => embedUrl(ctx, user, body.dashboard),
  }),
];
