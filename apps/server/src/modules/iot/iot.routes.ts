import { iotConfigEndpoints, iotQueryEndpoints, iotRelateEndpoints, iotSyncEndpoints, iotUnmappedEndpoints } from '@ess/contract/iot';
import { route } from '../../platform/http/route.ts';
import * as configs from './config.service.ts';
import * as q from './query.service.ts';
import * as params from './relate.param.service.ts';
import * as rel from './relate.service.ts';
import * as sync from './sync.service.ts';
import { nudgeLive } from './live/live.service.ts';
import * as unmapped from './live/unmapped.service.ts';
import type { AppContext } from '../../platform/context.ts';

/**
 * The IoT calls (catalogue area "IoT", decision 0048): applications, sync (dry run, approve,
 * discard, the runs), what the syncs read, and the relations to the thing model. Every object
 * call names its object's company through the application; the probes below make one in
 * another company (test/scope-fixtures.ts).
 */
const area = 'IoT';
/** A change the live streams follow (an application, a sync applied, a binding, a relation): reconciled before answering. */
async function followed<T>(ctx: AppContext, change: Promise<T>): Promise<T> {
  const r = await change;
  await nudgeLive(ctx);
  return r;
}
const inScope = { global: "rows filtered to the caller's companies; names no object" };
const configBody = (id: number) => ({ id, companyId: 1, name: 'probe', platform: 'thingsboard', baseUrl: 'http://127.0.0.1:9', username: 'probe', password: 'probe' });
const level = (iotProductId: number) => ({ iotProductId, iotDeviceId: null, productId: 1, active: true });

export const iotConfigRoutes = [
  route(iotConfigEndpoints.list, { access: 'menu', name: '物联网应用列表', area, kind: 'list', scope: inScope, handler: ({ ctx, user, body }) => configs.configList(ctx, user, body) }),
  route(iotConfigEndpoints.page, { access: 'menu', name: '物联网应用分页', area, kind: 'page', scope: inScope, handler: ({ ctx, user, body }) => configs.configPage(ctx, user, body) }),
  route(iotConfigEndpoints.one, { access: 'menu', name: '物联网应用详情', area, kind: 'one', scope: { entity: 'iotConfig' }, handler: ({ ctx, user, body }) => configs.configOne(ctx, user, body.id) }),
  route(iotConfigEndpoints.add, {
    access: 'menu', name: '新增物联网应用', area, kind: 'add', scope: { entity: 'company', input: (companyId) => ({ ...configBody(0), id: undefined, companyId }) },
    handler: ({ ctx, user, body }) => configs.configAdd(ctx, user, body),
  }),
  route(iotConfigEndpoints.edit, { access: 'menu', name: '编辑物联网应用', area, kind: 'edit', scope: { entity: 'iotConfig', input: configBody }, handler: ({ ctx, user, body }) => followed(ctx, configs.configEdit(ctx, user, body)) }),
  route(iotConfigEndpoints.delete, { access: 'menu', name: '删除物联网应用', area, kind: 'delete', scope: { entity: 'iotConfig' }, handler: ({ ctx, user, query }) => followed(ctx, configs.configDelete(ctx, user, query.id)) }),
  route(iotConfigEndpoints.optionals, {
    access: 'menu', name: '物联网平台类型', area, kind: 'list', scope: { global: 'the supported platform types and their fields, the same for every company' },
    handler: () => configs.configOptionals(),
  }),
  route(iotConfigEndpoints.connect, { access: 'menu', name: '物联网应用连接测试', area, kind: 'action', scope: { entity: 'iotConfig' }, handler: ({ ctx, user, query }) => configs.configConnect(ctx, user, query.id) }),
];

export const iotSyncRoutes = [
  route(iotSyncEndpoints.full, {
    access: 'menu', name: '全量同步', area, kind: 'action', scope: { entity: 'iotConfig', input: (configId) => ({ configId }) },
    handler: ({ ctx, user, query }) => followed(ctx, sync.syncFull(ctx, user, query.configId)),
  }),
  route(iotSyncEndpoints.product, {
    access: 'menu', name: '同步产品', area, kind: 'action', scope: { entity: 'iotProduct', input: (productId) => ({ productId }) },
    handler: ({ ctx, user, query }) => followed(ctx, sync.syncProduct(ctx, user, query.productId)),
  }),
  route(iotSyncEndpoints.device, {
    access: 'menu', name: '同步设备', area, kind: 'action', scope: { entity: 'iotDevice', input: (deviceId) => ({ deviceId }) },
    handler: ({ ctx, user, query }) => followed(ctx, sync.syncDevice(ctx, user, query.deviceId)),
  }),
  route(iotSyncEndpoints.approve, { access: 'menu', name: '批准同步', area, kind: 'action', scope: { entity: 'iotSync' }, handler: ({ ctx, user, body }) => followed(ctx, sync.approve(ctx, user, body.id)) }),
  route(iotSyncEndpoints.discard, { access: 'menu', name: '放弃同步', area, kind: 'action', scope: { entity: 'iotSync' }, handler: ({ ctx, user, body }) => sync.discard(ctx, user, body.id) }),
  route(iotSyncEndpoints.page, { access: 'menu', name: '同步记录分页', area, kind: 'page', scope: inScope, handler: ({ ctx, user, body }) => sync.syncPage(ctx, user, body) }),
  route(iotSyncEndpoints.one, { access: 'menu', name: '同步记录详情', area, kind: 'one', scope: { entity: 'iotSync' }, handler: ({ ctx, user, body }) => sync.syncOne(ctx, user, body.id) }),
];

export const iotQueryRoutes = [
  route(iotQueryEndpoints.productList, { access: 'menu', name: '物联网产品列表', area, kind: 'list', scope: inScope, handler: ({ ctx, user, body }) => q.productList(ctx, user, body) }),
  route(iotQueryEndpoints.productPage, { access: 'menu', name: '物联网产品分页', area, kind: 'page', scope: inScope, handler: ({ ctx, user, body }) => q.productPage(ctx, user, body) }),
  route(iotQueryEndpoints.productOne, { access: 'menu', name: '物联网产品详情', area, kind: 'one', scope: { entity: 'iotProduct' }, handler: ({ ctx, user, body }) => q.productOne(ctx, user, body.id) }),
  route(iotQueryEndpoints.propertyList, { access: 'menu', name: '物联网属性列表', area, kind: 'list', scope: inScope, handler: ({ ctx, user, body }) => q.itemList('property', ctx, user, body) }),
  route(iotQueryEndpoints.propertyPage, { access: 'menu', name: '物联网属性分页', area, kind: 'page', scope: inScope, handler: ({ ctx, user, body }) => q.itemPage('property', ctx, user, body) }),
  route(iotQueryEndpoints.eventList, { access: 'menu', name: '物联网事件列表', area, kind: 'list', scope: inScope, handler: ({ ctx, user, body }) => q.itemList('event', ctx, user, body) }),
  route(iotQueryEndpoints.eventPage, { access: 'menu', name: '物联网事件分页', area, kind: 'page', scope: inScope, handler: ({ ctx, user, body }) => q.itemPage('event', ctx, user, body) }),
  route(iotQueryEndpoints.eventOne, { access: 'menu', name: '物联网事件详情', area, kind: 'one', scope: { entity: 'iotEvent' }, handler: ({ ctx, user, body }) => q.itemOne('event', ctx, user, body.id) }),
  route(iotQueryEndpoints.commandList, { access: 'menu', name: '物联网命令列表', area, kind: 'list', scope: inScope, handler: ({ ctx, user, body }) => q.itemList('command', ctx, user, body) }),
  route(iotQueryEndpoints.commandPage, { access: 'menu', name: '物联网命令分页', area, kind: 'page', scope: inScope, handler: ({ ctx, user, body }) => q.itemPage('command', ctx, user, body) }),
  route(iotQueryEndpoints.commandOne, { access: 'menu', name: '物联网命令详情', area, kind: 'one', scope: { entity: 'iotCommand' }, handler: ({ ctx, user, body }) => q.itemOne('command', ctx, user, body.id) }),
  route(iotQueryEndpoints.paramList, { access: 'menu', name: '物联网参数列表', area, kind: 'list', scope: inScope, handler: ({ ctx, user, body }) => q.paramList(ctx, user, body) }),
  route(iotQueryEndpoints.devicePage, { access: 'menu', name: '物联网设备分页', area, kind: 'page', scope: inScope, handler: ({ ctx, user, body }) => q.devicePage(ctx, user, body) }),
  route(iotQueryEndpoints.deviceOne, { access: 'menu', name: '物联网设备详情', area, kind: 'one', scope: { entity: 'iotDevice' }, handler: ({ ctx, user, body }) => q.deviceOne(ctx, user, body.id) }),
  route(iotQueryEndpoints.deviceBind, {
    access: 'menu', name: '物联网设备绑定', area, kind: 'edit', scope: { entity: 'iotDevice', input: (id) => ({ id, deviceId: null }) },
    handler: ({ ctx, user, body }) => followed(ctx, q.deviceBind(ctx, user, body)),
  }),
];

/** The relation calls of one kind (property, event, command): page, one, add, edit, delete, active. */
function relationRoutes(kind: rel.RelationKind, label: string, itemField: string) {
  const e = iotRelateEndpoints;
  const ep = { property: [e.propertyPage, e.propertyOne, e.propertyAdd, e.propertyEdit, e.propertyDelete, e.propertyActive], event: [e.eventPage, e.eventOne, e.eventAdd, e.eventEdit, e.eventDelete, e.eventActive], command: [e.commandPage, e.commandOne, e.commandAdd, e.commandEdit, e.commandDelete, e.commandActive] }[kind];
  const entity = `iotRelate${kind[0]!.toUpperCase()}${kind.slice(1)}`;
  const body = (iotProductId: number) => ({ ...level(iotProductId), [itemField]: 1, identifier: kind === 'event' ? 'probeEvent' : 'probe' });
  const [page, one, add, edit, del, active] = ep as [typeof e.propertyPage, typeof e.propertyOne, typeof e.commandAdd, typeof e.commandEdit, typeof e.propertyDelete, typeof e.propertyActive];
  return [
    route(page, { access: 'menu', name: `${label}关联分页`, area, kind: 'page', scope: inScope, handler: ({ ctx, user, body: b }) => rel.relatePage(kind, ctx, user, b) as never }),
    route(one, { access: 'menu', name: `${label}关联详情`, area, kind: 'one', scope: { entity }, handler: ({ ctx, user, body: b }) => rel.relateOne(kind, ctx, user, b.id) as never }),
    route(add, { access: 'menu', name: `新增${label}关联`, area, kind: 'add', scope: { entity: 'iotProduct', input: body }, handler: ({ ctx, user, body: b }) => followed(ctx, rel.relateAdd(kind, ctx, user, b)) }),
    route(edit, {
      access: 'menu', name: `编辑${label}关联`, area, kind: 'edit', scope: { entity, input: (id) => ({ ...body(1), id }) },
      handler: ({ ctx, user, body: b }) => followed(ctx, rel.relateEdit(kind, ctx, user, b)),
    }),
    route(del, { access: 'menu', name: `删除${label}关联`, area, kind: 'delete', scope: { entity }, handler: ({ ctx, user, query }) => followed(ctx, rel.relateDelete(kind, ctx, user, query.id)) }),
    route(active, { access: 'menu', name: `启停${label}关联`, area, kind: 'action', scope: { entity }, handler: ({ ctx, user, query }) => followed(ctx, rel.relateActive(kind, ctx, user, query.id)) }),
  ];
}

const paramBody = (relateCommandId: number) => ({ relateCommandId, iotParamId: 1, identifier: 'probe' });
export const iotRelateRoutes = [
  ...relationRoutes('property', '属性', 'iotPropertyId'),
  ...relationRoutes('event', '事件', 'iotEventId'),
  ...relationRoutes('command', '命令', 'iotCommandId'),
  route(iotRelateEndpoints.paramList, {
    access: 'menu', name: '参数关联列表', area, kind: 'list', scope: { entity: 'iotRelateCommand', input: (relateCommandId) => ({ relateCommandId }) },
    handler: ({ ctx, user, body }) => params.paramList(ctx, user, body.relateCommandId),
  }),
  route(iotRelateEndpoints.paramOne, { access: 'menu', name: '参数关联详情', area, kind: 'one', scope: { entity: 'iotRelateParam' }, handler: ({ ctx, user, body }) => params.paramOne(ctx, user, body.id) }),
  route(iotRelateEndpoints.paramAdd, {
    access: 'menu', name: '新增参数关联', area, kind: 'add', scope: { entity: 'iotRelateCommand', input: paramBody }, handler: ({ ctx, user, body }) => params.paramAdd(ctx, user, body),
  }),
  route(iotRelateEndpoints.paramEdit, {
    access: 'menu', name: '编辑参数关联', area, kind: 'edit', scope: { entity: 'iotRelateParam', input: (id) => ({ ...paramBody(1), id }) },
    handler: ({ ctx, user, body }) => params.paramEdit(ctx, user, body),
  }),
  route(iotRelateEndpoints.paramDelete, { access: 'menu', name: '删除参数关联', area, kind: 'delete', scope: { entity: 'iotRelateParam' }, handler: ({ ctx, user, query }) => params.paramDelete(ctx, user, query.id) }),
];

/** The unmapped keys inbox (beyond the catalogue, decision 0051; the app-config menu grants /iot/unmapped/**). */
export const iotUnmappedRoutes = [
  route(iotUnmappedEndpoints.page, { access: 'menu', name: '未关联数据项分页', area, kind: 'page', scope: inScope, handler: ({ ctx, user, body }) => unmapped.unmappedPage(ctx, user, body) }),
  route(iotUnmappedEndpoints.relate, {
    access: 'menu', name: '关联未关联数据项', area, kind: 'add', scope: { entity: 'iotUnmapped', input: (id) => ({ id, productId: 1, identifier: 'probe' }) },
    handler: ({ ctx, user, body }) => followed(ctx, unmapped.unmappedRelate(ctx, user, body)),
  }),
  route(iotUnmappedEndpoints.dismiss, { access: 'menu', name: '忽略未关联数据项', area, kind: 'action', scope: { entity: 'iotUnmapped' }, handler: ({ ctx, user, query }) => unmapped.unmappedDismiss(ctx, user, query.id) }),
];
