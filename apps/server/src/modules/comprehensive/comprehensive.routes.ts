import {
  deviceStatusQuery, diagramValuesQuery, generationQuery, liveSitePageQuery, siteDayQuery, siteDownQuery, siteHandleBody, siteIdQuery,
} from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import * as charging from './charging.service.ts';
import * as site from './comprehensive.service.ts';
import { handleSite } from './handle.service.ts';
import * as solar from './solar.service.ts';

const area = 'Site monitoring (comprehensive)';
/** Probes: a station of another company named by the query is refused, not answered. */
const siteProbe = { entity: 'site', input: (id: number) => ({ siteId: id }) };

/**
 * Site monitoring. The two earnings calls (/comprehensive/site/overview/earnings and
 * …/earnings/chart) are money: they live with the revenue engine (modules/revenue/revenue.routes.ts).
 */
export const comprehensiveRoutes = [
  route({
    method: 'GET', path: '/comprehensive/site/list', access: 'menu', name: '站点实时列表', area, kind: 'page', query: liveSitePageQuery,
    scope: { entity: 'site', input: (id) => ({ id }) },
    handler: ({ ctx, user, query }) => site.liveSitePage(ctx, user, query),
  }),
  route({
    method: 'GET', path: '/comprehensive/site/down', access: 'menu', name: '站点下拉列表', area, kind: 'list', query: siteDownQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => site.siteDown(ctx, user, query),
  }),
  route({
    method: 'GET', path: '/comprehensive/site/info', access: 'menu', name: '站点信息', area, kind: 'one', query: siteIdQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => site.siteInfo(ctx, user, query.siteId),
  }),
  route({
    method: 'GET', path: '/comprehensive/site/overview', access: 'menu', name: '站点概览', area, kind: 'one', query: siteDayQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => site.siteOverview(ctx, user, query),
  }),
  route({
    method: 'GET', path: '/comprehensive/site/topology', access: 'menu', name: '站点能流拓扑', area, kind: 'one', query: siteIdQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => site.siteTopology(ctx, user, query.siteId),
  }),
  route({
    method: 'GET', path: '/comprehensive/site/mainMeter', access: 'menu', name: '关口表数据', area, kind: 'one', query: siteDayQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => site.mainMeter(ctx, user, query),
  }),
  route({
    method: 'GET', path: '/comprehensive/site/performance', access: 'menu', name: '储能运行指标', area, kind: 'one', query: siteDayQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => site.sitePerformance(ctx, user, query),
  }),
  route({
    method: 'GET', path: '/comprehensive/site/powerData', access: 'menu', name: '站点功率曲线', area, kind: 'chart', query: siteDayQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => site.sitePowerData(ctx, user, query),
  }),
  route({
    method: 'GET', path: '/comprehensive/site/solar', access: 'menu', name: '站点光伏', area, kind: 'one', query: siteIdQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => solar.siteSolar(ctx, user, query.siteId),
  }),
  route({
    method: 'GET', path: '/comprehensive/site/charging-pile-info', access: 'menu', name: '站点充电桩', area, kind: 'one', query: siteIdQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => charging.chargingInfo(ctx, user, query.siteId),
  }),
  route({
    method: 'GET', path: '/comprehensive/site/device-status', access: 'menu', name: '设备状态统计', area, kind: 'other', query: deviceStatusQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => site.deviceStatusOverview(ctx, user, query),
  }),
  route({
    method: 'GET', path: '/comprehensive/site/values', access: 'menu', name: '配电图实时值', area, kind: 'other', query: diagramValuesQuery,
    scope: { entity: 'distributionDiagram', input: (id) => ({ diagramId: id }) },
    handler: ({ ctx, user, query }) => site.diagramValues(ctx, user, query.diagramId),
  }),
  route({
    method: 'POST', path: '/comprehensive/site/handle', access: 'menu', name: '站点处理', area, kind: 'action', body: siteHandleBody,
    scope: { entity: 'site', input: (id) => ({ siteId: id, action: 'acknowledge' }) },
    handler: ({ ctx, user, body }) => handleSite(ctx, user, body),
  }),

  // Solar
  route({
    method: 'GET', path: '/comprehensive/solar/summary', access: 'menu', name: '光伏概况', area, kind: 'one', query: siteIdQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => solar.solarSummary(ctx, user, query.siteId),
  }),
  route({
    method: 'GET', path: '/comprehensive/solar/inverter-status', access: 'menu', name: '逆变器状态', area, kind: 'list', query: siteIdQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => solar.inverterStatus(ctx, user, query.siteId),
  }),
  route({
    method: 'GET', path: '/comprehensive/solar/power', access: 'menu', name: '逆变器功率曲线', area, kind: 'chart', query: siteDayQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => solar.solarPower(ctx, user, query),
  }),
  route({
    method: 'GET', path: '/comprehensive/solar/power-curve', access: 'menu', name: '光伏功率曲线', area, kind: 'chart', query: siteDayQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => solar.solarPowerCurve(ctx, user, query),
  }),
  route({
    method: 'GET', path: '/comprehensive/solar/total-generation', access: 'menu', name: '光伏发电量统计', area, kind: 'chart', query: generationQuery,
    scope: { entity: 'site', input: (id) => ({ siteId: id, type: 'day' }) },
    handler: ({ ctx, user, query }) => solar.solarGeneration(ctx, user, query),
  }),

  // Charging
  route({
    method: 'GET', path: '/comprehensive/charging/summary', access: 'menu', name: '充电概况', area, kind: 'one', query: siteIdQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => charging.chargingSummary(ctx, user, query.siteId),
  }),
  route({
    method: 'GET', path: '/comprehensive/charging/inverter/status', access: 'menu', name: '充电桩与充电枪状态', area, kind: 'list', query: siteIdQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => charging.chargingStatus(ctx, user, query.siteId),
  }),
  route({
    method: 'GET', path: '/comprehensive/charging/power/curve', access: 'menu', name: '充电功率曲线', area, kind: 'chart', query: siteDayQuery,
    scope: siteProbe,
    handler: ({ ctx, user, query }) => charging.chargingPowerCurve(ctx, user, query),
  }),
  route({
    method: 'GET', path: '/comprehensive/charging/total/generation', access: 'menu', name: '充电量统计', area, kind: 'chart', query: generationQuery,
    scope: { entity: 'site', input: (id) => ({ siteId: id, type: 'day' }) },
    handler: ({ ctx, user, query }) => charging.chargingGeneration(ctx, user, query),
  }),
];
