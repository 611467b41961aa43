import { z } from 'zod';
import { id, instant } from './common.ts';
import { PRICE_PERIODS } from './constants.ts';
import type { DeviceHistory, DeviceProperty, DeviceRecord, DeviceStatus } from './device.ts';
import { deviceCodeSchema, identifierSchema, telemetryValueSchema, type DeviceType, type TelemetryValue } from './telemetry.ts';

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
export interface MonitorFigure {
  identifier: string;
  name: string;
  unit: string;
  value: TelemetryValue | null;
  valueLabel?: string;
  colour?: string;
}

/** What every detail call returns: identity, status, all latest values and the type's summary. */
export interface MonitorDetail {
  /** Identity: code, name, type, station, product, firmware, status (online/offline/disabled/inactive from last-seen). */
  device: DeviceRecord;
  /** Measurement time of the latest values (ISO), null when the device never reported. */
  ts: string | null;
  /** Every property of the thing model with its latest value. */
  properties: DeviceProperty[];
  /** MONITOR_SUMMARY of the device's type. */
  summary: MonitorFigure[];
}

/** A child device in a detail (cluster of a BMS, pack of a cluster, gun of a pile, …). */
export interface MonitorChild {
  id: number;
  code: string;
  name: string;
  type: string;
  status: DeviceStatus;
  /** Cluster or pile number. */
  no: number | null;
  /** Position within the parent (pack in cluster, gun in pile). */
  subNo: number | null;
  ts: string | null;
  /** MONITOR_CHILD_FIGURES of the child's type. */
  figures: MonitorFigure[];
}

export interface BmsDetail extends MonitorDetail {
  clusters: MonitorChild[];
}
export interface BatteryClusterDetail extends MonitorDetail {
  packs: MonitorChild[];
}

/** One cell of a pack, numbered 1…PACK_CELL_COUNT. */
export interface CellValue {
  no: number;
  voltage: number | null;
  temperature: number | null;
}
export interface BatteryPackDetail extends MonitorDetail {
  cells: CellValue[];
}
export interface ChargingPileDetail extends MonitorDetail {
  guns: MonitorChild[];
}

/** A meter's registers per time-of-use period (and in total): latest readings, kWh. */
export interface MeterRegister {
  period: 'total' | (typeof PRICE_PERIODS)[number];
  label: string;
  forward: number | null;
  reverse: number | null;
}
export interface MeterDetail extends MonitorDetail {
  meterPurpose: string | null;
  registers: MeterRegister[];
}

/** The storage system of an EMS: its own figures and its converters and battery systems. */
export interface EssDetail extends MonitorDetail {
  pcs: MonitorChild[];
  bms: MonitorChild[];
  airConditioners: MonitorChild[];
  /** Sums over the PCS children (kW, kWh) and the BMS average SOC; null when none reported. */
  totals: {
    activePower: number | null;
    todayChargeEnergy: number | null;
    todayDischargeEnergy: number | null;
    soc: number | null;
  };
}

export interface WarnMaskBit {
  bit: number;
  code: string;
  name: string;
  masked: boolean;
}
/** A charging gun's warning mask as last reported, decoded bit by bit. */
export interface WarnMask {
  deviceId: number;
  mask: number | null;
  ts: string | null;
  bits: WarnMaskBit[];
}

/** Charts: the history shape (series with points, min and max per bucket). */
export type MonitorChart = DeviceHistory;

/** Energy per day or month: [bucket start (epoch ms), kWh or null when nothing was reported]. */
export interface QuantityChart {
  deviceId: number;
  type: (typeof QUANTITY_GRANULARITIES)[number];
  identifier: string;
  name: string;
  unit: string;
  points: [number, number | null][];
  total: number;
}

/** Packs of a cluster or clusters of a BMS, with their headline figures. */
export type SimpleList = MonitorChild[];

export interface HistogramBucket {
  /** [from, to) */
  from: number;
  to: number;
  count: number;
}
export interface CellDistribution {
  deviceId: number;
  ts: string | null;
  /** Per cell, for a heat map: pack (its subNo within the cluster; 1 for a pack's own call) and cell number. */
  cells: { packId: number; packNo: number | null; no: number; voltage: number | null; temperature: number | null }[];
  voltage: { histogram: HistogramBucket[]; max: number | null; min: number | null; avg: number | null; unit: 'V' };
  temperature: { histogram: HistogramBucket[]; max: number | null; min: number | null; avg: number | null; unit: '°C' };
}

/** Cell trend: per bucket, the max / min / avg over the pack's cells of the bucket averages. */
export interface CellTrend {
  deviceId: number;
  interval: MonitorChartInterval;
  start: string;
  end: string;
  /** [bucket start, max, min, avg] */
  voltage: [number, number | null, number | null, number | null][];
  temperature: [number, number | null, number | null, number | null][];
}

export const CONTROL_RESULTS = ['ok', 'error', 'timeout', 'refused', 'failed'] as const;
export type ControlResultKind = (typeof CONTROL_RESULTS)[number];

/** A device's answer to a control call. Refusals, device errors and timeouts come as error envelopes. */
export interface ControlResult {
  requestId: string;
  command: string;
  ok: true;
  result: Record<string, unknown>;
  durationMs: number;
}

export interface PasswordCheckResult {
  ok: true;
  /** Until when (ISO) critical calls of this session may leave the password out. */
  validUntil: string;
}

/** One row of meter electric data: a bucket's power and register readings and the energy in it. */
export interface MeterElectricRow {
  /** Bucket start (ISO) and station-local label (YYYY-MM-DD HH:mm). */
  time: string;
  localTime: string;
  activePowerAvg: number | null;
  activePowerMax: number | null;
  demandMax: number | null;
  /** Register readings at the end of the bucket, kWh, by identifier (forwardActiveEnergy, …Tip, …). */
  registers: Record<string, number | null>;
  /** Energy within the bucket (reading minus the previous reading), kWh. */
  forwardEnergy: number | null;
  reverseEnergy: number | null;
}
export interface MeterElectricData {
  deviceId: number;
  deviceCode: string;
  deviceName: string;
  siteName: string;
  timeZone: string;
  interval: (typeof METER_DATA_INTERVALS)[number];
  rows: MeterElectricRow[];
}

