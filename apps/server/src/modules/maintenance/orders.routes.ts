import { maintenanceEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { exportLanguage } from '../i18n/index.ts';
import * as defects from './defect.service.ts';
import * as repairs from './repair.service.ts';
import * as orders from './workorder.service.ts';

/** Work orders and their log, defects, repair orders (api-catalogue "Inspection" and "Repair"). */

const inspection = 'Inspection';
const repair = 'Repair';
/** Probes: a filter naming another company's station is refused, not answered empty. */
const siteProbe = { entity: 'site', input: (id: number) => ({ siteId: id }) };
const NOW = '2026-01-01T08:00:00Z';
const LATER = '2026-01-01T10:00:00Z';

export const workOrderRoutes = [
  route(api.orderPage, {
    access: 'menu', name: '巡检工单分页', area: inspection, kind: 'page', scope: siteProbe,
    handler: ({ ctx, user, body }) => orders.workOrderPage(ctx, user, body),
  }),
  route(api.orderList, {
    access: 'menu', name: '巡检工单列表', area: inspection, kind: 'list', scope: siteProbe,
    handler: ({ ctx, user, body }) => orders.workOrderList(ctx, user, body),
  }),
  route(api.orderOne, {
    access: 'menu', name: '巡检工单详情', area: inspection, kind: 'one', scope: { entity: 'workOrder' },
    handler: ({ ctx, user, body }) => orders.workOrderOne(ctx, user, body.id),
  }),
  route(api.orderAdd, {
    access: 'menu', name: '新增巡检工单', area: inspection, kind: 'add',
    scope: { entity: 'site', input: (id) => ({ siteId: id, title: 'probe', itemIds: [1], startAt: NOW, dueAt: LATER }) },
    handler: ({ ctx, user, body }) => orders.addWorkOrder(ctx, user, body),
  }),
  route(api.orderEdit, {
    access: 'menu', name: '编辑巡检工单', area: inspection, kind: 'edit', scope: { entity: 'workOrder' },
    handler: async ({ ctx, user, body }) => {
      await orders.editWorkOrder(ctx, user, body);
      return true;
    },
  }),
  route(api.orderExport, {
    access: 'menu', name: '导出巡检工单', area: inspection, kind: 'export', scope: siteProbe,
    handler: async ({ ctx, user, body, req, reply }) => orders.exportWorkOrders(ctx, user, body, await exportLanguage(req), reply),
  }),
  route(api.orderAllocation, {
    access: 'menu', name: '巡检工单分配', area: inspection, kind: 'action', scope: { entity: 'workOrder', input: (id) => ({ id, assigneeId: 1 }) },
    handler: async ({ ctx, user, body }) => {
      await orders.allocateWorkOrder(ctx, user, body);
      return true;
    },
  }),
  route(api.orderHandle, {
    access: 'menu', name: '巡检工单处理', area: inspection, kind: 'action', scope: { entity: 'workOrder', input: (id) => ({ id, results: [] }) },
    handler: async ({ ctx, user, body }) => {
      await orders.handleWorkOrder(ctx, user, body);
      return true;
    },
  }),
  route(api.orderClose, {
    access: 'menu', name: '巡检工单关闭', area: inspection, kind: 'action', scope: { entity: 'workOrder' },
    handler: async ({ ctx, user, body }) => {
      await orders.closeWorkOrder(ctx, user, body);
      return true;
    },
  }),
  route(api.orderLogPage, {
    access: 'menu', name: '巡检工单日志分页', area: inspection, kind: 'page', scope: { entity: 'workOrder', input: (id) => ({ orderId: id }) },
    handler: ({ ctx, user, body }) => orders.workOrderLogPage(ctx, user, body),
  }),
  route(api.orderLogOne, {
    access: 'menu', name: '巡检工单日志详情', area: inspection, kind: 'one', scope: { entity: 'workOrderLog' },
    handler: ({ ctx, user, body }) => orders.workOrderLogOne(ctx, user, body.id),
  }),

  // Defects
  route(api.defectPage, {
    access: 'menu', name: '缺陷记录分页', area: inspection, kind: 'page', scope: siteProbe,
    handler: ({ ctx, user, body }) => defects.defectPage(ctx, user, body),
  }),
  route(api.defectList, {
    access: 'menu', name: '缺陷记录列表', area: inspection, kind: 'list', scope: siteProbe,
    handler: ({ ctx, user, body }) => defects.defectList(ctx, user, body),
  }),
  route(api.defectOne, {
    access: 'menu', name: '缺陷记录详情', area: inspection, kind: 'one', scope: { entity: 'defect' },
    handler: ({ ctx, user, body }) => defects.defectOne(ctx, user, body.id),
  }),
  route(api.defectAdd, {
    access: 'menu', name: '新增缺陷记录', area: inspection, kind: 'add',
    scope: { entity: 'site', input: (id) => ({ siteId: id, level: 3, description: 'probe' }) },
    handler: ({ ctx, user, body }) => defects.addDefect(ctx, user, body),
  }),
  route(api.defectEdit, {
    access: 'menu', name: '编辑缺陷记录', area: inspection, kind: 'edit', scope: { entity: 'defect' },
    handler: async ({ ctx, user, body }) => {
      await defects.editDefect(ctx, user, body);
      return true;
    },
  }),
  route(api.defectExport, {
    access: 'menu', name: '导出缺陷记录', area: inspection, kind: 'export', scope: siteProbe,
    handler: async ({ ctx, user, body, req, reply }) => defects.exportDefects(ctx, user, body, await exportLanguage(req), reply),
  }),
  route(api.defectDeviceList, {
    access: 'menu', name: '缺陷设备列表', area: inspection, kind: 'list', scope: siteProbe,
    handler: ({ ctx, user, body }) => defects.defectDevices(ctx, user, body),
  }),
];

export const repairRoutes = [
  route(api.repairPage, {
    access: 'menu', name: '维修工单分页', area: repair, kind: 'page', scope: siteProbe,
    handler: ({ ctx, user, body }) => repairs.repairPage(ctx, user, body),
  }),
  route(api.repairList, {
    access: 'menu', name: '维修工单列表', area: repair, kind: 'list', scope: siteProbe,
    handler: ({ ctx, user, body }) => repairs.repairList(ctx, user, body),
  }),
  route(api.repairOne, {
    access: 'menu', name: '维修工单详情', area: repair, kind: 'one', scope: { entity: 'repairOrder' },
    handler: ({ ctx, user, body }) => repairs.repairOne(ctx, user, body.id),
  }),
  route(api.repairAdd, {
    access: 'menu', name: '新增维修工单', area: repair, kind: 'add',
    scope: { entity: 'site', input: (id) => ({ siteId: id, description: 'probe' }) },
    handler: ({ ctx, user, body }) => repairs.addRepair(ctx, user, body),
  }),
  route(api.repairEdit, {
    access: 'menu', name: '编辑维修工单', area: repair, kind: 'edit', scope: { entity: 'repairOrder' },
    handler: async ({ ctx, user, body }) => {
      await repairs.editRepair(ctx, user, body);
      return true;
    },
  }),
  route(api.repairExport, {
    access: 'menu', name: '导出维修工单', area: repair, kind: 'export', scope: siteProbe,
    handler: async ({ ctx, user, body, req, reply }) => repairs.exportRepairs(ctx, user, body, await exportLanguage(req), reply),
  }),
  route(api.repairAllocation, {
    access: 'menu', name: '维修工单派单', area: repair, kind: 'action', scope: { entity: 'repairOrder', input: (id) => ({ id, assigneeId: 1 }) },
    handler: async ({ ctx, user, body }) => {
      await repairs.allocateRepair(ctx, user, body);
      return true;
    },
  }),
  route(api.repairCheckIn, {
    access: 'menu', name: '维修工单签到', area: repair, kind: 'action', scope: { entity: 'repairOrder' },
    handler: async ({ ctx, user, body }) => {
      await repairs.checkInRepair(ctx, user, body);
      return true;
    },
  }),
  route(api.repairHandle, {
    access: 'menu', name: '维修工单处理', area: repair, kind: 'action',
    scope: { entity: 'repairOrder', input: (id) => ({ id, workDone: 'probe', startAt: NOW, endAt: LATER }) },
    handler: async ({ ctx, user, body }) => {
      await repairs.handleRepair(ctx, user, body);
      return true;
    },
  }),
  route(api.repairAcceptance, {
    access: 'menu', name: '维修工单验收', area: repair, kind: 'action', scope: { entity: 'repairOrder', input: (id) => ({ id, pass: true }) },
    handler: async ({ ctx, user, body }) => {
      await repairs.acceptRepair(ctx, user, body);
      return true;
    },
  }),
  route(api.repairDevicePage, {
    access: 'menu', name: '维修设备分页', area: repair, kind: 'page', scope: siteProbe,
    handler: ({ ctx, user, body }) => repairs.repairDevicePage(ctx, user, body),
  }),
];
