import {
  GUN_STATES,
  type ChargingInfo, type ChargingStatusList, type ChargingSummary, type GenerationChart, type GenerationQuery, type GunStatus, type PileStatus,
  type PowerCurves, type SiteDayQuery,
} from '@ess/contract';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { bucketTimes } from './comprehensive.service.ts';
import { deviceGrowth, sumReadings } from './energy.ts';
import { generationChart, type EnergySource } from './generation.ts';
import { keyValuesOf, loadStation, type LoadedStation } from './load.ts';
import { dayPeriod, FIVE_MINUTES, monthPeriod, resolveDate, yearPeriod } from '../../platform/time/local-time.ts';
import { bucketAverages } from './rollup-reader.ts';
import { stateCounts } from './solar.service.ts';
import { countOf, livePower, numberOf, round, stateEntry, sumOf, type StationDevice } from './station.ts';

/**
 * The charging subsystem: piles (each with its guns) behind a pile meter. Delivered energy is
 * read from the piles' own registers (what reached the vehicles), the pile meter's forward
 * energy where the piles report none.
 */

const GUN_OFFLINE = GUN_STATES.find((s) => s.label === '离线')?.value;
const GUN_CHARGING = GUN_STATES.find((s) => s.label === '充电中')?.value;

function deliveredSource(st: LoadedStation): EnergySource {
  const r = st.roles;
  const pilesReport = r.piles.some((p) => numberOf(p, 'totalEnergy') !== null);
  return pilesReport || !r.pileMeter ? { devices: r.piles, identifier: 'totalEnergy' } : { devices: [r.pileMeter], identifier: 'forwardActiveEnergy' };
}

async function delivered(ctx: AppContext, st: LoadedStation, start: number, end: number): Promise<number | null> {
  const src = deliveredSource(st);
  if (src.devices.length === 0) return null;
  const g = await deviceGrowth(ctx, st.slots, src.devices, [src.identifier], start, end, st.now);
  const v = sumReadings(g, src.devices, src.identifier);
  return v === null ? null : round(v, 3);
}

async function infoOf(ctx: AppContext, st: LoadedStation): Promise<ChargingInfo> {
  const r = st.roles;
  const tz = st.site.timeZone;
  const today = dayPeriod(tz, resolveDate(tz, undefined, st.now));
  const kv = await keyValuesOf(ctx, st.site.id);
  const rated = r.piles.map((p) => p.ratedPower).filter((x): x is number => x !== null);
  const gunStates = stateCounts(r.guns, GUN_STATES, GUN_OFFLINE);
  const charging = gunStates.find((s) => s.value === GUN_CHARGING)?.count ?? 0;
  const src = deliveredSource(st);
  const lifetime = src.devices.length ? sumOf(src.devices, src.identifier) : null;
  const sessions = sumOf(r.piles, 'todaySessions');
  return {
    siteId: st.site.id,
    present: st.subsystems.charging,
    pileCount: r.piles.length,
    gunCount: r.guns.length,
    ratedPower: kv?.pilePower ?? (rated.length ? round(rated.reduce((a, x) => a + x, 0), 3) : null),
    power: livePower(r).piles,
    todayEnergy: st.subsystems.charging ? await delivered(ctx, st, today.start, today.end) : null,
    totalEnergy: lifetime === null ? null : round(lifetime, 3),
    todaySessions: sessions === null ? null : Math.round(sessions),
    gunStates,
    utilisation: r.guns.length ? round((charging / r.guns.length) * 100, 2) : null,
    devices: countOf([...r.piles, ...r.guns, ...(r.pileMeter ? [r.pileMeter] : [])]),
  };
}

export async function chargingInfo(ctx: AppContext, user: AuthUser, siteId: number): Promise<ChargingInfo> {
  return infoOf(ctx, await loadStation(ctx, user, siteId));
}

export async function chargingSummary(ctx: AppContext, user: AuthUser, siteId: number): Promise<ChargingSummary> {
  const st = await loadStation(ctx, user, siteId);
  const tz = st.site.timeZone;
  const date = resolveDate(tz, undefined, st.now);
  const base = await infoOf(ctx, st);
  const month = monthPeriod(tz, date);
  const year = yearPeriod(tz, date);
  return {
    ...base,
    monthEnergy: base.present ? await delivered(ctx, st, month.start, month.end) : null,
    yearEnergy: base.present ? await delivered(ctx, st, year.start, year.end) : null,
  };
}

function gunOf(g: StationDevice): GunStatus {
  const e = stateEntry('chargingGun', 'state', g.values.state);
  return {
    id: g.id, code: g.code, name: g.name, status: g.status, subNo: g.subNo,
    state: numberOf(g, 'state'), stateLabel: e?.label ?? null, colour: e?.colour ?? null,
    power: numberOf(g, 'power'), vehicleSoc: numberOf(g, 'vehicleSoc'), sessionEnergy: numberOf(g, 'sessionEnergy'), sessionDuration: numberOf(g, 'sessionDuration'),
  };
}

/** Piles with their guns' states, live. */
export async function chargingStatus(ctx: AppContext, user: AuthUser, siteId: number): Promise<ChargingStatusList> {
  const st = await loadStation(ctx, user, siteId);
  const r = st.roles;
  const piles = r.piles.map((p): PileStatus => {
    const e = stateEntry('chargingPile', 'state', p.values.state);
    return {
      id: p.id, code: p.code, name: p.name, status: p.status, no: p.no, ts: p.ts ? new Date(p.ts).toISOString() : null, ratedPower: p.ratedPower,
      state: numberOf(p, 'state'), stateLabel: e?.label ?? null, colour: e?.colour ?? null,
      power: numberOf(p, 'power'), todayEnergy: numberOf(p, 'todayEnergy'), totalEnergy: numberOf(p, 'totalEnergy'), todaySessions: numberOf(p, 'todaySessions'),
      guns: r.guns.filter((g) => g.parentId === p.id).sort((a, b) => (a.subNo ?? 0) - (b.subNo ?? 0)).map(gunOf),
    };
  });
  return { siteId: st.site.id, gunStates: stateCounts(r.guns, GUN_STATES, GUN_OFFLINE), piles };
}

/** The piles' 5-minute power of a day: the total (pile meter, else the sum of the piles) and each pile. */
export async function chargingPowerCurve(ctx: AppContext, user: AuthUser, q: SiteDayQuery): Promise<PowerCurves> {
  const st = await loadStation(ctx, user, q.siteId);
  const r = st.roles;
  const tz = st.site.timeZone;
  const day = dayPeriod(tz, resolveDate(tz, q.date, st.now));
  const devices = [...r.piles, ...(r.pileMeter ? [r.pileMeter] : [])];
  const avg = await bucketAverages(ctx, st.slots, devices, ['power', 'activePower'], '5m', day.start, day.end);
  const times = bucketTimes(day.start, day.end, st.now, FIVE_MINUTES);
  const r2 = (x: number | null | undefined) => (x === null || x === undefined ? null : round(x, 2));
  const pileAt = (p: StationDevice, t: number) => avg.get(p.id)?.get(t)?.[0] ?? null;
  const totalAt = (t: number): number | null => {
    if (r.pileMeter) return r2(avg.get(r.pileMeter.id)?.get(t)?.[1]);
    const vs = r.piles.map((p) => pileAt(p, t)).filter((v): v is number => v !== null);
    return vs.length ? r2(vs.reduce((a, x) => a + x, 0)) : null;
  };
  const series = r.piles.length || r.pileMeter
    ? [
        { key: 'piles', name: '充电桩功率', unit: 'kW', points: times.map((t): [number, number | null] => [t, totalAt(t)]) },
        ...r.piles.map((p) => ({ key: `device-${p.id}`, name: p.name, unit: 'kW', points: times.map((t): [number, number | null] => [t, r2(pileAt(p, t))]) })),
      ]
    : [];
  return { siteId: st.site.id, date: day.date, timeZone: tz, start: new Date(day.start).toISOString(), end: new Date(day.end).toISOString(), interval: FIVE_MINUTES, series };
}

export async function chargingGeneration(ctx: AppContext, user: AuthUser, q: GenerationQuery): Promise<GenerationChart> {
  const st = await loadStation(ctx, user, q.siteId);
  return generationChart(ctx, st, q, [deliveredSource(st)]);
}

