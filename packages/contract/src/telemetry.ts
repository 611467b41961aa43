import { z } from 'zod';
import { PRICE_PERIODS } from './constants.ts';
import { applyStrategyParams, demandGuardParams } from './strategy.ts';

/**
 * Device ↔ server messages over MQTT and the "thing model" (what each device type reports).
 * Described for humans in docs/mqtt.md; apps/simulator publishes exactly this, the server's
 * ingest validates against it and seeds products from THING_MODEL.
 */

// ── Topics ────────────────────────────────────────────────────────────────────────────

export const MQTT_TOPIC_ROOT = 'ess';
/** Every message (telemetry, event, status, command, reply) is published with QoS 1. */
export const MQTT_QOS = 1;

/** `ota` and `log`: the device's firmware-upgrade and log-upload reports (ota.ts). */
export const TOPIC_KINDS = ['telemetry', 'event', 'status', 'command', 'command/reply', 'ota', 'log'] as const;
export type TopicKind = (typeof TOPIC_KINDS)[number];

/** Station and device codes travel as topic levels: no '/', '+', '#' or spaces. */
export const deviceCodeSchema = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'code must be 1–64 of A–Z a–z 0–9 _ . -');

/** `ess/{siteCode}/{deviceCode}/{kind}` */
export function deviceTopic(siteCode: string, deviceCode: string, kind: TopicKind): string {
  return `${MQTT_TOPIC_ROOT}/${siteCode}/${deviceCode}/${kind}`;
}

/** Wildcard subscriptions for the server's ingest (prefix `$share/<group>/` for shared subscriptions). */
export const SERVER_SUBSCRIPTIONS = {
  telemetry: `${MQTT_TOPIC_ROOT}/+/+/telemetry`,
  event: `${MQTT_TOPIC_ROOT}/+/+/event`,
  status: `${MQTT_TOPIC_ROOT}/+/+/status`,
  commandReply: `${MQTT_TOPIC_ROOT}/+/+/command/reply`,
  ota: `${MQTT_TOPIC_ROOT}/+/+/ota`,
  log: `${MQTT_TOPIC_ROOT}/+/+/log`,
} as const;

export interface ParsedTopic {
  siteCode: string;
  deviceCode: string;
  kind: TopicKind;
}

/** The inverse of deviceTopic; null for anything that is not one of our topics. */
export function parseDeviceTopic(topic: string): ParsedTopic | null {
  const parts = topic.split('/');
  if (parts.length < 4 || parts.length > 5 || parts[0] !== MQTT_TOPIC_ROOT) return null;
  const [, siteCode, deviceCode, ...rest] = parts;
  const kind = rest.join('/');
  if (!siteCode || !deviceCode || !(TOPIC_KINDS as readonly string[]).includes(kind)) return null;
  return { siteCode, deviceCode, kind: kind as TopicKind };
}

// ── Payloads ──────────────────────────────────────────────────────────────────────────

/** product-spec §5: identifiers use lower camel case. */
export const identifierSchema = z.string().regex(/^[a-z][a-zA-Z0-9]*$/, 'identifier must be lower camel case').max(64);
export const telemetryValueSchema = z.union([z.number().finite(), z.string().max(256), z.boolean()]);
export type TelemetryValue = z.infer<typeof telemetryValueSchema>;
const epochMs = z.number().int().nonnegative();

/** `ess/{site}/{device}/telemetry`, not retained. `seq` increases per device for the life of the publisher. */
export const telemetryPayloadSchema = z.object({
  ts: epochMs,
  seq: z.number().int().nonnegative(),
  values: z.record(identifierSchema, telemetryValueSchema),
});
export type TelemetryPayload = z.infer<typeof telemetryPayloadSchema>;

/** `ess/{site}/{device}/event`: a fault appears (active true) or clears (active false). */
export const eventPayloadSchema = z.object({
  ts: epochMs,
  code: z.string().min(1).max(64),
  active: z.boolean(),
  message: z.string().max(500),
});
export type EventPayload = z.infer<typeof eventPayloadSchema>;

/**
 * `ess/{site}/{device}/status`, retained. Also the MQTT last will of each station's connection,
 * on the station gateway's (EMS's) topic; a will's ts is the time the connection was opened.
 */
/** The firmware a device runs (device.firmware_name / firmware_version). */
export const firmwareInfoSchema = z.object({
  name: z.string().min(1).max(64),
  version: z.string().min(1).max(32),
});
export type FirmwareInfo = z.infer<typeof firmwareInfoSchema>;

export const statusPayloadSchema = z.object({
  ts: epochMs,
  online: z.boolean(),
  /** What the device runs; sent when it comes online (optional: wills and older gateways omit it). */
  firmware: firmwareInfoSchema.optional(),
});
export type StatusPayload = z.infer<typeof statusPayloadSchema>;

export const COMMAND_NAMES = ['reboot', 'setProperty', 'switch', 'faultRecover', 'remoteSet', 'temperature', 'warnMask', 'storageMode', 'applyStrategy', 'demandGuard'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

const commandBase = {
  requestId: z.string().min(1).max(64),
  ts: epochMs,
};

/** Air-conditioner operating modes (the `mode` enum of airConditioner telemetry and remoteSet). */
export const AIR_CONDITIONER_MODES = [
  { value: 1, label: '制冷' },
  { value: 2, label: '制热' },
  { value: 3, label: '送风' },
  { value: 4, label: '除湿' },
  { value: 5, label: '自动' },
] as const;

/** Storage operating modes of the storageMode command; the EMS reports them as runMode 0, 1, 2. */
export const STORAGE_MODES = ['auto', 'manual', 'standby'] as const;
export type StorageMode = (typeof STORAGE_MODES)[number];
/** runMode value of each storage mode (EMS_RUN_MODES). */
export const STORAGE_MODE_RUN_MODE: Record<StorageMode, 0 | 1 | 2> = { auto: 0, manual: 1, standby: 2 };
/** Longest manual period of one storageMode command, minutes (a day). */
export const STORAGE_MANUAL_MAX_MINUTES = 1440;

/** `ess/{site}/{device}/command`, server → device. */
export const commandPayloadSchema = z.discriminatedUnion('command', [
  z.object({ ...commandBase, command: z.literal('reboot'), params: z.object({}) }),
  /** Writes writable properties of the thing model (see ThingProperty.writable). */
  z.object({
    ...commandBase,
    command: z.literal('setProperty'),
    params: z.object({ values: z.record(identifierSchema, telemetryValueSchema) }),
  }),
  z.object({ ...commandBase, command: z.literal('switch'), params: z.object({ on: z.boolean() }) }),
  /** Clears one active fault, or all of the device's faults when code is absent. */
  z.object({ ...commandBase, command: z.literal('faultRecover'), params: z.object({ code: z.string().min(1).optional() }) }),
  /** Air conditioner: power, mode (AIR_CONDITIONER_MODES) and fan speed (0 auto, 1–3). */
  z.object({
    ...commandBase,
    command: z.literal('remoteSet'),
    params: z.object({
      onOff: z.boolean().optional(),
      mode: z.number().int().min(1).max(5).optional(),
      fanSpeed: z.number().int().min(0).max(3).optional(),
    }),
  }),
  /** Air conditioner: temperature set point °C. */
  z.object({ ...commandBase, command: z.literal('temperature'), params: z.object({ setpoint: z.number().min(16).max(35) }) }),
  /** Charging gun: with mask, sets the warning mask; without, reads it. Reply result { mask }. */
  z.object({
    ...commandBase,
    command: z.literal('warnMask'),
    params: z.object({ mask: z.number().int().min(0).max(0xffff).optional() }),
  }),
  /**
   * EMS or PCS: the storage's operating mode (docs/decisions/0038-storage-control.md). `auto`
   * follows the strategy, `standby` holds the battery at 0 kW, `manual` holds `powerKw`
   * (+ discharge, − charge; |powerKw| ≤ the rated power) and, with `durationMin`, returns to auto
   * by itself when the duration ends. Reply result { mode, powerKw, durationMin, until }.
   */
  z.object({
    ...commandBase,
    command: z.literal('storageMode'),
    params: z.object({
      mode: z.enum(STORAGE_MODES),
      powerKw: z.number().finite().optional(),
      durationMin: z.number().int().min(1).max(STORAGE_MANUAL_MAX_MINUTES).optional(),
    }),
  }),
  /** EMS: run this operation strategy (strategy.ts); reply result { hash } of what it applied. */
  z.object({ ...commandBase, command: z.literal('applyStrategy'), params: applyStrategyParams }),
  /** EMS: discharge at least dischargeKw until `until` (epoch ms); reply result { dischargeKw } granted. */
  z.object({ ...commandBase, command: z.literal('demandGuard'), params: demandGuardParams }),
]);
export type CommandPayload = z.infer<typeof commandPayloadSchema>;

/** `ess/{site}/{device}/command/reply`, device → server, answering one command by requestId. */
export const commandReplySchema = z.object({
  requestId: z.string().min(1).max(64),
  ok: z.boolean(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.string().max(500).optional(),
});
export type CommandReply = z.infer<typeof commandReplySchema>;

// ── Device types ──────────────────────────────────────────────────────────────────────

export const DEVICE_TYPES = [
  'ems', 'pcs', 'bms', 'batteryCluster', 'batteryPack', 'airConditioner', 'dcdc',
  'pvInverter', 'transformer', 'meter', 'chargingPile', 'chargingGun',
] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];
export const deviceTypeSchema = z.enum(DEVICE_TYPES);

export const DEVICE_TYPE_LABELS: Record<DeviceType, string> = {
  ems: '能量管理系统',
  pcs: '储能变流器',
  bms: '电池管理系统',
  batteryCluster: '电池簇',
  batteryPack: '电池包',
  airConditioner: '空调',
  dcdc: 'DC/DC变换器',
  pvInverter: '光伏逆变器',
  transformer: '变压器',
  meter: '电表',
  chargingPile: '充电桩',
  chargingGun: '充电枪',
};

/**
 * Meter purposes, and which way "forward" means for each:
 * main: forward = import from the grid, reverse = export;
 * storage: forward = charging the storage, reverse = discharging;
 * pv: forward = generation delivered by the PV system;
 * pile: forward = energy delivered to the charging piles.
 */
export const METER_PURPOSES = ['main', 'storage', 'pv', 'pile'] as const;
export type MeterPurpose = (typeof METER_PURPOSES)[number];
export const meterPurposeSchema = z.enum(METER_PURPOSES);
export const METER_PURPOSE_LABELS: Record<MeterPurpose, string> = {
  main: '关口表',
  storage: '储能表',
  pv: '光伏表',
  pile: '充电桩表',
};

// ── Thing model ───────────────────────────────────────────────────────────────────────

export type ThingDataType = 'float' | 'int' | 'enum' | 'bool' | 'string';

export interface ThingEnumValue {
  value: number;
  label: string;
  colour?: string;
}

export interface ThingProperty {
  identifier: string;
  /** Simplified Chinese source text (language packs translate it). */
  label: string;
  /** '' when dimensionless. */
  unit: string;
  dataType: ThingDataType;
  enumValues?: readonly ThingEnumValue[];
  /** A register that only grows (energy counters): settle by differences. */
  cumulative?: boolean;
  /** Settable with the setProperty command, within min..max for numbers. */
  writable?: boolean;
  min?: number;
  max?: number;
}

export interface ThingEvent {
  code: string;
  label: string;
  /** Suggested alarm level 1–5 (1 most severe) for the alarm dictionary. */
  level: 1 | 2 | 3 | 4 | 5;
}

export interface ThingModel {
  type: DeviceType;
  label: string;
  properties: readonly ThingProperty[];
  events: readonly ThingEvent[];
  commands: readonly CommandName[];
}

/** Cells per battery pack: a pack reports cellVoltage1…N and cellTemperature1…N. */
export const PACK_CELL_COUNT = 16;
/** MPPT trackers per PV inverter: mppt1Voltage … mppt{N}Power. */
export const PV_MPPT_COUNT = 4;

const OK_GREEN = '#52c41a';
const IDLE_BLUE = '#1677ff';
const GREY = '#8c8c8c';
const FAULT_RED = '#f5222d';
const WARN_ORANGE = '#fa8c16';

/** PCS, DCDC, PV inverter running state. */
export const RUN_STATES = [
  { value: 0, label: '停机', colour: GREY },
  { value: 1, label: '待机', colour: IDLE_BLUE },
  { value: 2, label: '运行', colour: OK_GREEN },
  { value: 3, label: '故障', colour: FAULT_RED },
] as const satisfies readonly ThingEnumValue[];

export const BMS_STATES = [
  { value: 0, label: '静置', colour: IDLE_BLUE },
  { value: 1, label: '充电', colour: OK_GREEN },
  { value: 2, label: '放电', colour: WARN_ORANGE },
  { value: 3, label: '故障', colour: FAULT_RED },
] as const satisfies readonly ThingEnumValue[];

/** Charging gun states (DOMAIN.md §1). */
export const GUN_STATES = [
  { value: 0, label: '空闲', colour: IDLE_BLUE },
  { value: 1, label: '已插枪', colour: WARN_ORANGE },
  { value: 2, label: '充电中', colour: OK_GREEN },
  { value: 3, label: '充电完成', colour: '#13c2c2' },
  { value: 4, label: '故障', colour: FAULT_RED },
  { value: 5, label: '离线', colour: GREY },
] as const satisfies readonly ThingEnumValue[];

export const EMS_RUN_MODES = [
  { value: 0, label: '自动（分时策略）' },
  { value: 1, label: '手动' },
  { value: 2, label: '待机' },
] as const satisfies readonly ThingEnumValue[];

export const EMS_STRATEGY_STATES = [
  { value: 0, label: '待机', colour: IDLE_BLUE },
  { value: 1, label: '充电', colour: OK_GREEN },
  { value: 2, label: '放电', colour: WARN_ORANGE },
] as const satisfies readonly ThingEnumValue[];

const PERIOD_LABELS: Record<(typeof PRICE_PERIODS)[number], string> = {
  tip: '尖', peak: '峰', flat: '平', valley: '谷', deepValley: '深谷',
};
/** touPeriod values are indexes into PRICE_PERIODS. */
export const TOU_PERIOD_VALUES: readonly ThingEnumValue[] = PRICE_PERIODS.map((p, i) => ({ value: i, label: PERIOD_LABELS[p] }));

const f = (identifier: string, label: string, unit = '', extra: Partial<ThingProperty> = {}): ThingProperty => ({
  identifier, label, unit, dataType: 'float', ...extra,
});
const int = (identifier: string, label: string, unit = '', extra: Partial<ThingProperty> = {}): ThingProperty => ({
  identifier, label, unit, dataType: 'int', ...extra,
});
const en = (identifier: string, label: string, enumValues: readonly ThingEnumValue[], extra: Partial<ThingProperty> = {}): ThingProperty => ({
  identifier, label, unit: '', dataType: 'enum', enumValues, ...extra,
});
const bool = (identifier: string, label: string, extra: Partial<ThingProperty> = {}): ThingProperty => ({
  identifier, label, unit: '', dataType: 'bool', ...extra,
});
const str = (identifier: string, label: string): ThingProperty => ({ identifier, label, unit: '', dataType: 'string' });
const energy = (identifier: string, label: string): ThingProperty => f(identifier, label, 'kWh', { cumulative: true });
const phases = (name: 'voltage' | 'current', label: string, unit: string): ThingProperty[] =>
  (['A', 'B', 'C'] as const).map((ph) => f(`${name}${ph}`, `${ph}相${label}`, unit));
const acSide = (): ThingProperty[] => [
  ...phases('voltage', '电压', 'V'), ...phases('current', '电流', 'A'), f('frequency', '频率', 'Hz'),
];

/** `forwardActiveEnergyTip`, … ; without a period, the total register. */
export function meterRegisterIdentifier(direction: 'forward' | 'reverse', period?: (typeof PRICE_PERIODS)[number]): string {
  return period ? `${direction}ActiveEnergy${period[0]!.toUpperCase()}${period.slice(1)}` : `${direction}ActiveEnergy`;
}

const meterRegisters = (): ThingProperty[] =>
  (['forward', 'reverse'] as const).flatMap((dir) => {
    const dirLabel = dir === 'forward' ? '正向有功电能' : '反向有功电能';
    return [
      energy(meterRegisterIdentifier(dir), `${dirLabel}（总）`),
      ...PRICE_PERIODS.map((p) => energy(meterRegisterIdentifier(dir, p), `${dirLabel}（${PERIOD_LABELS[p]}）`)),
    ];
  });

const cellProps = (): ThingProperty[] => [
  ...Array.from({ length: PACK_CELL_COUNT }, (_, i) => f(`cellVoltage${i + 1}`, `${i + 1}号电芯电压`, 'V')),
  ...Array.from({ length: PACK_CELL_COUNT }, (_, i) => f(`cellTemperature${i + 1}`, `${i + 1}号电芯温度`, '°C')),
];

const mpptProps = (): ThingProperty[] =>
  Array.from({ length: PV_MPPT_COUNT }, (_, i) => [
    f(`mppt${i + 1}Voltage`, `MPPT${i + 1}电压`, 'V'),
    f(`mppt${i + 1}Current`, `MPPT${i + 1}电流`, 'A'),
    f(`mppt${i + 1}Power`, `MPPT${i + 1}功率`, 'kW'),
  ]).flat();

/** Cell positions are reported as text "cluster-pack-cell" (BMS) or "pack-cell" (cluster), 1-based. */
const cellExtremes = (withPositions: boolean): ThingProperty[] => [
  f('maxCellVoltage', '最高单体电压', 'V'),
  ...(withPositions ? [str('maxCellVoltagePosition', '最高单体电压位置')] : []),
  f('minCellVoltage', '最低单体电压', 'V'),
  ...(withPositions ? [str('minCellVoltagePosition', '最低单体电压位置')] : []),
  f('maxCellTemperature', '最高单体温度', '°C'),
  ...(withPositions ? [str('maxCellTemperaturePosition', '最高单体温度位置')] : []),
  f('minCellTemperature', '最低单体温度', '°C'),
  ...(withPositions ? [str('minCellTemperaturePosition', '最低单体温度位置')] : []),
];

const ALL: readonly CommandName[] = ['reboot', 'faultRecover'];

/** What each device type reports, which events it raises and which commands it accepts. */
export const THING_MODEL: Record<DeviceType, ThingModel> = {
  ems: {
    type: 'ems',
    label: DEVICE_TYPE_LABELS.ems,
    properties: [
      en('runMode', '运行模式', EMS_RUN_MODES, { writable: true }),
      en('strategyState', '策略状态', EMS_STRATEGY_STATES),
      en('touPeriod', '当前电价时段', TOU_PERIOD_VALUES),
      f('soc', 'SOC', '%'),
      f('activePower', '储能有功功率', 'kW'),
      f('gridPower', '电网功率', 'kW'),
      f('loadPower', '负荷功率', 'kW'),
      f('pvPower', '光伏功率', 'kW'),
      f('chargingPilePower', '充电桩功率', 'kW'),
      f('manualPowerSetpoint', '手动功率设定', 'kW', { writable: true, min: -10000, max: 10000 }),
      int('manualEndTime', '手动模式结束时间', 'ms'),
      f('chargePowerSetpoint', '充电功率设定', 'kW', { writable: true, min: 0, max: 10000 }),
      f('dischargePowerSetpoint', '放电功率设定', 'kW', { writable: true, min: 0, max: 10000 }),
      f('socUpperLimit', 'SOC上限', '%', { writable: true, min: 50, max: 100 }),
      f('socLowerLimit', 'SOC下限', '%', { writable: true, min: 0, max: 50 }),
      f('transformerProtectionPower', '变压器保护功率', 'kW', { writable: true, min: 0, max: 100000 }),
      bool('antiBackflow', '防逆流', { writable: true }),
      f('demandLimit', '需量限值', 'kW', { writable: true, min: 0, max: 100000 }),
      f('todayChargeEnergy', '今日充电量', 'kWh'),
      f('todayDischargeEnergy', '今日放电量', 'kWh'),
      f('todayPvEnergy', '今日光伏发电量', 'kWh'),
      f('todayLoadEnergy', '今日负荷用电量', 'kWh'),
      f('cpuTemperature', '控制器温度', '°C'),
      bool('communicationOk', '通信正常'),
      /** Hash of the operation strategy it runs (strategy.ts `strategyHash`); "" = its built-in time-of-use behaviour. */
      str('strategyHash', '运行策略哈希'),
    ],
    events: [
      { code: 'EMS_COMM_LOST', label: 'EMS与PCS通信中断', level: 2 },
      { code: 'EMS_STRATEGY_ERROR', label: '策略执行异常', level: 3 },
      /** Raised by the server (modules/strategy), not the device: the EMS runs something else than the last synchronised strategy. */
      { code: 'EMS_STRATEGY_DRIFT', label: '运行策略与已同步策略不一致', level: 2 },
    ],
    commands: [...ALL, 'setProperty', 'storageMode', 'applyStrategy', 'demandGuard'],
  },
  pcs: {
    type: 'pcs',
    label: DEVICE_TYPE_LABELS.pcs,
    properties: [
      en('state', '运行状态', RUN_STATES),
      bool('onOff', '开关机状态'),
      f('activePower', '有功功率（放电为正）', 'kW'),
      f('reactivePower', '无功功率', 'kvar'),
      f('apparentPower', '视在功率', 'kVA'),
      f('powerFactor', '功率因数'),
      ...acSide(),
      f('dcVoltage', '直流电压', 'V'),
      f('dcCurrent', '直流电流（放电为正）', 'A'),
      f('dcPower', '直流功率', 'kW'),
      f('efficiency', '转换效率', '%'),
      f('igbtTemperature', 'IGBT温度', '°C'),
      f('ambientTemperature', '环境温度', '°C'),
      f('ratedPower', '额定功率', 'kW'),
      f('powerLimit', '功率限值', 'kW', { writable: true, min: 0, max: 10000 }),
      f('todayChargeEnergy', '今日充电量', 'kWh'),
      f('todayDischargeEnergy', '今日放电量', 'kWh'),
      energy('totalChargeEnergy', '累计充电量'),
      energy('totalDischargeEnergy', '累计放电量'),
    ],
    events: [
      { code: 'PCS_OVER_TEMPERATURE', label: 'PCS过温', level: 2 },
      { code: 'PCS_GRID_OVERVOLTAGE', label: '电网过压', level: 2 },
      { code: 'PCS_GRID_UNDERVOLTAGE', label: '电网欠压', level: 2 },
      { code: 'PCS_DC_OVERCURRENT', label: '直流过流', level: 1 },
      { code: 'PCS_IGBT_FAULT', label: 'IGBT故障', level: 1 },
      { code: 'PCS_FAN_FAULT', label: '风扇故障', level: 3 },
    ],
    commands: [...ALL, 'setProperty', 'switch', 'storageMode'],
  },
  bms: {
    type: 'bms',
    label: DEVICE_TYPE_LABELS.bms,
    properties: [
      en('state', '电池状态', BMS_STATES),
      f('soc', 'SOC', '%'),
      f('soh', 'SOH', '%'),
      f('voltage', '总电压', 'V'),
      f('current', '总电流（放电为正）', 'A'),
      f('power', '电池功率（放电为正）', 'kW'),
      ...cellExtremes(true),
      f('avgCellVoltage', '平均单体电压', 'V'),
      f('avgCellTemperature', '平均单体温度', '°C'),
      f('allowedChargePower', '允许充电功率', 'kW'),
      f('allowedDischargePower', '允许放电功率', 'kW'),
      f('chargeableEnergy', '可充电量', 'kWh'),
      f('dischargeableEnergy', '可放电量', 'kWh'),
      f('ratedEnergy', '额定容量', 'kWh'),
      f('insulationResistancePositive', '正极绝缘电阻', 'kΩ'),
      f('insulationResistanceNegative', '负极绝缘电阻', 'kΩ'),
      bool('mainContactor', '主接触器闭合'),
      int('clusterCount', '电池簇数量'),
      f('cycleCount', '循环次数'),
      f('todayChargeEnergy', '今日充电量', 'kWh'),
      f('todayDischargeEnergy', '今日放电量', 'kWh'),
      energy('totalChargeEnergy', '累计充电量'),
      energy('totalDischargeEnergy', '累计放电量'),
    ],
    events: [
      { code: 'BMS_INSULATION_LOW', label: '绝缘电阻过低', level: 1 },
      { code: 'BMS_CELL_OVERVOLTAGE', label: '单体过压', level: 2 },
      { code: 'BMS_CELL_UNDERVOLTAGE', label: '单体欠压', level: 2 },
      { code: 'BMS_CELL_OVER_TEMPERATURE', label: '单体过温', level: 2 },
      { code: 'BMS_COMM_LOST', label: '电池簇通信中断', level: 3 },
    ],
    commands: [...ALL],
  },
  batteryCluster: {
    type: 'batteryCluster',
    label: DEVICE_TYPE_LABELS.batteryCluster,
    properties: [
      en('state', '电池簇状态', BMS_STATES),
      f('soc', 'SOC', '%'),
      f('soh', 'SOH', '%'),
      f('voltage', '簇电压', 'V'),
      f('current', '簇电流（放电为正）', 'A'),
      f('power', '簇功率（放电为正）', 'kW'),
      ...cellExtremes(true),
      f('avgCellVoltage', '平均单体电压', 'V'),
      f('avgCellTemperature', '平均单体温度', '°C'),
      f('cellVoltageDifference', '单体压差', 'mV'),
      f('insulationResistance', '绝缘电阻', 'kΩ'),
      bool('contactor', '簇接触器闭合'),
      int('packCount', '电池包数量'),
    ],
    events: [
      { code: 'CLUSTER_CONTACTOR_FAULT', label: '簇接触器故障', level: 2 },
      { code: 'CLUSTER_CURRENT_IMBALANCE', label: '簇间电流不均衡', level: 4 },
    ],
    commands: [...ALL],
  },
  batteryPack: {
    type: 'batteryPack',
    label: DEVICE_TYPE_LABELS.batteryPack,
    properties: [
      f('soc', 'SOC', '%'),
      f('voltage', '电池包电压', 'V'),
      f('current', '电池包电流（放电为正）', 'A'),
      ...cellExtremes(false),
      f('avgCellTemperature', '平均单体温度', '°C'),
      bool('balancing', '均衡中'),
      ...cellProps(),
    ],
    events: [
      { code: 'PACK_CELL_VOLTAGE_DIFF', label: '单体压差过大', level: 3 },
      { code: 'PACK_TEMPERATURE_SENSOR_FAULT', label: '温度传感器故障', level: 4 },
      { code: 'PACK_BALANCING_FAULT', label: '均衡故障', level: 4 },
    ],
    commands: [...ALL],
  },
  airConditioner: {
    type: 'airConditioner',
    label: DEVICE_TYPE_LABELS.airConditioner,
    properties: [
      bool('onOff', '开关机', { writable: true }),
      en('mode', '运行模式', AIR_CONDITIONER_MODES, { writable: true }),
      f('setTemperature', '设定温度', '°C', { writable: true, min: 16, max: 35 }),
      int('fanSpeed', '风速档位', '', { writable: true, min: 0, max: 3 }),
      f('cabinetTemperature', '柜内温度', '°C'),
      f('supplyAirTemperature', '出风温度', '°C'),
      f('outdoorTemperature', '室外温度', '°C'),
      f('humidity', '柜内湿度', '%RH'),
      bool('compressorRunning', '压缩机运行'),
      bool('heaterRunning', '电加热运行'),
      f('power', '运行功率', 'kW'),
      energy('totalEnergy', '累计耗电量'),
    ],
    events: [
      { code: 'AC_COMPRESSOR_FAULT', label: '压缩机故障', level: 2 },
      { code: 'AC_HIGH_PRESSURE', label: '高压告警', level: 3 },
      { code: 'AC_SENSOR_FAULT', label: '温度传感器故障', level: 4 },
    ],
    commands: [...ALL, 'setProperty', 'switch', 'remoteSet', 'temperature'],
  },
  dcdc: {
    type: 'dcdc',
    label: DEVICE_TYPE_LABELS.dcdc,
    properties: [
      en('state', '运行状态', RUN_STATES),
      bool('onOff', '开关机状态'),
      f('pvVoltage', '光伏侧电压', 'V'),
      f('pvCurrent', '光伏侧电流', 'A'),
      f('pvPower', '光伏侧功率', 'kW'),
      f('batteryVoltage', '电池侧电压', 'V'),
      f('batteryCurrent', '电池侧电流', 'A'),
      f('outputPower', '输出功率', 'kW'),
      f('efficiency', '转换效率', '%'),
      f('temperature', '散热器温度', '°C'),
      f('todayEnergy', '今日发电量', 'kWh'),
      energy('totalEnergy', '累计发电量'),
    ],
    events: [
      { code: 'DCDC_OVER_TEMPERATURE', label: 'DC/DC过温', level: 2 },
      { code: 'DCDC_PV_OVERVOLTAGE', label: '光伏输入过压', level: 2 },
      { code: 'DCDC_HARDWARE_FAULT', label: 'DC/DC硬件故障', level: 1 },
    ],
    commands: [...ALL, 'switch'],
  },
  pvInverter: {
    type: 'pvInverter',
    label: DEVICE_TYPE_LABELS.pvInverter,
    properties: [
      en('state', '运行状态', RUN_STATES),
      bool('onOff', '开关机状态'),
      f('activePower', '有功功率', 'kW'),
      f('reactivePower', '无功功率', 'kvar'),
      f('powerFactor', '功率因数'),
      ...acSide(),
      ...mpptProps(),
      f('dcPower', '直流输入功率', 'kW'),
      f('efficiency', '转换效率', '%'),
      f('internalTemperature', '机内温度', '°C'),
      f('irradiance', '辐照度', 'W/m²'),
      f('ratedPower', '额定功率', 'kW'),
      f('todayEnergy', '今日发电量', 'kWh'),
      energy('totalEnergy', '累计发电量'),
    ],
    events: [
      { code: 'PV_ISOLATION_FAULT', label: '组串绝缘阻抗低', level: 2 },
      { code: 'PV_GRID_LOST', label: '电网失压', level: 2 },
      { code: 'PV_STRING_REVERSED', label: '组串反接', level: 3 },
      { code: 'PV_OVER_TEMPERATURE', label: '逆变器过温', level: 3 },
    ],
    commands: [...ALL, 'switch'],
  },
  transformer: {
    type: 'transformer',
    label: DEVICE_TYPE_LABELS.transformer,
    properties: [
      f('loadRate', '负载率', '%'),
      f('activePower', '有功功率', 'kW'),
      f('reactivePower', '无功功率', 'kvar'),
      f('apparentPower', '视在功率', 'kVA'),
      f('ratedCapacity', '额定容量', 'kVA'),
      ...phases('current', '电流', 'A'),
      f('windingTemperature', '绕组温度', '°C'),
      f('oilTemperature', '油温', '°C'),
    ],
    events: [
      { code: 'TRANSFORMER_OVERLOAD', label: '变压器过载', level: 2 },
      { code: 'TRANSFORMER_OIL_TEMPERATURE_HIGH', label: '油温过高', level: 2 },
    ],
    commands: [...ALL],
  },
  meter: {
    type: 'meter',
    label: DEVICE_TYPE_LABELS.meter,
    properties: [
      f('activePower', '有功功率（正向为正）', 'kW'),
      f('reactivePower', '无功功率', 'kvar'),
      f('powerFactor', '功率因数'),
      ...acSide(),
      ...meterRegisters(),
      f('demand', '当前需量（15分钟）', 'kW'),
      f('maxDemand', '本月最大需量', 'kW'),
      int('maxDemandTime', '本月最大需量时间', 'ms'),
    ],
    events: [
      { code: 'METER_COMM_LOST', label: '电表通信中断', level: 3 },
      { code: 'METER_PHASE_LOSS', label: '缺相', level: 2 },
    ],
    commands: [...ALL],
  },
  chargingPile: {
    type: 'chargingPile',
    label: DEVICE_TYPE_LABELS.chargingPile,
    properties: [
      en('state', '运行状态', RUN_STATES),
      bool('onOff', '开关机状态'),
      f('power', '输入功率', 'kW'),
      f('outputPower', '输出功率', 'kW'),
      ...phases('voltage', '输入电压', 'V'),
      ...phases('current', '输入电流', 'A'),
      f('ratedPower', '额定功率', 'kW'),
      f('powerLimit', '功率限值', 'kW', { writable: true, min: 0, max: 1000 }),
      f('temperature', '桩体温度', '°C'),
      int('gunCount', '枪数量'),
      f('todayEnergy', '今日充电量', 'kWh'),
      energy('totalEnergy', '累计充电量'),
      int('todaySessions', '今日充电次数'),
    ],
    events: [
      { code: 'PILE_EMERGENCY_STOP', label: '急停按下', level: 1 },
      { code: 'PILE_OVER_TEMPERATURE', label: '充电桩过温', level: 2 },
      { code: 'PILE_INSULATION_FAULT', label: '绝缘检测故障', level: 2 },
    ],
    commands: [...ALL, 'setProperty', 'switch'],
  },
  chargingGun: {
    type: 'chargingGun',
    label: DEVICE_TYPE_LABELS.chargingGun,
    properties: [
      en('state', '枪状态', GUN_STATES),
      f('power', '充电功率', 'kW'),
      f('voltage', '输出电压', 'V'),
      f('current', '输出电流', 'A'),
      f('maxPower', '最大输出功率', 'kW', { writable: true, min: 0, max: 500 }),
      f('vehicleSoc', '车辆SOC', '%'),
      f('sessionEnergy', '本次充电量', 'kWh'),
      int('sessionDuration', '本次充电时长', 's'),
      f('temperature', '枪头温度', '°C'),
      int('warnMask', '告警屏蔽字'),
      energy('totalEnergy', '累计充电量'),
    ],
    events: [
      { code: 'GUN_OVER_TEMPERATURE', label: '充电枪过温', level: 2 },
      { code: 'GUN_LOCK_FAULT', label: '电子锁故障', level: 3 },
      { code: 'GUN_BMS_COMM_LOST', label: '车辆BMS通信超时', level: 3 },
    ],
    commands: [...ALL, 'setProperty', 'warnMask'],
  },
};

/** The writable properties of a type, by identifier. */
export function writableProperties(type: DeviceType): Map<string, ThingProperty> {
  return new Map(THING_MODEL[type].properties.filter((p) => p.writable).map((p) => [p.identifier, p]));
}
