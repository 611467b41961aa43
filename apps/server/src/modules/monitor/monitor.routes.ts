import { MONITOR_CHART_SERIES, MONITOR_DETAIL_TYPES, monitorEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { siteOverview } from '../comprehensive/index.ts';
import { clusterCellDistribution, packCellDistribution, packCellTrend } from './cells.service.ts';
import { checkPassword, control } from './control.service.ts';
import * as monitor from './monitor.service.ts';
import { quantityChart } from './quantity.service.ts';
import { storageControl } from './storage.service.ts';

const area = 'Device monitoring';
const byDeviceId = { entity: 'device', input: (id: number) => ({ deviceId: id }) };
const hourAgo = () => ({ start: new Date(Date.now() - 3_600_000).toISOString(), end: new Date().toISOString() });
const chartProbe = { entity: 'device', input: (id: number) => ({ deviceId: id, ...hourAgo() }) };
const T = MONITOR_DETAIL_TYPES;

const detail = (ep: typeof api.pvOne, name: string, types: (typeof T)[keyof typeof T]) =>
  route(ep, {
    access: 'menu', name, area, kind: 'one', scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.monitorDetail(ctx, user, query.deviceId, types),
  });

const chart = (ep: typeof api.pvPower, name: string, types: (typeof T)[keyof typeof T], series: readonly string[]) =>
  route(ep, {
    access: 'menu', name, area, kind: 'chart', scope: chartProbe,
    handler: ({ ctx, user, body }) => monitor.monitorChart(ctx, user, body, types, series),
  });

export const monitorRoutes = [
  // ── A station's energy picture: the site overview's own computation, so both screens agree ──
  route(api.energyOverview, {
    access: 'menu', name: '能量监控概览', area, kind: 'one', scope: { entity: 'site', input: (id: number) => ({ siteId: id }) },
    handler: ({ ctx, user, query }) => siteOverview(ctx, user, { siteId: query.siteId }),
  }),

  // ── Per-type detail ──
  detail(api.pvOne, '光伏逆变器详情', T.pv),
  route(api.bmsOne, {
    access: 'menu', name: 'BMS详情', area, kind: 'one', scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.bmsDetail(ctx, user, query.deviceId),
  }),
  detail(api.emsOne, 'EMS详情', T.ems),
  route(api.essOne, {
    access: 'menu', name: '储能系统详情', area, kind: 'one', scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.essDetail(ctx, user, query.deviceId),
  }),
  detail(api.pcsOne, 'PCS详情', T.pcs),
  route(api.normalOne, {
    access: 'menu', name: '通用设备详情', area, kind: 'one', scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.monitorDetail(ctx, user, query.deviceId),
  }),
  route(api.batteryPackOne, {
    access: 'menu', name: '电池包详情', area, kind: 'one', scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.packDetail(ctx, user, query.deviceId),
  }),
  detail(api.transformerOne, '变压器详情', T.transformer),
  route(api.chargingPileOne, {
    access: 'menu', name: '充电桩详情', area, kind: 'one', scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.pileDetail(ctx, user, query.deviceId),
  }),
  route(api.electricMeterOne, {
    access: 'menu', name: '电表详情', area, kind: 'one', scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.meterDetail(ctx, user, query.deviceId),
  }),
  detail(api.airConditionerOne, '空调详情', T.airConditioner),
  route(api.batteryClusterOne, {
    access: 'menu', name: '电池簇详情', area, kind: 'one', scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.clusterDetail(ctx, user, query.deviceId),
  }),
  detail(api.chargingGunOne, '充电枪详情', T.chargingGun),
  detail(api.dcdcOne, 'DCDC详情', T.dcdc),
  route(api.chargingGunWarnMask, {
    access: 'menu', name: '充电枪告警屏蔽字', area, kind: 'one', scope: byDeviceId,
    handler: ({ ctx, user, query }) => monitor.warnMaskOf(ctx, user, query.deviceId),
  }),

  // ── Charts (rollups, 24 hours at most) ──
  chart(api.pvPower, '光伏功率曲线', T.pv, MONITOR_CHART_SERIES.pvPower),
  route(api.pvQuantity, {
    access: 'menu', name: '光伏发电量统计', area, kind: 'chart', scope: chartProbe,
    handler: ({ ctx, user, body }) => quantityChart(ctx, user, body, T.pv, 'totalEnergy'),
  }),
  chart(api.bmsChart, 'BMS曲线', T.bms, MONITOR_CHART_SERIES.bms),
  chart(api.emsChart, 'EMS曲线', T.ems, MONITOR_CHART_SERIES.ems),
  chart(api.essChart, '储能系统曲线', T.ess, MONITOR_CHART_SERIES.ess),
  chart(api.pcsPower, 'PCS功率曲线', T.pcs, MONITOR_CHART_SERIES.pcs),
  chart(api.transformerPower, '变压器功率曲线', T.transformer, MONITOR_CHART_SERIES.transformer),
  chart(api.electricMeterPower, '电表功率曲线', T.electricMeter, MONITOR_CHART_SERIES.meter),
  chart(api.chargingGunPower, '充电枪功率曲线', T.chargingGun, MONITOR_CHART_SERIES.chargingGun),
  chart(api.dcdcChart, 'DCDC曲线', T.dcdc, MONITOR_CHART_SERIES.dcdc),

  // ── Battery ──
  route(api.packList, {
    access: 'menu', name: '电池包列表', area, kind: 'list', scope: { entity: 'device', input: (id) => ({ batteryClusterId: id }) },
    handler: ({ ctx, user, query }) => monitor.simpleList(ctx, user, query.batteryClusterId, 'batteryCluster', 'batteryPack'),
  }),
  route(api.packCells, {
    access: 'menu', name: '电芯分布', area, kind: 'chart', scope: byDeviceId,
    handler: ({ ctx, user, body }) => packCellDistribution(ctx, user, body),
  }),
  route(api.packCellTrend, {
    access: 'menu', name: '电芯趋势', area, kind: 'chart', scope: chartProbe,
    handler: ({ ctx, user, body }) => packCellTrend(ctx, user, body),
  }),
  route(api.clusterList, {
    access: 'menu', name: '电池簇列表', area, kind: 'list', scope: { entity: 'device', input: (id) => ({ bmsId: id }) },
    handler: ({ ctx, user, query }) => monitor.simpleList(ctx, user, query.bmsId, 'bms', 'batteryCluster'),
  }),
  route(api.clusterCells, {
    access: 'menu', name: '电池簇电芯分布', area, kind: 'chart', scope: byDeviceId,
    handler: ({ ctx, user, body }) => clusterCellDistribution(ctx, user, body),
  }),

  // ── Control (MQTT command → device reply; journaled; critical ones need the secondary password) ──
  route(api.pileReboot, {
    access: 'menu', name: '充电桩重启', area, kind: 'action', scope: byDeviceId,
    handler: ({ ctx, user, body }) =>
      control(ctx, user, { path: api.pileReboot.path, deviceId: body.deviceId, types: T.chargingPile, command: 'reboot', params: {}, password: body.password }),
  }),
  route(api.pilePowerLimit, {
    access: 'menu', name: '充电桩功率限值', area, kind: 'action', scope: { entity: 'device', input: (id) => ({ deviceId: id, powerLimit: 60 }) },
    handler: ({ ctx, user, body }) =>
      control(ctx, user, {
        path: api.pilePowerLimit.path, deviceId: body.deviceId, types: T.chargingPile, command: 'setProperty',
        params: { values: { powerLimit: body.powerLimit } }, password: body.password,
      }),
  }),
  route(api.pileSetProperty, {
    access: 'menu', name: '充电桩属性设置', area, kind: 'action', scope: { entity: 'device', input: (id) => ({ deviceId: id, values: { powerLimit: 60 } }) },
    handler: ({ ctx, user, body }) =>
      control(ctx, user, {
        path: api.pileSetProperty.path, deviceId: body.deviceId, types: T.chargingPile, command: 'setProperty',
        params: { values: body.values }, password: body.password,
      }),
  }),
  route(api.gunSetProperty, {
    access: 'menu', name: '充电枪属性设置', area, kind: 'action', scope: { entity: 'device', input: (id) => ({ deviceId: id, values: { maxPower: 60 } }) },
    handler: ({ ctx, user, body }) =>
      control(ctx, user, {
        path: api.gunSetProperty.path, deviceId: body.deviceId, types: T.chargingGun, command: 'setProperty',
        params: { values: body.values }, password: body.password,
      }),
  }),
  route(api.gunWarnMask, {
    access: 'menu', name: '充电枪告警屏蔽', area, kind: 'action', scope: { entity: 'device', input: (id) => ({ deviceId: id, mask: 0 }) },
    handler: ({ ctx, user, body }) =>
      control(ctx, user, {
        path: api.gunWarnMask.path, deviceId: body.deviceId, types: T.chargingGun, command: 'warnMask',
        params: { mask: body.mask }, password: body.password,
      }),
  }),
  route(api.acRemoteSet, {
    access: 'menu', name: '空调远程设置', area, kind: 'action', scope: { entity: 'device', input: (id) => ({ deviceId: id, onOff: true }) },
    handler: ({ ctx, user, body }) =>
      control(ctx, user, {
        path: api.acRemoteSet.path, deviceId: body.deviceId, types: T.airConditioner, command: 'remoteSet',
        params: {
          ...(body.onOff !== undefined ? { onOff: body.onOff } : {}),
          ...(body.mode !== undefined ? { mode: body.mode } : {}),
          ...(body.fanSpeed !== undefined ? { fanSpeed: body.fanSpeed } : {}),
        },
        password: body.password,
      }),
  }),
  route(api.acTemperature, {
    access: 'menu', name: '空调温度设定', area, kind: 'action', scope: { entity: 'device', input: (id) => ({ deviceId: id, setpoint: 25 }) },
    handler: ({ ctx, user, body }) =>
      control(ctx, user, {
        path: api.acTemperature.path, deviceId: body.deviceId, types: T.airConditioner, command: 'temperature',
        params: { setpoint: body.setpoint }, password: body.password,
      }),
  }),
  route(api.checkPassword, {
    access: 'menu', name: '校验二级密码', area, kind: 'action', scope: { entity: 'device', input: (id) => ({ deviceId: id, password: 'x' }) },
    handler: ({ ctx, user, body }) => checkPassword(ctx, user, api.checkPassword.path, body),
  }),
  route(api.faultRecover, {
    access: 'menu', name: '设备故障复位', area, kind: 'action', scope: byDeviceId,
    handler: ({ ctx, user, query }) =>
      control(ctx, user, {
        path: api.faultRecover.path, deviceId: query.deviceId, command: 'faultRecover', params: query.code ? { code: query.code } : {},
      }),
  }),
  route(api.switch, {
    access: 'menu', name: '设备开关机', area, kind: 'action', scope: { entity: 'device', input: (id) => ({ deviceId: id, on: true }) },
    handler: ({ ctx, user, body }) =>
      control(ctx, user, { path: api.switch.path, deviceId: body.deviceId, command: 'switch', params: { on: body.on }, password: body.password }),
  }),
  route(api.storageControl, {
    access: 'menu', name: '储能运行控制', area, kind: 'action', scope: { entity: 'device', input: (id) => ({ deviceId: id, mode: 'auto' }) },
    handler: ({ ctx, user, body }) => storageControl(ctx, user, api.storageControl.path, body),
  }),
];
