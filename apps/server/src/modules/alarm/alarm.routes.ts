import {
  alarmDictEdit, alarmDictAdd, alarmDictFilter, alarmDictPage, alarmFilter, alarmKanbanQuery, alarmPage, alarmShieldCancel, alarmShieldCreate,
  idQuery,
} from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { zoneOf } from '../system/log.service.ts';
import * as dict from './alarm-dict.service.ts';
import * as kanban from './alarm-kanban.service.ts';
import * as alarms from './alarm.service.ts';

const area = 'Alarms';
/** Probes: a filter naming another company's station is refused, not answered empty. */
const siteProbe = { entity: 'site', input: (id: number) => ({ siteId: id }) };
const HOUR = 3_600_000;

export const alarmRoutes = [
  // Dictionary (thing models are shared by every company, so is what raises alarms on them)
  route({
    method: 'POST', path: '/alarm/dict/query/list', access: 'menu', name: '告警字典列表', area, kind: 'list', body: alarmDictFilter,
    handler: ({ ctx, body }) => dict.dictList(ctx, body),
  }),
  route({
    method: 'POST', path: '/alarm/dict/query/page', access: 'menu', name: '告警字典分页', area, kind: 'page', body: alarmDictPage,
    handler: ({ ctx, body }) => dict.dictPage(ctx, body),
  }),
  route({
    method: 'POST', path: '/alarm/dict/add', access: 'menu', name: '新增告警字典', area, kind: 'add', body: alarmDictAdd,
    handler: ({ ctx, body }) => dict.addDict(ctx, body),
  }),
  route({
    method: 'POST', path: '/alarm/dict/edit', access: 'menu', name: '编辑告警字典', area, kind: 'edit', body: alarmDictEdit,
    handler: async ({ ctx, body }) => {
      await dict.editDict(ctx, body);
      return true;
    },
  }),
  route({
    method: 'POST', path: '/alarm/dict/export', access: 'menu', name: '导出告警字典', area, kind: 'export', body: alarmDictFilter, raw: true,
    handler: ({ ctx, body, reply }) => dict.exportDict(ctx, body, reply),
  }),
  route({
    method: 'POST', path: '/alarm/dict/import', access: 'menu', name: '导入告警字典', area, kind: 'import', multipart: true,
    handler: ({ ctx, req }) => dict.importDict(ctx, req),
  }),
  route({
    method: 'GET', path: '/alarm/dict/delete', access: 'menu', name: '删除告警字典', area, kind: 'delete', query: idQuery,
    handler: async ({ ctx, query }) => {
      await dict.deleteDict(ctx, query.id);
      return true;
    },
  }),

  // Monitor
  route({
    method: 'POST', path: '/alarm/monitor/query/list', access: 'menu', name: '告警列表', area, kind: 'list', body: alarmFilter,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => alarms.alarmList(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/alarm/monitor/query/page', access: 'menu', name: '告警分页', area, kind: 'page', body: alarmPage,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => alarms.alarmPage(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/alarm/monitor/create/shield', access: 'menu', name: '屏蔽告警', area, kind: 'action', body: alarmShieldCreate,
    scope: { entity: 'alarm', input: (id) => ({ alarmId: id, end: Date.now() + HOUR }) },
    handler: ({ ctx, user, body }) => alarms.createShield(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/alarm/monitor/cancel/shield', access: 'menu', name: '取消屏蔽', area, kind: 'action', body: alarmShieldCancel,
    scope: { entity: 'alarmShield' },
    handler: async ({ ctx, user, body }) => {
      await alarms.cancelShield(ctx, user, body);
      return true;
    },
  }),
  route({
    method: 'POST', path: '/alarm/monitor/export', access: 'menu', name: '导出告警', area, kind: 'export', body: alarmFilter, raw: true,
    scope: siteProbe,
    handler: ({ ctx, user, body, req, reply }) => alarms.exportAlarms(ctx, user, body, zoneOf(req), reply),
  }),

  // Kanban
  route({
    method: 'GET', path: '/alarm/kanban/site', access: 'menu', name: '告警看板站点统计', area, kind: 'other', query: alarmKanbanQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => kanban.kanbanSite(ctx, user, query),
  }),
  route({
    method: 'GET', path: '/alarm/kanban/chart', access: 'menu', name: '告警看板趋势', area, kind: 'chart', query: alarmKanbanQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query, req }) => kanban.kanbanChart(ctx, user, query, zoneOf(req)),
  }),
  route({
    method: 'GET', path: '/alarm/kanban/cabinet', access: 'menu', name: '告警看板储能柜统计', area, kind: 'other', query: alarmKanbanQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => kanban.kanbanCabinet(ctx, user, query),
  }),
];
