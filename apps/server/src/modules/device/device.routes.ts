import { deviceEndpoints as api, deviceEndpoints as ops } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { exportLanguage } from '../i18n/index.ts';
import * as changes from './device-change.service.ts';
import * as transfer from './device-transfer.service.ts';
import * as devices from './device.service.ts';
import { checkEms } from './ems-check.service.ts';

const area = 'Configuration';
/** Probes: a filter naming another company's station is refused, not answered empty. */
const siteProbe = { entity: 'site', input: (id: number) => ({ siteId: id }) };
/** Uploads name their stations and devices by code, row by row, each checked against the caller's stations. */
const upload = { global: "an uploaded sheet names its stations and devices by code, each row checked against the caller's stations" };

export const deviceRoutes = [
  route(api.page, {
    access: 'menu', name: '设备分页', area, kind: 'page', scope: siteProbe,
    handler: ({ ctx, user, body }) => devices.devicePage(ctx, user, body),
  }),
  route(api.list, {
    access: 'menu', name: '设备列表', area, kind: 'list', scope: siteProbe,
    handler: ({ ctx, user, body }) => devices.deviceList(ctx, user, body),
  }),
  route(api.one, {
    access: 'menu', name: '设备详情', area, kind: 'one', scope: { entity: 'device' },
    handler: ({ ctx, user, body }) => devices.deviceOne(ctx, user, body.id),
  }),
  route(api.tree, {
    access: 'menu', name: '站点设备树', area, kind: 'list', scope: siteProbe,
    handler: ({ ctx, user, body }) => devices.deviceTree(ctx, user, body),
  }),
  route(api.latestList, {
    access: 'menu', name: '设备最新数据列表', area, kind: 'list', scope: siteProbe,
    handler: ({ ctx, user, body }) => devices.latestList(ctx, user, body),
  }),
  route(api.latestPage, {
    access: 'menu', name: '设备最新数据分页', area, kind: 'page', scope: siteProbe,
    handler: ({ ctx, user, body }) => devices.latestPage(ctx, user, body),
  }),
  route(api.latestOne, {
    access: 'menu', name: '设备最新数据', area, kind: 'one', scope: { entity: 'device', input: (id) => ({ deviceId: id }) },
    handler: ({ ctx, user, body }) => devices.latestOne(ctx, user, body),
  }),
  route(ops.edit, {
    access: 'menu', name: '编辑设备', area, kind: 'edit',
    scope: { entity: 'device', input: (id) => ({ id, code: `probe-edit-${id}`, name: 'probe' }) },
    handler: ({ ctx, user, body }) => transfer.deviceEdit(ctx, user, body),
  }),
  route(ops.export, {
    access: 'menu', name: '导出设备', area, kind: 'export', scope: siteProbe,
    handler: async ({ ctx, user, body, req, reply }) => transfer.deviceExport(ctx, user, body, await exportLanguage(req), reply),
  }),
  route(ops.import, {
    access: 'menu', name: '导入设备', area, kind: 'import', scope: upload,
    handler: ({ ctx, user, req }) => transfer.deviceImportFile(ctx, user, req),
  }),
  route(ops.productExport, {
    access: 'menu', name: '导出设备产品数据', area, kind: 'export', scope: { entity: 'site', input: (id) => ({ productId: 1, siteId: id }) },
    handler: ({ ctx, user, body, reply }) => transfer.deviceProductExport(ctx, user, body, reply),
  }),
  route(ops.productImport, {
    access: 'menu', name: '导入设备产品数据', area, kind: 'import', scope: upload,
    handler: ({ ctx, user, req }) => transfer.deviceProductImportFile(ctx, user, req),
  }),
  route(ops.checkEms, {
    access: 'menu', name: 'EMS检测', area, kind: 'action', scope: siteProbe,
    handler: ({ ctx, user, body }) => checkEms(ctx, user, body.siteId),
  }),
  route(ops.change, {
    access: 'menu', name: '设备更换', area, kind: 'action',
    scope: { entity: 'device', input: (id) => ({ deviceId: id, newCode: `probe-new-${id}` }) },
    handler: ({ ctx, user, body }) => changes.changeDevice(ctx, user, body),
  }),
  route(ops.changePage, {
    access: 'menu', name: '设备更换记录分页', area, kind: 'page', scope: siteProbe,
    handler: ({ ctx, user, body }) => changes.changePage(ctx, user, body),
  }),
  route(ops.changeOne, {
    access: 'menu', name: '设备更换记录详情', area, kind: 'one', scope: { entity: 'deviceChange' },
    handler: ({ ctx, user, body }) => changes.changeOne(ctx, user, body.id),
  }),
  route(ops.changeProducts, {
    access: 'menu', name: '站点设备产品列表', area, kind: 'list', scope: siteProbe,
    handler: ({ ctx, user, query }) => changes.changeProducts(ctx, user, query.siteId),
  }),
  route(ops.importHistoryPage, {
    access: 'menu', name: '设备导入记录分页', area, kind: 'page',
    scope: { global: "a page of the imports of the caller's companies, naming no object" },
    handler: ({ ctx, user, body }) => changes.importHistoryPageOf(ctx, user, body),
  }),
];
