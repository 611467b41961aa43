import type { DeviceType } from '@ess/contract/telemetry';
import { DEVICE_TYPES, DEVICE_TYPE_LABELS } from '@ess/contract/telemetry';

/**
 * What each device type's page puts first: the key figures at the top, the lines of its default
 * chart, and the two values the device list shows beside the status.
 */
export interface TypeView {
  key: readonly string[];
  chart: readonly string[];
  list: readonly string[];
  /** The cell heat map (packs) or the distribution of the packs under it (clusters). */
  cells?: 'pack' | 'cluster';
}

export const TYPE_VIEWS: Record<DeviceType, TypeView> = {
  ems: {
    key: ['strategyState', 'runMode', 'touPeriod', 'soc', 'activePower', 'gridPower', 'loadPower', 'pvPower'],
    chart: ['activePower', 'gridPower', 'loadPower', 'pvPower', 'soc'],
    list: ['strategyState', 'soc'],
  },
  pcs: {
    key: ['state', 'onOff', 'activePower', 'reactivePower', 'dcVoltage', 'dcCurrent', 'todayChargeEnergy', 'todayDischargeEnergy'],
    chart: ['activePower', 'reactivePower', 'dcPower'],
    list: ['state', 'activePower'],
  },
  bms: {
    key: ['state', 'soc', 'soh', 'voltage', 'current', 'power', 'maxCellVoltage', 'minCellVoltage', 'maxCellTemperature', 'minCellTemperature'],
    chart: ['soc', 'power', 'maxCellVoltage', 'minCellVoltage'],
    list: ['state', 'soc'],
  },
  batteryCluster: {
    key: ['state', 'soc', 'voltage', 'current', 'power', 'cellVoltageDifference', 'maxCellTemperature', 'minCellTemperature'],
    chart: ['soc', 'voltage', 'current'],
    list: ['state', 'soc'],
    cells: 'cluster',
  },
  batteryPack: {
    key: ['soc', 'voltage', 'current', 'maxCellVoltage', 'minCellVoltage', 'maxCellTemperature', 'minCellTemperature', 'balancing'],
    chart: ['voltage', 'maxCellVoltage', 'minCellVoltage', 'maxCellTemperature'],
    list: ['soc', 'voltage'],
    cells: 'pack',
  },
  airConditioner: {
    key: ['onOff', 'mode', 'setTemperature', 'fanSpeed', 'cabinetTemperature', 'humidity', 'outdoorTemperature', 'power'],
    chart: ['cabinetTemperature', 'supplyAirTemperature', 'outdoorTemperature', 'humidity'],
    list: ['onOff', 'cabinetTemperature'],
  },
  dcdc: {
    key: ['state', 'onOff', 'pvPower', 'outputPower', 'pvVoltage', 'batteryVoltage', 'efficiency', 'todayEnergy'],
    chart: ['pvPower', 'outputPower'],
    list: ['state', 'outputPower'],
  },
  pvInverter: {
    key: ['state', 'onOff', 'activePower', 'dcPower', 'irradiance', 'efficiency', 'todayEnergy', 'totalEnergy'],
    chart: ['activePower', 'dcPower', 'irradiance'],
    list: ['state', 'activePower'],
  },
  transformer: {
    key: ['loadRate', 'activePower', 'apparentPower', 'ratedCapacity', 'windingTemperature', 'oilTemperature'],
    chart: ['activePower', 'loadRate', 'oilTemperature'],
    list: ['loadRate', 'activePower'],
  },
  meter: {
    key: ['activePower', 'reactivePower', 'powerFactor', 'demand', 'maxDemand', 'forwardActiveEnergy', 'reverseActiveEnergy'],
    chart: ['activePower', 'demand'],
    list: ['activePower', 'forwardActiveEnergy'],
  },
  chargingPile: {
    key: ['state', 'onOff', 'power', 'outputPower', 'temperature', 'gunCount', 'todayEnergy', 'todaySessions'],
    chart: ['power', 'outputPower'],
    list: ['state', 'power'],
  },
  chargingGun: {
    key: ['state', 'power', 'voltage', 'current', 'vehicleSoc', 'sessionEnergy', 'sessionDuration', 'temperature'],
    chart: ['power', 'vehicleSoc'],
    list: ['state', 'power'],
  },
};

export const isDeviceType = (v: string): v is DeviceType => (DEVICE_TYPES as readonly string[]).includes(v);

/** Source-text label of a device type (the type itself when unknown). */
export const typeLabel = (type: string): string => (isDeviceType(type) ? DEVICE_TYPE_LABELS[type] : type);

export const viewOf = (type: string): TypeView | null => (isDeviceType(type) ? TYPE_VIEWS[type] : null);

/** The identifiers the device list asks for: the list values of every type. */
export const LIST_IDENTIFIERS = [...new Set(Object.values(TYPE_VIEWS).flatMap((v) => v.list))];
