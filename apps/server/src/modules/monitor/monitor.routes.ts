import {
  MONITOR_CHART_SERIES, MONITOR_DETAIL_TYPES,
  batteryClusterIdQuery, bmsIdQuery, cellDistributeBody, cellTrendBody, checkPasswordBody, deviceIdQuery, faultRecoverQuery,
  monitorChartBody, monitorQuantityBody, pilePowerLimitBody, rebootBody, remoteSetBody, setPropertyBody, switchBody, temperatureBody,
  warnMaskBody,
} from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { clusterCellDistribution, packCellDistribution, packCellTrend } from './cells.service.ts';
import { checkPassword, control } from './control.service.ts';
import * as monitor from './monitor.service.ts';
import { quantityChart } from './quantity.service.ts';

const area = 'Device monitoring';
const byDeviceId = { entity: 'device', input: (id: number) => ({ deviceId: id }) };
const hourAgo = () => ({ start: new Date(Date.now() - 3_600_000).toISOString(), end: new Date().toISOString() });
const chartProbe = { entity: 'device', input: (id: number) => ({ deviceId: id, ...hourAgo() }) };
const T = MONITOR_DETAIL_TYPES;

const detail = (path: string, name: string, types: (typeof T)[keyof typeof T]) =>
  route({
    method: 'GET', path, access: 'menu', name, area, kind: 'one', query: deviceIdQuery, scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.monitorDetail(ctx, user, query.deviceId, types),
  });

const chart = (path: string, name: string, types: (typeof T)[keyof typeof T], series: readonly string[]) =>
  route({
    method: 'POST', path, access: 'menu', name, area, kind: 'chart', body: monitorChartBody, scope: chartProbe,
    handler: ({ ctx, user, body }) => monitor.monitorChart(ctx, user, body, types, series),
  });

export const monitorRoutes = [
  // ── Per-type detail ──
  detail('/monitor/pv/one', '光伏逆变器详情', T.pv),
  route({
    method: 'GET', path: '/monitor/bms/one', access: 'menu', name: 'BMS详情', area, kind: 'one', query: deviceIdQuery, scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.bmsDetail(ctx, user, query.deviceId),
  }),
  detail('/monitor/ems/one', 'EMS详情', T.ems),
  route({
    method: 'GET', path: '/monitor/ess/query/one', access: 'menu', name: '储能系统详情', area, kind: 'one', query: deviceIdQuery, scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.essDetail(ctx, user, query.deviceId),
  }),
  detail('/monitor/pcs/one', 'PCS详情', T.pcs),
  route({
    method: 'GET', path: '/monitor/normal/one', access: 'menu', name: '通用设备详情', area, kind: 'one', query: deviceIdQuery, scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.monitorDetail(ctx, user, query.deviceId),
  }),
  route({
    method: 'GET', path: '/monitor/battery-pack/one', access: 'menu', name: '电池包详情', area, kind: 'one', query: deviceIdQuery, scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.packDetail(ctx, user, query.deviceId),
  }),
  detail('/monitor/transformer/one', '变压器详情', T.transformer),
  route({
    method: 'GET', path: '/monitor/charging-pile/one', access: 'menu', name: '充电桩详情', area, kind: 'one', query: deviceIdQuery, scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.pileDetail(ctx, user, query.deviceId),
  }),
  route({
    method: 'GET', path: '/monitor/electric-meter/one', access: 'menu', name: '电表详情', area, kind: 'one', query: deviceIdQuery, scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.meterDetail(ctx, user, query.deviceId),
  }),
  detail('/monitor/air-conditioner/one', '空调详情', T.airConditioner),
  route({
    method: 'GET', path: '/monitor/battery-cluster/one', access: 'menu', name: '电池簇详情', area, kind: 'one', query: deviceIdQuery, scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.clusterDetail(ctx, user, query.deviceId),
  }),
  detail('/monitor/charging-gun/one', '充电枪详情', T.chargingGun),
  detail('/monitor/dcdc/one', 'DCDC详情', T.dcdc),
  route({
    method: 'GET', path: '/monitor/charging-gun/one/getWarnMask', access: 'menu', name: '充电枪告警屏蔽字', area, kind: 'one', query: deviceIdQuery,
    scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.warnMaskOf(ctx, user, query.deviceId),
  }),

  // ── Charts (rollups, 24 hours at most) ──
  chart('/monitor/pv/one/power', '光伏功率曲线', T.pv, MONITOR_CHART_SERIES.pvPower),
  route({
    method: 'POST', path: '/monitor/pv/one/quantity', access: 'menu', name: '光伏发电量统计', area, kind: 'chart', body: monitorQuantityBody,
    scope: chartProbe,
    handler: ({ ctx, user, body }) => quantityChart(ctx, user, body, T.pv, 'totalEnergy'),
  }),
  chart('/monitor/bms/one/chart', 'BMS曲线', T.bms, MONITOR_CHART_SERIES.bms),
  chart('/monitor/ems/one/chat', 'EMS曲线', T.ems, MONITOR_CHART_SERIES.ems),
  chart('/monitor/ess/one/chat', '储能系统曲线', T.ess, MONITOR_CHART_SERIES.ess),
  chart('/monitor/pcs/one/power', 'PCS功率曲线', T.pcs, MONITOR_CHART_SERIES.pcs),
  chart('/monitor/transformer/one/power', '变压器功率曲线', T.transformer, MONITOR_CHART_SERIES.transformer),
  chart('/monitor/electric-meter/one/power', '电表功率曲线', T.electricMeter, MONITOR_CHART_SERIES.meter),
  chart('/monitor/charging-gun/one/power', '充电枪功率曲线', T.chargingGun, MONITOR_CHART_SERIES.chargingGun),
  chart('/monitor/dcdc/one/chat', 'DCDC曲线', T.dcdc, MONITOR_CHART_SERIES.dcdc),

  // ── Battery ──
  route({
    method: 'POST', path: '/monitor/battery-pack/simple-list', access: 'menu', name: '电池包列表', area, kind: 'list', query: batteryClusterIdQuery,
    scope: { entity: 'device', input: (id) => ({ batteryClusterId: id }) },
    handler: ({ ctx, user, query }) => monitor.simpleList(ctx, user, query.batteryClusterId, 'batteryCluster', 'batteryPack'),
  }),
  route({
    method: 'POST', path: '/monitor/battery-pack/one/cells/distribute', access: 'menu', name: '电芯分布', area, kind: 'chart', body: cellDistributeBody,
    scope: byDeviceId,
    handler: ({ ctx, user, body }) => packCellDistribution(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/monitor/battery-pack/one/cells/trend', access: 'menu', name: '电芯趋势', area, kind: 'chart', body: cellTrendBody,
    scope: chartProbe,
    handler: ({ ctx, user, body }) => packCellTrend(ctx, user, body),
  }),
  route({
    method: 'POST', path: '/monitor/battery-cluster/simple-list', access: 'menu', name: '电池簇列表', area, kind: 'list', query: bmsIdQuery,
    scope: { entity: 'device', input: (id) => ({ bmsId: id }) },
    handler: ({ ctx, user, query }) => monitor.simpleList(ctx, user, query.bmsId, 'bms', 'batteryCluster'),
  }),
  route({
    method: 'POST', path: '/monitor/battery-cluster/one/cell/distribute', access: 'menu', name: '电池簇电芯分布', area, kind: 'chart',
    body: cellDistributeBody, scope: byDeviceId,
    handler: ({ ctx, user, body }) => clusterCellDistribution(ctx, user, body),
  }),

  // ── Control (MQTT command → device reply; journaled; critical ones need the secondary password) ──
  route({
    method: 'POST', path: '/monitor/charging-pile/one/reboot', access: 'menu', name: '充电桩重启', area, kind: 'action', body: rebootBody,
    scope: byDeviceId,
    handler: ({ ctx, user, body }) =>
      control(ctx, user, { path: '/monitor/charging-pile/one/reboot', deviceId: body.deviceId, types: T.chargingPile, command: 'reboot', params: {}, password: body.password }),
  }),
  route({
    method: 'POST', path: '/monitor/charging-pile/one/setProperty1', access: 'menu', name: '充电桩功率限值', area, kind: 'action', body: pilePowerLimitBody,
    scope: { entity: 'device', input: (id) => ({ deviceId: id, powerLimit: 60 }) },
    handler: ({ ctx, user, body }) =>
      control(ctx, user, {
        path: '/monitor/charging-pile/one/setProperty1', deviceId: body.deviceId, types: T.chargingPile, command: 'setProperty',
        params: { values: { powerLimit: body.powerLimit } }, password: body.password,
      }),
  }),
  route({
    method: 'POST', path: '/monitor/charging-pile/one/setProperty2', access: 'menu', name: '充电桩属性设置', area, kind: 'action', body: setPropertyBody,
    scope: { entity: 'device', input: (id) => ({ deviceId: id, values: { powerLimit: 60 } }) },
    handler: ({ ctx, user, body }) =>
      control(ctx, user, {
        path: '/monitor/charging-pile/one/setProperty2', deviceId: body.deviceId, types: T.chargingPile, command: 'setProperty',
        params: { values: body.values }, password: body.password,
      }),
  }),
  route({
    method: 'POST', path: '/monitor/charging-gun/one/setProperty', access: 'menu', name: '充电枪属性设置', area, kind: 'action', body: setPropertyBody,
    scope: { entity: 'device', input: (id) => ({ deviceId: id, values: { maxPower: 60 } }) },
    handler: ({ ctx, user, body }) =>
      control(ctx, user, {
        path: '/monitor/charging-gun/one/setProperty', deviceId: body.deviceId, types: T.chargingGun, command: 'setProperty',
        params: { values: body.values }, password: body.password,
      }),
  }),
  route({
    method: 'POST', path: '/monitor/charging-gun/one/warnMask', access: 'menu', name: '充电枪告警屏蔽', area, kind: 'action', body: warnMaskBody,
    scope: { entity: 'device', input: (id) => ({ deviceId: id, mask: 0 }) },
    handler: ({ ctx, user, body }) =>
      control(ctx, user, {
        path: '/monitor/charging-gun/one/warnMask', deviceId: body.deviceId, types: T.chargingGun, command: 'warnMask',
        params: { mask: body.mask }, password: body.password,
      }),
  }),
  route({
    method: 'POST', path: '/monitor/air-conditioner/one/remoteSet', access: 'menu', name: '空调远程设置', area, kind: 'action', body: remoteSetBody,
    scope: { entity: 'device', input: (id) => ({ deviceId: id, onOff: true }) },
    handler: ({ ctx, user, body }) =>
      control(ctx, user, {
        path: '/monitor/air-conditioner/one/remoteSet', deviceId: body.deviceId, types: T.airConditioner, command: 'remoteSet',
        params: {
          ...(body.onOff !== undefined ? { onOff: body.onOff } : {}),
          ...(body.mode !== undefined ? { mode: body.mode } : {}),
          ...(body.fanSpeed !== undefined ? { fanSpeed: body.fanSpeed } : {}),
        },
        password: body.password,
      }),
  }),
  route({
    method: 'POST', path: '/monitor/air-conditioner/one/temperature', access: 'menu', name: '空调温度设定', area, kind: 'action', body: temperatureBody,
    scope: { entity: 'device', input: (id) => ({ deviceId: id, setpoint: 25 }) },
    handler: ({ ctx, user, body }) =>
      control(ctx, user, {
        path: '/monitor/air-conditioner/one/temperature', deviceId: body.deviceId, types: T.airConditioner, command: 'temperature',
        params: { setpoint: body.setpoint }, password: body.password,
      }),
  }),
  route({
    method: 'POST', path: '/monitor/air-conditioner/one/check/password', access: 'menu', name: '校验二级密码', area, kind: 'action', body: checkPasswordBody,
    scope: { entity: 'device', input: (id) => ({ deviceId: id, password: 'x' }) },
    handler: ({ ctx, user, body }) => checkPassword(ctx, user, '/monitor/air-conditioner/one/check/password', body),
  }),
  route({
    method: 'POST', path: '/monitor/device/one/faultRecover', access: 'menu', name: '设备故障复位', area, kind: 'action', query: faultRecoverQuery,
    scope: byDeviceId,
    handler: ({ ctx, user, query }) =>
      control(ctx, user, {
        path: '/monitor/device/one/faultRecover', deviceId: query.deviceId, command: 'faultRecover', params: query.code ? { code: query.code } : {},
      }),
  }),
  route({
    method: 'POST', path: '/monitor/device/one/switch', access: 'menu', name: '设备开关机', area, kind: 'action', body: switchBody,
    scope: { entity: 'device', input: (id) => ({ deviceId: id, on: true }) },
    handler: ({ ctx, user, body }) =>
      control(ctx, user, { path: '/monitor/device/one/switch', deviceId: body.deviceId, command: 'switch', params: { on: body.on }, password: body.password }),
  }),
];
