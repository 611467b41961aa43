import {
  productCommandEndpoints as commandApi, productEndpoints as productApi, productEventEndpoints as eventApi, productPropertyEndpoints as propertyApi,
  productTemplateEndpoints as templateApi, staticPropertyEndpoints as staticApi,
} from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import * as models from './model.service.ts';
import * as products from './product.service.ts';
import * as templates from './template.service.ts';
import { exportData, exportModel, importModel } from './transfer.service.ts';
import { exportLanguage } from '../i18n/index.ts';

const area = 'Configuration';
const ok = async (p: Promise<unknown>) => {
  await p;
  return true;
};
/** Device-bound template data: another company's device is refused like any object of it. */
const historyProbe = {
  entity: 'device',
  input: (id: number) => ({ deviceIds: [id], identifiers: ['soc'], start: new Date(Date.now() - 3_600_000).toISOString(), end: new Date().toISOString() }),
};
/** A filter naming another company's station is refused (before the template is looked up). */
const siteProbe = { entity: 'site', input: (id: number) => ({ templateId: 1, siteId: id }) };
/** Products, their models and templates are shared by every company (product.service.ts). */
const shared = { global: 'thing models (products, their properties, events, commands and templates) are shared by every company' };
/** The product is shared; the rows exported are the latest data of its devices within the caller's stations. */
const ownDevicesData = { global: 'exports a shared product\'s devices filtered to the caller\'s data scope, naming no company object' };

const productCalls = [
  route(productApi.page, {
    access: 'menu', name: '产品分页', area, kind: 'page', scope: shared,
    handler: ({ ctx, body }) => products.productPage(ctx, body),
  }),
  route(productApi.list, {
    access: 'menu', name: '产品列表', area, kind: 'list', scope: shared,
    handler: ({ ctx, body }) => products.productList(ctx, body),
  }),
  route(productApi.one, {
    access: 'menu', name: '产品详情', area, kind: 'one', scope: shared,
    handler: ({ ctx, body }) => products.productOne(ctx, body.id),
  }),
  route(productApi.add, {
    access: 'menu', name: '新增产品', area, kind: 'add', scope: shared,
    handler: ({ ctx, body }) => products.addProduct(ctx, body),
  }),
  route(productApi.edit, {
    access: 'menu', name: '编辑产品', area, kind: 'edit', scope: shared,
    handler: ({ ctx, body }) => ok(products.editProduct(ctx, body)),
  }),
  route(productApi.delete, {
    access: 'menu', name: '删除产品', area, kind: 'delete', scope: shared,
    handler: ({ ctx, query }) => ok(products.deleteProduct(ctx, query.id)),
  }),
  route(productApi.exportModel, {
    access: 'menu', name: '导出产品模型', area, kind: 'export', scope: shared,
    handler: ({ ctx, query, reply }) => exportModel(ctx, query, reply),
  }),
  route(productApi.exportData, {
    access: 'menu', name: '导出产品数据', area, kind: 'export', scope: ownDevicesData,
    handler: async ({ ctx, user, query, req, reply }) => exportData(ctx, user, query.id, await exportLanguage(req), reply),
  }),
  route(productApi.import, {
    access: 'menu', name: '导入产品模型', area, kind: 'import', scope: shared,
    handler: ({ ctx, req }) => importModel(ctx, req),
  }),
];

const commandCalls = [
  route(commandApi.page, {
    access: 'menu', name: '产品命令分页', area, kind: 'page', scope: shared,
    handler: ({ ctx, body }) => models.commandPage(ctx, body),
  }),
  route(commandApi.list, {
    access: 'menu', name: '产品命令列表', area, kind: 'list', scope: shared,
    handler: ({ ctx, body }) => models.commandList(ctx, body),
  }),
  route(commandApi.one, {
    access: 'menu', name: '产品命令详情', area, kind: 'one', scope: shared,
    handler: ({ ctx, body }) => models.commandOne(ctx, body.id),
  }),
  route(commandApi.unique, {
    access: 'menu', name: '产品命令查重', area, kind: 'one', scope: shared,
    handler: ({ ctx, body }) => models.commandUnique(ctx, body),
  }),
  route(commandApi.add, {
    access: 'menu', name: '新增产品命令', area, kind: 'add', scope: shared,
    handler: ({ ctx, body }) => models.addCommand(ctx, body),
  }),
  route(commandApi.edit, {
    access: 'menu', name: '编辑产品命令', area, kind: 'edit', scope: shared,
    handler: ({ ctx, body }) => ok(models.editCommand(ctx, body)),
  }),
  route(commandApi.delete, {
    access: 'menu', name: '删除产品命令', area, kind: 'delete', scope: shared,
    handler: ({ ctx, query }) => ok(models.deleteCommand(ctx, query.id)),
  }),
];

const eventCalls = [
  route(eventApi.page, {
    access: 'menu', name: '产品事件分页', area, kind: 'page', scope: shared,
    handler: ({ ctx, body }) => models.eventPage(ctx, body),
  }),
  route(eventApi.list, {
    access: 'menu', name: '产品事件列表', area, kind: 'list', scope: shared,
    handler: ({ ctx, body }) => models.eventList(ctx, body),
  }),
  route(eventApi.one, {
    access: 'menu', name: '产品事件详情', area, kind: 'one', scope: shared,
    handler: ({ ctx, body }) => models.eventOne(ctx, body.id),
  }),
  route(eventApi.add, {
    access: 'menu', name: '新增产品事件', area, kind: 'add', scope: shared,
    handler: ({ ctx, body }) => models.addEvent(ctx, body),
  }),
  route(eventApi.edit, {
    access: 'menu', name: '编辑产品事件', area, kind: 'edit', scope: shared,
    handler: ({ ctx, body }) => ok(models.editEvent(ctx, body)),
  }),
  route(eventApi.delete, {
    access: 'menu', name: '删除产品事件', area, kind: 'delete', scope: shared,
    handler: ({ ctx, query }) => ok(models.deleteEvent(ctx, query.id)),
  }),
];

const propertyCalls = [
  route(propertyApi.page, {
    access: 'menu', name: '产品属性分页', area, kind: 'page', scope: shared,
    handler: ({ ctx, body }) => models.propertyPage(ctx, body),
  }),
  route(propertyApi.list, {
    access: 'menu', name: '产品属性列表', area, kind: 'list', scope: shared,
    handler: ({ ctx, body }) => models.propertyList(ctx, body),
  }),
  route(propertyApi.one, {
    access: 'menu', name: '产品属性详情', area, kind: 'one', scope: shared,
    handler: ({ ctx, body }) => models.propertyOne(ctx, body.id),
  }),
  route(propertyApi.add, {
    access: 'menu', name: '新增产品属性', area, kind: 'add', scope: shared,
    handler: ({ ctx, body }) => models.addProperty(ctx, body),
  }),
  route(propertyApi.edit, {
    access: 'menu', name: '编辑产品属性', area, kind: 'edit', scope: shared,
    handler: ({ ctx, body }) => ok(models.editProperty(ctx, body)),
  }),
  route(propertyApi.delete, {
    access: 'menu', name: '删除产品属性', area, kind: 'delete', scope: shared,
    handler: ({ ctx, query }) => ok(models.deleteProperty(ctx, query.id)),
  }),
];

const staticCalls = [
  route(staticApi.page, {
    access: 'menu', name: '静态属性分页', area, kind: 'page', scope: shared,
    handler: ({ ctx, body }) => models.staticPage(ctx, body),
  }),
  route(staticApi.one, {
    access: 'menu', name: '静态属性详情', area, kind: 'one', scope: shared,
    handler: ({ ctx, body }) => models.staticOne(ctx, body.id),
  }),
  route(staticApi.add, {
    access: 'menu', name: '新增静态属性', area, kind: 'add', scope: shared,
    handler: ({ ctx, body }) => models.addStatic(ctx, body),
  }),
  route(staticApi.edit, {
    access: 'menu', name: '编辑静态属性', area, kind: 'edit', scope: shared,
    handler: ({ ctx, body }) => ok(models.editStatic(ctx, body)),
  }),
  route(staticApi.delete, {
    access: 'menu', name: '删除静态属性', area, kind: 'delete', scope: shared,
    handler: ({ ctx, query }) => ok(models.deleteStatic(ctx, query.id)),
  }),
];

const templateCalls = [
  route(templateApi.list, {
    access: 'menu', name: '产品模板列表', area, kind: 'list', scope: shared,
    handler: ({ ctx, body }) => templates.templateList(ctx, body),
  }),
  route(templateApi.page, {
    access: 'menu', name: '产品模板分页', area, kind: 'page', scope: shared,
    handler: ({ ctx, body }) => templates.templatePage(ctx, body),
  }),
  route(templateApi.one, {
    access: 'menu', name: '产品模板详情', area, kind: 'one', scope: shared,
    handler: ({ ctx, body }) => templates.templateOne(ctx, body.id),
  }),
  route(templateApi.properties, {
    access: 'menu', name: '产品模板属性', area, kind: 'list', scope: shared,
    handler: ({ ctx, body }) => templates.templateProperties(ctx, body),
  }),
  route(templateApi.add, {
    access: 'menu', name: '新增产品模板', area, kind: 'add', scope: shared,
    handler: ({ ctx, body }) => templates.addTemplate(ctx, body),
  }),
  route(templateApi.addBatch, {
    access: 'menu', name: '批量新增产品模板', area, kind: 'add', scope: shared,
    handler: ({ ctx, body }) => templates.addTemplates(ctx, body.items),
  }),
  route(templateApi.edit, {
    access: 'menu', name: '编辑产品模板', area, kind: 'edit', scope: shared,
    handler: ({ ctx, body }) => ok(templates.editTemplate(ctx, body)),
  }),
  route(templateApi.delete, {
    access: 'menu', name: '删除产品模板', area, kind: 'delete', scope: shared,
    handler: ({ ctx, query }) => ok(templates.deleteTemplate(ctx, query.id)),
  }),
  route(templateApi.latestPage, {
    access: 'menu', name: '模板最新数据分页', area, kind: 'page',
    scope: siteProbe,
    handler: ({ ctx, user, body }) => templates.templateLatestPage(ctx, user, body),
  }),
  route(templateApi.latestTree, {
    access: 'menu', name: '模板最新数据树', area, kind: 'list',
    scope: siteProbe,
    handler: ({ ctx, user, body }) => templates.templateLatestTree(ctx, user, body),
  }),
  route(templateApi.history, {
    access: 'menu', name: '模板历史数据', area, kind: 'list',
    scope: historyProbe,
    handler: ({ ctx, user, body }) => templates.templateHistory(ctx, user, body),
  }),
  route(templateApi.exportHistory, {
    access: 'menu', name: '导出模板历史数据', area, kind: 'export',
    scope: historyProbe,
    handler: async ({ ctx, user, body, req, reply }) => templates.exportTemplateHistory(ctx, user, body, await exportLanguage(req), reply),
  }),
];

export const productRoutes = [...productCalls, ...commandCalls, ...eventCalls, ...propertyCalls, ...staticCalls, ...templateCalls];
