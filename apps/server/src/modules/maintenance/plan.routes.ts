import { maintenanceEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { exportLanguage } from '../i18n/index.ts';
import * as items from './item.service.ts';
import * as plans from './plan.service.ts';

const area = 'Inspection';
/** Probes: another company's object (or a filter naming another company's) is refused. */
const itemProbe = { entity: 'inspectionItem' };
const planProbe = { entity: 'inspectionPlan' };
const companyFilter = { entity: 'company', input: (id: number) => ({ companyId: id }) };
const siteFilter = { entity: 'site', input: (id: number) => ({ siteId: id }) };
const probeSchedule = { kind: 'daily', startDate: '2026-01-01' };
const probeItem = (extra: Record<string, unknown>) => ({ name: 'probe', checkType: 'text', ...extra });
const probePlan = (extra: Record<string, unknown>) => ({ name: 'probe', siteIds: [1], itemIds: [1], schedule: probeSchedule, ...extra });

export const planRoutes = [
  // Items
  route(api.itemPage, {
    access: 'menu', name: '巡检项分页', area, kind: 'page', scope: companyFilter,
    handler: ({ ctx, user, body }) => items.itemPage(ctx, user, body),
  }),
  route(api.itemList, {
    access: 'menu', name: '巡检项列表', area, kind: 'list', scope: companyFilter,
    handler: ({ ctx, user, body }) => items.itemList(ctx, user, body),
  }),
  route(api.itemAdd, {
    access: 'menu', name: '新增巡检项', area, kind: 'add', scope: { entity: 'company', input: (id) => probeItem({ companyId: id }) },
    handler: ({ ctx, user, body }) => items.addItem(ctx, user, body),
  }),
  route(api.itemEdit, {
    access: 'menu', name: '编辑巡检项', area, kind: 'edit', scope: { entity: 'inspectionItem', input: (id) => probeItem({ id }) },
    handler: async ({ ctx, user, body }) => {
      await items.editItem(ctx, user, body);
      return true;
    },
  }),
  route(api.itemExport, {
    access: 'menu', name: '导出巡检项', area, kind: 'export', scope: companyFilter,
    handler: async ({ ctx, user, body, req, reply }) => items.exportItems(ctx, user, body, await exportLanguage(req), reply),
  }),
  route(api.itemDelete, {
    access: 'menu', name: '删除巡检项', area, kind: 'delete', scope: itemProbe,
    handler: async ({ ctx, user, query }) => {
      await items.deleteItem(ctx, user, query.id);
      return true;
    },
  }),
  route(api.itemImport, {
    access: 'menu', name: '导入巡检项', area, kind: 'import', scope: { global: "imports into the caller's own company" },
    handler: ({ ctx, user, req }) => items.importItems(ctx, user, req),
  }),
  route(api.itemRelPage, {
    access: 'menu', name: '巡检计划巡检项分页', area, kind: 'page', scope: { entity: 'inspectionItem', input: (id) => ({ itemId: id }) },
    handler: ({ ctx, user, body }) => items.itemRelPage(ctx, user, body),
  }),

  // Plans
  route(api.planPage, {
    access: 'menu', name: '巡检计划分页', area, kind: 'page', scope: siteFilter,
    handler: ({ ctx, user, body }) => plans.planPage(ctx, user, body),
  }),
  route(api.planList, {
    access: 'menu', name: '巡检计划列表', area, kind: 'list', scope: siteFilter,
    handler: ({ ctx, user, body }) => plans.planList(ctx, user, body),
  }),
  route(api.planOne, {
    access: 'menu', name: '巡检计划详情', area, kind: 'one', scope: planProbe,
    handler: ({ ctx, user, body }) => plans.planOne(ctx, user, body.id),
  }),
  route(api.planAdd, {
    access: 'menu', name: '新增巡检计划', area, kind: 'add', scope: { entity: 'site', input: (id) => probePlan({ siteIds: [id] }) },
    handler: ({ ctx, user, body }) => plans.addPlan(ctx, user, body),
  }),
  route(api.planEdit, {
    access: 'menu', name: '编辑巡检计划', area, kind: 'edit', scope: { entity: 'inspectionPlan', input: (id) => probePlan({ id }) },
    handler: async ({ ctx, user, body }) => {
      await plans.editPlan(ctx, user, body);
      return true;
    },
  }),
  route(api.planStartOrStop, {
    access: 'menu', name: '启停巡检计划', area, kind: 'action', scope: planProbe,
    handler: ({ ctx, user, body }) => plans.startOrStopPlan(ctx, user, body.id),
  }),
  route(api.planStart, {
    access: 'menu', name: '启动巡检计划', area, kind: 'action', scope: planProbe,
    handler: ({ ctx, user, query }) => plans.startPlan(ctx, user, query.id),
  }),
  route(api.planSitePage, {
    access: 'menu', name: '巡检计划站点分页', area, kind: 'page', scope: { entity: 'inspectionPlan', input: (id) => ({ planId: id }) },
    handler: ({ ctx, user, body }) => plans.planSiteRecords(ctx, user, body, body),
  }),
  route(api.planSiteList, {
    access: 'menu', name: '巡检计划站点列表', area, kind: 'list', scope: { entity: 'inspectionPlan', input: (id) => ({ planId: id }) },
    handler: async ({ ctx, user, body }) => (await plans.planSiteRecords(ctx, user, body)).records,
  }),
];
