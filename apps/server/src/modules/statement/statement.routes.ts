import { siteStatementEndpoints as settings, statementEndpoints as api } from '@ess/contract/statement';
import { route } from '../../platform/http/route.ts';
import { exportLanguage } from '../i18n/index.ts';
import { sendStatement } from './statement.download.ts';
import * as svc from './statement.service.ts';

const area = 'Statements';
const statementProbe = { entity: 'statement' };
const siteFilter = { entity: 'site', input: (id: number) => ({ siteId: id }) };
const probeSettings = (extra: Record<string, unknown>) => ({
  investorName: 'probe', investorUserId: 1, powerUserName: 'probe', powerUserUserId: 2, investorShareRatio: 50, billingDay: 1, ...extra,
});

export const statementRoutes = [
  route(api.page, {
    access: 'menu', name: '结算单分页', area, kind: 'page', scope: siteFilter,
    handler: ({ ctx, user, body }) => svc.statementPageOf(ctx, user, body),
  }),
  route(api.one, {
    access: 'menu', name: '结算单详情', area, kind: 'one', scope: statementProbe,
    handler: ({ ctx, user, body }) => svc.statementOne(ctx, user, body.id, body.whatIf),
  }),
  route(api.add, {
    access: 'menu', name: '生成结算单', area, kind: 'add', scope: { entity: 'site', input: (id) => ({ siteId: id, month: '2026-01' }) },
    handler: ({ ctx, user, body }) => svc.generate(ctx, user, body.siteId, body.month),
  }),
  route(api.edit, {
    access: 'menu', name: '编辑结算单', area, kind: 'edit', scope: { entity: 'statement', input: (id) => ({ id, note: 'probe' }) },
    handler: async ({ ctx, user, body }) => {
      await svc.editStatement(ctx, user, body);
      return true;
    },
  }),
  route(api.update, {
    access: 'menu', name: '重新计算结算单', area, kind: 'action', scope: statementProbe,
    handler: ({ ctx, user, query }) => svc.recompute(ctx, user, query.id),
  }),
  route(api.download, {
    access: 'menu', name: '下载结算单', area, kind: 'download', scope: statementProbe,
    handler: async ({ ctx, user, query, req, reply }) => sendStatement(reply, await svc.statementForDownload(ctx, user, query.id), query.format, await exportLanguage(req)),
  }),
  route(settings.unique, {
    access: 'menu', name: '站点结算设置', area, kind: 'one', scope: siteFilter,
    handler: ({ ctx, user, body }) => svc.settingOfSite(ctx, user, body.siteId),
  }),
  route(settings.add, {
    access: 'menu', name: '新增站点结算设置', area, kind: 'add', scope: { entity: 'site', input: (id) => probeSettings({ siteId: id }) },
    handler: ({ ctx, user, body }) => svc.addSetting(ctx, user, body),
  }),
  route(settings.edit, {
    access: 'menu', name: '编辑站点结算设置', area, kind: 'edit', scope: { entity: 'siteStatementSetting', input: (id) => probeSettings({ id }) },
    handler: async ({ ctx, user, body }) => {
      await svc.editSetting(ctx, user, body);
      return true;
    },
  }),
];
