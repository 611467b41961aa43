import {
  deviceChangeBody, deviceChangePage, deviceChangeProductQuery, deviceEditBody, deviceExportBody, deviceFilter, deviceLatestFilter, deviceLatestPage,
  devicePage, deviceProductExportBody, deviceTreeBody, emsCheckBody, idBody, importHistoryPage, productLatestOneBody,
} from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import * as changes from './device-change.service.ts';
import * as transfer from './device-transfer.service.ts';
import * as devices from './device.service.ts';
import { checkEms } from './ems-check.service.ts';

const area = 'Configuration';
/** Probes: a filter naming another company's station is refused, not answered empty. */
const siteProbe = { entity: 'site', input: (id: number) => ({ siteId: id }) };

export const deviceRoutes = [
  route({
    method: 'POST', path: '/configure/device/query/page', access: 'menu', name: '设备分页', area, kind: 'page', body: devicePage,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => devices.devicePage(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/device/query/list', access: 'menu', name: '设备列表', area, kind: 'list', body: deviceFilter,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => devices.deviceList(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/device/query/one', access: 'menu', name: '设备详情', area, kind: 'one', body: idBody,
    scope: { entity: 'device' },
    handler: ({ ctx, user, body }) => devices.deviceOne(ctx, user, body.id),
  }),
  route({
    method: 'POST', path: '/configure/device/query/tree', access: 'menu', name: '站点设备树', area, kind: 'list', body: deviceTreeBody,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => devices.deviceTree(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/device/data/latest/list', access: 'menu', name: '设备最新数据列表', area, kind: 'list', body: deviceLatestFilter,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => devices.latestList(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/device/data/latest/page', access: 'menu', name: '设备最新数据分页', area, kind: 'page', body: deviceLatestPage,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => devices.latestPage(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/template/product/data/query/latest/one', access: 'menu', name: '设备最新数据', area, kind: 'one', body: productLatestOneBody,
    scope: { entity: 'device', input: (id) => ({ deviceId: id }) },
    handler: ({ ctx, user, body }) => devices.latestOne(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/device/edit', access: 'menu', name: '编辑设备', area, kind: 'edit', body: deviceEditBody,
    scope: { entity: 'device', input: (id) => ({ id, code: `probe-edit-${id}`, name: 'probe' }) },
    handler: ({ ctx, user, body }) => transfer.deviceEdit(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/device/export', access: 'menu', name: '导出设备', area, kind: 'export', body: deviceExportBody, raw: true,
    scope: siteProbe,
    handler: ({ ctx, user, body, reply }) => transfer.deviceExport(ctx, user, body, reply),
  }),
  route({
    method: 'POST', path: '/configure/device/import', access: 'menu', name: '导入设备', area, kind: 'import', multipart: true,
    handler: ({ ctx, user, req }) => transfer.deviceImportFile(ctx, user, req),
  }),
  route({
    method: 'POST', path: '/configure/device/product/export', access: 'menu', name: '导出设备产品数据', area, kind: 'export', body: deviceProductExportBody, raw: true,
    scope: { entity: 'site', input: (id) => ({ productId: 1, siteId: id }) },
    handler: ({ ctx, user, body, reply }) => transfer.deviceProductExport(ctx, user, body, reply),
  }),
  route({
    method: 'POST', path: '/configure/device/product/import', access: 'menu', name: '导入设备产品数据', area, kind: 'import', multipart: true,
    handler: ({ ctx, user, req }) => transfer.deviceProductImportFile(ctx, user, req),
  }),
  route({
    method: 'POST', path: '/configure/device/check/ems', access: 'menu', name: 'EMS检测', area, kind: 'action', body: emsCheckBody,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => checkEms(ctx, user, body.siteId),
  }),
  route({
    method: 'POST', path: '/configure/device/change/change', access: 'menu', name: '设备更换', area, kind: 'action', body: deviceChangeBody,
    scope: { entity: 'device', input: (id) => ({ deviceId: id, newCode: `probe-new-${id}` }) },
    handler: ({ ctx, user, body }) => changes.changeDevice(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/device/change/query/page', access: 'menu', name: '设备更换记录分页', area, kind: 'page', body: deviceChangePage,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => changes.changePage(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/device/change/query/one', access: 'menu', name: '设备更换记录详情', area, kind: 'one', body: idBody,
    scope: { entity: 'deviceChange' },
    handler: ({ ctx, user, body }) => changes.changeOne(ctx, user, body.id),
  }),
  route({
    method: 'GET', path: '/configure/device/change/product/list', access: 'menu', name: '站点设备产品列表', area, kind: 'list', query: deviceChangeProductQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => changes.changeProducts(ctx, user, query.siteId),
  }),
  route({
    method: 'POST', path: '/configure/device/import/history/query/page', access: 'menu', name: '设备导入记录分页', area, kind: 'page', body: importHistoryPage,
    handler: ({ ctx, user, body }) => changes.importHistoryPageOf(ctx, user, body),
  }),
];
