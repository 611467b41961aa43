import { z } from 'zod';
import { id, instant } from './common.ts';
import { siteIdQuery, siteOverview } from './comprehensive.ts';
import { PRICE_PERIODS } from './constants.ts';
import { deviceFaultWarning, deviceHistory, deviceHistoryBody, deviceIdQuery, deviceProperties, deviceProperty, deviceRecord, deviceStatusSchema, type DeviceHistory } from './device.ts';
import { endpoint, FILE, isoTime } from './endpoint.ts';
import { STORAGE_MANUAL_MAX_MINUTES, STORAGE_MODES, deviceCodeSchema, identifierSchema, telemetryValueSchema, type DeviceType } from './telemetry.ts';

/**
 * Device monitoring (api-catalogue "Device monitoring"): per-type detail, charts from the
 * rollups, battery cells, remote control over MQTT with the secondary password, and the meter
 * electric data (api-catalogue "Meter data"). Every value comes from stored telemetry: latest
 * values (device_latest) or the 5-minute / hour / day rollups; nothing is computed that the
 * device did not report, except sums, differences and statistics of reported values.
 */

// ── Which calls serve which device type ───────────────────────────────────────────────

/** The device types each per-type detail call accepts (`/monitor/normal/one` takes any type). */
export const MONITOR_DETAIL_TYPES = {
  pv: ['pvInverter'],
  bms: ['bms'],
  ems: ['ems'],
  ess: ['ems'],
  pcs: ['pcs'],
  batteryPack: ['batteryPack'],
  transformer: ['transformer'],
  chargingPile: ['chargingPile'],
  electricMeter: ['meter'],
  airConditioner: ['airConditioner'],
  batteryCluster: ['batteryCluster'],
  chargingGun: ['chargingGun'],
  dcdc: ['dcdc'],
} as const satisfies Record<string, readonly DeviceType[]>;

/**
 * The summary figures of each type's detail, in display order: identifiers of the type's thing
 * model (THING_MODEL), shown with the property's name, unit and enumeration label.
 */
export const MONITOR_SUMMARY: Record<DeviceType, readonly string[]> = {
  ems: ['runMode', 'strategyState', 'touPeriod', 'soc', 'activePower', 'gridPower', 'loadPower', 'pvPower', 'chargingPilePower',
    'todayChargeEnergy', 'todayDischargeEnergy', 'todayPvEnergy', 'todayLoadEnergy', 'socUpperLimit', 'socLowerLimit',
    'transformerProtectionPower', 'antiBackflow', 'demandLimit', 'communicationOk'],
  pcs: ['state', 'onOff', 'activePower', 'reactivePower', 'apparentPower', 'powerFactor', 'voltageA', 'voltageB', 'voltageC',
    'currentA', 'currentB', 'currentC', 'frequency', 'dcVoltage', 'dcCurrent', 'dcPower', 'igbtTemperature', 'ambientTemperature',
    'todayChargeEnergy', 'todayDischargeEnergy', 'totalChargeEnergy', 'totalDischargeEnergy'],
  bms: ['state', 'soc', 'soh', 'voltage', 'current', 'power', 'maxCellVoltage', 'maxCellVoltagePosition', 'minCellVoltage',
    'minCellVoltagePosition', 'maxCellTemperature', 'maxCellTemperaturePosition', 'minCellTemperature', 'minCellTemperaturePosition',
    'allowedChargePower', 'allowedDischargePower', 'insulationResistancePositive', 'insulationResistanceNegative', 'clusterCount',
    'cycleCount', 'todayChargeEnergy', 'todayDischargeEnergy'],
  batteryCluster: ['state', 'soc', 'soh', 'voltage', 'current', 'power', 'maxCellVoltage', 'maxCellVoltagePosition', 'minCellVoltage',
    'minCellVoltagePosition', 'maxCellTemperature', 'maxCellTemperaturePosition', 'minCellTemperature', 'minCellTemperaturePosition',
    'cellVoltageDifference', 'insulationResistance', 'contactor', 'packCount'],
  batteryPack: ['soc', 'voltage', 'current', 'maxCellVoltage', 'minCellVoltage', 'maxCellTemperature', 'minCellTemperature',
    'avgCellTemperature', 'balancing'],
  airConditioner: ['onOff', 'mode', 'setTemperature', 'fanSpeed', 'cabinetTemperature', 'supplyAirTemperature', 'outdoorTemperature',
    'humidity', 'compressorRunning', 'heaterRunning', 'power'],
  dcdc: ['state', 'onOff', 'pvVoltage', 'pvCurrent', 'pvPower', 'batteryVoltage', 'batteryCurrent', 'outputPower', 'efficiency',
    'temperature', 'todayEnergy', 'totalEnergy'],
  pvInverter: ['state', 'onOff', 'activePower', 'reactivePower', 'powerFactor', 'dcPower', 'efficiency', 'internalTemperature',
    'irradiance', 'todayEnergy', 'totalEnergy'],
  transformer: ['loadRate', 'activePower', 'reactivePower', 'apparentPower', 'ratedCapacity', 'currentA', 'currentB', 'currentC',
    'windingTemperature', 'oilTemperature'],
  meter: ['activePower', 'reactivePower', 'powerFactor', 'voltageA', 'voltageB', 'voltageC', 'currentA', 'currentB', 'currentC',
    'frequency', 'demand', 'maxDemand', 'maxDemandTime'],
  chargingPile: ['state', 'onOff', 'power', 'outputPower', 'ratedPower', 'powerLimit', 'temperature', 'gunCount', 'todayEnergy',
    'totalEnergy', 'todaySessions'],
  chargingGun: ['state', 'power', 'voltage', 'current', 'maxPower', 'vehicleSoc', 'sessionEnergy', 'sessionDuration', 'temperature',
    'warnMask', 'totalEnergy'],
};

/** The figures listed for each child device (clusters of a BMS, packs of a cluster, guns of a pile, PCS/BMS of an ESS). */
export const MONITOR_CHILD_FIGURES: Partial<Record<DeviceType, readonly string[]>> = {
  pcs: ['state', 'onOff', 'activePower', 'todayChargeEnergy', 'todayDischargeEnergy'],
  bms: ['state', 'soc', 'soh', 'voltage', 'current', 'power'],
  batteryCluster: ['state', 'soc', 'voltage', 'current', 'maxCellVoltage', 'minCellVoltage', 'maxCellTemperature', 'minCellTemperature'],
  batteryPack: ['soc', 'voltage', 'current', 'maxCellVoltage', 'minCellVoltage', 'maxCellTemperature', 'minCellTemperature'],
  chargingGun: ['state', 'power', 'voltage', 'current', 'vehicleSoc', 'sessionEnergy', 'sessionDuration'],
  airConditioner: ['onOff', 'mode', 'setTemperature', 'cabinetTemperature', 'humidity'],
  dcdc: ['state', 'onOff', 'pvPower', 'outputPower'],
};

/**
 * The series of each chart call, identifiers of the device's thing model. The ESS chart is the
 * storage system's EMS; the quantity chart uses the PV inverter's cumulative `totalEnergy`.
 */
export const MONITOR_CHART_SERIES = {
  pvPower: ['activePower', 'dcPower', 'irradiance'],
  bms: ['soc', 'voltage', 'current', 'power', 'maxCellVoltage', 'minCellVoltage', 'maxCellTemperature', 'minCellTemperature'],
  ems: ['activePower', 'gridPower', 'loadPower', 'pvPower', 'chargingPilePower'],
  ess: ['activePower', 'soc', 'gridPower', 'loadPower'],
  pcs: ['activePower', 'reactivePower', 'dcPower'],
  transformer: ['activePower', 'reactivePower', 'apparentPower', 'loadRate'],
  meter: ['activePower', 'reactivePower', 'demand'],
  chargingGun: ['power', 'voltage', 'current', 'vehicleSoc'],
  dcdc: ['pvPower', 'outputPower', 'batteryVoltage', 'batteryCurrent'],
} as const;

// ── Requests ──────────────────────────────────────────────────────────────────────────

/** Chart buckets: 5-minute or hour rollups (charts never read raw reports). */
export const MONITOR_CHART_INTERVALS = ['5m', '1h'] as const;
export type MonitorChartInterval = (typeof MONITOR_CHART_INTERVALS)[number];

const endAfterStart = (v: { start: Date; end: Date }) => v.end.getTime() > v.start.getTime();
const endAfterStartMessage = { message: '结束时间须晚于开始时间', path: ['end'] };

/**
 * Power and value charts: one device, a range of at most 24 hours (product-spec §5; longer
 * ranges are refused with 406 "查询时间范围不能超过24小时"), buckets of 5 minutes (default) or hours.
 */
export const monitorChartBody = z
  .object({ deviceId: id, start: instant, end: instant, interval: z.enum(MONITOR_CHART_INTERVALS).default('5m') })
  .refine(endAfterStart, endAfterStartMessage);
export type MonitorChartBody = z.infer<typeof monitorChartBody>;

/**
 * Energy quantity per day (`day`: the range must lie within one station-local month — daily
 * statistics across months are refused) or per month (`month`: within one local year).
 */
export const QUANTITY_GRANULARITIES = ['day', 'month'] as const;
export const monitorQuantityBody = z
  .object({ deviceId: id, start: instant, end: instant, type: z.enum(QUANTITY_GRANULARITIES).default('day') })
  .refine(endAfterStart, endAfterStartMessage);
export type MonitorQuantityBody = z.infer<typeof monitorQuantityBody>;

/** POST with query parameters and no body. */
export const batteryClusterIdQuery = z.object({ batteryClusterId: id });
export const bmsIdQuery = z.object({ bmsId: id });

/** Cell distribution: histogram bucket widths (default 10 mV and 1 °C). */
export const cellDistributeBody = z.object({
  deviceId: id,
  voltageStep: z.number().min(0.001).max(0.5).default(0.01),
  temperatureStep: z.number().min(0.1).max(20).default(1),
});
export type CellDistributeBody = z.infer<typeof cellDistributeBody>;

/** Cell trend of a pack: max / min / average cell voltage and temperature per bucket (24 h at most). */
export const cellTrendBody = monitorChartBody;

/** The secondary password (docs/decisions/0007): the operator's own sign-in password, entered again. */
export const secondaryPassword = z.string().min(1, '二级密码不能为空').max(128);

/**
 * Every critical control call takes `password` (the secondary password), or may leave it out
 * within SECONDARY_PASSWORD_TTL_MS after a successful /monitor/air-conditioner/one/check/password
 * in the same session.
 */
const control = <T extends z.ZodRawShape>(shape: T) => z.object({ deviceId: id, password: secondaryPassword.optional(), ...shape });

export const SECONDARY_PASSWORD_TTL_MS = 5 * 60_000;

/** Check the secondary password (opens the session's window); deviceId names the device about to be operated. */
export const checkPasswordBody = z.object({ deviceId: id.optional(), password: secondaryPassword });

/** Reboot a charging pile. */
export const rebootBody = control({});
/** setProperty1: the pile's power limit (kW). */
export const pilePowerLimitBody = control({ powerLimit: z.number().min(0).max(1000) });
const valuesSchema = z
  .record(identifierSchema, telemetryValueSchema)
  .refine((v) => Object.keys(v).length > 0, 'values不能为空')
  .refine((v) => Object.keys(v).length <= 20, 'values最多20项');
/** setProperty2 (pile) and charging-gun setProperty: writable properties of the device's thing model. */
export const setPropertyBody = control({ values: valuesSchema });
/** Charging gun warning mask: bit i masks THING_MODEL.chargingGun.events[i]. */
export const warnMaskBody = control({ mask: z.number().int().min(0).max(0xffff) });
/** Air conditioner: power, mode (AIR_CONDITIONER_MODES) and fan speed; at least one. */
export const remoteSetBody = control({
  onOff: z.boolean().optional(),
  mode: z.number().int().min(1).max(5).optional(),
  fanSpeed: z.number().int().min(0).max(3).optional(),
}).refine((v) => v.onOff !== undefined || v.mode !== undefined || v.fanSpeed !== undefined, { message: '至少设置一项', path: ['onOff'] });
/** Air conditioner set point °C. */
export const temperatureBody = control({ setpoint: z.number().min(16).max(35) });
/** Switch a device on or off (pcs, dcdc, pvInverter, airConditioner, chargingPile). */
export const switchBody = control({ on: z.boolean() });
/**
 * Storage control on a PCS or EMS (extension, docs/decisions/0038-storage-control.md): `auto`
 * follows the strategy, `standby` holds the battery at 0 kW, `manual` holds `powerKw` (+ discharge,
 * − charge; |powerKw| at most the device's rated power, checked by the server) for `durationMin`
 * minutes, then the device returns to auto by itself.
 */
export const storageControlBody = control({
  mode: z.enum(STORAGE_MODES),
  powerKw: z.number().min(-100_000).max(100_000).optional(),
  durationMin: z.number().int('持续时间须为整数分钟').min(1, '持续时间应为1-1440分钟').max(STORAGE_MANUAL_MAX_MINUTES, '持续时间应为1-1440分钟').optional(),
})
  .refine((v) => v.mode !== 'manual' || v.powerKw !== undefined, { message: '手动模式须设定功率', path: ['powerKw'] })
  .refine((v) => v.mode !== 'manual' || v.durationMin !== undefined, { message: '手动模式须设定持续时间', path: ['durationMin'] })
  .refine((v) => v.mode === 'manual' || (v.powerKw === undefined && v.durationMin === undefined), { message: '只有手动模式可设定功率和持续时间', path: ['mode'] });
export type StorageControlBody = z.infer<typeof storageControlBody>;
/** Fault recover: query only (no body); one fault code or all. Needs a prior password check. */
export const faultRecoverQuery = z.object({ deviceId: id, code: z.string().trim().min(1).max(64).optional() });

/** Meter electric data: one meter, buckets of 5 minutes or hours (24 h at most) or days (within one local month). */
export const METER_DATA_INTERVALS = ['5m', '1h', '1d'] as const;
export const meterElectricDataBody = z
  .object({
    deviceCode: deviceCodeSchema,
    start: instant,
    end: instant,
    interval: z.enum(METER_DATA_INTERVALS).default('1h'),
  })
  .refine(endAfterStart, endAfterStartMessage);
export type MeterElectricDataBody = z.infer<typeof meterElectricDataBody>;
/** The same as query parameters, for the xlsx export. */
export const meterElectricExportQuery = meterElectricDataBody;

// ── Responses ─────────────────────────────────────────────────────────────────────────

/** One figure: a latest value with its property's name and unit (enumerations also labelled). */
export const monitorFigure = z.object({
  identifier: z.string(),
  name: z.string(),
  unit: z.string(),
  value: telemetryValueSchema.nullable(),
  valueLabel: z.string().optional(),
  colour: z.string().optional(),
});
export type MonitorFigure = z.infer<typeof monitorFigure>;

/** What every detail call returns: identity, status, all latest values and the type's summary. */
export const monitorDetail = z.object({
  /** Identity: code, name, type, station, product, firmware, status (online/offline/disabled/inactive from last-seen). */
  device: deviceRecord,
  /** Measurement time of the latest values (ISO), null when the device never reported. */
  ts: isoTime.nullable(),
  /** Every property of the thing model with its latest value. */
  properties: z.array(deviceProperty),
  /** MONITOR_SUMMARY of the device's type. */
  summary: z.array(monitorFigure),
});
export type MonitorDetail = z.infer<typeof monitorDetail>;

/** A child device in a detail (cluster of a BMS, pack of a cluster, gun of a pile, …). */
export const monitorChild = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  type: z.string(),
  status: deviceStatusSchema,
  /** Cluster or pile number. */
  no: z.number().nullable(),
  /** Position within the parent (pack in cluster, gun in pile). */
  subNo: z.number().nullable(),
  ts: isoTime.nullable(),
  /** MONITOR_CHILD_FIGURES of the child's type. */
  figures: z.array(monitorFigure),
});
export type MonitorChild = z.infer<typeof monitorChild>;

export const bmsDetail = monitorDetail.extend({ clusters: z.array(monitorChild) });
export type BmsDetail = z.infer<typeof bmsDetail>;
export const batteryClusterDetail = monitorDetail.extend({ packs: z.array(monitorChild) });
export type BatteryClusterDetail = z.infer<typeof batteryClusterDetail>;

/** One cell of a pack, numbered 1…PACK_CELL_COUNT. */
export const cellValue = z.object({ no: z.number(), voltage: z.number().nullable(), temperature: z.number().nullable() });
export type CellValue = z.infer<typeof cellValue>;
export const batteryPackDetail = monitorDetail.extend({ cells: z.array(cellValue) });
export type BatteryPackDetail = z.infer<typeof batteryPackDetail>;
export const chargingPileDetail = monitorDetail.extend({ guns: z.array(monitorChild) });
export type ChargingPileDetail = z.infer<typeof chargingPileDetail>;

/** A meter's registers per time-of-use period (and in total): latest readings, kWh. */
export const meterRegister = z.object({
  period: z.enum(['total', ...PRICE_PERIODS]),
  label: z.string(),
  forward: z.number().nullable(),
  reverse: z.number().nullable(),
});
export type MeterRegister = z.infer<typeof meterRegister>;
export const meterDetail = monitorDetail.extend({
  meterPurpose: z.string().nullable(),
  registers: z.array(meterRegister),
});
export type MeterDetail = z.infer<typeof meterDetail>;

/** The storage system of an EMS: its own figures and its converters and battery systems. */
export const essDetail = monitorDetail.extend({
  pcs: z.array(monitorChild),
  bms: z.array(monitorChild),
  airConditioners: z.array(monitorChild),
  /** Sums over the PCS children (kW, kWh) and the BMS average SOC; null when none reported. */
  totals: z.object({
    activePower: z.number().nullable(),
    todayChargeEnergy: z.number().nullable(),
    todayDischargeEnergy: z.number().nullable(),
    soc: z.number().nullable(),
  }),
});
export type EssDetail = z.infer<typeof essDetail>;

export const warnMaskBit = z.object({ bit: z.number(), code: z.string(), name: z.string(), masked: z.boolean() });
export type WarnMaskBit = z.infer<typeof warnMaskBit>;
/** A charging gun's warning mask as last reported, decoded bit by bit. */
export const warnMask = z.object({
  deviceId: z.number(),
  mask: z.number().nullable(),
  ts: isoTime.nullable(),
  bits: z.array(warnMaskBit),
});
export type WarnMask = z.infer<typeof warnMask>;

/** Charts: the history shape (series with points, min and max per bucket). */
export const monitorChart = deviceHistory;
export type MonitorChart = DeviceHistory;

/** Energy per day or month: [bucket start (epoch ms), kWh or null when nothing was reported]. */
export const quantityChart = z.object({
  deviceId: z.number(),
  type: z.enum(QUANTITY_GRANULARITIES),
  identifier: z.string(),
  name: z.string(),
  unit: z.string(),
  points: z.array(z.tuple([z.number(), z.number().nullable()])),
  total: z.number(),
});
export type QuantityChart = z.infer<typeof quantityChart>;

/** Packs of a cluster or clusters of a BMS, with their headline figures. */
export const simpleList = z.array(monitorChild);
export type SimpleList = z.infer<typeof simpleList>;

export const histogramBucket = z.object({
  /** [from, to) */
  from: z.number(),
  to: z.number(),
  count: z.number(),
});
export type HistogramBucket = z.infer<typeof histogramBucket>;
const cellStats = <U extends string>(unit: U) =>
  z.object({ histogram: z.array(histogramBucket), max: z.number().nullable(), min: z.number().nullable(), avg: z.number().nullable(), unit: z.literal(unit) });
export const cellDistribution = z.object({
  deviceId: z.number(),
  ts: isoTime.nullable(),
  /** Per cell, for a heat map: pack (its subNo within the cluster; 1 for a pack's own call) and cell number. */
  cells: z.array(z.object({ packId: z.number(), packNo: z.number().nullable(), no: z.number(), voltage: z.number().nullable(), temperature: z.number().nullable() })),
  voltage: cellStats('V'),
  temperature: cellStats('°C'),
});
export type CellDistribution = z.infer<typeof cellDistribution>;

/** [bucket start, max, min, avg] */
const trendPoint = z.tuple([z.number(), z.number().nullable(), z.number().nullable(), z.number().nullable()]);
/** Cell trend: per bucket, the max / min / avg over the pack's cells of the bucket averages. */
export const cellTrend = z.object({
  deviceId: z.number(),
  interval: z.enum(MONITOR_CHART_INTERVALS),
  start: isoTime,
  end: isoTime,
  voltage: z.array(trendPoint),
  temperature: z.array(trendPoint),
});
export type CellTrend = z.infer<typeof cellTrend>;

export const CONTROL_RESULTS = ['ok', 'error', 'timeout', 'refused', 'failed'] as const;
export type ControlResultKind = (typeof CONTROL_RESULTS)[number];

/** A device's answer to a control call. Refusals, device errors and timeouts come as error envelopes. */
export const controlResult = z.object({
  requestId: z.string(),
  command: z.string(),
  ok: z.literal(true),
  result: z.record(z.string(), z.unknown()),
  durationMs: z.number(),
});
export type ControlResult = z.infer<typeof controlResult>;

export const passwordCheckResult = z.object({
  ok: z.literal(true),
  /** Until when (ISO) critical calls of this session may leave the password out. */
  validUntil: isoTime,
});
export type PasswordCheckResult = z.infer<typeof passwordCheckResult>;

/** One row of meter electric data: a bucket's power and register readings and the energy in it. */
export const meterElectricRow = z.object({
  /** Bucket start (ISO) and station-local label (YYYY-MM-DD HH:mm). */
  time: isoTime,
  localTime: z.string(),
  activePowerAvg: z.number().nullable(),
  activePowerMax: z.number().nullable(),
  demandMax: z.number().nullable(),
  /** Register readings at the end of the bucket, kWh, by identifier (forwardActiveEnergy, …Tip, …). */
  registers: z.record(z.string(), z.number().nullable()),
  /** Energy within the bucket (reading minus the previous reading), kWh. */
  forwardEnergy: z.number().nullable(),
  reverseEnergy: z.number().nullable(),
});
export type MeterElectricRow = z.infer<typeof meterElectricRow>;
export const meterElectricData = z.object({
  deviceId: z.number(),
  deviceCode: z.string(),
  deviceName: z.string(),
  siteName: z.string(),
  timeZone: z.string(),
  interval: z.enum(METER_DATA_INTERVALS),
  rows: z.array(meterElectricRow),
});
export type MeterElectricData = z.infer<typeof meterElectricData>;

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

const detailOne = <R extends z.ZodType>(path: string, response: R) =>
  endpoint({ method: 'GET', path, query: deviceIdQuery, response });
const chartOf = (path: string) => endpoint({ method: 'POST', path, body: monitorChartBody, response: monitorChart });

/** Device monitoring: live values, faults and history of any device, the per-type details and charts, battery cells and remote control. */
export const monitorEndpoints = {
  // Any device
  properties: endpoint({ method: 'GET', path: '/monitor/device/properties', query: deviceIdQuery, response: deviceProperties }),
  faultWarning: endpoint({ method: 'GET', path: '/monitor/device/one/faultWarning', query: deviceIdQuery, response: deviceFaultWarning }),
  history: endpoint({ method: 'POST', path: '/monitor/device/one/history', body: deviceHistoryBody, response: deviceHistory }),

  // A station's energy picture (/monitor/energy): the same answer as /comprehensive/site/overview
  // (one computation: live power, the station-local today's energy, the lifetime totals).
  energyOverview: endpoint({ method: 'GET', path: '/monitor/energy/overview', query: siteIdQuery, response: siteOverview }),

  // Per-type detail
  pvOne: detailOne('/monitor/pv/one', monitorDetail),
  bmsOne: detailOne('/monitor/bms/one', bmsDetail),
  emsOne: detailOne('/monitor/ems/one', monitorDetail),
  essOne: detailOne('/monitor/ess/query/one', essDetail),
  pcsOne: detailOne('/monitor/pcs/one', monitorDetail),
  normalOne: detailOne('/monitor/normal/one', monitorDetail),
  batteryPackOne: detailOne('/monitor/battery-pack/one', batteryPackDetail),
  transformerOne: detailOne('/monitor/transformer/one', monitorDetail),
  chargingPileOne: detailOne('/monitor/charging-pile/one', chargingPileDetail),
  electricMeterOne: detailOne('/monitor/electric-meter/one', meterDetail),
  airConditionerOne: detailOne('/monitor/air-conditioner/one', monitorDetail),
  batteryClusterOne: detailOne('/monitor/battery-cluster/one', batteryClusterDetail),
  chargingGunOne: detailOne('/monitor/charging-gun/one', monitorDetail),
  dcdcOne: detailOne('/monitor/dcdc/one', monitorDetail),
  chargingGunWarnMask: detailOne('/monitor/charging-gun/one/getWarnMask', warnMask),

  // Charts (rollups, 24 hours at most)
  pvPower: chartOf('/monitor/pv/one/power'),
  pvQuantity: endpoint({ method: 'POST', path: '/monitor/pv/one/quantity', body: monitorQuantityBody, response: quantityChart }),
  bmsChart: chartOf('/monitor/bms/one/chart'),
  emsChart: chartOf('/monitor/ems/one/chat'),
  essChart: chartOf('/monitor/ess/one/chat'),
  pcsPower: chartOf('/monitor/pcs/one/power'),
  transformerPower: chartOf('/monitor/transformer/one/power'),
  electricMeterPower: chartOf('/monitor/electric-meter/one/power'),
  chargingGunPower: chartOf('/monitor/charging-gun/one/power'),
  dcdcChart: chartOf('/monitor/dcdc/one/chat'),

  // Battery
  packList: endpoint({ method: 'POST', path: '/monitor/battery-pack/simple-list', query: batteryClusterIdQuery, response: simpleList }),
  packCells: endpoint({ method: 'POST', path: '/monitor/battery-pack/one/cells/distribute', body: cellDistributeBody, response: cellDistribution }),
  packCellTrend: endpoint({ method: 'POST', path: '/monitor/battery-pack/one/cells/trend', body: cellTrendBody, response: cellTrend }),
  clusterList: endpoint({ method: 'POST', path: '/monitor/battery-cluster/simple-list', query: bmsIdQuery, response: simpleList }),
  clusterCells: endpoint({ method: 'POST', path: '/monitor/battery-cluster/one/cell/distribute', body: cellDistributeBody, response: cellDistribution }),

  // Control (MQTT command → device reply)
  pileReboot: endpoint({ method: 'POST', path: '/monitor/charging-pile/one/reboot', body: rebootBody, response: controlResult }),
  pilePowerLimit: endpoint({ method: 'POST', path: '/monitor/charging-pile/one/setProperty1', body: pilePowerLimitBody, response: controlResult }),
  pileSetProperty: endpoint({ method: 'POST', path: '/monitor/charging-pile/one/setProperty2', body: setPropertyBody, response: controlResult }),
  gunSetProperty: endpoint({ method: 'POST', path: '/monitor/charging-gun/one/setProperty', body: setPropertyBody, response: controlResult }),
  gunWarnMask: endpoint({ method: 'POST', path: '/monitor/charging-gun/one/warnMask', body: warnMaskBody, response: controlResult }),
  acRemoteSet: endpoint({ method: 'POST', path: '/monitor/air-conditioner/one/remoteSet', body: remoteSetBody, response: controlResult }),
  acTemperature: endpoint({ method: 'POST', path: '/monitor/air-conditioner/one/temperature', body: temperatureBody, response: controlResult }),
  checkPassword: endpoint({ method: 'POST', path: '/monitor/air-conditioner/one/check/password', body: checkPasswordBody, response: passwordCheckResult }),
  faultRecover: endpoint({ method: 'POST', path: '/monitor/device/one/faultRecover', query: faultRecoverQuery, response: controlResult }),
  switch: endpoint({ method: 'POST', path: '/monitor/device/one/switch', body: switchBody, response: controlResult }),
  /** Extension (docs/decisions/0038): storage mode of a PCS or EMS — auto, standby, or manual charge/discharge for a duration. */
  storageControl: endpoint({ method: 'POST', path: '/monitor/storage/one/control', body: storageControlBody, response: controlResult }),
};

/** Meter data (api-catalogue "Meter data"): one meter's electric data per bucket, and its xlsx export. */
export const meterEndpoints = {
  electricData: endpoint({ method: 'POST', path: '/meter/electric/data', body: meterElectricDataBody, response: meterElectricData }),
  electricExport: endpoint({ method: 'GET', path: '/meter/electric/data/export', query: meterElectricExportQuery, response: FILE }),
};
