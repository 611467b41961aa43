import { z } from 'zod';
import { id, optionalText, pageRequest } from './common.ts';
import type { DeviceStatus } from './device.ts';
import type { SiteType } from './site.ts';
import { deviceTypeSchema, type DeviceType, type TelemetryValue } from './telemetry.ts';

/**
 * Site monitoring (api-catalogue "Site monitoring (comprehensive)"): what a station is doing now
 * and did today, from the latest values (device_latest) and the 5-minute / hour / day rollups —
 * never from raw reports. Days, months and years are the station's own (site.time_zone).
 *
 * Units of every figure (DOMAIN.md §1): power kW (reactive kvar), energy kWh, SOC, efficiency,
 * availability and load rate %, voltage V, current A, frequency Hz, irradiance W/m², temperature °C.
 * A figure is null when the station has no device that measures it or nothing was reported yet.
 *
 * Signs: grid power is positive when importing from the grid; storage power is positive when
 * discharging (negative while charging); PV and charging-pile power are never negative.
 * Load is not metered: it closes the balance at the main meter (DOMAIN.md §1, as the simulator
 * plays it): load = grid + the storage converters' AC output + AC-coupled PV − charging piles, so
 * grid + storage + PV = load + piles. Where PV is DC-coupled (DC/DC converters onto the storage's
 * bus) the converters' output carries that PV too: storage is shown net of it and PV whole.
 */

export const DASHBOARD_UNITS = {
  power: 'kW',
  reactivePower: 'kvar',
  energy: 'kWh',
  percent: '%',
  voltage: 'V',
  current: 'A',
  frequency: 'Hz',
  irradiance: 'W/m²',
  temperature: '°C',
} as const;

/** Below this |kW| a flow counts as standing still (measurement noise). */
export const IDLE_POWER_KW = 0.05;

// ── Requests ──────────────────────────────────────────────────────────────────────────

/** A station-local calendar date; the default is the station's today. */
const localDate = z.iso.date('日期格式不正确，应为YYYY-MM-DD');
/** Ids in JSON bodies are numbers (no coercion of a missing value). */
const ref = z.number().int().positive().max(2 ** 31 - 1);

export const siteIdQuery = z.object({ siteId: id });
export type SiteIdQuery = z.infer<typeof siteIdQuery>;

/** A station and, optionally, one of its past days (station-local) instead of today. */
export const siteDayQuery = z.object({ siteId: id, date: localDate.optional() });
export type SiteDayQuery = z.infer<typeof siteDayQuery>;

/** GET /comprehensive/site/list: paged by the query's current and pageSize. */
export const liveSitePageQuery = pageRequest.extend({ companyId: id.optional(), id: id.optional() });
export type LiveSitePageQuery = z.infer<typeof liveSitePageQuery>;

/** GET /comprehensive/site/down: the stations for a picker; siteId narrows it to that one. */
export const siteDownQuery = z.object({ siteId: id.optional() });

/** GET /comprehensive/site/device-status: one station or all in scope, one device type or all. */
export const deviceStatusQuery = z.object({ siteId: id.optional(), type: deviceTypeSchema.optional() });
export type DeviceStatusQuery = z.infer<typeof deviceStatusQuery>;

export const diagramValuesQuery = z.object({ diagramId: id });

/**
 * Energy per bucket around a station-local date (default today): `day` — per hour of that day
 * (23 or 25 on a DST change day), `month` — per day of its month, `year` — per month of its year.
 */
export const GENERATION_TYPES = ['day', 'month', 'year'] as const;
export type GenerationType = (typeof GENERATION_TYPES)[number];
export const generationQuery = z.object({ siteId: id, type: z.enum(GENERATION_TYPES, '应为 day、month 或 year'), date: localDate.optional() });
export type GenerationQuery = z.infer<typeof generationQuery>;

/**
 * What POST /comprehensive/site/handle does to a station (docs/decisions/0011-site-handle.md):
 * acknowledge — an operator notes having looked at the station; maintenanceStart /
 * maintenanceEnd — the station is (no longer) in maintenance: dashboards show it, so offline
 * devices during work are expected. Every handling is journalled with who did it.
 */
export const SITE_HANDLE_ACTIONS = ['acknowledge', 'maintenanceStart', 'maintenanceEnd'] as const;
export type SiteHandleAction = (typeof SITE_HANDLE_ACTIONS)[number];
export const SITE_HANDLE_ACTION_LABELS: Record<SiteHandleAction, string> = {
  acknowledge: '确认巡视',
  maintenanceStart: '开始检修',
  maintenanceEnd: '结束检修',
};
export const SITE_HANDLE_NOTE_MAX = 200;
export const siteHandleBody = z
  .object({
    siteId: ref,
    action: z.enum(SITE_HANDLE_ACTIONS, '应为 acknowledge、maintenanceStart 或 maintenanceEnd'),
    note: optionalText(SITE_HANDLE_NOTE_MAX),
  })
  .refine((b) => b.action !== 'maintenanceStart' || !!b.note, { message: '开始检修时须填写说明', path: ['note'] });
export type SiteHandleBody = z.infer<typeof siteHandleBody>;

// ── Shared pieces ─────────────────────────────────────────────────────────────────────

/** [epoch ms, value] of a curve or a bar; value null where nothing was reported. */
export type DashboardPoint = [number, number | null];

export interface DashboardSeries {
  /** grid, storage, pv, load, piles, soc, irradiance, or a device id for per-device curves. */
  key: string;
  /** Source text (Simplified Chinese) or a device name. */
  name: string;
  unit: string;
  points: DashboardPoint[];
}

/** Which subsystems the station has, from its registered devices. */
export interface Subsystems {
  storage: boolean;
  pv: boolean;
  /** dc: PV through DC/DC converters onto the storage's DC bus; ac: PV inverters on the AC side. */
  pvCoupling: 'ac' | 'dc' | null;
  charging: boolean;
  transformer: boolean;
  mainMeter: boolean;
}

/** Live power picture, kW (signs: see the top of this file). */
export interface PowerNow {
  grid: number | null;
  storage: number | null;
  pv: number | null;
  load: number | null;
  piles: number | null;
}

/** Energy over a period, kWh (from the growth of cumulative registers). */
export interface EnergyFigures {
  /** Into the storage (storage meter forward, else the converters' charge registers). */
  charge: number | null;
  /** Out of the storage. */
  discharge: number | null;
  pv: number | null;
  load: number | null;
  gridImport: number | null;
  gridExport: number | null;
  /** Delivered to the charging piles. */
  piles: number | null;
}

export interface SiteMaintenance {
  since: string;
  note: string | null;
  userId: number;
  username: string;
}

/** Devices by live status. */
export interface StatusCounts {
  total: number;
  online: number;
  offline: number;
  disabled: number;
  inactive: number;
}

// ── Answers ───────────────────────────────────────────────────────────────────────────

/** A station on the real-time monitoring list. */
export interface LiveSite {
  id: number;
  name: string;
  code: string;
  companyId: number;
  companyName: string;
  siteType: SiteType;
  timeZone: string;
  address: string | null;
  /**
   * online — every enabled device that ever reported is online; partial — some are offline;
   * offline — none is online; noData — no device has ever reported.
   */
  status: 'online' | 'partial' | 'offline' | 'noData';
  devices: StatusCounts;
  power: PowerNow;
  /** %, the storage's state of charge. */
  soc: number | null;
  subsystems: Subsystems;
  maintenance: SiteMaintenance | null;
  /** Newest measurement among the station's devices. */
  ts: string | null;
}

export interface SiteOption {
  id: number;
  name: string;
  code: string;
  siteType: SiteType;
  timeZone: string;
  companyId: number;
  companyName: string;
}

/** A key value of the station that a figure needs but nobody set (configured under /config/siteSet). */
export type KeyValueName =
  | 'installedCapacity' | 'installedPower' | 'depthOfDischarge' | 'voltageLevel' | 'transformerProtectionPower'
  | 'pvModuleCount' | 'pvWorkingMode' | 'pilePower';

export interface SiteHandleRecord {
  id: number;
  siteId: number;
  action: SiteHandleAction;
  note: string | null;
  userId: number;
  username: string;
  createdAt: string;
}

export interface SiteInfo {
  id: number;
  name: string;
  code: string;
  companyId: number;
  companyName: string;
  siteType: SiteType;
  timeZone: string;
  address: string | null;
  longitude: number | null;
  latitude: number | null;
  currency: string;
  commissioningDate: string | null;
  serviceEndDate: string | null;
  contact: string | null;
  phone: string | null;
  investor: string | null;
  powerUser: string | null;
  /** Whole station-local days since commissioning (null without a commissioning date). */
  runningDays: number | null;
  deviceCount: number;
  subsystems: Subsystems;
  keyValues: {
    /** kWh */
    installedCapacity: number | null;
    /** kW */
    installedPower: number | null;
    /** % */
    depthOfDischarge: number | null;
    /** kV */
    voltageLevel: number | null;
    /** kW */
    transformerProtectionPower: number | null;
    pvModuleCount: number | null;
    pvWorkingMode: string | null;
    /** kW */
    pilePower: number | null;
  };
  /** Key values not set that this station's subsystems need. */
  missing: KeyValueName[];
  /** PV rated power from the registered inverters / converters, kW. */
  pvRatedPower: number | null;
  maintenance: SiteMaintenance | null;
  /** The latest handlings, newest first (at most 10). */
  handles: SiteHandleRecord[];
}

export interface SiteOverview {
  siteId: number;
  timeZone: string;
  /** The station-local date the day figures are for. */
  date: string;
  ts: string | null;
  subsystems: Subsystems;
  power: PowerNow;
  soc: number | null;
  /** The date's energy (today: up to now). */
  day: EnergyFigures;
  /** Since the registers started (the devices' lifetime counters). */
  total: EnergyFigures;
}

export type FlowNodeKey = 'grid' | 'transformer' | 'bus' | 'storage' | 'pv' | 'load' | 'piles';

export interface FlowNode {
  key: FlowNodeKey;
  /** Source text. */
  name: string;
  /** kW through the node (grid import +, storage discharge +); null when not measured. */
  power: number | null;
  /** Storage: SOC %; transformer: load rate %. */
  percent?: number | null;
  /** Devices behind the node, by status. */
  devices: StatusCounts;
}

export interface FlowEdge {
  from: FlowNodeKey;
  to: FlowNodeKey;
  /** |kW| on the edge; null when not measured. */
  power: number | null;
  /** forward: energy flows from → to; reverse: to → from; idle: below IDLE_POWER_KW; unknown: not measured. */
  direction: 'forward' | 'reverse' | 'idle' | 'unknown';
}

/** The power-flow graph: only the parts the station has. */
export interface SiteTopology {
  siteId: number;
  ts: string | null;
  subsystems: Subsystems;
  nodes: FlowNode[];
  edges: FlowEdge[];
}

export interface MeterRegisterDay {
  /** total, tip, peak, flat, valley, deepValley */
  period: string;
  /** Source text: 总, 尖, 峰, 平, 谷, 深谷. */
  label: string;
  /** Register readings now, kWh. */
  forward: number | null;
  reverse: number | null;
  /** Growth during the station-local day, kWh. */
  dayForward: number | null;
  dayReverse: number | null;
}

export interface MainMeterView {
  siteId: number;
  date: string;
  device: { id: number; code: string; name: string; status: DeviceStatus } | null;
  ts: string | null;
  activePower: number | null;
  reactivePower: number | null;
  powerFactor: number | null;
  voltage: [number | null, number | null, number | null];
  current: [number | null, number | null, number | null];
  frequency: number | null;
  /** kW, the current 15-minute demand and this month's maximum with its time. */
  demand: number | null;
  maxDemand: number | null;
  maxDemandTime: string | null;
  registers: MeterRegisterDay[];
}

export interface SitePerformance {
  siteId: number;
  date: string;
  /** kWh of the date. */
  charge: number | null;
  discharge: number | null;
  /** (charge + discharge) / (DoD × 2 × installed capacity) for the date (DOMAIN.md §2). */
  cycleCount: number | null;
  /** The same over the registers' lifetime. */
  totalCycleCount: number | null;
  /**
   * discharge / charge, % (the date's; a day's SOC change skews it). Null when more came out than
   * went in: that energy was stored before the period, there is no round trip to measure.
   */
  efficiency: number | null;
  /** discharge / charge over the lifetime, % (null likewise). */
  totalEfficiency: number | null;
  /**
   * % of the date's elapsed 5-minute intervals in which the storage converters reported and
   * were not in fault (averaged over the converters).
   */
  availability: number | null;
  installedCapacity: number | null;
  depthOfDischarge: number | null;
  /** Key values the figures need that are not set: cycle counts stay null. */
  missing: KeyValueName[];
}

export interface PowerCurves {
  siteId: number;
  date: string;
  timeZone: string;
  /** The station-local day [start, end) as instants; 23 or 25 hours on a DST change day. */
  start: string;
  end: string;
  /** Bucket size, ms. */
  interval: number;
  series: DashboardSeries[];
}

export interface SiteSolar {
  siteId: number;
  present: boolean;
  coupling: 'ac' | 'dc' | null;
  /** kW now. */
  power: number | null;
  /** Rated power of the inverters / converters, kW. */
  ratedPower: number | null;
  pvModuleCount: number | null;
  /** kWh today and lifetime. */
  todayEnergy: number | null;
  totalEnergy: number | null;
  /** Today's kWh per kW of rated power, h. */
  equivalentHours: number | null;
  /** W/m², the inverters' mean. */
  irradiance: number | null;
  devices: StatusCounts;
}

export interface StateCount {
  /** The thing model's enumeration value. */
  value: number;
  /** Source text. */
  label: string;
  colour: string | null;
  count: number;
}

export interface SolarSummary extends SiteSolar {
  monthEnergy: number | null;
  yearEnergy: number | null;
  /** Inverters / converters by running state. */
  states: StateCount[];
}

export interface InverterStatus {
  id: number;
  code: string;
  name: string;
  type: DeviceType;
  status: DeviceStatus;
  ts: string | null;
  ratedPower: number | null;
  state: number | null;
  stateLabel: string | null;
  colour: string | null;
  /** kW AC (DC/DC: output to the DC bus). */
  power: number | null;
  /** kW from the modules. */
  dcPower: number | null;
  /** % */
  efficiency: number | null;
  temperature: number | null;
  todayEnergy: number | null;
  totalEnergy: number | null;
}

export interface InverterStatusList {
  siteId: number;
  states: StateCount[];
  inverters: InverterStatus[];
}

/** Energy per bucket (type day: hours; month: days; year: months), station-local. */
export interface GenerationChart {
  siteId: number;
  type: GenerationType;
  date: string;
  timeZone: string;
  unit: 'kWh';
  /** [bucket start, kWh]; null where nothing was reported. */
  points: DashboardPoint[];
  /** Bucket labels in station-local time: HH:mm, MM-DD or YYYY-MM. */
  labels: string[];
  total: number;
}

export interface GunStatus {
  id: number;
  code: string;
  name: string;
  status: DeviceStatus;
  subNo: number | null;
  state: number | null;
  stateLabel: string | null;
  colour: string | null;
  power: number | null;
  vehicleSoc: number | null;
  sessionEnergy: number | null;
  sessionDuration: number | null;
}

export interface PileStatus {
  id: number;
  code: string;
  name: string;
  status: DeviceStatus;
  no: number | null;
  ts: string | null;
  ratedPower: number | null;
  state: number | null;
  stateLabel: string | null;
  colour: string | null;
  power: number | null;
  todayEnergy: number | null;
  totalEnergy: number | null;
  todaySessions: number | null;
  guns: GunStatus[];
}

export interface ChargingInfo {
  siteId: number;
  present: boolean;
  pileCount: number;
  gunCount: number;
  /** Rated power of the piles, kW (the key value pilePower when set, else the piles' ratings). */
  ratedPower: number | null;
  /** kW drawn by the piles now. */
  power: number | null;
  /** kWh delivered today and over the lifetime. */
  todayEnergy: number | null;
  totalEnergy: number | null;
  todaySessions: number | null;
  /** Guns by state (idle, plugged, charging, …). */
  gunStates: StateCount[];
  /** % of the guns charging now. */
  utilisation: number | null;
  devices: StatusCounts;
}

export interface ChargingSummary extends ChargingInfo {
  monthEnergy: number | null;
  yearEnergy: number | null;
}

export interface ChargingStatusList {
  siteId: number;
  gunStates: StateCount[];
  piles: PileStatus[];
}

export interface DeviceTypeStatus extends StatusCounts {
  type: DeviceType;
  /** Source text of the type. */
  label: string;
  /** Online devices whose running state is a fault. */
  fault: number;
}

export interface DeviceStatusOverview {
  siteId: number | null;
  total: StatusCounts & { fault: number };
  types: DeviceTypeStatus[];
}

export interface DiagramValue {
  elementId: string;
  deviceId: number;
  deviceCode: string | null;
  deviceName: string | null;
  status: DeviceStatus | null;
  identifier: string;
  /** Source text of the property; null when the device's product no longer has it. */
  name: string | null;
  unit: string;
  value: TelemetryValue | null;
  valueLabel?: string;
  colour?: string;
  ts: string | null;
}

export interface DiagramValues {
  diagramId: number;
  siteId: number;
  values: DiagramValue[];
}

export interface SiteHandleResult {
  siteId: number;
  handle: SiteHandleRecord;
  maintenance: SiteMaintenance | null;
}
