import { alarmEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { zoneOf } from '../../platform/time/client-zone.ts';
import { exportLanguage } from '../i18n/index.ts';
import * as dict from './alarm-dict.service.ts';
import * as kanban from './alarm-kanban.service.ts';
import * as alarms from './alarm.service.ts';

const area = 'Alarms';
/** Probes: a filter naming another company's station is refused, not answered empty. */
const siteProbe = { entity: 'site', input: (id: number) => ({ siteId: id }) };
const HOUR = 3_600_000;
/** The dictionary belongs to the thing models, which every company shares. */
const shared = { global: 'the alarm dictionary applies to the thing models shared by every company' };

export const alarmRoutes = [
  // Dictionary (thing models are shared by every company, so is what raises alarms on them)
  route(api.dictList, {
    access: 'menu', name: '告警字典列表', area, scope: shared, kind: 'list',
    handler: ({ ctx, body }) => dict.dictList(ctx, body),
  }),
  route(api.dictPage, {
    access: 'menu', name: '告警字典分页', area, scope: shared, kind: 'page',
    handler: ({ ctx, body }) => dict.dictPage(ctx, body),
  }),
  route(api.dictAdd, {
    access: 'menu', name: '新增告警字典', area, scope: shared, kind: 'add',
    handler: ({ ctx, body }) => dict.addDict(ctx, body),
  }),
  route(api.dictEdit, {
    access: 'menu', name: '编辑告警字典', area, scope: shared, kind: 'edit',
    handler: async ({ ctx, body }) => {
      await dict.editDict(ctx, body);
      return true;
    },
  }),
  route(api.dictExport, {
    access: 'menu', name: '导出告警字典', area, scope: shared, kind: 'export',
    handler: ({ ctx, body, reply }) => dict.exportDict(ctx, body, reply),
  }),
  route(api.dictImport, {
    access: 'menu', name: '导入告警字典', area, scope: shared, kind: 'import',
    handler: ({ ctx, req }) => dict.importDict(ctx, req),
  }),
  route(api.dictDelete, {
    access: 'menu', name: '删除告警字典', area, scope: shared, kind: 'delete',
    handler: async ({ ctx, query }) => {
      await dict.deleteDict(ctx, query.id);
      return true;
    },
  }),

  // Monitor
  route(api.list, {
    access: 'menu', name: '告警列表', area, kind: 'list', scope: siteProbe,
    handler: ({ ctx, user, body }) => alarms.alarmList(ctx, user, body),
  }),
  route(api.page, {
    access: 'menu', name: '告警分页', area, kind: 'page', scope: siteProbe,
    handler: ({ ctx, user, body }) => alarms.alarmPage(ctx, user, body),
  }),
  route(api.createShield, {
    access: 'menu', name: '屏蔽告警', area, kind: 'action',
    scope: { entity: 'alarm', input: (id) => ({ alarmId: id, end: Date.now() + HOUR }) },
    handler: ({ ctx, user, body }) => alarms.createShield(ctx, user, body),
  }),
  route(api.cancelShield, {
    access: 'menu', name: '取消屏蔽', area, kind: 'action', scope: { entity: 'alarmShield' },
    handler: async ({ ctx, user, body }) => {
      await alarms.cancelShield(ctx, user, body);
      return true;
    },
  }),
  route(api.export, {
    access: 'menu', name: '导出告警', area, kind: 'export', scope: siteProbe,
    handler: async ({ ctx, user, body, req, reply }) => alarms.exportAlarms(ctx, user, body, await exportLanguage(req), reply),
  }),

  // Kanban
  route(api.kanbanSite, {
    access: 'menu', name: '告警看板站点统计', area, kind: 'other', scope: siteProbe,
    handler: ({ ctx, user, query }) => kanban.kanbanSite(ctx, user, query),
  }),
  route(api.kanbanChart, {
    access: 'menu', name: '告警看板趋势', area, kind: 'chart', scope: siteProbe,
    handler: ({ ctx, user, query, req }) => kanban.kanbanChart(ctx, user, query, zoneOf(req)),
  }),
  route(api.kanbanCabinet, {
    access: 'menu', name: '告警看板储能柜统计', area, kind: 'other', scope: siteProbe,
    handler: ({ ctx, user, query }) => kanban.kanbanCabinet(ctx, user, query),
  }),
];
