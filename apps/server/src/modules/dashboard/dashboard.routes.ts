import { homeEndpoints as home, revenueEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { exportLanguage } from '../i18n/index.ts';
import * as arbitrage from './arbitrage.service.ts';
import { siteEarnings, siteEarningsChart } from './earnings.service.ts';
import * as homePage from './home.service.ts';

/**
 * The money calls, all answered from the stored daily figures (revenue_daily): the home page,
 * site monitoring's two earnings calls and the energy-arbitrage overview.
 */

const homeArea = 'Home page';
const overviewArea = 'Overview (energy arbitrage)';
const siteArea = 'Site monitoring (comprehensive)';
const companyProbe = { entity: 'company', input: (id: number) => ({ companyId: id }) };
const siteProbe = { entity: 'site', input: (id: number) => ({ siteId: id }) };
const arbitrageProbe = { entity: 'site', input: (id: number) => ({ siteIds: [id], start: '2026-01-01', end: '2026-01-31' }) };

export const dashboardRoutes = [
  route(home.top, {
    access: 'menu', name: '首页概况', area: homeArea, kind: 'other', scope: companyProbe,
    handler: ({ ctx, user, query }) => homePage.homeTop(ctx, user, query.companyId),
  }),
  route(home.energy, {
    access: 'menu', name: '首页电量', area: homeArea, kind: 'other', scope: companyProbe,
    handler: ({ ctx, user, query }) => homePage.homeEnergy(ctx, user, query.companyId),
  }),
  route(home.charge, {
    access: 'menu', name: '首页充电', area: homeArea, kind: 'other', scope: companyProbe,
    handler: ({ ctx, user, query }) => homePage.homeCharge(ctx, user, query.companyId),
  }),
  route(home.error, {
    access: 'menu', name: '首页告警', area: homeArea, kind: 'other', scope: companyProbe,
    handler: ({ ctx, user, query }) => homePage.homeError(ctx, user, query.companyId),
  }),
  route(home.income, {
    access: 'menu', name: '首页收益', area: homeArea, kind: 'other', scope: companyProbe,
    handler: ({ ctx, user, query }) => homePage.homeIncome(ctx, user, query.companyId),
  }),

  route(api.earnings, {
    access: 'menu', name: '站点收益', area: siteArea, kind: 'other', scope: siteProbe,
    handler: ({ ctx, user, query }) => siteEarnings(ctx, user, query),
  }),
  route(api.earningsChart, {
    access: 'menu', name: '站点收益曲线', area: siteArea, kind: 'chart', scope: siteProbe,
    handler: ({ ctx, user, query }) => siteEarningsChart(ctx, user, query),
  }),

  route(api.arbitrageSummary, {
    access: 'menu', name: '峰谷套利汇总', area: overviewArea, kind: 'other', scope: arbitrageProbe,
    handler: ({ ctx, user, body }) => arbitrage.arbitrageSummary(ctx, user, body),
  }),
  route(api.arbitrageFee, {
    access: 'menu', name: '峰谷套利费用曲线', area: overviewArea, kind: 'chart', scope: arbitrageProbe,
    handler: ({ ctx, user, body }) => arbitrage.arbitrageFeeCurve(ctx, user, body),
  }),
  route(api.arbitrageQuantity, {
    access: 'menu', name: '峰谷套利电量曲线', area: overviewArea, kind: 'chart', scope: arbitrageProbe,
    handler: ({ ctx, user, body }) => arbitrage.arbitrageQuantityCurve(ctx, user, body),
  }),
  route(api.arbitrageDetail, {
    access: 'menu', name: '峰谷套利明细分页', area: overviewArea, kind: 'page', scope: arbitrageProbe,
    handler: ({ ctx, user, body }) => arbitrage.arbitrageDetailPage(ctx, user, body),
  }),
  route(api.arbitrageExport, {
    access: 'menu', name: '导出峰谷套利明细', area: overviewArea, kind: 'export', scope: arbitrageProbe,
    handler: async ({ ctx, user, body, req, reply }) => arbitrage.arbitrageExport(ctx, user, body, await exportLanguage(req), reply),
  }),
];
