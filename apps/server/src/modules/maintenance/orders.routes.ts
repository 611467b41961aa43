import type { FastifyReply } from 'fastify';
import { maintenanceEndpoints as api, type AnyEndpoint } from '@ess/contract';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { route, type RouteOptions, type RouteScope } from '../../platform/http/route.ts';
import type { ExportLanguage } from '../../platform/xlsx/xlsx.ts';
import { exportLanguage } from '../i18n/index.ts';
import * as defects from './defect.service.ts';
import * as rules from './repair-rule.service.ts';
import * as repairs from './repair.service.ts';
import * as orders from './workorder.service.ts';

/**
 * Work orders and their log, defects, repair orders (api-catalogue "Inspection" and "Repair"), and
 * the automatic-repair rule (extension, decision 0034). Each call is a menu call of its area with
 * its scope probe; the handlers are the services' functions in one of four shapes.
 */

/** Probes: a filter naming another company's station is refused, not answered empty. */
const siteProbe = { entity: 'site', input: (id: number) => ({ siteId: id }) };
const NOW = '2026-01-01T08:00:00Z';
const LATER = '2026-01-01T10:00:00Z';

type Call<B> = { ctx: AppContext; user: AuthUser; body: B };
type Service<B, R> = (ctx: AppContext, user: AuthUser, b: B) => Promise<R>;

/** The body as the service takes it. */
const pass =
  <B, R>(fn: Service<B, R>) =>
  ({ ctx, user, body }: Call<B>) =>
    fn(ctx, user, body);
/** One record by its id. */
const byId =
  <R>(fn: Service<number, R>) =>
  ({ ctx, user, body }: Call<{ id: number }>) =>
    fn(ctx, user, body.id);
/** An action answered `true` once done. */
const done =
  <B>(fn: Service<B, unknown>) =>
  async ({ ctx, user, body }: Call<B>) => {
    await fn(ctx, user, body);
    return true;
  };
/** A file in the caller's language. */
const file =
  <B>(fn: (ctx: AppContext, user: AuthUser, b: B, lang: ExportLanguage, reply: FastifyReply) => Promise<unknown>) =>
  async ({ ctx, user, body, req, reply }: Call<B> & { req: Parameters<typeof exportLanguage>[0]; reply: FastifyReply }) =>
    fn(ctx, user, body, await exportLanguage(req), reply);

/** A menu call of an area: its interface-list name, kind and scope probe. */
const callOf =
  (area: string) =>
  <E extends AnyEndpoint>(endpoint: E, name: string, kind: string, scope: RouteScope, handler: RouteOptions<E, 'menu'>['handler']) =>
    route(endpoint, { access: 'menu', name, area, kind, scope, handler });
const inspection = callOf('Inspection');
const repair = callOf('Repair');

const workOrder = { entity: 'workOrder' };
const defect = { entity: 'defect' };
const repairOrder = { entity: 'repairOrder' };

export const workOrderRoutes = [
  inspection(api.orderPage, '巡检工单分页', 'page', siteProbe, pass(orders.workOrderPage)),
  inspection(api.orderList, '巡检工单列表', 'list', siteProbe, pass(orders.workOrderList)),
  inspection(api.orderOne, '巡检工单详情', 'one', workOrder, byId(orders.workOrderOne)),
  inspection(
    api.orderAdd, '新增巡检工单', 'add',
    { entity: 'site', input: (id) => ({ siteId: id, title: 'probe', itemIds: [1], startAt: NOW, dueAt: LATER }) },
    pass(orders.addWorkOrder),
  ),
  inspection(api.orderEdit, '编辑巡检工单', 'edit', workOrder, done(orders.editWorkOrder)),
  inspection(api.orderExport, '导出巡检工单', 'export', siteProbe, file(orders.exportWorkOrders)),
  inspection(api.orderAllocation, '巡检工单分配', 'action', { ...workOrder, input: (id) => ({ id, assigneeId: 1 }) }, done(orders.allocateWorkOrder)),
  inspection(api.orderHandle, '巡检工单处理', 'action', { ...workOrder, input: (id) => ({ id, results: [] }) }, done(orders.handleWorkOrder)),
  inspection(api.orderClose, '巡检工单关闭', 'action', workOrder, done(orders.closeWorkOrder)),
  inspection(api.orderLogPage, '巡检工单日志分页', 'page', { ...workOrder, input: (id) => ({ orderId: id }) }, pass(orders.workOrderLogPage)),
  inspection(api.orderLogOne, '巡检工单日志详情', 'one', { entity: 'workOrderLog' }, byId(orders.workOrderLogOne)),

  // Defects
  inspection(api.defectPage, '缺陷记录分页', 'page', siteProbe, pass(defects.defectPage)),
  inspection(api.defectList, '缺陷记录列表', 'list', siteProbe, pass(defects.defectList)),
  inspection(api.defectOne, '缺陷记录详情', 'one', defect, byId(defects.defectOne)),
  inspection(api.defectAdd, '新增缺陷记录', 'add', { entity: 'site', input: (id) => ({ siteId: id, level: 3, description: 'probe' }) }, pass(defects.addDefect)),
  inspection(api.defectEdit, '编辑缺陷记录', 'edit', defect, done(defects.editDefect)),
  inspection(api.defectExport, '导出缺陷记录', 'export', siteProbe, file(defects.exportDefects)),
  inspection(api.defectDeviceList, '缺陷设备列表', 'list', siteProbe, pass(defects.defectDevices)),
];

export const repairRoutes = [
  repair(api.repairPage, '维修工单分页', 'page', siteProbe, pass(repairs.repairPage)),
  repair(api.repairList, '维修工单列表', 'list', siteProbe, pass(repairs.repairList)),
  repair(api.repairOne, '维修工单详情', 'one', repairOrder, byId(repairs.repairOne)),
  repair(api.repairAdd, '新增维修工单', 'add', { entity: 'site', input: (id) => ({ siteId: id, description: 'probe' }) }, pass(repairs.addRepair)),
  repair(api.repairEdit, '编辑维修工单', 'edit', repairOrder, done(repairs.editRepair)),
  repair(api.repairExport, '导出维修工单', 'export', siteProbe, file(repairs.exportRepairs)),
  repair(api.repairAllocation, '维修工单派单', 'action', { ...repairOrder, input: (id) => ({ id, assigneeId: 1 }) }, done(repairs.allocateRepair)),
  repair(api.repairCheckIn, '维修工单签到', 'action', repairOrder, done(repairs.checkInRepair)),
  repair(
    api.repairHandle, '维修工单处理', 'action',
    { ...repairOrder, input: (id) => ({ id, workDone: 'probe', startAt: NOW, endAt: LATER }) },
    done(repairs.handleRepair),
  ),
  repair(api.repairAcceptance, '维修工单验收', 'action', { ...repairOrder, input: (id) => ({ id, pass: true }) }, done(repairs.acceptRepair)),
  repair(api.repairDevicePage, '维修设备分页', 'page', siteProbe, pass(repairs.repairDevicePage)),
  // The automatic-order rule of a company (extension, decision 0034).
  repair(api.repairAutoRuleOne, '自动维修规则详情', 'one', { entity: 'company', input: (id) => ({ companyId: id }) }, ({ ctx, user, body }) =>
    rules.autoRuleOne(ctx, user, body.companyId),
  ),
  repair(
    api.repairAutoRuleEdit, '编辑自动维修规则', 'edit',
    { entity: 'company', input: (id) => ({ companyId: id, enabled: true, maxLevel: 2, openMinutes: 10 }) },
    done(rules.editAutoRule),
  ),
];
