import {
  commandAdd, commandEdit, commandFilter, commandPage, commandUniqueBody, eventAdd, eventEdit, eventFilter, eventPage, idBody, idQuery,
  productAdd, productEdit, productExportModelQuery, productFilter, productPage, propertyAdd, propertyEdit, propertyFilter, propertyPage,
  staticPropertyAdd, staticPropertyEdit, staticPropertyPage, templateAdd, templateAddBatch, templateEdit, templateFilter, templateHistoryBody,
  templateLatestPage, templateLatestTree, templatePage, templatePropertyBody,
} from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import * as models from './model.service.ts';
import * as products from './product.service.ts';
import * as templates from './template.service.ts';
import { exportData, exportModel, importModel } from './transfer.service.ts';

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

const productCalls = [
  route({
    method: 'POST', path: '/configure/product/query/page', access: 'menu', name: '产品分页', area, kind: 'page', body: productPage,
    handler: ({ ctx, body }) => products.productPage(ctx, body),
  }),
  route({
    method: 'POST', path: '/configure/product/query/list', access: 'menu', name: '产品列表', area, kind: 'list', body: productFilter,
    handler: ({ ctx, body }) => products.productList(ctx, body),
  }),
  route({
    method: 'POST', path: '/configure/product/query/one', access: 'menu', name: '产品详情', area, kind: 'one', body: idBody,
    handler: ({ ctx, body }) => products.productOne(ctx, body.id),
  }),
  route({
    method: 'POST', path: '/configure/product/add', access: 'menu', name: '新增产品', area, kind: 'add', body: productAdd,
    handler: ({ ctx, body }) => products.addProduct(ctx, body),
  }),
  route({
    method: 'POST', path: '/configure/product/edit', access: 'menu', name: '编辑产品', area, kind: 'edit', body: productEdit,
    handler: ({ ctx, body }) => ok(products.editProduct(ctx, body)),
  }),
  route({
    method: 'GET', path: '/configure/product/delete', access: 'menu', name: '删除产品', area, kind: 'delete', query: idQuery,
    handler: ({ ctx, query }) => ok(products.deleteProduct(ctx, query.id)),
  }),
  route({
    method: 'GET', path: '/configure/product/export/model', access: 'menu', name: '导出产品模型', area, kind: 'export', query: productExportModelQuery, raw: true,
    handler: ({ ctx, query, reply }) => exportModel(ctx, query, reply),
  }),
  route({
    method: 'GET', path: '/configure/product/export/data', access: 'menu', name: '导出产品数据', area, kind: 'export', query: idQuery, raw: true,
    handler: ({ ctx, user, query, reply }) => exportData(ctx, user, query.id, reply),
  }),
  route({
    method: 'POST', path: '/configure/product/import', access: 'menu', name: '导入产品模型', area, kind: 'import', multipart: true,
    handler: ({ ctx, req }) => importModel(ctx, req),
  }),
];

const commandCalls = [
  route({
    method: 'POST', path: '/configure/product/command/query/page', access: 'menu', name: '产品命令分页', area, kind: 'page', body: commandPage,
    handler: ({ ctx, body }) => models.commandPage(ctx, body),
  }),
  route({
    method: 'POST', path: '/configure/product/command/query/list', access: 'menu', name: '产品命令列表', area, kind: 'list', body: commandFilter,
    handler: ({ ctx, body }) => models.commandList(ctx, body),
  }),
  route({
    method: 'POST', path: '/configure/product/command/query/one', access: 'menu', name: '产品命令详情', area, kind: 'one', body: idBody,
    handler: ({ ctx, body }) => models.commandOne(ctx, body.id),
  }),
  route({
    method: 'POST', path: '/configure/product/command/query/unique', access: 'menu', name: '产品命令查重', area, kind: 'one', body: commandUniqueBody,
    handler: ({ ctx, body }) => models.commandUnique(ctx, body),
  }),
  route({
    method: 'POST', path: '/configure/product/command/add', access: 'menu', name: '新增产品命令', area, kind: 'add', body: commandAdd,
    handler: ({ ctx, body }) => models.addCommand(ctx, body),
  }),
  route({
    method: 'POST', path: '/configure/product/command/edit', access: 'menu', name: '编辑产品命令', area, kind: 'edit', body: commandEdit,
    handler: ({ ctx, body }) => ok(models.editCommand(ctx, body)),
  }),
  route({
    method: 'GET', path: '/configure/product/command/delete', access: 'menu', name: '删除产品命令', area, kind: 'delete', query: idQuery,
    handler: ({ ctx, query }) => ok(models.deleteCommand(ctx, query.id)),
  }),
];

const eventCalls = [
  route({
    method: 'POST', path: '/configure/product/event/query/page', access: 'menu', name: '产品事件分页', area, kind: 'page', body: eventPage,
    handler: ({ ctx, body }) => models.eventPage(ctx, body),
  }),
  route({
    method: 'POST', path: '/configure/product/event/query/list', access: 'menu', name: '产品事件列表', area, kind: 'list', body: eventFilter,
    handler: ({ ctx, body }) => models.eventList(ctx, body),
  }),
  route({
    method: 'POST', path: '/configure/product/event/query/one', access: 'menu', name: '产品事件详情', area, kind: 'one', body: idBody,
    handler: ({ ctx, body }) => models.eventOne(ctx, body.id),
  }),
  route({
    method: 'POST', path: '/configure/product/event/add', access: 'menu', name: '新增产品事件', area, kind: 'add', body: eventAdd,
    handler: ({ ctx, body }) => models.addEvent(ctx, body),
  }),
  route({
    method: 'POST', path: '/configure/product/event/edit', access: 'menu', name: '编辑产品事件', area, kind: 'edit', body: eventEdit,
    handler: ({ ctx, body }) => ok(models.editEvent(ctx, body)),
  }),
  route({
    method: 'GET', path: '/configure/product/event/delete', access: 'menu', name: '删除产品事件', area, kind: 'delete', query: idQuery,
    handler: ({ ctx, query }) => ok(models.deleteEvent(ctx, query.id)),
  }),
];

const propertyCalls = [
  route({
    method: 'POST', path: '/configure/property/query/page', access: 'menu', name: '产品属性分页', area, kind: 'page', body: propertyPage,
    handler: ({ ctx, body }) => models.propertyPage(ctx, body),
  }),
  route({
    method: 'POST', path: '/configure/property/query/list', access: 'menu', name: '产品属性列表', area, kind: 'list', body: propertyFilter,
    handler: ({ ctx, body }) => models.propertyList(ctx, body),
  }),
  route({
    method: 'POST', path: '/configure/property/query/one', access: 'menu', name: '产品属性详情', area, kind: 'one', body: idBody,
    handler: ({ ctx, body }) => models.propertyOne(ctx, body.id),
  }),
  route({
    method: 'POST', path: '/configure/property/add', access: 'menu', name: '新增产品属性', area, kind: 'add', body: propertyAdd,
    handler: ({ ctx, body }) => models.addProperty(ctx, body),
  }),
  route({
    method: 'POST', path: '/configure/property/edit', access: 'menu', name: '编辑产品属性', area, kind: 'edit', body: propertyEdit,
    handler: ({ ctx, body }) => ok(models.editProperty(ctx, body)),
  }),
  route({
    method: 'GET', path: '/configure/property/delete', access: 'menu', name: '删除产品属性', area, kind: 'delete', query: idQuery,
    handler: ({ ctx, query }) => ok(models.deleteProperty(ctx, query.id)),
  }),
];

const staticCalls = [
  route({
    method: 'POST', path: '/configure/static/property/query/page', access: 'menu', name: '静态属性分页', area, kind: 'page', body: staticPropertyPage,
    handler: ({ ctx, body }) => models.staticPage(ctx, body),
  }),
  route({
    method: 'POST', path: '/configure/static/property/query/one', access: 'menu', name: '静态属性详情', area, kind: 'one', body: idBody,
    handler: ({ ctx, body }) => models.staticOne(ctx, body.id),
  }),
  route({
    method: 'POST', path: '/configure/static/property/add', access: 'menu', name: '新增静态属性', area, kind: 'add', body: staticPropertyAdd,
    handler: ({ ctx, body }) => models.addStatic(ctx, body),
  }),
  route({
    method: 'POST', path: '/configure/static/property/edit', access: 'menu', name: '编辑静态属性', area, kind: 'edit', body: staticPropertyEdit,
    handler: ({ ctx, body }) => ok(models.editStatic(ctx, body)),
  }),
  route({
    method: 'GET', path: '/configure/static/property/delete', access: 'menu', name: '删除静态属性', area, kind: 'delete', query: idQuery,
    handler: ({ ctx, query }) => ok(models.deleteStatic(ctx, query.id)),
  }),
];

const templateCalls = [
  route({
    method: 'POST', path: '/template/product/query/list', access: 'menu', name: '产品模板列表', area, kind: 'list', body: templateFilter,
    handler: ({ ctx, body }) => templates.templateList(ctx, body),
  }),
  route({
    method: 'POST', path: '/template/product/query/page', access: 'menu', name: '产品模板分页', area, kind: 'page', body: templatePage,
    handler: ({ ctx, body }) => templates.templatePage(ctx, body),
  }),
  route({
    method: 'POST', path: '/template/product/query/one', access: 'menu', name: '产品模板详情', area, kind: 'one', body: idBody,
    handler: ({ ctx, body }) => templates.templateOne(ctx, body.id),
  }),
  route({
    method: 'POST', path: '/template/product/query/property', access: 'menu', name: '产品模板属性', area, kind: 'list', body: templatePropertyBody,
    handler: ({ ctx, body }) => templates.templateProperties(ctx, body),
  }),
  route({
    method: 'POST', path: '/template/product/add', access: 'menu', name: '新增产品模板', area, kind: 'add', body: templateAdd,
    handler: ({ ctx, body }) => templates.addTemplate(ctx, body),
  }),
  route({
    method: 'POST', path: '/template/product/add/batch', access: 'menu', name: '批量新增产品模板', area, kind: 'add', body: templateAddBatch,
    handler: ({ ctx, body }) => templates.addTemplates(ctx, body.items),
  }),
  route({
    method: 'POST', path: '/template/product/edit', access: 'menu', name: '编辑产品模板', area, kind: 'edit', body: templateEdit,
    handler: ({ ctx, body }) => ok(templates.editTemplate(ctx, body)),
  }),
  route({
    method: 'GET', path: '/template/product/delete', access: 'menu', name: '删除产品模板', area, kind: 'delete', query: idQuery,
    handler: ({ ctx, query }) => ok(templates.deleteTemplate(ctx, query.id)),
  }),
  route({
    method: 'POST', path: '/template/product/data/latest/more/page', access: 'menu', name: '模板最新数据分页', area, kind: 'page', body: templateLatestPage,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => templates.templateLatestPage(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/template/product/data/latest/more/tree', access: 'menu', name: '模板最新数据树', area, kind: 'list', body: templateLatestTree,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => templates.templateLatestTree(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/template/product/data/query/history', access: 'menu', name: '模板历史数据', area, kind: 'list', body: templateHistoryBody,
    scope: historyProbe,
    handler: ({ ctx, user, body }) => templates.templateHistory(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/template/product/data/export/history', access: 'menu', name: '导出模板历史数据', area, kind: 'export', body: templateHistoryBody, raw: true,
    scope: historyProbe,
    handler: ({ ctx, user, body, reply }) => templates.exportTemplateHistory(ctx, user, body, reply),
  }),
];

export const productRoutes = [...productCalls, ...commandCalls, ...eventCalls, ...propertyCalls, ...staticCalls, ...templateCalls];
