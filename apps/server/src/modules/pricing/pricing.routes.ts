import {
  priceCycleEndpoints as cycles, priceTemplateEndpoints as templates, sitePriceEndpoints as sitePrices, solarPriceEndpoints as solarPrices,
} from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import * as sites from './site-price.service.ts';
import * as tpl from './template.service.ts';

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
  route(templates.list, {
    access: 'menu', name: '电价模板列表', area, kind: 'list', scope: companyProbe,
    handler: ({ ctx, user, body }) => tpl.templateList(ctx, user, body),
  }),
  route(templates.page, {
    access: 'menu', name: '电价模板分页', area, kind: 'page', scope: companyProbe,
    handler: ({ ctx, user, body }) => tpl.templatePage(ctx, user, body),
  }),
  route(templates.one, {
    access: 'menu', name: '电价模板详情', area, kind: 'one', scope: { entity: 'priceTemplate' },
    handler: ({ ctx, user, body }) => tpl.templateOne(ctx, user, body.id),
  }),
  route(templates.add, {
    access: 'menu', name: '新增电价模板', area, kind: 'add', scope: { entity: 'company', input: probeTemplate },
    handler: ({ ctx, user, body }) => tpl.addTemplate(ctx, user, body),
  }),
  route(templates.edit, {
    access: 'menu', name: '编辑电价模板', area, kind: 'edit', scope: { entity: 'priceTemplate', input: (id) => ({ id, ...probeTemplate(1) }) },
    handler: async ({ ctx, user, body }) => {
      await tpl.editTemplate(ctx, user, body);
      return true;
    },
  }),
  route(templates.delete, {
    access: 'menu', name: '删除电价模板', area, kind: 'delete', scope: { entity: 'priceTemplate' },
    handler: async ({ ctx, user, query }) => {
      await tpl.deleteTemplate(ctx, user, query.id);
      return true;
    },
  }),

  // Operation price cycles
  route(cycles.list, {
    access: 'menu', name: '电价周期列表', area, kind: 'list', scope: { entity: 'priceTemplate', input: (id) => ({ templateId: id }) },
    handler: ({ ctx, user, body }) => tpl.cycleList(ctx, user, body.templateId),
  }),
  route(cycles.one, {
    access: 'menu', name: '电价周期详情', area, kind: 'one', scope: { entity: 'priceCycle' },
    handler: ({ ctx, user, body }) => tpl.cycleOne(ctx, user, body.id),
  }),
  route(cycles.edit, {
    access: 'menu', name: '编辑电价周期', area, kind: 'edit', scope: { entity: 'priceCycle', input: (id) => ({ id, ...probeCycle }) },
    handler: async ({ ctx, user, body }) => {
      await tpl.editCycle(ctx, user, body);
      return true;
    },
  }),
  route(cycles.addBatch, {
    access: 'menu', name: '批量新增电价周期', area, kind: 'add',
    scope: { entity: 'priceTemplate', input: (id) => ({ templateId: id, cycles: [probeCycle] }) },
    handler: ({ ctx, user, body }) => tpl.addCycles(ctx, user, body),
  }),
  route(cycles.templates, {
    access: 'menu', name: '电价模板及周期', area, kind: 'list', scope: siteProbe,
    handler: ({ ctx, user, body }) => tpl.templatesWithCycles(ctx, user, body),
  }),
  route(cycles.delete, {
    access: 'menu', name: '删除电价周期', area, kind: 'delete', scope: { entity: 'priceCycle' },
    handler: async ({ ctx, user, query }) => {
      await tpl.deleteCycle(ctx, user, query.id);
      return true;
    },
  }),

  // Configure price cycles (a station's template over time)
  route(sitePrices.list, {
    access: 'menu', name: '站点电价配置列表', area, kind: 'list', scope: siteProbe,
    handler: ({ ctx, user, body }) => sites.configList(ctx, user, body),
  }),
  route(sitePrices.one, {
    access: 'menu', name: '站点电价配置详情', area, kind: 'one', scope: { entity: 'sitePriceCycle' },
    handler: ({ ctx, user, body }) => sites.configOne(ctx, user, body.id),
  }),
  route(sitePrices.add, {
    access: 'menu', name: '新增站点电价配置', area, kind: 'add',
    scope: { entity: 'site', input: (id) => ({ siteId: id, templateId: 1, startDate: '2024-01-01' }) },
    handler: ({ ctx, user, body }) => sites.addConfig(ctx, user, body),
  }),
  route(sitePrices.edit, {
    access: 'menu', name: '编辑站点电价配置', area, kind: 'edit',
    scope: { entity: 'sitePriceCycle', input: (id) => ({ id, siteId: 1, templateId: 1, startDate: '2024-01-01' }) },
    handler: async ({ ctx, user, body }) => {
      await sites.editConfig(ctx, user, body);
      return true;
    },
  }),
  route(sitePrices.delete, {
    access: 'menu', name: '删除站点电价配置', area, kind: 'delete', scope: { entity: 'sitePriceCycle' },
    handler: async ({ ctx, user, query }) => {
      await sites.deleteConfig(ctx, user, query.id);
      return true;
    },
  }),

  // Solar price cycles (PV feed-in)
  route(solarPrices.page, {
    access: 'menu', name: '光伏上网电价分页', area, kind: 'page', scope: siteProbe,
    handler: ({ ctx, user, body }) => sites.solarPage(ctx, user, body),
  }),
  route(solarPrices.one, {
    access: 'menu', name: '光伏上网电价详情', area, kind: 'one', scope: { entity: 'solarPriceCycle' },
    handler: ({ ctx, user, body }) => sites.solarOne(ctx, user, body.id),
  }),
  route(solarPrices.add, {
    access: 'menu', name: '新增光伏上网电价', area, kind: 'add',
    scope: { entity: 'site', input: (id) => ({ siteId: id, startDate: '2024-01-01', price: 0.3 }) },
    handler: ({ ctx, user, body }) => sites.addSolar(ctx, user, body),
  }),
  route(solarPrices.edit, {
    access: 'menu', name: '编辑光伏上网电价', area, kind: 'edit',
    scope: { entity: 'solarPriceCycle', input: (id) => ({ id, siteId: 1, startDate: '2024-01-01', price: 0.3 }) },
    handler: async ({ ctx, user, body }) => {
      await sites.editSolar(ctx, user, body);
      return true;
    },
  }),
  route(solarPrices.delete, {
    access: 'menu', name: '删除光伏上网电价', area, kind: 'delete', scope: { entity: 'solarPriceCycle' },
    handler: async ({ ctx, user, query }) => {
      await sites.deleteSolar(ctx, user, query.id);
      return true;
    },
  }),
];
