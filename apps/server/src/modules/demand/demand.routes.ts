import { demandEndpoints as api } from '@ess/contract/demand';
import { route } from '../../platform/http/route.ts';
import * as svc from './demand.service.ts';

const area = 'Demand';
const month = '2026-01';
const siteProbe = (extra: Record<string, unknown> = {}) => ({ entity: 'site', input: (id: number) => ({ siteId: id, ...extra }) });

export const demandRoutes = [
  route(api.monthlyBrief, {
    access: 'menu', name: '需量月概览', area, kind: 'one', scope: siteProbe({ month }),
    handler: ({ ctx, user, body }) => svc.monthlyBrief(ctx, user, body.siteId, body.month),
  }),
  route(api.monthlyInfo, {
    access: 'menu', name: '需量月详情', area, kind: 'one', scope: siteProbe({ month }),
    handler: ({ ctx, user, body }) => svc.monthlyInfo(ctx, user, body.siteId, body.month),
  }),
  route(api.dailyBrief, {
    access: 'menu', name: '需量日概览', area, kind: 'one', scope: siteProbe({ date: '2026-01-15' }),
    handler: ({ ctx, user, body }) => svc.dailyBrief(ctx, user, body.siteId, body.date),
  }),
  route(api.dailyInfo, {
    access: 'menu', name: '需量日详情', area, kind: 'one', scope: siteProbe({ date: '2026-01-15' }),
    handler: ({ ctx, user, body }) => svc.dailyInfo(ctx, user, body.siteId, body.date),
  }),
  route(api.analysisInfo, {
    access: 'menu', name: '需量分析', area, kind: 'one', scope: siteProbe({ month }),
    handler: ({ ctx, user, body }) => svc.analysisInfo(ctx, user, body.siteId, body.month),
  }),
  route(api.measure, {
    access: 'menu', name: '削峰措施分页', area, kind: 'page', scope: siteProbe({ month }),
    handler: ({ ctx, user, body }) => svc.measurePage(ctx, user, body),
  }),
  route(api.measureOne, {
    access: 'menu', name: '削峰措施详情', area, kind: 'one', scope: { entity: 'demandWindow' },
    handler: ({ ctx, user, body }) => svc.measureOne(ctx, user, body.id),
  }),
  route(api.reconcileHeader, {
    access: 'menu', name: '需量对账汇总', area, kind: 'one', scope: siteProbe(),
    handler: ({ ctx, user, body }) => svc.reconcileHeader(ctx, user, body),
  }),
  route(api.reconcilePage, {
    access: 'menu', name: '需量对账分页', area, kind: 'page', scope: siteProbe(),
    handler: ({ ctx, user, body }) => svc.reconcilePage(ctx, user, body),
  }),
  route(api.reconcileEdit, {
    access: 'menu', name: '录入账单需量', area, kind: 'edit', scope: siteProbe({ month, billMaxKw: 100 }),
    handler: async ({ ctx, user, body }) => {
      await svc.reconcileEdit(ctx, user, body);
      return true;
    },
  }),
  route(api.settingPage, {
    access: 'menu', name: '需量设置分页', area, kind: 'page', scope: siteProbe(),
    handler: ({ ctx, user, body }) => svc.settingPage(ctx, user, body),
  }),
  route(api.settingAdd, {
    access: 'menu', name: '新增需量设置', area, kind: 'add', scope: siteProbe({ month, targetKw: 100, marginKw: 5 }),
    handler: ({ ctx, user, body }) => svc.settingAdd(ctx, user, body),
  }),
];
