import {
  idBody, idQuery, priceCycleAddBatch, priceCycleEdit, priceCycleListQuery, priceCycleTemplatesQuery, priceTemplateAdd, priceTemplateEdit,
  priceTemplateFilter, priceTemplatePage, sitePriceCycleAdd, sitePriceCycleEdit, sitePriceCycleFilter, solarPriceCycleAdd, solarPriceCycleEdit,
  solarPriceCyclePage,
} from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import * as sites from './site-price.service.ts';
import * as templates from './template.service.ts';

const area = 'Pricing';
const companyProbe = { entity: 'company', input: (id: number) => ({ companyId: id }) };
const siteProbe = { entity: 'site', input: (id: number) => ({ siteId: id }) };

/** A valid body of the given shape, so the route-table probe reaches the scope check. */
const probeTemplate = (companyId: number) => ({
  name: `越权模板${companyId}`, type: 'generalCommercial', billingSystem: 'singlePart', voltageLevel: '10kV', companyId, currency: 'CNY',
});
const probeCycle = { name: '越权周期', months: [1], periods: [{ start: '00:00', end: '24:00', period: 'flat' }], flatPrice: 0.5 };

export const pricingRoutes = [
  // Price templates
  route({
    method: 'POST', path: '/operation/price/template/query/list', access: 'menu', name: '电价模板列表', area, kind: 'list', body: priceTemplateFilter,
    scope: companyProbe,
    handler: ({ ctx, user, body }) => templates.templateList(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/operation/price/template/query/page', access: 'menu', name: '电价模板分页', area, kind: 'page', body: priceTemplatePage,
    scope: companyProbe,
    handler: ({ ctx, user, body }) => templates.templatePage(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/operation/price/template/query/one', access: 'menu', name: '电价模板详情', area, kind: 'one', body: idBody,
    scope: { entity: 'priceTemplate' },
    handler: ({ ctx, user, body }) => templates.templateOne(ctx, user, body.id),
  }),
  route({
    method: 'POST', path: '/operation/price/template/add', access: 'menu', name: '新增电价模板', area, kind: 'add', body: priceTemplateAdd,
    scope: { entity: 'company', input: probeTemplate },
    handler: ({ ctx, user, body }) => templates.addTemplate(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/operation/price/template/edit', access: 'menu', name: '编辑电价模板', area, kind: 'edit', body: priceTemplateEdit,
    scope: { entity: 'priceTemplate', input: (id) => ({ id, ...probeTemplate(1) }) },
    handler: async ({ ctx, user, body }) => {
      await templates.editTemplate(ctx, user, body);
      return true;
    },
  }),
  route({
    method: 'GET', path: '/operation/price/template/delete', access: 'menu', name: '删除电价模板', area, kind: 'delete', query: idQuery,
    scope: { entity: 'priceTemplate' },
    handler: async ({ ctx, user, query }) => {
      await templates.deleteTemplate(ctx, user, query.id);
      return true;
    },
  }),

  // Operation price cycles
  route({
    method: 'POST', path: '/operation/price/cycle/query/list', access: 'menu', name: '电价周期列表', area, kind: 'list', body: priceCycleListQuery,
    scope: { entity: 'priceTemplate', input: (id) => ({ templateId: id }) },
    handler: ({ ctx, user, body }) => templates.cycleList(ctx, user, body.templateId),
  }),
  route({
    method: 'POST', path: '/operation/price/cycle/query/one', access: 'menu', name: '电价周期详情', area, kind: 'one', body: idBody,
    scope: { entity: 'priceCycle' },
    handler: ({ ctx, user, body }) => templates.cycleOne(ctx, user, body.id),
  }),
  route({
    method: 'POST', path: '/operation/price/cycle/edit', access: 'menu', name: '编辑电价周期', area, kind: 'edit', body: priceCycleEdit,
    scope: { entity: 'priceCycle', input: (id) => ({ id, ...probeCycle }) },
    handler: async ({ ctx, user, body }) => {
      await templates.editCycle(ctx, user, body);
      return true;
    },
  }),
  route({
    method: 'POST', path: '/operation/price/cycle/add/batch', access: 'menu', name: '批量新增电价周期', area, kind: 'add', body: priceCycleAddBatch,
    scope: { entity: 'priceTemplate', input: (id) => ({ templateId: id, cycles: [probeCycle] }) },
    handler: ({ ctx, user, body }) => templates.addCycles(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/operation/price/cycle/query/templates', access: 'menu', name: '电价模板及周期', area, kind: 'list', body: priceCycleTemplatesQuery,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => templates.templatesWithCycles(ctx, user, body),
  }),
  route({
    method: 'GET', path: '/operation/price/cycle/delete', access: 'menu', name: '删除电价周期', area, kind: 'delete', query: idQuery,
    scope: { entity: 'priceCycle' },
    handler: async ({ ctx, user, query }) => {
      await templates.deleteCycle(ctx, user, query.id);
      return true;
    },
  }),

  // Configure price cycles (a station's template over time)
  route({
    method: 'POST', path: '/configure/price/cycle/query/list', access: 'menu', name: '站点电价配置列表', area, kind: 'list', body: sitePriceCycleFilter,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => sites.configList(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/price/cycle/query/one', access: 'menu', name: '站点电价配置详情', area, kind: 'one', body: idBody,
    scope: { entity: 'sitePriceCycle' },
    handler: ({ ctx, user, body }) => sites.configOne(ctx, user, body.id),
  }),
  route({
    method: 'POST', path: '/configure/price/cycle/add', access: 'menu', name: '新增站点电价配置', area, kind: 'add', body: sitePriceCycleAdd,
    scope: { entity: 'site', input: (id) => ({ siteId: id, templateId: 1, startDate: '2024-01-01' }) },
    handler: ({ ctx, user, body }) => sites.addConfig(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/price/cycle/edit', access: 'menu', name: '编辑站点电价配置', area, kind: 'edit', body: sitePriceCycleEdit,
    scope: { entity: 'sitePriceCycle', input: (id) => ({ id, siteId: 1, templateId: 1, startDate: '2024-01-01' }) },
    handler: async ({ ctx, user, body }) => {
      await sites.editConfig(ctx, user, body);
      return true;
    },
  }),
  route({
    method: 'GET', path: '/configure/price/cycle/delete', access: 'menu', name: '删除站点电价配置', area, kind: 'delete', query: idQuery,
    scope: { entity: 'sitePriceCycle' },
    handler: async ({ ctx, user, query }) => {
      await sites.deleteConfig(ctx, user, query.id);
      return true;
    },
  }),

  // Solar price cycles (PV feed-in)
  route({
    method: 'POST', path: '/configure/solar/price/cycle/query/page', access: 'menu', name: '光伏上网电价分页', area, kind: 'page', body: solarPriceCyclePage,
    scope: siteProbe,
    handler: ({ ctx, user, body }) => sites.solarPage(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/solar/price/cycle/query/one', access: 'menu', name: '光伏上网电价详情', area, kind: 'one', body: idBody,
    scope: { entity: 'solarPriceCycle' },
    handler: ({ ctx, user, body }) => sites.solarOne(ctx, user, body.id),
  }),
  route({
    method: 'POST', path: '/configure/solar/price/cycle/add', access: 'menu', name: '新增光伏上网电价', area, kind: 'add', body: solarPriceCycleAdd,
    scope: { entity: 'site', input: (id) => ({ siteId: id, startDate: '2024-01-01', price: 0.3 }) },
    handler: ({ ctx, user, body }) => sites.addSolar(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/configure/solar/price/cycle/edit', access: 'menu', name: '编辑光伏上网电价', area, kind: 'edit', body: solarPriceCycleEdit,
    scope: { entity: 'solarPriceCycle', input: (id) => ({ id, siteId: 1, startDate: '2024-01-01', price: 0.3 }) },
    handler: async ({ ctx, user, body }) => {
      await sites.editSolar(ctx, user, body);
      return true;
    },
  }),
  route({
    method: 'GET', path: '/configure/solar/price/cycle/delete', access: 'menu', name: '删除光伏上网电价', area, kind: 'delete', query: idQuery,
    scope: { entity: 'solarPriceCycle' },
    handler: async ({ ctx, user, query }) => {
      await sites.deleteSolar(ctx, user, query.id);
      return true;
    },
  }),
];
