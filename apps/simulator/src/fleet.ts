import type { DeviceType, MeterPurpose, PricePeriod, TouSegment } from '@ess/contract';
import { PACK_CELL_COUNT } from '@ess/contract';
import { mulberry32 } from './random.ts';

/**
 * The stations the simulator plays, as plain data. The server's demo seed creates the same
 * stations and devices from this (codes, names, parents, types, meter purposes, key values,
 * time-of-use schedule and prices), so what arrives over MQTT matches what is registered.
 */

export type StationKind = 'storage' | 'storagePv' | 'storagePvCharging';
export type LoadProfile = 'factory' | 'office' | 'retail';

export interface DeviceDef {
  code: string;
  name: string;
  type: DeviceType;
  /** null for a root of the station's device tree. */
  parentCode: string | null;
  /** Only for type meter. */
  meterPurpose?: MeterPurpose;
  /** Energy cabinet the device stands in (clusters, packs, air conditioners). */
  cabinetCode?: string;
  /** Rated power (kW) of PCS, DCDC, PV inverter, pile, gun; rated capacity (kVA) of the transformer. */
  ratedPower?: number;
  /** 1-based position: cluster number for clusters and packs, pile number for piles and guns. */
  no?: number;
  /** 1-based position within the parent: pack within cluster, gun within pile. */
  subNo?: number;
  barcode: string;
  firmwareName: string;
  firmwareVersion: string;
}

export interface CabinetDef {
  code: string;
  name: string;
}

export interface StorageDef {
  clusterCount: number;
  packsPerCluster: number;
  cellsPerPack: number;
  cellCapacityAh: number;
  cellNominalVoltage: number;
  /** kWh, = clusters × packs × cells × Ah × V / 1000. */
  installedEnergy: number;
  /** kW, the PCS rating. */
  installedPower: number;
  /** 0–1; the SOC window is centred: DoD 0.9 → 5 %…95 %. */
  depthOfDischarge: number;
  /** State of health 0–1 at the start (seeded). */
  soh: number;
}

export interface PvDef {
  /** dc: PV strings → DCDC → the PCS's DC bus (no PV meter); ac: PV inverters → PV meter. */
  coupling: 'dc' | 'ac';
  peakPower: number;
  moduleCount: number;
  moduleWatt: number;
  workingMode: 'selfConsumption';
}

export interface ChargingDef {
  pileCount: number;
  gunsPerPile: number;
  pileRatedPower: number;
  gunMaxPower: number;
}

export interface StationDef {
  code: string;
  name: string;
  kind: StationKind;
  /** IANA zone: days, months and price periods are computed in it. */
  timeZone: string;
  latitude: number;
  longitude: number;
  country: string;
  city: string;
  address: string;
  currency: string;
  /** YYYY-MM-DD (station-local). */
  commissioningDate: string;
  /** e.g. "10kV": the connection voltage; the simulated low-voltage side is gridPhaseVoltage. */
  voltageLevel: string;
  gridPhaseVoltage: number;
  gridFrequency: 50 | 60;
  storage: StorageDef;
  pv: PvDef | null;
  charging: ChargingDef | null;
  transformer: { ratedCapacity: number; protectionPower: number };
  load: { base: number; peak: number; profile: LoadProfile };
  /** 24 h partition into price periods, sorted, first at 00:00. */
  touSchedule: TouSegment[];
  /** Price per kWh in `currency` per period (for the server's price template). */
  prices: Record<PricePeriod, number>;
  cabinets: CabinetDef[];
  devices: DeviceDef[];
}

export interface Fleet {
  seed: number;
  stations: StationDef[];
}

interface Template {
  kind: StationKind;
  clusterCount: number;
  packsPerCluster: number;
  pcsKw: number;
  pv: Omit<PvDef, 'moduleCount' | 'workingMode'> & { inverterCount: number } | null;
  charging: ChargingDef | null;
  transformerKva: number;
  protectionKw: number;
  load: { base: number; peak: number; profile: LoadProfile };
}

const TEMPLATES: Record<StationKind, Template> = {
  storage: {
    kind: 'storage', clusterCount: 2, packsPerCluster: 15, pcsKw: 200, pv: null, charging: null,
    transformerKva: 630, protectionKw: 500, load: { base: 90, peak: 260, profile: 'factory' },
  },
  storagePv: {
    kind: 'storagePv', clusterCount: 1, packsPerCluster: 15, pcsKw: 100,
    pv: { coupling: 'dc', peakPower: 120, moduleWatt: 550, inverterCount: 1 }, charging: null,
    transformerKva: 400, protectionKw: 300, load: { base: 25, peak: 110, profile: 'office' },
  },
  storagePvCharging: {
    kind: 'storagePvCharging', clusterCount: 2, packsPerCluster: 15, pcsKw: 200,
    pv: { coupling: 'ac', peakPower: 130, moduleWatt: 550, inverterCount: 2 },
    charging: { pileCount: 2, gunsPerPile: 2, pileRatedPower: 120, gunMaxPower: 60 },
    // Tight for a retail load with fast chargers: the storage shaves the evening peak, and when it
    // is empty or down the load rate crosses its warning.
    transformerKva: 500, protectionKw: 440, load: { base: 60, peak: 220, profile: 'retail' },
  },
};

interface Place {
  timeZone: string;
  latitude: number;
  longitude: number;
  country: string;
  city: string;
  cityZh: string;
  address: string;
  currency: string;
  voltageLevel: string;
  gridPhaseVoltage: number;
  gridFrequency: 50 | 60;
  touSchedule: TouSegment[];
  prices: Record<PricePeriod, number>;
}

const seg = (start: string, period: PricePeriod): TouSegment => ({ start, period });

/** Places for the demo and, cycled, for scaled fleets. */
const PLACES: Place[] = [
  {
    timeZone: 'Asia/Shanghai', latitude: 30.89, longitude: 121.91, country: 'CN', city: 'Shanghai', cityZh: '上海临港',
    address: '上海市浦东新区临港新片区层林路88号', currency: 'CNY', voltageLevel: '10kV', gridPhaseVoltage: 230, gridFrequency: 50,
    touSchedule: [
      seg('00:00', 'valley'), seg('06:00', 'flat'), seg('08:00', 'peak'), seg('11:00', 'deepValley'), seg('13:00', 'flat'),
      seg('15:00', 'peak'), seg('19:00', 'tip'), seg('21:00', 'peak'), seg('22:00', 'valley'),
    ],
    prices: { tip: 1.3512, peak: 1.1236, flat: 0.6784, valley: 0.3125, deepValley: 0.2487 },
  },
  {
    timeZone: 'Europe/Berlin', latitude: 52.43, longitude: 13.53, country: 'DE', city: 'Berlin', cityZh: '柏林阿德勒斯霍夫',
    address: 'Rudower Chaussee 12, 12489 Berlin', currency: 'EUR', voltageLevel: '10kV', gridPhaseVoltage: 230, gridFrequency: 50,
    touSchedule: [
      seg('00:00', 'deepValley'), seg('05:00', 'valley'), seg('07:00', 'peak'), seg('11:00', 'flat'), seg('17:00', 'peak'),
      seg('18:00', 'tip'), seg('20:00', 'peak'), seg('21:00', 'flat'), seg('23:00', 'valley'),
    ],
    prices: { tip: 0.412, peak: 0.336, flat: 0.268, valley: 0.192, deepValley: 0.154 },
  },
  {
    timeZone: 'America/Los_Angeles', latitude: 34.02, longitude: -118.28, country: 'US', city: 'Los Angeles', cityZh: '洛杉矶',
    address: '1200 S Figueroa St, Los Angeles, CA 90015', currency: 'USD', voltageLevel: '12kV', gridPhaseVoltage: 277, gridFrequency: 60,
    touSchedule: [
      seg('00:00', 'valley'), seg('08:00', 'flat'), seg('09:00', 'deepValley'), seg('14:00', 'flat'), seg('16:00', 'peak'),
      seg('17:00', 'tip'), seg('20:00', 'peak'), seg('21:00', 'flat'), seg('22:00', 'valley'),
    ],
    prices: { tip: 0.5821, peak: 0.4412, flat: 0.2934, valley: 0.2103, deepValley: 0.1452 },
  },
  {
    timeZone: 'Asia/Tokyo', latitude: 35.62, longitude: 139.78, country: 'JP', city: 'Tokyo', cityZh: '东京',
    address: '2-7-1 Ariake, Koto-ku, Tokyo', currency: 'JPY', voltageLevel: '6.6kV', gridPhaseVoltage: 230, gridFrequency: 50,
    touSchedule: [
      seg('00:00', 'valley'), seg('07:00', 'flat'), seg('10:00', 'peak'), seg('13:00', 'flat'), seg('17:00', 'tip'),
      seg('19:00', 'peak'), seg('21:00', 'flat'), seg('23:00', 'valley'),
    ],
    prices: { tip: 42.1, peak: 35.6, flat: 28.3, valley: 19.8, deepValley: 16.2 },
  },
  {
    timeZone: 'Australia/Sydney', latitude: -33.87, longitude: 151.21, country: 'AU', city: 'Sydney', cityZh: '悉尼',
    address: '1 Macquarie St, Sydney NSW 2000', currency: 'AUD', voltageLevel: '11kV', gridPhaseVoltage: 230, gridFrequency: 50,
    touSchedule: [
      seg('00:00', 'valley'), seg('07:00', 'flat'), seg('10:00', 'deepValley'), seg('15:00', 'peak'), seg('17:00', 'tip'),
      seg('20:00', 'peak'), seg('22:00', 'valley'),
    ],
    prices: { tip: 0.61, peak: 0.48, flat: 0.33, valley: 0.21, deepValley: 0.12 },
  },
  {
    timeZone: 'America/New_York', latitude: 40.71, longitude: -74.01, country: 'US', city: 'New York', cityZh: '纽约',
    address: '200 Liberty St, New York, NY 10281', currency: 'USD', voltageLevel: '13.2kV', gridPhaseVoltage: 277, gridFrequency: 60,
    touSchedule: [
      seg('00:00', 'valley'), seg('06:00', 'flat'), seg('08:00', 'peak'), seg('12:00', 'flat'), seg('14:00', 'peak'),
      seg('16:00', 'tip'), seg('20:00', 'peak'), seg('22:00', 'valley'),
    ],
    prices: { tip: 0.52, peak: 0.39, flat: 0.27, valley: 0.17, deepValley: 0.13 },
  },
];

const KIND_NAMES: Record<StationKind, string> = {
  storage: '储能电站',
  storagePv: '光储电站',
  storagePvCharging: '光储充电站',
};

const CELL_AH = 280;
const CELL_V = 3.2;
const pad = (n: number) => String(n).padStart(2, '0');

interface BuildInput {
  code: string;
  name: string;
  place: Place;
  template: Template;
  commissioningDate: string;
  rand: () => number;
}

function buildStation({ code, name, place, template: t, commissioningDate, rand }: BuildInput): StationDef {
  const devices: DeviceDef[] = [];
  const serial = (prefix: string) => `${prefix}${String(Math.floor(rand() * 1e10)).padStart(10, '0')}`;
  const add = (d: Omit<DeviceDef, 'barcode' | 'firmwareName' | 'firmwareVersion'>, fw: string, version: string) => {
    devices.push({ ...d, barcode: serial(fw.slice(0, 2).toUpperCase()), firmwareName: fw, firmwareVersion: version });
  };

  const ems = `${code}-EMS-01`;
  const pcs = `${code}-PCS-01`;
  const bms = `${code}-BMS-01`;
  add({ code: ems, name: 'EMS能量管理系统', type: 'ems', parentCode: null }, 'ems-controller', '3.2.1');
  add({ code: pcs, name: '1#储能变流器', type: 'pcs', parentCode: ems, ratedPower: t.pcsKw }, 'pcs-dsp', '2.8.4');
  add({ code: bms, name: '1#电池管理系统', type: 'bms', parentCode: pcs }, 'bms-master', '1.9.0');

  const cabinets: CabinetDef[] = [];
  for (let c = 1; c <= t.clusterCount; c++) {
    const cabinet = `${code}-CAB-${pad(c)}`;
    cabinets.push({ code: cabinet, name: `${c}#储能柜` });
    const cluster = `${code}-BC-${pad(c)}`;
    add({ code: cluster, name: `${c}#电池簇`, type: 'batteryCluster', parentCode: bms, cabinetCode: cabinet, no: c }, 'bms-slave', '1.9.0');
    for (let p = 1; p <= t.packsPerCluster; p++) {
      add(
        { code: `${code}-BP-${pad(c)}-${pad(p)}`, name: `${c}#簇${p}#电池包`, type: 'batteryPack', parentCode: cluster, cabinetCode: cabinet, no: c, subNo: p },
        'bmu', '1.4.2',
      );
    }
    add({ code: `${code}-AC-${pad(c)}`, name: `${c}#储能柜空调`, type: 'airConditioner', parentCode: ems, cabinetCode: cabinet, no: c }, 'hvac', '5.0.3');
  }

  const transformer = `${code}-TR-01`;
  const mainMeter = `${code}-MT-MAIN`;
  add({ code: transformer, name: '1#变压器', type: 'transformer', parentCode: null, ratedPower: t.transformerKva }, 'tr-monitor', '1.0.6');
  add({ code: mainMeter, name: '关口电表', type: 'meter', parentCode: transformer, meterPurpose: 'main' }, 'meter', '2.1.0');
  add({ code: `${code}-MT-ESS`, name: '储能电表', type: 'meter', parentCode: mainMeter, meterPurpose: 'storage' }, 'meter', '2.1.0');

  let pv: PvDef | null = null;
  if (t.pv) {
    pv = {
      coupling: t.pv.coupling,
      peakPower: t.pv.peakPower,
      moduleWatt: t.pv.moduleWatt,
      moduleCount: Math.round((t.pv.peakPower * 1000) / t.pv.moduleWatt),
      workingMode: 'selfConsumption',
    };
    if (t.pv.coupling === 'dc') {
      add({ code: `${code}-DCDC-01`, name: '1#光伏DC/DC', type: 'dcdc', parentCode: pcs, ratedPower: t.pv.peakPower, no: 1 }, 'dcdc', '1.3.0');
    } else {
      const pvMeter = `${code}-MT-PV`;
      add({ code: pvMeter, name: '光伏电表', type: 'meter', parentCode: mainMeter, meterPurpose: 'pv' }, 'meter', '2.1.0');
      const each = Math.round(t.pv.peakPower / t.pv.inverterCount / 1.1);
      for (let i = 1; i <= t.pv.inverterCount; i++) {
        add({ code: `${code}-PV-${pad(i)}`, name: `${i}#光伏逆变器`, type: 'pvInverter', parentCode: pvMeter, ratedPower: each, no: i }, 'pv-inverter', '4.1.7');
      }
    }
  }

  if (t.charging) {
    const pileMeter = `${code}-MT-PILE`;
    add({ code: pileMeter, name: '充电桩电表', type: 'meter', parentCode: mainMeter, meterPurpose: 'pile' }, 'meter', '2.1.0');
    for (let p = 1; p <= t.charging.pileCount; p++) {
      const pile = `${code}-CP-${pad(p)}`;
      add({ code: pile, name: `${p}#直流充电桩`, type: 'chargingPile', parentCode: pileMeter, ratedPower: t.charging.pileRatedPower, no: p }, 'pile-ctrl', '6.2.0');
      for (let g = 1; g <= t.charging.gunsPerPile; g++) {
        add(
          { code: `${pile.replace('-CP-', '-CG-')}-${g}`, name: `${p}#桩${g}号枪`, type: 'chargingGun', parentCode: pile, ratedPower: t.charging.gunMaxPower, no: p, subNo: g },
          'gun', '6.2.0',
        );
      }
    }
  }

  const installedEnergy = Math.round((t.clusterCount * t.packsPerCluster * PACK_CELL_COUNT * CELL_AH * CELL_V) / 100) / 10;
  return {
    code,
    name,
    kind: t.kind,
    timeZone: place.timeZone,
    latitude: place.latitude,
    longitude: place.longitude,
    country: place.country,
    city: place.city,
    address: place.address,
    currency: place.currency,
    commissioningDate,
    voltageLevel: place.voltageLevel,
    gridPhaseVoltage: place.gridPhaseVoltage,
    gridFrequency: place.gridFrequency,
    storage: {
      clusterCount: t.clusterCount,
      packsPerCluster: t.packsPerCluster,
      cellsPerPack: PACK_CELL_COUNT,
      cellCapacityAh: CELL_AH,
      cellNominalVoltage: CELL_V,
      installedEnergy,
      installedPower: t.pcsKw,
      depthOfDischarge: 0.9,
      // Commissioned with the demo's history (state.ts): nearly new cells.
      soh: Math.round((0.985 + rand() * 0.014) * 1000) / 1000,
    },
    pv,
    charging: t.charging,
    transformer: { ratedCapacity: t.transformerKva, protectionPower: t.protectionKw },
    load: t.load,
    touSchedule: place.touSchedule,
    prices: place.prices,
    cabinets,
    devices,
  };
}

const DEMO: { code: string; place: number; kind: StationKind; commissioningDate: string }[] = [
  { code: 'SH01', place: 0, kind: 'storage', commissioningDate: '2023-06-18' },
  { code: 'BE01', place: 1, kind: 'storagePv', commissioningDate: '2024-03-01' },
  { code: 'LA01', place: 2, kind: 'storagePvCharging', commissioningDate: '2024-09-10' },
];

/**
 * The demo: Shanghai storage only, Berlin storage + DC-coupled PV, Los Angeles storage + AC PV
 * + charging. The seed varies serial numbers, state of health and every random process.
 */
export function demoFleet(seed = 1): Fleet {
  const rand = mulberry32(seed);
  const stations = DEMO.map((d) => {
    const place = PLACES[d.place]!;
    return buildStation({
      code: d.code,
      name: `${place.cityZh}${KIND_NAMES[d.kind]}`,
      place,
      template: TEMPLATES[d.kind],
      commissioningDate: d.commissioningDate,
      rand,
    });
  });
  return { seed, stations };
}

const KIND_CYCLE: StationKind[] = ['storage', 'storagePv', 'storagePvCharging'];

/** N stations for benchmarks: the three kinds cycled over six time zones, codes ST0001…. */
export function scaleFleet(n: number, seed = 1): Fleet {
  const rand = mulberry32(seed);
  const stations: StationDef[] = [];
  for (let i = 0; i < n; i++) {
    const place = PLACES[i % PLACES.length]!;
    const kind = KIND_CYCLE[i % KIND_CYCLE.length]!;
    const no = String(i + 1).padStart(4, '0');
    stations.push(
      buildStation({
        code: `ST${no}`,
        name: `${place.cityZh}${no}号${KIND_NAMES[kind]}`,
        place,
        template: TEMPLATES[kind],
        commissioningDate: `2024-0${1 + (i % 9)}-15`,
        rand,
      }),
    );
  }
  return { seed, stations };
}

/** SIM_STATIONS semantics: 1–3 are the first demo stations; more is a scaled fleet. */
export function createFleet(stations = 3, seed = 1): Fleet {
  if (stations <= 3) {
    const demo = demoFleet(seed);
    return { seed, stations: demo.stations.slice(0, Math.max(1, stations)) };
  }
  return scaleFleet(stations, seed);
}

/** All devices of a fleet by code, with their station. */
export function indexDevices(fleet: Fleet): Map<string, { station: StationDef; device: DeviceDef }> {
  const out = new Map<string, { station: StationDef; device: DeviceDef }>();
  for (const station of fleet.stations) for (const device of station.devices) out.set(device.code, { station, device });
  return out;
}

/**
 * A sensible standing demand target for a station, from its load profile (the demo's, decision
 * 0040): the load's base plus 1.075 × its day swing (the natural monthly peak reaches about
 * 1.19 × with its noise), plus half the charging piles' rating (their evening sessions stack on
 * the load); the margin 5 %. Its pre-alarm line (target − margin) lies under the station's natural
 * monthly peak, so the storage shaves visibly, and well above its night load, so the valleys
 * still charge; on the heaviest days the storage may run short, which makes a few pre-alarms.
 */
export function demoDemandTarget(def: StationDef): { targetKw: number; marginKw: number } {
  const piles = def.charging ? def.charging.pileCount * def.charging.pileRatedPower : 0;
  const targetKw = Math.round(def.load.base + 1.075 * (def.load.peak - def.load.base) + 0.5 * piles);
  return { targetKw, marginKw: Math.round(targetKw * 0.05 * 10) / 10 };
}
