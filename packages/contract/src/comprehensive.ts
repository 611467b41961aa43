import { z } from 'zod';
import { defineStateMachine } from './state-machine.ts';
import { id, optionalText, pageRequest } from './common.ts';
import { deviceStatusSchema } from './device.ts';
import { endpoint, isoTime, pageOf } from './endpoint.ts';
import { SITE_TYPES } from './site.ts';
import { deviceTypeSchema, telemetryValueSchema } from './telemetry.ts';

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
/** A station is in maintenance or not; acknowledging keeps its state. */
export const SITE_HANDLE_STATES = ['normal', 'maintenance'] as const;
export type SiteHandleState = (typeof SITE_HANDLE_STATES)[number];
export const siteHandleMachine = defineStateMachine<SiteHandleState, SiteHandleAction>({
  name: 'site.handle',
  states: SITE_HANDLE_STATES,
  stateLabels: { normal: '正常', maintenance: '检修中' },
  actionLabels: SITE_HANDLE_ACTION_LABELS,
  transitions: {
    acknowledge: { from: ['normal', 'maintenance'], to: 'same' },
    maintenanceStart: { from: ['normal'], to: 'maintenance' },
    maintenanceEnd: { from: ['maintenance'], to: 'normal' },
  },
  refusal: (state) => (state === 'maintenance' ? '站点已在检修中' : '站点不在检修中'),
});
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

const siteType = z.enum(SITE_TYPES);
/** A reading or a figure: null where nothing measures it or nothing was reported. */
const measured = z.number().nullable();
/** An instant on the wire, null when there is none (nothing reported yet). */
const maybeTime = isoTime.nullable();

/** [epoch ms, value] of a curve or a bar; value null where nothing was reported. */
export const dashboardPoint = z.tuple([z.number(), measured]);
export type DashboardPoint = z.infer<typeof dashboardPoint>;

export const dashboardSeries = z.object({
  /** grid, storage, pv, load, piles, soc, irradiance, or a device id for per-device curves. */
  key: z.string(),
  /** Source text (Simplified Chinese) or a device name. */
  name: z.string(),
  unit: z.string(),
  points: z.array(dashboardPoint),
});
export type DashboardSeries = z.infer<typeof dashboardSeries>;

/** Which subsystems the station has, from its registered devices. */
export const subsystems = z.object({
  storage: z.boolean(),
  pv: z.boolean(),
  /** dc: PV through DC/DC converters onto the storage's DC bus; ac: PV inverters on the AC side. */
  pvCoupling: z.enum(['ac', 'dc']).nullable(),
  charging: z.boolean(),
  transformer: z.boolean(),
  mainMeter: z.boolean(),
});
export type Subsystems = z.infer<typeof subsystems>;

/** Live power picture, kW (signs: see the top of this file). */
export const powerNow = z.object({
  grid: measured,
  storage: measured,
  pv: measured,
  load: measured,
  piles: measured,
});
export type PowerNow = z.infer<typeof powerNow>;

/** Energy over a period, kWh (from the growth of cumulative registers). */
export const energyFigures = z.object({
  /** Into the storage (storage meter forward, else the converters' charge registers). */
  charge: measured,
  /** Out of the storage. */
  discharge: measured,
  pv: measured,
  load: measured,
  gridImport: measured,
  gridExport: measured,
  /** Delivered to the charging piles. */
  piles: measured,
});
export type EnergyFigures = z.infer<typeof energyFigures>;

export const siteMaintenance = z.object({
  since: isoTime,
  note: z.string().nullable(),
  userId: z.number(),
  username: z.string(),
});
export type SiteMaintenance = z.infer<typeof siteMaintenance>;

/** Devices by live status. */
export const statusCounts = z.object({
  total: z.number(),
  online: z.number(),
  offline: z.number(),
  disabled: z.number(),
  inactive: z.number(),
});
export type StatusCounts = z.infer<typeof statusCounts>;

// ── Answers ───────────────────────────────────────────────────────────────────────────

/**
 * online — every enabled device that ever reported is online; partial — some are offline;
 * offline — none is online; noData — no device has ever reported.
 */
export const LIVE_SITE_STATUSES = ['online', 'partial', 'offline', 'noData'] as const;

/** A station on the real-time monitoring list. */
export const liveSite = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string(),
  companyId: z.number(),
  companyName: z.string(),
  siteType,
  timeZone: z.string(),
  address: z.string().nullable(),
  status: z.enum(LIVE_SITE_STATUSES),
  devices: statusCounts,
  power: powerNow,
  /** %, the storage's state of charge. */
  soc: measured,
  subsystems,
  maintenance: siteMaintenance.nullable(),
  /** Newest measurement among the station's devices. */
  ts: maybeTime,
});
export type LiveSite = z.infer<typeof liveSite>;

export const siteOption = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string(),
  siteType,
  timeZone: z.string(),
  companyId: z.number(),
  companyName: z.string(),
});
export type SiteOption = z.infer<typeof siteOption>;

/** Key values of a station that a figure may need but nobody set (configured under /config/siteSet). */
export const KEY_VALUE_NAMES = [
  'installedCapacity', 'installedPower', 'depthOfDischarge', 'voltageLevel', 'transformerProtectionPower', 'pvModuleCount', 'pvWorkingMode', 'pilePower',
] as const;
export type KeyValueName = (typeof KEY_VALUE_NAMES)[number];

export const siteHandleRecord = z.object({
  id: z.number(),
  siteId: z.number(),
  action: z.enum(SITE_HANDLE_ACTIONS),
  note: z.string().nullable(),
  userId: z.number(),
  username: z.string(),
  createdAt: isoTime,
});
export type SiteHandleRecord = z.infer<typeof siteHandleRecord>;

export const siteInfo = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string(),
  companyId: z.number(),
  companyName: z.string(),
  siteType,
  timeZone: z.string(),
  address: z.string().nullable(),
  longitude: z.number().nullable(),
  latitude: z.number().nullable(),
  currency: z.string(),
  /** Station-local dates (YYYY-MM-DD). */
  commissioningDate: z.string().nullable(),
  serviceEndDate: z.string().nullable(),
  contact: z.string().nullable(),
  phone: z.string().nullable(),
  investor: z.string().nullable(),
  powerUser: z.string().nullable(),
  /** Whole station-local days since commissioning (null without a commissioning date). */
  runningDays: z.number().nullable(),
  deviceCount: z.number(),
  subsystems,
  keyValues: z.object({
    /** kWh */
    installedCapacity: measured,
    /** kW */
    installedPower: measured,
    /** % */
    depthOfDischarge: measured,
    /** kV */
    voltageLevel: measured,
    /** kW */
    transformerProtectionPower: measured,
    pvModuleCount: measured,
    pvWorkingMode: z.string().nullable(),
    /** kW */
    pilePower: measured,
  }),
  /** Key values not set that this station's subsystems need. */
  missing: z.array(z.enum(KEY_VALUE_NAMES)),
  /** PV rated power from the registered inverters / converters, kW. */
  pvRatedPower: measured,
  maintenance: siteMaintenance.nullable(),
  /** The latest handlings, newest first (at most 10). */
  handles: z.array(siteHandleRecord),
});
export type SiteInfo = z.infer<typeof siteInfo>;

export const siteOverview = z.object({
  siteId: z.number(),
  timeZone: z.string(),
  /** The station-local date the day figures are for. */
  date: z.string(),
  ts: maybeTime,
  subsystems,
  power: powerNow,
  soc: measured,
  /** The date's energy (today: up to now). */
  day: energyFigures,
  /** Since the registers started (the devices' lifetime counters). */
  total: energyFigures,
});
export type SiteOverview = z.infer<typeof siteOverview>;

export const FLOW_NODE_KEYS = ['grid', 'transformer', 'bus', 'storage', 'pv', 'load', 'piles'] as const;
export type FlowNodeKey = (typeof FLOW_NODE_KEYS)[number];
const flowNodeKey = z.enum(FLOW_NODE_KEYS);

export const flowNode = z.object({
  key: flowNodeKey,
  /** Source text. */
  name: z.string(),
  /** kW through the node (grid import +, storage discharge +); null when not measured. */
  power: measured,
  /** Storage: SOC %; transformer: load rate % (absent on the other nodes). */
  percent: measured.optional(),
  /** Devices behind the node, by status. */
  devices: statusCounts,
});
export type FlowNode = z.infer<typeof flowNode>;

export const flowEdge = z.object({
  from: flowNodeKey,
  to: flowNodeKey,
  /** |kW| on the edge; null when not measured. */
  power: measured,
  /** forward: energy flows from → to; reverse: to → from; idle: below IDLE_POWER_KW; unknown: not measured. */
  direction: z.enum(['forward', 'reverse', 'idle', 'unknown']),
});
export type FlowEdge = z.infer<typeof flowEdge>;

/** The power-flow graph: only the parts the station has. */
export const siteTopology = z.object({
  siteId: z.number(),
  ts: maybeTime,
  subsystems,
  nodes: z.array(flowNode),
  edges: z.array(flowEdge),
});
export type SiteTopology = z.infer<typeof siteTopology>;

export const meterRegisterDay = z.object({
  /** total, tip, peak, flat, valley, deepValley */
  period: z.string(),
  /** Source text: 总, 尖, 峰, 平, 谷, 深谷. */
  label: z.string(),
  /** Register readings now, kWh. */
  forward: measured,
  reverse: measured,
  /** Growth during the station-local day, kWh. */
  dayForward: measured,
  dayReverse: measured,
});
export type MeterRegisterDay = z.infer<typeof meterRegisterDay>;

const threePhases = z.tuple([measured, measured, measured]);

export const mainMeterView = z.object({
  siteId: z.number(),
  date: z.string(),
  device: z.object({ id: z.number(), code: z.string(), name: z.string(), status: deviceStatusSchema }).nullable(),
  ts: maybeTime,
  activePower: measured,
  reactivePower: measured,
  powerFactor: measured,
  voltage: threePhases,
  current: threePhases,
  frequency: measured,
  /** kW, the current 15-minute demand and this month's maximum with its time. */
  demand: measured,
  maxDemand: measured,
  maxDemandTime: maybeTime,
  registers: z.array(meterRegisterDay),
});
export type MainMeterView = z.infer<typeof mainMeterView>;

export const sitePerformance = z.object({
  siteId: z.number(),
  date: z.string(),
  /** kWh of the date. */
  charge: measured,
  discharge: measured,
  /** (charge + discharge) / (DoD × 2 × installed capacity) for the date (DOMAIN.md §2). */
  cycleCount: measured,
  /** The same over the registers' lifetime. */
  totalCycleCount: measured,
  /**
   * discharge / charge, % (the date's; a day's SOC change skews it). Null when more came out than
   * went in: that energy was stored before the period, there is no round trip to measure.
   */
  efficiency: measured,
  /** discharge / charge over the lifetime, % (null likewise). */
  totalEfficiency: measured,
  /**
   * % of the date's elapsed 5-minute intervals in which the storage converters reported and
   * were not in fault (averaged over the converters).
   */
  availability: measured,
  installedCapacity: measured,
  depthOfDischarge: measured,
  /** Key values the figures need that are not set: cycle counts stay null. */
  missing: z.array(z.enum(KEY_VALUE_NAMES)),
});
export type SitePerformance = z.infer<typeof sitePerformance>;

export const powerCurves = z.object({
  siteId: z.number(),
  date: z.string(),
  timeZone: z.string(),
  /** The station-local day [start, end) as instants; 23 or 25 hours on a DST change day. */
  start: isoTime,
  end: isoTime,
  /** Bucket size, ms. */
  interval: z.number(),
  series: z.array(dashboardSeries),
});
export type PowerCurves = z.infer<typeof powerCurves>;

export const siteSolar = z.object({
  siteId: z.number(),
  present: z.boolean(),
  coupling: z.enum(['ac', 'dc']).nullable(),
  /** kW now. */
  power: measured,
  /** Rated power of the inverters / converters, kW. */
  ratedPower: measured,
  pvModuleCount: measured,
  /** kWh today and lifetime. */
  todayEnergy: measured,
  totalEnergy: measured,
  /** Today's kWh per kW of rated power, h. */
  equivalentHours: measured,
  /** W/m², the inverters' mean. */
  irradiance: measured,
  devices: statusCounts,
});
export type SiteSolar = z.infer<typeof siteSolar>;

export const stateCount = z.object({
  /** The thing model's enumeration value. */
  value: z.number(),
  /** Source text. */
  label: z.string(),
  colour: z.string().nullable(),
  count: z.number(),
});
export type StateCount = z.infer<typeof stateCount>;

export const solarSummary = siteSolar.extend({
  monthEnergy: measured,
  yearEnergy: measured,
  /** Inverters / converters by running state. */
  states: z.array(stateCount),
});
export type SolarSummary = z.infer<typeof solarSummary>;

/** What the PV and charging lists show of every device: identity, status, running state, power. */
const liveDevice = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  status: deviceStatusSchema,
  state: measured,
  stateLabel: z.string().nullable(),
  colour: z.string().nullable(),
  /** kW (an inverter: AC; a DC/DC: output to the DC bus). */
  power: measured,
});

export const inverterStatus = liveDevice.extend({
  type: deviceTypeSchema,
  ts: maybeTime,
  ratedPower: measured,
  /** kW from the modules. */
  dcPower: measured,
  /** % */
  efficiency: measured,
  temperature: measured,
  todayEnergy: measured,
  totalEnergy: measured,
});
export type InverterStatus = z.infer<typeof inverterStatus>;

export const inverterStatusList = z.object({
  siteId: z.number(),
  states: z.array(stateCount),
  inverters: z.array(inverterStatus),
});
export type InverterStatusList = z.infer<typeof inverterStatusList>;

/** Energy per bucket (type day: hours; month: days; year: months), station-local. */
export const generationChart = z.object({
  siteId: z.number(),
  type: z.enum(GENERATION_TYPES),
  date: z.string(),
  timeZone: z.string(),
  unit: z.literal('kWh'),
  /** [bucket start, kWh]; null where nothing was reported. */
  points: z.array(dashboardPoint),
  /** Bucket labels in station-local time: HH:mm, MM-DD or YYYY-MM. */
  labels: z.array(z.string()),
  total: z.number(),
});
export type GenerationChart = z.infer<typeof generationChart>;

export const gunStatus = liveDevice.extend({
  subNo: measured,
  vehicleSoc: measured,
  sessionEnergy: measured,
  sessionDuration: measured,
});
export type GunStatus = z.infer<typeof gunStatus>;

export const pileStatus = liveDevice.extend({
  no: measured,
  ts: maybeTime,
  ratedPower: measured,
  todayEnergy: measured,
  totalEnergy: measured,
  todaySessions: measured,
  guns: z.array(gunStatus),
});
export type PileStatus = z.infer<typeof pileStatus>;

export const chargingInfo = z.object({
  siteId: z.number(),
  present: z.boolean(),
  pileCount: z.number(),
  gunCount: z.number(),
  /** Rated power of the piles, kW (the key value pilePower when set, else the piles' ratings). */
  ratedPower: measured,
  /** kW drawn by the piles now. */
  power: measured,
  /** kWh delivered today and over the lifetime. */
  todayEnergy: measured,
  totalEnergy: measured,
  todaySessions: measured,
  /** Guns by state (idle, plugged, charging, …). */
  gunStates: z.array(stateCount),
  /** % of the guns charging now. */
  utilisation: measured,
  devices: statusCounts,
});
export type ChargingInfo = z.infer<typeof chargingInfo>;

export const chargingSummary = chargingInfo.extend({
  monthEnergy: measured,
  yearEnergy: measured,
});
export type ChargingSummary = z.infer<typeof chargingSummary>;

export const chargingStatusList = z.object({
  siteId: z.number(),
  gunStates: z.array(stateCount),
  piles: z.array(pileStatus),
});
export type ChargingStatusList = z.infer<typeof chargingStatusList>;

export const deviceTypeStatus = statusCounts.extend({
  type: deviceTypeSchema,
  /** Source text of the type. */
  label: z.string(),
  /** Online devices whose running state is a fault. */
  fault: z.number(),
});
export type DeviceTypeStatus = z.infer<typeof deviceTypeStatus>;

export const deviceStatusOverview = z.object({
  siteId: z.number().nullable(),
  total: statusCounts.extend({ fault: z.number() }),
  types: z.array(deviceTypeStatus),
});
export type DeviceStatusOverview = z.infer<typeof deviceStatusOverview>;

export const diagramValue = z.object({
  elementId: z.string(),
  deviceId: z.number(),
  deviceCode: z.string().nullable(),
  deviceName: z.string().nullable(),
  status: deviceStatusSchema.nullable(),
  identifier: z.string(),
  /** Source text of the property; null when the device's product no longer has it. */
  name: z.string().nullable(),
  unit: z.string(),
  value: telemetryValueSchema.nullable(),
  /** The label (and colour) of an enumeration value, when the property has them. */
  valueLabel: z.string().optional(),
  colour: z.string().optional(),
  ts: maybeTime,
});
export type DiagramValue = z.infer<typeof diagramValue>;

export const diagramValues = z.object({
  diagramId: z.number(),
  siteId: z.number(),
  values: z.array(diagramValue),
});
export type DiagramValues = z.infer<typeof diagramValues>;

export const siteHandleResult = z.object({
  siteId: z.number(),
  handle: siteHandleRecord,
  maintenance: siteMaintenance.nullable(),
});
export type SiteHandleResult = z.infer<typeof siteHandleResult>;

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

/**
 * Site monitoring. The two earnings calls (/comprehensive/site/overview/earnings and
 * …/earnings/chart) are money: they are declared with the revenue engine (revenue.ts).
 */
export const comprehensiveEndpoints = {
  list: endpoint({ method: 'GET', path: '/comprehensive/site/list', query: liveSitePageQuery, response: pageOf(liveSite) }),
  down: endpoint({ method: 'GET', path: '/comprehensive/site/down', query: siteDownQuery, response: z.array(siteOption) }),
  info: endpoint({ method: 'GET', path: '/comprehensive/site/info', query: siteIdQuery, response: siteInfo }),
  overview: endpoint({ method: 'GET', path: '/comprehensive/site/overview', query: siteDayQuery, response: siteOverview }),
  topology: endpoint({ method: 'GET', path: '/comprehensive/site/topology', query: siteIdQuery, response: siteTopology }),
  mainMeter: endpoint({ method: 'GET', path: '/comprehensive/site/mainMeter', query: siteDayQuery, response: mainMeterView }),
  performance: endpoint({ method: 'GET', path: '/comprehensive/site/performance', query: siteDayQuery, response: sitePerformance }),
  powerData: endpoint({ method: 'GET', path: '/comprehensive/site/powerData', query: siteDayQuery, response: powerCurves }),
  solar: endpoint({ method: 'GET', path: '/comprehensive/site/solar', query: siteIdQuery, response: siteSolar }),
  chargingInfo: endpoint({ method: 'GET', path: '/comprehensive/site/charging-pile-info', query: siteIdQuery, response: chargingInfo }),
  deviceStatus: endpoint({ method: 'GET', path: '/comprehensive/site/device-status', query: deviceStatusQuery, response: deviceStatusOverview }),
  values: endpoint({ method: 'GET', path: '/comprehensive/site/values', query: diagramValuesQuery, response: diagramValues }),
  handle: endpoint({ method: 'POST', path: '/comprehensive/site/handle', body: siteHandleBody, response: siteHandleResult }),
  solarSummary: endpoint({ method: 'GET', path: '/comprehensive/solar/summary', query: siteIdQuery, response: solarSummary }),
  inverterStatus: endpoint({ method: 'GET', path: '/comprehensive/solar/inverter-status', query: siteIdQuery, response: inverterStatusList }),
  solarPower: endpoint({ method: 'GET', path: '/comprehensive/solar/power', query: siteDayQuery, response: powerCurves }),
  solarPowerCurve: endpoint({ method: 'GET', path: '/comprehensive/solar/power-curve', query: siteDayQuery, response: powerCurves }),
  solarGeneration: endpoint({ method: 'GET', path: '/comprehensive/solar/total-generation', query: generationQuery, response: generationChart }),
  chargingSummary: endpoint({ method: 'GET', path: '/comprehensive/charging/summary', query: siteIdQuery, response: chargingSummary }),
  chargingStatus: endpoint({ method: 'GET', path: '/comprehensive/charging/inverter/status', query: siteIdQuery, response: chargingStatusList }),
  chargingPowerCurve: endpoint({ method: 'GET', path: '/comprehensive/charging/power/curve', query: siteDayQuery, response: powerCurves }),
  chargingGeneration: endpoint({ method: 'GET', path: '/comprehensive/charging/total/generation', query: generationQuery, response: generationChart }),
};
