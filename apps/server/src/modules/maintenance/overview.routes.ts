import { maintenanceEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import * as overview from './overview.service.ts';

const area = 'Inspection';
/** A station or company of another company in the filter is refused. */
const siteFilter = { entity: 'site', input: (id: number) => ({ siteId: id }) };
const range = { from: '2026-01-01', to: '2026-01-31' };

export const overviewRoutes = [
  route(api.overviewSummary, {
    access: 'menu', name: '工单总览汇总', area, kind: 'other', scope: siteFilter,
    handler: ({ ctx, user, body }) => overview.overviewSummary(ctx, user, body),
  }),
  route(api.overviewStatistic, {
    access: 'menu', name: '工单统计', area, kind: 'other', scope: { entity: 'site', input: (id) => ({ siteId: id, ...range }) },
    handler: ({ ctx, user, body }) => overview.overviewStatistic(ctx, user, body),
  }),
  route(api.overviewCalendar, {
    access: 'menu', name: '工单日历', area, kind: 'other', scope: { entity: 'site', input: (id) => ({ siteId: id, month: '2026-01' }) },
    handler: ({ ctx, user, body }) => overview.overviewCalendar(ctx, user, body),
  }),
  route(api.overviewService, {
    access: 'menu', name: '运维服务统计', area, kind: 'other', scope: { entity: 'site', input: (id) => ({ siteId: id, ...range }) },
    handler: ({ ctx, user, body }) => overview.overviewService(ctx, user, body),
  }),
  route(api.overviewSiteList, {
    access: 'menu', name: '站点工单列表', area, kind: 'list', scope: siteFilter,
    handler: ({ ctx, user, body }) => overview.overviewSiteList(ctx, user, body),
  }),
];
