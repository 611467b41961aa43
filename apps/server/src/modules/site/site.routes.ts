import {
  cabinetAdd, cabinetEdit, cabinetFilter, cabinetPage, callbackExecBody, callbackExecPage, callbackFilter, diagramLoadQuery,
  idBody, idQuery, paramFilter, siteAdd, siteEdit, siteFilter, siteKeyValueBody, siteKeyValueQuery, sitePage, siteTreeQuery,
} from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import * as cabinets from './cabinet.service.ts';
import * as callbacks from './callback.service.ts';
import * as diagrams from './diagram.service.ts';
import { paramList } from './param.service.ts';
import * as sites from './site.service.ts';

const area = 'Configuration';
/** Probes: a filter or body naming another company's station is refused, not answered empty. */
const siteProbe = { entity: 'site', input: (id: number) => ({ siteId: id }) };
const companyProbe = { entity: 'company', input: (id: number) => ({ companyId: id }) };

export const siteRoutes = [
  // Stations
  route({
    method: 'GET', path: '/configure/site/query/tree', access: 'menu', name: '公司站点树', area, kind: 'list', query: siteTreeQuery,
    scope: companyProbe,
    handler: ({ ctx, user, query }) => sites.siteTree(ctx, user, query),
  }),
  route({
    method: 'POST', path: '/configure/site/query/page', access: 'menu', name: '站点分页', area, kind: 'page', body: sitePage,
    scope: companyProbe,
    handler: ({ ctx, user, body }) => sites.sitePage(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/site/query/list', access: 'menu', name: '站点列表', area, kind: 'list', body: siteFilter,
    scope: companyProbe,
    handler: ({ ctx, user, body }) => sites.siteList(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/site/query/one', access: 'menu', name: '站点详情', area, kind: 'one', body: idBody,
    scope: { entity: 'site' },
    handler: ({ ctx, user, body }) => sites.siteOne(ctx, user, body.id),
  }),
  route({
    method: 'POST', path: '/configure/site/add', access: 'menu', name: '新增站点', area, kind: 'add', body: siteAdd,
    scope: { entity: 'company', input: (id) => ({ companyId: id, name: '越权站点', code: `X${id}`, timeZone: 'Asia/Shanghai', currency: 'CNY', siteType: 'storage' }) },
    handler: ({ ctx, user, body }) => sites.addSite(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/site/edit', access: 'menu', name: '编辑站点', area, kind: 'edit', body: siteEdit,
    scope: { entity: 'site', input: (id) => ({ id, companyId: 1, name: '越权修改', code: `X${id}`, timeZone: 'Asia/Shanghai', currency: 'CNY', siteType: 'storage' }) },
    handler: async ({ ctx, user, body }) => {
      await sites.editSite(ctx, user, body);
      return true;
    },
  }),
  route({
    method: 'GET', path: '/configure/site/delete', access: 'menu', name: '删除站点', area, kind: 'delete', query: idQuery,
    scope: { entity: 'site' },
    handler: async ({ ctx, user, query }) => {
      await sites.deleteSite(ctx, user, query.id);
      return true;
    },
  }),

  // Key values
  route({
    method: 'POST', path: '/configure/site/key/value/query/one', access: 'menu', name: '站点关键值', area, kind: 'one', body: siteKeyValueQuery,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => sites.keyValueOne(ctx, user, body.siteId),
  }),
  route({
    method: 'POST', path: '/configure/site/key/value/add', access: 'menu', name: '新增站点关键值', area, kind: 'add', body: siteKeyValueBody,
    scope: siteProbe,
    handler: async ({ ctx, user, body }) => {
      await sites.saveKeyValues(ctx, user, body, 'add');
      return true;
    },
  }),
  route({
    method: 'POST', path: '/configure/site/key/value/edit', access: 'menu', name: '编辑站点关键值', area, kind: 'edit', body: siteKeyValueBody,
    scope: siteProbe,
    handler: async ({ ctx, user, body }) => {
      await sites.saveKeyValues(ctx, user, body, 'edit');
      return true;
    },
  }),

  // Energy cabinets
  route({
    method: 'POST', path: '/configure/cabinet/query/list', access: 'menu', name: '储能柜列表', area, kind: 'list', body: cabinetFilter,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => cabinets.cabinetList(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/cabinet/query/page', access: 'menu', name: '储能柜分页', area, kind: 'page', body: cabinetPage,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => cabinets.cabinetPage(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/cabinet/query/one', access: 'menu', name: '储能柜详情', area, kind: 'one', body: idBody,
    scope: { entity: 'cabinet' },
    handler: ({ ctx, user, body }) => cabinets.cabinetOne(ctx, user, body.id),
  }),
  route({
    method: 'POST', path: '/configure/cabinet/add', access: 'menu', name: '新增储能柜', area, kind: 'add', body: cabinetAdd,
    scope: { entity: 'site', input: (id) => ({ siteId: id, code: `probe-${id}`, name: '越权新增' }) },
    handler: ({ ctx, user, body }) => cabinets.addCabinet(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/cabinet/edit', access: 'menu', name: '编辑储能柜', area, kind: 'edit', body: cabinetEdit,
    scope: { entity: 'cabinet', input: (id) => ({ id, siteId: 1, code: `probe-${id}`, name: '越权修改' }) },
    handler: async ({ ctx, user, body }) => {
      await cabinets.editCabinet(ctx, user, body);
      return true;
    },
  }),
  route({
    method: 'GET', path: '/configure/cabinet/delete', access: 'menu', name: '删除储能柜', area, kind: 'delete', query: idQuery,
    scope: { entity: 'cabinet' },
    handler: async ({ ctx, user, query }) => {
      await cabinets.deleteCabinet(ctx, user, query.id);
      return true;
    },
  }),

  // Distribution diagram
  route({
    method: 'POST', path: '/configure/distribution/diagram/upload', access: 'menu', name: '上传配电图', area, kind: 'other', multipart: true,
    handler: ({ ctx, user, req }) => diagrams.uploadDiagram(ctx, user, req),
  }),
  route({
    method: 'GET', path: '/configure/distribution/diagram/load', access: 'menu', name: '加载配电图', area, kind: 'one', query: diagramLoadQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => diagrams.loadDiagram(ctx, user, query.siteId),
  }),
  route({
    method: 'GET', path: '/configure/distribution/diagram/delete', access: 'menu', name: '删除配电图', area, kind: 'delete', query: idQuery,
    scope: { entity: 'distributionDiagram' },
    handler: async ({ ctx, user, query }) => {
      await diagrams.deleteDiagram(ctx, user, query.id);
      return true;
    },
  }),

  // Parameters
  route({
    method: 'POST', path: '/configure/param/query/list', access: 'menu', name: '参数列表', area, kind: 'list', body: paramFilter,
    scope: { entity: 'device', input: (id) => ({ deviceId: id }) },
    handler: ({ ctx, user, body }) => paramList(ctx, user, body),
  }),

  // Callbacks
  route({
    method: 'POST', path: '/configure/callback/query/list', access: 'menu', name: '回调列表', area, kind: 'list', body: callbackFilter,
    handler: ({ ctx, user, body }) => callbacks.callbackList(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/callback/query/page', access: 'menu', name: '回调执行记录分页', area, kind: 'page', body: callbackExecPage,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => callbacks.callbackExecPage(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/callback/exec', access: 'menu', name: '执行回调', area, kind: 'action', body: callbackExecBody,
    scope: { entity: 'site', input: (id) => ({ code: 'site.deviceStatus', siteId: id }) },
    handler: ({ ctx, user, body }) => callbacks.execCallback(ctx, user, body),
  }),
];
