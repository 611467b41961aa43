import { comprehensiveEndpoints as api } from '@ess/contract';
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
 * …/earnings/chart) are money: they live with the revenue engine (modules/dashboard/dashboard.routes.ts).
 */
export const comprehensiveRoutes = [
  route(api.list, {
    access: 'menu', name: '站点实时列表', area, kind: 'page', scope: { entity: 'site', input: (id) => ({ id }) },
    handler: ({ ctx, user, query }) => site.liveSitePage(ctx, user, query),
  }),
  route(api.down, {
    access: 'menu', name: '站点下拉列表', area, kind: 'list', scope: siteProbe,
    handler: ({ ctx, user, query }) => site.siteDown(ctx, user, query),
  }),
  route(api.info, {
    access: 'menu', name: '站点信息', area, kind: 'one', scope: siteProbe,
    handler: ({ ctx, user, query }) => site.siteInfo(ctx, user, query.siteId),
  }),
  route(api.overview, {
    access: 'menu', name: '站点概览', area, kind: 'one', scope: siteProbe,
    handler: ({ ctx, user, query }) => site.siteOverview(ctx, user, query),
  }),
  route(api.topology, {
    access: 'menu', name: '站点能流拓扑', area, kind: 'one', scope: siteProbe,
    handler: ({ ctx, user, query }) => site.siteTopology(ctx, user, query.siteId),
  }),
  route(api.mainMeter, {
    access: 'menu', name: '关口表数据', area, kind: 'one', scope: siteProbe,
    handler: ({ ctx, user, query }) => site.mainMeter(ctx, user, query),
  }),
  route(api.performance, {
    access: 'menu', name: '储能运行指标', area, kind: 'one', scope: siteProbe,
    handler: ({ ctx, user, query }) => site.sitePerformance(ctx, user, query),
  }),
  route(api.powerData, {
    access: 'menu', name: '站点功率曲线', area, kind: 'chart', scope: siteProbe,
    handler: ({ ctx, user, query }) => site.sitePowerData(ctx, user, query),
  }),
  route(api.solar, {
    access: 'menu', name: '站点光伏', area, kind: 'one', scope: siteProbe,
    handler: ({ ctx, user, query }) => solar.siteSolar(ctx, user, query.siteId),
  }),
  route(api.chargingInfo, {
    access: 'menu', name: '站点充电桩', area, kind: 'one', scope: siteProbe,
    handler: ({ ctx, user, query }) => charging.chargingInfo(ctx, user, query.siteId),
  }),
  route(api.deviceStatus, {
    access: 'menu', name: '设备状态统计', area, kind: 'other', scope: siteProbe,
    handler: ({ ctx, user, query }) => site.deviceStatusOverview(ctx, user, query),
  }),
  route(api.values, {
    access: 'menu', name: '配电图实时值', area, kind: 'other', scope: { entity: 'distributionDiagram', input: (id) => ({ diagramId: id }) },
    handler: ({ ctx, user, query }) => site.diagramValues(ctx, user, query.diagramId),
  }),
  route(api.handle, {
    access: 'menu', name: '站点处理', area, kind: 'action', scope: { entity: 'site', input: (id) => ({ siteId: id, action: 'acknowledge' }) },
    handler: ({ ctx, user, body }) => handleSite(ctx, user, body),
  }),

  // Solar
  route(api.solarSummary, {
    access: 'menu', name: '光伏概况', area, kind: 'one', scope: siteProbe,
    handler: ({ ctx, user, query }) => solar.solarSummary(ctx, user, query.siteId),
  }),
  route(api.inverterStatus, {
    access: 'menu', name: '逆变器状态', area, kind: 'list', scope: siteProbe,
    handler: ({ ctx, user, query }) => solar.inverterStatus(ctx, user, query.siteId),
  }),
  route(api.solarPower, {
    access: 'menu', name: '逆变器功率曲线', area, kind: 'chart', scope: siteProbe,
    handler: ({ ctx, user, query }) => solar.solarPower(ctx, user, query),
  }),
  route(api.solarPowerCurve, {
    access: 'menu', name: '光伏功率曲线', area, kind: 'chart', scope: siteProbe,
    handler: ({ ctx, user, query }) => solar.solarPowerCurve(ctx, user, query),
  }),
  route(api.solarGeneration, {
    access: 'menu', name: '光伏发电量统计', area, kind: 'chart', scope: { entity: 'site', input: (id) => ({ siteId: id, type: 'day' }) },
    handler: ({ ctx, user, query }) => solar.solarGeneration(ctx, user, query),
  }),

  // Charging
  route(api.chargingSummary, {
    access: 'menu', name: '充电概况', area, kind: 'one', scope: siteProbe,
    handler: ({ ctx, user, query }) => charging.chargingSummary(ctx, user, query.siteId),
  }),
  route(api.chargingStatus, {
    access: 'menu', name: '充电桩与充电枪状态', area, kind: 'list', scope: siteProbe,
    handler: ({ ctx, user, query }) => charging.chargingStatus(ctx, user, query.siteId),
  }),
  route(api.chargingPowerCurve, {
    access: 'menu', name: '充电功率曲线', area, kind: 'chart', scope: siteProbe,
    handler: ({ ctx, user, query }) => charging.chargingPowerCurve(ctx, user, query),
  }),
  route(api.chargingGeneration, {
    access: 'menu', name: '充电量统计', area, kind: 'chart', scope: { entity: 'site', input: (id) => ({ siteId: id, type: 'day' }) },
    handler: ({ ctx, user, query }) => charging.chargingGeneration(ctx, user, query),
  }),
];
