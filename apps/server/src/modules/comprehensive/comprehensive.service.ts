import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import {
  DEVICE_TYPES, DEVICE_TYPE_LABELS, PRICE_PERIODS, meterRegisterIdentifier,
  type DashboardSeries, type DeviceStatusOverview, type EnergyFigures, type DeviceStatusQuery, type DeviceType, type DeviceTypeStatus, type DiagramValue, type DiagramValues,
  type FlowEdge, type FlowNode, type KeyValueName, type LiveSite, type LiveSitePageQuery, type MainMeterView, type MeterRegisterDay,
  type Page, type PowerCurves, type SiteDayQuery, type SiteInfo, type SiteOption, type SiteOverview, type SitePerformance,
  type SiteTopology, type SiteType, type StatusCounts,
} from '@ess/contract';
import { device, productProperty } from '../../db/schema/device.ts';
import { distributionDiagram, site } from '../../db/schema/site.ts';
import { company } from '../../db/schema/system.ts';
import { deviceLatest } from '../../db/schema/telemetry.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { found } from '../../platform/http/errors.ts';
import { assertCompany, inSiteScope } from '../../platform/http/scope.ts';
import { statusExpr } from '../device/index.ts';
import { siteInScope, underCompany } from '../site/index.ts';
import { deviceGrowth, energyDevices, energyFigures, ENERGY_REGISTERS, lifetime } from './energy.ts';
import { keyValuesOf, loadStation, maintenanceOf, recentHandles, type KeyValues, type LoadedStation } from './load.ts';
import { dayPeriod, daysSince, FIVE_MINUTES, resolveDate } from '../../platform/time/local-time.ts';
import { bucketAverages, lastBefore, stateBuckets } from './rollup-reader.ts';
import {
  POWER_TYPES, addCounts, countOf, emptyCounts, faultValue, livePower, newestTs, numberOf, powerFrom, productSlots, rolesOf, round,
  socOf, stationDevices, statusCounts, subsystemsOf, type BalanceParts, type StationDevice, type StationRoles,
} from './station.ts';

const pct = (x: number | null) => (x === null ? null : round(x * 100, 2));

// ── Station list and picker ───────────────────────────────────────────────────────────

const siteColumns = {
  id: site.id, name: site.name, code: site.code, companyId: site.companyId, companyName: company.name, siteType: site.siteType,
  timeZone: site.timeZone, address: site.address,
};

/** The stations the caller sees, with live status and power, a page at a time. */
export async function liveSitePage(ctx: AppContext, user: AuthUser, q: LiveSitePageQuery): Promise<Page<LiveSite>> {
  if (q.companyId) await assertCompany(ctx.db, user, q.companyId);
  if (q.id) await siteInScope(ctx.db, user, q.id);
  const where = and(inSiteScope(site.id, ctx.db, user), q.companyId ? underCompany(q.companyId) : undefined, q.id ? eq(site.id, q.id) : undefined);
  const [{ n } = { n: 0 }] = await ctx.db.select({ n: count() }).from(site).where(where);
  if (n === 0) return { records: [], total: 0, current: q.current, pageSize: q.pageSize };
  const sites = await ctx.db
    .select(siteColumns)
    .from(site)
    .innerJoin(company, eq(company.id, site.companyId))
    .where(where)
    .orderBy(asc(site.id))
    .limit(q.pageSize)
    .offset((q.current - 1) * q.pageSize);
  const ids = sites.map((s) => s.id);
  const slots = await productSlots(ctx);
  const [devices, counts, maintenance] = await Promise.all([
    stationDevices(ctx, slots, ids, POWER_TYPES),
    statusCounts(ctx, ids),
    maintenanceOf(ctx.db, ids),
  ]);
  const bySite = new Map<number, StationDevice[]>();
  for (const d of devices) {
    const list = bySite.get(d.siteId) ?? [];
    list.push(d);
    bySite.set(d.siteId, list);
  }
  const records = sites.map((s): LiveSite => {
    const mine = bySite.get(s.id) ?? [];
    const roles = rolesOf(mine);
    const c = [...(counts.get(s.id)?.values() ?? [])].reduce(addCounts, emptyCounts());
    return {
      ...s,
      siteType: s.siteType as SiteType,
      status: siteStatus(c),
      devices: c,
      power: livePower(roles),
      soc: socOf(roles),
      subsystems: subsystemsOf(roles),
      maintenance: maintenance.get(s.id) ?? null,
      ts: newestTs(mine),
    };
  });
  return { records, total: n, current: q.current, pageSize: q.pageSize };
}

/** online: every enabled device that ever reported is online; partial: some; offline: none; noData: none ever reported. */
function siteStatus(c: StatusCounts): LiveSite['status'] {
  const reporting = c.online + c.offline;
  if (reporting === 0) return 'noData';
  if (c.offline === 0) return 'online';
  return c.online === 0 ? 'offline' : 'partial';
}

/** The stations for a picker (all the caller sees, or the one named). */
export async function siteDown(ctx: AppContext, user: AuthUser, q: { siteId?: number }): Promise<SiteOption[]> {
  if (q.siteId) await siteInScope(ctx.db, user, q.siteId);
  const rows = await ctx.db
    .select({ id: site.id, name: site.name, code: site.code, siteType: site.siteType, timeZone: site.timeZone, companyId: site.companyId, companyName: company.name })
    .from(site)
    .innerJoin(company, eq(company.id, site.companyId))
    .where(and(inSiteScope(site.id, ctx.db, user), q.siteId ? eq(site.id, q.siteId) : undefined))
    .orderBy(asc(site.id))
    .limit(5000);
  return rows.map((r) => ({ ...r, siteType: r.siteType as SiteType }));
}

// ── One station ──────────────────────────────────────────────────────────────────────

/** Key values the station's subsystems need that are not set. */
function missingKeyValues(s: LoadedStation['subsystems'], kv: KeyValues | null, names?: KeyValueName[]): KeyValueName[] {
  const needed: KeyValueName[] = [];
  if (s.storage) needed.push('installedCapacity', 'installedPower', 'depthOfDischarge');
  if (s.pv) needed.push('pvModuleCount', 'pvWorkingMode');
  if (s.charging) needed.push('pilePower');
  if (s.mainMeter || s.transformer) needed.push('voltageLevel', 'transformerProtectionPower');
  return needed.filter((k) => (!names || names.includes(k)) && (kv === null || kv[k] === null));
}

const ratedSum = (devices: readonly StationDevice[]) => {
  const rated = devices.map((d) => d.ratedPower).filter((x): x is number => x !== null);
  return rated.length ? round(rated.reduce((a, x) => a + x, 0), 3) : null;
};

export async function siteInfo(ctx: AppContext, user: AuthUser, siteId: number): Promise<SiteInfo> {
  const st = await loadStation(ctx, user, siteId);
  const s = st.site;
  const [kv, maintenance, handles] = await Promise.all([keyValuesOf(ctx, s.id), maintenanceOf(ctx.db, [s.id]), recentHandles(ctx, s.id)]);
  return {
    id: s.id, name: s.name, code: s.code, companyId: s.companyId, companyName: s.companyName, siteType: s.siteType, timeZone: s.timeZone,
    address: s.address, longitude: s.longitude, latitude: s.latitude, currency: s.currency, commissioningDate: s.commissioningDate,
    serviceEndDate: s.serviceEndDate, contact: s.contact, phone: s.phone, investor: s.investor, powerUser: s.powerUser,
    runningDays: daysSince(s.timeZone, s.commissioningDate, st.now),
    deviceCount: s.deviceCount,
    subsystems: st.subsystems,
    keyValues: {
      installedCapacity: kv?.installedCapacity ?? null,
      installedPower: kv?.installedPower ?? null,
      depthOfDischarge: kv?.depthOfDischarge ?? null,
      voltageLevel: kv?.voltageLevel ?? null,
      transformerProtectionPower: kv?.transformerProtectionPower ?? null,
      pvModuleCount: kv?.pvModuleCount ?? null,
      pvWorkingMode: kv?.pvWorkingMode ?? null,
      pilePower: kv?.pilePower ?? null,
    },
    missing: missingKeyValues(st.subsystems, kv),
    pvRatedPower: st.subsystems.pv ? ratedSum([...st.roles.inverters, ...st.roles.dcdc]) : null,
    maintenance: maintenance.get(s.id) ?? null,
    handles,
  };
}

/** Today's (or a past date's) energy and the lifetime totals, with the live power. */
export async function siteOverview(ctx: AppContext, user: AuthUser, q: SiteDayQuery): Promise<SiteOverview> {
  const st = await loadStation(ctx, user, q.siteId);
  const tz = st.site.timeZone;
  const day = dayPeriod(tz, resolveDate(tz, q.date, st.now));
  const devices = energyDevices(st.roles);
  const growth = await deviceGrowth(ctx, st.slots, devices, ENERGY_REGISTERS, day.start, day.end, st.now);
  return {
    siteId: st.site.id,
    timeZone: tz,
    date: day.date,
    ts: newestTs(st.devices),
    subsystems: st.subsystems,
    power: livePower(st.roles),
    soc: socOf(st.roles),
    day: energyFigures(st.subsystems, st.roles, growth),
    total: energyFigures(st.subsystems, st.roles, lifetime(devices, ENERGY_REGISTERS)),
  };
}

/** The stations' devices by station, with their roles. */
async function stationRoles(ctx: AppContext, siteIds: readonly number[]) {
  const slots = await productSlots(ctx);
  const devices = await stationDevices(ctx, slots, [...siteIds], POWER_TYPES);
  const bySite = new Map<number, StationDevice[]>(siteIds.map((id) => [id, []]));
  for (const d of devices) bySite.get(d.siteId)?.push(d);
  return { slots, roles: new Map([...bySite].map(([id, mine]) => [id, rolesOf(mine)])) };
}

/**
 * Each station's lifetime energy (the devices' cumulative registers now): the one source of every
 * "total" in the console — the station overview's, the energy monitor's (both siteOverview) and
 * the home page's sums. The stations must already be the caller's.
 */
export async function stationTotals(ctx: AppContext, siteIds: readonly number[]): Promise<Map<number, EnergyFigures>> {
  const out = new Map<number, EnergyFigures>();
  if (siteIds.length === 0) return out;
  const { roles } = await stationRoles(ctx, siteIds);
  for (const [id, r] of roles) out.set(id, energyFigures(subsystemsOf(r), r, lifetime(energyDevices(r), ENERGY_REGISTERS)));
  return out;
}

/**
 * Each station's energy of its own local today, up to now: the figure of the station overview
 * (and the energy monitor), for many stations at once — one growth read per time zone. The
 * stations must already be the caller's.
 */
export async function stationToday(ctx: AppContext, stations: readonly { id: number; timeZone: string }[], now = Date.now()): Promise<Map<number, EnergyFigures>> {
  const out = new Map<number, EnergyFigures>();
  if (stations.length === 0) return out;
  const { slots, roles } = await stationRoles(ctx, stations.map((s) => s.id));
  const byZone = new Map<string, number[]>();
  for (const s of stations) byZone.set(s.timeZone, [...(byZone.get(s.timeZone) ?? []), s.id]);
  for (const [tz, ids] of byZone) {
    const day = dayPeriod(tz, resolveDate(tz, undefined, now));
    const devices = ids.flatMap((id) => energyDevices(roles.get(id)!));
    const growth = await deviceGrowth(ctx, slots, devices, ENERGY_REGISTERS, day.start, day.end, now);
    for (const id of ids) out.set(id, energyFigures(subsystemsOf(roles.get(id)!), roles.get(id)!, growth));
  }
  return out;
}

// ── Power flow ───────────────────────────────────────────────────────────────────────

function edge(from: FlowNode['key'], to: FlowNode['key'], power: number | null): FlowEdge {
  if (power === null) return { from, to, power: null, direction: 'unknown' };
  const abs = round(Math.abs(power), 2);
  return { from, to, power: abs, direction: abs < 0.05 ? 'idle' : power > 0 ? 'forward' : 'reverse' };
}

/**
 * The power-flow graph between grid, transformer, the station's AC bus, storage, PV, load and
 * piles, only with the parts the station has. Edge directions follow the measured signs:
 * grid → bus when importing; storage → bus when discharging; DC-coupled PV feeds the storage's
 * DC bus (pv → storage), AC-coupled PV the AC bus.
 */
export function topologyOf(siteId: number, devices: readonly StationDevice[], r: StationRoles): SiteTopology {
  const s = subsystemsOf(r);
  const p = livePower(r);
  const soc = socOf(r);
  const nodes: FlowNode[] = [{ key: 'grid', name: '电网', power: p.grid, devices: countOf(r.mainMeter ? [r.mainMeter] : []) }];
  const edges: FlowEdge[] = [];
  if (s.transformer) {
    nodes.push({ key: 'transformer', name: '变压器', power: p.grid, percent: numberOf(r.transformer, 'loadRate'), devices: countOf([r.transformer!]) });
    edges.push(edge('grid', 'transformer', p.grid), edge('transformer', 'bus', p.grid));
  } else {
    edges.push(edge('grid', 'bus', p.grid));
  }
  nodes.push({ key: 'bus', name: '母线', power: null, devices: emptyCounts() });
  if (s.storage) {
    const storageDevices = [...r.pcs, ...r.bms, ...(r.storageMeter ? [r.storageMeter] : [])];
    nodes.push({ key: 'storage', name: '储能', power: p.storage, percent: soc, devices: countOf(storageDevices) });
    // What crosses to the AC bus is the converters' output, DC-coupled PV included.
    const ac = p.storage === null ? null : p.storage + (s.pvCoupling === 'dc' ? (p.pv ?? 0) : 0);
    edges.push(edge('storage', 'bus', ac));
  }
  if (s.pv) {
    nodes.push({ key: 'pv', name: '光伏', power: p.pv, devices: countOf([...r.inverters, ...r.dcdc, ...(r.pvMeter ? [r.pvMeter] : [])]) });
    edges.push(edge('pv', s.pvCoupling === 'dc' && s.storage ? 'storage' : 'bus', p.pv));
  }
  nodes.push({ key: 'load', name: '负荷', power: p.load, devices: emptyCounts() });
  edges.push(edge('bus', 'load', p.load));
  if (s.charging) {
    nodes.push({ key: 'piles', name: '充电桩', power: p.piles, devices: countOf([...r.piles, ...r.guns, ...(r.pileMeter ? [r.pileMeter] : [])]) });
    edges.push(edge('bus', 'piles', p.piles));
  }
  return { siteId, ts: newestTs(devices), subsystems: s, nodes, edges };
}

export async function siteTopology(ctx: AppContext, user: AuthUser, siteId: number): Promise<SiteTopology> {
  const st = await loadStation(ctx, user, siteId);
  return topologyOf(st.site.id, st.devices, st.roles);
}

// ── Main meter ───────────────────────────────────────────────────────────────────────

const PERIOD_LABELS: Record<string, string> = { total: '总', tip: '尖', peak: '峰', flat: '平', valley: '谷', deepValley: '深谷' };

/** The main meter's live values and its registers now and their growth in the station-local day. */
export async function mainMeter(ctx: AppContext, user: AuthUser, q: SiteDayQuery): Promise<MainMeterView> {
  const st = await loadStation(ctx, user, q.siteId);
  const tz = st.site.timeZone;
  const day = dayPeriod(tz, resolveDate(tz, q.date, st.now));
  const m = st.roles.mainMeter;
  const periods = ['total', ...PRICE_PERIODS] as const;
  const ids = periods.flatMap((p) => {
    const period = p === 'total' ? undefined : p;
    return [meterRegisterIdentifier('forward', period), meterRegisterIdentifier('reverse', period)];
  });
  const growth = m ? await deviceGrowth(ctx, st.slots, [m], ids, day.start, day.end, st.now) : new Map<number, Map<string, number>>();
  const g = m ? growth.get(m.id) : undefined;
  const registers: MeterRegisterDay[] = periods.map((p) => {
    const period = p === 'total' ? undefined : p;
    const f = meterRegisterIdentifier('forward', period);
    const rv = meterRegisterIdentifier('reverse', period);
    const r3 = (x: number | undefined) => (x === undefined ? null : round(x, 3));
    return { period: p, label: PERIOD_LABELS[p]!, forward: numberOf(m, f), reverse: numberOf(m, rv), dayForward: r3(g?.get(f)), dayReverse: r3(g?.get(rv)) };
  });
  const maxDemandTime = numberOf(m, 'maxDemandTime');
  return {
    siteId: st.site.id,
    date: day.date,
    device: m ? { id: m.id, code: m.code, name: m.name, status: m.status } : null,
    ts: m?.ts ? new Date(m.ts).toISOString() : null,
    activePower: numberOf(m, 'activePower'),
    reactivePower: numberOf(m, 'reactivePower'),
    powerFactor: numberOf(m, 'powerFactor'),
    voltage: [numberOf(m, 'voltageA'), numberOf(m, 'voltageB'), numberOf(m, 'voltageC')],
    current: [numberOf(m, 'currentA'), numberOf(m, 'currentB'), numberOf(m, 'currentC')],
    frequency: numberOf(m, 'frequency'),
    demand: numberOf(m, 'demand'),
    maxDemand: numberOf(m, 'maxDemand'),
    maxDemandTime: maxDemandTime ? new Date(maxDemandTime).toISOString() : null,
    registers,
  };
}

// ── Performance ──────────────────────────────────────────────────────────────────────

/**
 * Cycle count (DOMAIN.md §2) = (charge + discharge) / (DoD × 2 × installed capacity), from the
 * same charge and discharge as the overview; round-trip efficiency = discharge / charge; and
 * availability = the share of the date's elapsed 5-minute intervals in which the storage
 * converters reported without a fault, counted from when each first reported if that was today.
 */
export async function sitePerformance(ctx: AppContext, user: AuthUser, q: SiteDayQuery): Promise<SitePerformance> {
  const st = await loadStation(ctx, user, q.siteId);
  const tz = st.site.timeZone;
  const day = dayPeriod(tz, resolveDate(tz, q.date, st.now));
  const devices = energyDevices(st.roles);
  const [kv, growth] = await Promise.all([
    keyValuesOf(ctx, st.site.id),
    deviceGrowth(ctx, st.slots, devices, ENERGY_REGISTERS, day.start, day.end, st.now),
  ]);
  const today = energyFigures(st.subsystems, st.roles, growth);
  const total = energyFigures(st.subsystems, st.roles, lifetime(devices, ENERGY_REGISTERS));
  const capacity = kv?.installedCapacity ?? null;
  const dod = kv?.depthOfDischarge ?? null;
  const usable = capacity !== null && dod !== null && capacity > 0 && dod > 0 ? (dod / 100) * 2 * capacity : null;
  const cycles = (c: number | null, d: number | null) => (usable === null || c === null || d === null ? null : round((c + d) / usable, 4));
  // Nothing discharged, or more out than in (the energy came from the state of charge the period
  // began with): no round trip to measure; null, shown "–" (never "0 %").
  const ratio = (c: number | null, d: number | null) => (c === null || d === null || c <= 0 || d <= 0 || d > c ? null : pct(d / c));
  return {
    siteId: st.site.id,
    date: day.date,
    charge: today.charge,
    discharge: today.discharge,
    cycleCount: cycles(today.charge, today.discharge),
    totalCycleCount: cycles(total.charge, total.discharge),
    efficiency: ratio(today.charge, today.discharge),
    totalEfficiency: ratio(total.charge, total.discharge),
    availability: await availability(ctx, st, day.start, day.end),
    installedCapacity: capacity,
    depthOfDischarge: dod,
    missing: st.subsystems.storage ? missingKeyValues(st.subsystems, kv, ['installedCapacity', 'depthOfDischarge']) : [],
  };
}

async function availability(ctx: AppContext, st: LoadedStation, start: number, end: number): Promise<number | null> {
  const pcs = st.roles.pcs;
  const bad = faultValue('pcs');
  if (pcs.length === 0 || bad === undefined) return null;
  // Only complete 5-minute intervals count: the running one is not over yet.
  const limit = Math.floor(Math.min(end, st.now) / FIVE_MINUTES) * FIVE_MINUTES;
  if (limit <= start) return null;
  const [buckets, before] = await Promise.all([
    stateBuckets(ctx, st.slots, pcs, 'state', bad, start, limit),
    lastBefore(ctx, st.slots, pcs, ['state'], start),
  ]);
  const shares: number[] = [];
  for (const d of pcs) {
    const b = buckets.get(d.id);
    // A converter that reported before the day is expected all day; a new one from its first report.
    const from = before.has(d.id) ? start : b?.first;
    if (from === null || from === undefined) continue;
    const expected = Math.round((limit - from) / FIVE_MINUTES);
    if (expected > 0) shares.push(Math.min(1, (b?.good ?? 0) / expected));
  }
  return shares.length ? pct(shares.reduce((a, x) => a + x, 0) / shares.length) : null;
}

// ── Curves of the day ────────────────────────────────────────────────────────────────

/** Buckets of [start, min(end, now)) every `step` ms. */
export function bucketTimes(start: number, end: number, now: number, step: number): number[] {
  const out: number[] = [];
  const stop = Math.min(end, now);
  for (let t = start; t < stop; t += step) out.push(t);
  return out;
}

/**
 * The station's 5-minute curves of a station-local day: grid, storage, PV, load and piles in kW
 * (read and combined per bucket as the live picture is) and the storage's SOC in %.
 */
export async function powerCurves(ctx: AppContext, st: LoadedStation, date: string): Promise<PowerCurves> {
  const tz = st.site.timeZone;
  const day = dayPeriod(tz, date);
  const r = st.roles;
  const s = st.subsystems;
  type Source = { devices: StationDevice[]; identifier: string; sign: number };
  const src = (devices: (StationDevice | undefined)[], identifier: string, sign = 1): Source =>
    ({ devices: devices.filter((d): d is StationDevice => d !== undefined), identifier, sign });
  // The same readers as liveParts: meters first, the devices otherwise.
  const sources: Record<keyof BalanceParts | 'soc', Source> = {
    grid: r.mainMeter ? src([r.mainMeter], 'activePower') : src([r.ems], 'gridPower'),
    // The storage meter counts charging as forward: the storage's output is its negative.
    storageAc: r.storageMeter ? src([r.storageMeter], 'activePower', -1) : r.pcs.length ? src(r.pcs, 'activePower') : src([r.ems], 'activePower'),
    pvAc: r.pvMeter ? src([r.pvMeter], 'activePower') : src(r.inverters, 'activePower'),
    pvDc: src(r.dcdc, 'outputPower'),
    piles: r.pileMeter ? src([r.pileMeter], 'activePower') : src(r.piles, 'power'),
    soc: r.ems ? src([r.ems], 'soc') : src(r.bms, 'soc'),
  };
  const all = new Map<number, StationDevice>();
  const ids = new Set<string>();
  for (const src of Object.values(sources)) {
    for (const d of src.devices) all.set(d.id, d);
    ids.add(src.identifier);
  }
  const identifiers = [...ids];
  const avg = await bucketAverages(ctx, st.slots, [...all.values()], identifiers, '5m', day.start, day.end);
  /** The source's value in a bucket: sum over its devices (mean for SOC), null when none reported. */
  const valueAt = (src: Source, t: number, mean = false): number | null => {
    const i = identifiers.indexOf(src.identifier);
    const vs = src.devices.map((d) => avg.get(d.id)?.get(t)?.[i] ?? null).filter((v): v is number => v !== null);
    if (!vs.length) return null;
    const total = vs.reduce((a, x) => a + x, 0);
    return (mean ? total / vs.length : total) * src.sign;
  };
  const times = bucketTimes(day.start, day.end, st.now, FIVE_MINUTES);
  const pictures = times.map((t) => {
    const parts: BalanceParts = {
      grid: valueAt(sources.grid, t), storageAc: valueAt(sources.storageAc, t), pvAc: valueAt(sources.pvAc, t), pvDc: valueAt(sources.pvDc, t), piles: valueAt(sources.piles, t),
    };
    const any = Object.values(parts).some((v) => v !== null);
    return any ? powerFrom(s, parts, null) : null;
  });
  const line = (key: 'grid' | 'storage' | 'pv' | 'load' | 'piles', name: string): DashboardSeries => ({
    key, name, unit: 'kW', points: times.map((t, i): [number, number | null] => [t, pictures[i]?.[key] ?? null]),
  });
  const series = [line('grid', '电网功率')];
  if (s.storage) series.push(line('storage', '储能功率'));
  if (s.pv) series.push(line('pv', '光伏功率'));
  series.push(line('load', '负荷功率'));
  if (s.charging) series.push(line('piles', '充电桩功率'));
  if (s.storage) {
    series.push({
      key: 'soc', name: 'SOC', unit: '%',
      points: times.map((t): [number, number | null] => {
        const v = valueAt(sources.soc, t, true);
        return [t, v === null ? null : round(v, 2)];
      }),
    });
  }
  return {
    siteId: st.site.id, date: day.date, timeZone: tz, start: new Date(day.start).toISOString(), end: new Date(day.end).toISOString(), interval: FIVE_MINUTES, series,
  };
}

export async function sitePowerData(ctx: AppContext, user: AuthUser, q: SiteDayQuery): Promise<PowerCurves> {
  const st = await loadStation(ctx, user, q.siteId);
  return powerCurves(ctx, st, resolveDate(st.site.timeZone, q.date, st.now));
}

// ── Device status overview ───────────────────────────────────────────────────────────

/** Devices by type and live status (one station, or every station the caller sees), with the faulted ones. */
export async function deviceStatusOverview(ctx: AppContext, user: AuthUser, q: DeviceStatusQuery): Promise<DeviceStatusOverview> {
  const siteId = q.siteId ? (await siteInScope(ctx.db, user, q.siteId)).id : null;
  const status = statusExpr(Date.now(), ctx.config.deviceOfflineTimeoutMs);
  const where = and(inSiteScope(device.siteId, ctx.db, user), siteId ? eq(device.siteId, siteId) : undefined, q.type ? eq(device.type, q.type) : undefined);
  // Grouped outside: the status expression carries parameters, which GROUP BY cannot match.
  const d = ctx.db
    .select({ type: device.type, status: status.as('status') })
    .from(device)
    .leftJoin(deviceLatest, eq(deviceLatest.deviceId, device.id))
    .where(where)
    .as('d');
  const rows = await ctx.db.select({ type: d.type, status: d.status, n: sql<number>`count(*)::int` }).from(d).groupBy(d.type, d.status);
  const byType = new Map<DeviceType, DeviceTypeStatus>();
  for (const r of rows) {
    const type = r.type as DeviceType;
    const cur = byType.get(type) ?? { type, label: DEVICE_TYPE_LABELS[type] ?? type, fault: 0, ...emptyCounts() };
    cur[r.status] += r.n;
    cur.total += r.n;
    byType.set(type, cur);
  }
  // Faulted: online devices whose latest running state is the thing model's fault value.
  const slots = await productSlots(ctx);
  for (const p of slots.values()) {
    const type = p.type as DeviceType;
    const cur = byType.get(type);
    const index = p.indexOf.get('state');
    const bad = (DEVICE_TYPES as readonly string[]).includes(type) ? faultValue(type) : undefined;
    if (!cur || index === undefined || bad === undefined) continue;
    const [f] = await ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(device)
      .innerJoin(deviceLatest, eq(deviceLatest.deviceId, device.id))
      .where(and(where, eq(device.productId, p.productId), sql`${deviceLatest.v}[${index + 1}] = ${bad}`, sql`${status} = 'online'`));
    cur.fault += f?.n ?? 0;
  }
  const types = DEVICE_TYPES.filter((t) => byType.has(t)).map((t) => byType.get(t)!);
  const total = types.reduce((a, t) => ({ ...addCounts(a, t), fault: a.fault + t.fault }), { ...emptyCounts(), fault: 0 });
  return { siteId, total, types };
}

// ── Distribution diagram values ──────────────────────────────────────────────────────

/** Each bound element of a station's distribution diagram with its device's latest value. */
export async function diagramValues(ctx: AppContext, user: AuthUser, diagramId: number): Promise<DiagramValues> {
  const [row] = await ctx.db
    .select({ id: distributionDiagram.id, siteId: distributionDiagram.siteId, bindings: distributionDiagram.bindings })
    .from(distributionDiagram)
    .where(and(eq(distributionDiagram.id, diagramId), inSiteScope(distributionDiagram.siteId, ctx.db, user)));
  const d = found(row, '配电图不存在');
  const slots = await productSlots(ctx);
  const devices = new Map((await stationDevices(ctx, slots, [d.siteId])).map((x) => [x.id, x]));
  const productIds = [...new Set([...devices.values()].map((x) => x.productId))];
  const props = productIds.length
    ? await ctx.db.select().from(productProperty).where(inArray(productProperty.productId, productIds))
    : [];
  const propOf = new Map(props.map((p) => [`${p.productId}:${p.identifier}`, p]));
  const values = d.bindings.map((b): DiagramValue => {
    const dev = devices.get(b.deviceId);
    const p = dev ? propOf.get(`${dev.productId}:${b.identifier}`) : undefined;
    const value = dev?.values[b.identifier] ?? null;
    const e = p?.enumValues && typeof value === 'number' ? p.enumValues.find((x) => x.value === value) : undefined;
    return {
      elementId: b.elementId, deviceId: b.deviceId, deviceCode: dev?.code ?? null, deviceName: dev?.name ?? null, status: dev?.status ?? null,
      identifier: b.identifier, name: p?.name ?? null, unit: p?.unit ?? '', value,
      ...(e ? { valueLabel: e.label, ...(e.colour ? { colour: e.colour } : {}) } : {}),
      ts: dev?.ts ? new Date(dev.ts).toISOString() : null,
    };
  });
  return { diagramId: d.id, siteId: d.siteId, values };
}

