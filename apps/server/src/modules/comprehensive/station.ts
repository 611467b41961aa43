import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  DEVICE_STATUSES, IDLE_POWER_KW, THING_MODEL,
  type DeviceStatus, type DeviceType, type PowerNow, type StatusCounts, type Subsystems, type TelemetryValue,
} from '@ess/contract';
import { device } from '../../db/schema/device.ts';
import { deviceLatest } from '../../db/schema/telemetry.ts';
import type { AppContext } from '../../platform/context.ts';
import { statusExpr } from '../device/index.ts';
import { productSlotsOf, valuesOf, type ProductSlots } from '../telemetry/index.ts';

/**
 * A station's devices with their latest values, and what they say together: which subsystems
 * the station has, and its live power picture (DOMAIN.md §1). Only device_latest is read here.
 */

export interface StationDevice {
  id: number;
  siteId: number;
  code: string;
  name: string;
  type: DeviceType;
  meterPurpose: string | null;
  productId: number;
  parentId: number | null;
  status: DeviceStatus;
  ratedPower: number | null;
  no: number | null;
  subNo: number | null;
  /** Measurement time of the newest report, epoch ms. */
  ts: number | null;
  values: Record<string, TelemetryValue>;
}

/** The devices that play a part in the station's energy picture, by role. */
export interface StationRoles {
  mainMeter?: StationDevice;
  storageMeter?: StationDevice;
  pvMeter?: StationDevice;
  pileMeter?: StationDevice;
  ems?: StationDevice;
  transformer?: StationDevice;
  pcs: StationDevice[];
  bms: StationDevice[];
  inverters: StationDevice[];
  dcdc: StationDevice[];
  piles: StationDevice[];
  guns: StationDevice[];
}

/** Device types the power picture reads (battery clusters and packs, the bulk, are left out). */
export const POWER_TYPES: DeviceType[] = ['ems', 'pcs', 'bms', 'meter', 'pvInverter', 'dcdc', 'chargingPile', 'chargingGun', 'transformer'];

export const round = (x: number, digits = 3) => {
  const f = 10 ** digits;
  const v = Math.round(x * f) / f;
  return v === 0 ? 0 : v;
};

/** The slot layout of every product, read once per call. */
export type Slots = Map<number, ProductSlots>;
export const productSlots = (ctx: AppContext): Promise<Slots> => productSlotsOf(ctx);

/** Devices of some stations (already checked to be the caller's) with their latest values and live status. */
export async function stationDevices(ctx: AppContext, slots: Slots, siteIds: number[], types?: readonly DeviceType[]): Promise<StationDevice[]> {
  if (siteIds.length === 0) return [];
  const status = statusExpr(Date.now(), ctx.config.deviceOfflineTimeoutMs);
  const rows = await ctx.db
    .select({
      id: device.id, siteId: device.siteId, code: device.code, name: device.name, type: device.type, meterPurpose: device.meterPurpose,
      productId: device.productId, parentId: device.parentId, ratedPower: device.ratedPower, no: device.no, subNo: device.subNo,
      status, ts: deviceLatest.ts, v: deviceLatest.v, text: deviceLatest.text,
    })
    .from(device)
    .leftJoin(deviceLatest, eq(deviceLatest.deviceId, device.id))
    .where(and(inArray(device.siteId, siteIds), types ? inArray(device.type, [...types]) : undefined))
    .orderBy(asc(device.siteId), asc(device.sort), asc(device.id));
  return rows.map(({ v, text, ts, ...r }) => ({
    ...r,
    type: r.type as DeviceType,
    ts: ts ? ts.getTime() : null,
    values: valuesOf(slots.get(r.productId), v, text),
  }));
}

/** Devices of some stations by live status: site id → type → counts. */
export async function statusCounts(ctx: AppContext, siteIds: number[], type?: DeviceType): Promise<Map<number, Map<DeviceType, StatusCounts>>> {
  const out = new Map<number, Map<DeviceType, StatusCounts>>();
  if (siteIds.length === 0) return out;
  const status = statusExpr(Date.now(), ctx.config.deviceOfflineTimeoutMs);
  // Grouped outside: the status expression carries parameters, which GROUP BY cannot match.
  const d = ctx.db
    .select({ siteId: device.siteId, type: device.type, status: status.as('status') })
    .from(device)
    .leftJoin(deviceLatest, eq(deviceLatest.deviceId, device.id))
    .where(and(inArray(device.siteId, siteIds), type ? eq(device.type, type) : undefined))
    .as('d');
  const rows = await ctx.db
    .select({ siteId: d.siteId, type: d.type, status: d.status, n: sql<number>`count(*)::int` })
    .from(d)
    .groupBy(d.siteId, d.type, d.status);
  for (const r of rows) {
    let bySite = out.get(r.siteId);
    if (!bySite) out.set(r.siteId, (bySite = new Map<DeviceType, StatusCounts>()));
    const t = r.type as DeviceType;
    const c = bySite.get(t) ?? emptyCounts();
    c[r.status] += r.n;
    c.total += r.n;
    bySite.set(t, c);
  }
  return out;
}

export const emptyCounts = (): StatusCounts => ({ total: 0, online: 0, offline: 0, disabled: 0, inactive: 0 });

export function addCounts(a: StatusCounts, b: StatusCounts): StatusCounts {
  return {
    total: a.total + b.total, online: a.online + b.online, offline: a.offline + b.offline, disabled: a.disabled + b.disabled, inactive: a.inactive + b.inactive,
  };
}

/** Counts of a list of devices by live status. */
export function countOf(devices: readonly Pick<StationDevice, 'status'>[]): StatusCounts {
  const c = emptyCounts();
  for (const d of devices) {
    c[d.status]++;
    c.total++;
  }
  return c;
}

export const isStatus = (s: string): s is DeviceStatus => (DEVICE_STATUSES as readonly string[]).includes(s);

export function rolesOf(devices: readonly StationDevice[]): StationRoles {
  const meter = (purpose: string) => devices.find((d) => d.type === 'meter' && d.meterPurpose === purpose);
  const ofType = (t: DeviceType) => devices.filter((d) => d.type === t);
  return {
    mainMeter: meter('main'),
    storageMeter: meter('storage'),
    pvMeter: meter('pv'),
    pileMeter: meter('pile'),
    // The station's controller is the EMS at the root of its tree (a second one would be a sub-controller).
    ems: devices.find((d) => d.type === 'ems' && d.parentId === null) ?? devices.find((d) => d.type === 'ems'),
    transformer: devices.find((d) => d.type === 'transformer'),
    pcs: ofType('pcs'),
    bms: ofType('bms'),
    inverters: ofType('pvInverter'),
    dcdc: ofType('dcdc'),
    piles: ofType('chargingPile'),
    guns: ofType('chargingGun'),
  };
}

export function subsystemsOf(r: StationRoles): Subsystems {
  const acPv = r.inverters.length > 0 || !!r.pvMeter;
  const dcPv = r.dcdc.length > 0;
  return {
    storage: r.pcs.length > 0 || r.bms.length > 0 || !!r.storageMeter,
    pv: acPv || dcPv,
    pvCoupling: acPv ? 'ac' : dcPv ? 'dc' : null,
    charging: r.piles.length > 0 || !!r.pileMeter,
    transformer: !!r.transformer,
    mainMeter: !!r.mainMeter,
  };
}

export const numberOf = (d: StationDevice | undefined, identifier: string): number | null => {
  const v = d?.values[identifier];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
};

/** Sum of the reported values; null when none of the devices reported it. */
export function sumOf(devices: readonly StationDevice[], identifier: string): number | null {
  let total: number | null = null;
  for (const d of devices) {
    const v = numberOf(d, identifier);
    if (v !== null) total = (total ?? 0) + v;
  }
  return total;
}

export function meanOf(devices: readonly StationDevice[], identifier: string): number | null {
  const vs = devices.map((d) => numberOf(d, identifier)).filter((v): v is number => v !== null);
  return vs.length ? vs.reduce((a, x) => a + x, 0) / vs.length : null;
}

const r2 = (x: number | null) => (x === null ? null : round(x, 2));

/**
 * The parts of the power balance at the main meter, kW: grid import, the storage converters' AC
 * output (discharge positive), AC-coupled PV, DC-coupled PV (the DC/DC output onto the storage's
 * bus, already inside the converters' AC output) and the piles. The live picture and the curves
 * read them the same way, so they agree.
 */
export interface BalanceParts {
  grid: number | null;
  storageAc: number | null;
  pvAc: number | null;
  pvDc: number | null;
  piles: number | null;
}

/**
 * The power picture from the balance parts. Load closes the balance at the main meter:
 * load = grid + storage AC output + AC-coupled PV − piles (DOMAIN.md §1, as the simulator plays
 * it). Storage is shown net of DC-coupled PV (what the battery itself gives or takes, converter
 * losses aside) and PV whole, so that grid + storage + PV = load + piles in every station.
 */
export function powerFrom(s: Subsystems, p: BalanceParts, emsLoad: number | null): PowerNow {
  const pvDc = s.pvCoupling === 'dc' ? p.pvDc : null;
  const pvAc = s.pvCoupling === 'ac' ? p.pvAc : null;
  const pv = s.pv ? (pvAc === null && pvDc === null ? null : (pvAc ?? 0) + (pvDc ?? 0)) : null;
  const storage = s.storage && p.storageAc !== null ? p.storageAc - (pvDc ?? 0) : null;
  let load: number | null;
  const known = p.grid !== null && (!s.storage || p.storageAc !== null) && (s.pvCoupling !== 'ac' || pvAc !== null) && (!s.charging || p.piles !== null);
  if (known) {
    load = p.grid! + (s.storage ? p.storageAc! : 0) + (pvAc ?? 0) - (s.charging ? p.piles! : 0);
    // Measurement noise around zero load is not a negative load.
    if (load < 0 && load > -IDLE_POWER_KW * 10) load = 0;
  } else {
    load = emsLoad;
  }
  return { grid: r2(p.grid), storage: r2(storage), pv: r2(pv), load: r2(load), piles: s.charging ? r2(p.piles) : null };
}

/** The balance parts from the latest values: meters first (the billing points), devices otherwise. */
export function liveParts(r: StationRoles): BalanceParts {
  const storageMeter = numberOf(r.storageMeter, 'activePower');
  return {
    grid: numberOf(r.mainMeter, 'activePower') ?? numberOf(r.ems, 'gridPower'),
    // The storage meter counts charging as forward (positive): discharge positive is its negative.
    storageAc: storageMeter !== null ? -storageMeter : (sumOf(r.pcs, 'activePower') ?? numberOf(r.ems, 'activePower')),
    pvAc: r.pvMeter ? numberOf(r.pvMeter, 'activePower') : sumOf(r.inverters, 'activePower'),
    pvDc: sumOf(r.dcdc, 'outputPower'),
    piles: numberOf(r.pileMeter, 'activePower') ?? sumOf(r.piles, 'power'),
  };
}

export function livePower(r: StationRoles): PowerNow {
  return powerFrom(subsystemsOf(r), liveParts(r), numberOf(r.ems, 'loadPower'));
}

/** The storage's SOC %: the EMS's, else the mean of the BMS. */
export function socOf(r: StationRoles): number | null {
  const v = numberOf(r.ems, 'soc') ?? meanOf(r.bms, 'soc');
  return v === null ? null : round(v, 1);
}

/** Newest measurement among some devices, ISO. */
export function newestTs(devices: readonly StationDevice[]): string | null {
  let ts: number | null = null;
  for (const d of devices) if (d.ts !== null && (ts === null || d.ts > ts)) ts = d.ts;
  return ts === null ? null : new Date(ts).toISOString();
}

/** The enumeration entry of a device's running state, from the thing model. */
export function stateEntry(type: DeviceType, identifier: string, value: TelemetryValue | undefined) {
  if (typeof value !== 'number') return undefined;
  return THING_MODEL[type].properties.find((p) => p.identifier === identifier)?.enumValues?.find((e) => e.value === value);
}

/** The value of the thing model's fault state of a type ('故障'), if the type has one. */
export function faultValue(type: DeviceType): number | undefined {
  return THING_MODEL[type].properties.find((p) => p.identifier === 'state')?.enumValues?.find((e) => e.label === '故障')?.value;
}
