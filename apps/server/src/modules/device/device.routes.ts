import { deviceFilter, deviceLatestFilter, deviceLatestPage, devicePage, deviceTreeBody, idBody, productLatestOneBody } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import * as devices from './device.service.ts';

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
];
