import { arbitrageFilter, arbitragePage, earningsChartQuery, earningsQuery, homeQuery } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import * as arbitrage from './arbitrage.service.ts';
import { siteEarnings, siteEarningsChart } from './earnings.service.ts';
import * as home from './home.service.ts';

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

export const revenueRoutes = [
  route({
    method: 'GET', path: '/home/page/top', access: 'menu', name: '首页概况', area: homeArea, kind: 'other', query: homeQuery, scope: companyProbe,
    handler: ({ ctx, user, query }) => home.homeTop(ctx, user, query.companyId),
  }),
  route({
    method: 'GET', path: '/home/page/energy', access: 'menu', name: '首页电量', area: homeArea, kind: 'other', query: homeQuery, scope: companyProbe,
    handler: ({ ctx, user, query }) => home.homeEnergy(ctx, user, query.companyId),
  }),
  route({
    method: 'GET', path: '/home/page/charge', access: 'menu', name: '首页充电', area: homeArea, kind: 'other', query: homeQuery, scope: companyProbe,
    handler: ({ ctx, user, query }) => home.homeCharge(ctx, user, query.companyId),
  }),
  route({
    method: 'GET', path: '/home/page/error', access: 'menu', name: '首页告警', area: homeArea, kind: 'other', query: homeQuery, scope: companyProbe,
    handler: ({ ctx, user, query }) => home.homeError(ctx, user, query.companyId),
  }),
  route({
    method: 'GET', path: '/home/page/income', access: 'menu', name: '首页收益', area: homeArea, kind: 'other', query: homeQuery, scope: companyProbe,
    handler: ({ ctx, user, query }) => home.homeIncome(ctx, user, query.companyId),
  }),

  route({
    method: 'GET', path: '/comprehensive/site/overview/earnings', access: 'menu', name: '站点收益', area: siteArea, kind: 'other', query: earningsQuery, scope: siteProbe,
    handler: ({ ctx, user, query }) => siteEarnings(ctx, user, query),
  }),
  route({
    method: 'GET', path: '/comprehensive/site/overview/earnings/chart', access: 'menu', name: '站点收益曲线', area: siteArea, kind: 'chart', query: earningsChartQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => siteEarningsChart(ctx, user, query),
  }),

  route({
    method: 'POST', path: '/overview/energy/arbitrage/summary', access: 'menu', name: '峰谷套利汇总', area: overviewArea, kind: 'other', body: arbitrageFilter,
    scope: arbitrageProbe,
    handler: ({ ctx, user, body }) => arbitrage.arbitrageSummary(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/overview/energy/arbitrage/curve/fee', access: 'menu', name: '峰谷套利费用曲线', area: overviewArea, kind: 'chart', body: arbitrageFilter,
    scope: arbitrageProbe,
    handler: ({ ctx, user, body }) => arbitrage.arbitrageFeeCurve(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/overview/energy/arbitrage/curve/quantity', access: 'menu', name: '峰谷套利电量曲线', area: overviewArea, kind: 'chart', body: arbitrageFilter,
    scope: arbitrageProbe,
    handler: ({ ctx, user, body }) => arbitrage.arbitrageQuantityCurve(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/overview/energy/arbitrage/detail/page', access: 'menu', name: '峰谷套利明细分页', area: overviewArea, kind: 'page', body: arbitragePage,
    scope: arbitrageProbe,
    handler: ({ ctx, user, body }) => arbitrage.arbitrageDetailPage(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/overview/energy/arbitrage/detail/export', access: 'menu', name: '导出峰谷套利明细', area: overviewArea, kind: 'export', body: arbitrageFilter,
    raw: true, scope: arbitrageProbe,
    handler: ({ ctx, user, body, reply }) => arbitrage.arbitrageExport(ctx, user, body, reply),
  }),
];
