import {
  RUN_STATES,
  type GenerationChart, type GenerationQuery, type InverterStatus, type InverterStatusList, type PowerCurves, type SiteDayQuery, type SiteSolar,
  type SolarSummary, type StateCount,
} from '@ess/contract';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { bucketTimes } from './comprehensive.service.ts';
import { deviceGrowth, sumReadings } from './energy.ts';
import { generationChart, type EnergySource } from './generation.ts';
import { keyValuesOf, loadStation, type LoadedStation } from './load.ts';
import { dayPeriod, FIVE_MINUTES, monthPeriod, resolveDate, yearPeriod } from '../../platform/time/local-time.ts';
import { bucketAverages, type Readings } from './rollup-reader.ts';
import { countOf, livePower, meanOf, numberOf, round, stateEntry, type StationDevice, type StationRoles } from './station.ts';

/**
 * The PV subsystem: AC-coupled inverters behind a PV meter, or DC/DC converters onto the
 * storage's DC bus. Yield is read at the PV meter when there is one (the inverters otherwise),
 * plus the converters — the same sources as the station overview.
 */

/** The registers that give the PV yield. */
export function pvSources(r: StationRoles): EnergySource[] {
  return [
    r.pvMeter ? { devices: [r.pvMeter], identifier: 'forwardActiveEnergy' } : { devices: r.inverters, identifier: 'totalEnergy' },
    { devices: r.dcdc, identifier: 'totalEnergy' },
  ];
}

function sourceSum(readings: Readings, sources: EnergySource[]): number | null {
  let total: number | null = null;
  for (const s of sources) {
    const v = sumReadings(readings, s.devices, s.identifier);
    if (v !== null) total = (total ?? 0) + v;
  }
  return total === null ? null : round(total, 3);
}

async function sourceGrowth(ctx: AppContext, st: LoadedStation, sources: EnergySource[], start: number, end: number): Promise<number | null> {
  const devices = sources.flatMap((s) => s.devices);
  const ids = [...new Set(sources.map((s) => s.identifier))];
  return sourceSum(await deviceGrowth(ctx, st.slots, devices, ids, start, end, st.now), sources);
}

function lifetimeOf(sources: EnergySource[]): number | null {
  let total: number | null = null;
  for (const s of sources) for (const d of s.devices) {
    const v = numberOf(d, s.identifier);
    if (v !== null) total = (total ?? 0) + v;
  }
  return total === null ? null : round(total, 3);
}

/** Online devices by their running state (the thing model's enumeration). */
export function stateCounts(devices: readonly StationDevice[], states: readonly { value: number; label: string; colour?: string }[], offlineValue?: number): StateCount[] {
  const counts = new Map<number, number>();
  for (const d of devices) {
    const v = d.status === 'online' ? d.values.state : offlineValue;
    if (typeof v === 'number') counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return states.map((s) => ({ value: s.value, label: s.label, colour: s.colour ?? null, count: counts.get(s.value) ?? 0 }));
}

const pvDevices = (r: StationRoles) => [...r.inverters, ...r.dcdc];

async function solarOf(ctx: AppContext, st: LoadedStation): Promise<SiteSolar> {
  const r = st.roles;
  const s = st.subsystems;
  const tz = st.site.timeZone;
  const today = dayPeriod(tz, resolveDate(tz, undefined, st.now));
  const kv = await keyValuesOf(ctx, st.site.id);
  const devices = pvDevices(r);
  const rated = devices.map((d) => d.ratedPower).filter((x): x is number => x !== null);
  const ratedPower = rated.length ? round(rated.reduce((a, x) => a + x, 0), 3) : null;
  const todayEnergy = s.pv ? await sourceGrowth(ctx, st, pvSources(r), today.start, today.end) : null;
  const irradiance = meanOf(r.inverters, 'irradiance');
  return {
    siteId: st.site.id,
    present: s.pv,
    coupling: s.pvCoupling,
    power: livePower(r).pv,
    ratedPower,
    pvModuleCount: kv?.pvModuleCount ?? null,
    todayEnergy,
    totalEnergy: s.pv ? lifetimeOf(pvSources(r)) : null,
    equivalentHours: todayEnergy !== null && ratedPower ? round(todayEnergy / ratedPower, 2) : null,
    irradiance: irradiance === null ? null : round(irradiance, 1),
    devices: countOf([...devices, ...(r.pvMeter ? [r.pvMeter] : [])]),
  };
}

export async function siteSolar(ctx: AppContext, user: AuthUser, siteId: number): Promise<SiteSolar> {
  return solarOf(ctx, await loadStation(ctx, user, siteId));
}

export async function solarSummary(ctx: AppContext, user: AuthUser, siteId: number): Promise<SolarSummary> {
  const st = await loadStation(ctx, user, siteId);
  const tz = st.site.timeZone;
  const date = resolveDate(tz, undefined, st.now);
  const base = await solarOf(ctx, st);
  const sources = pvSources(st.roles);
  const month = monthPeriod(tz, date);
  const year = yearPeriod(tz, date);
  return {
    ...base,
    monthEnergy: base.present ? await sourceGrowth(ctx, st, sources, month.start, month.end) : null,
    yearEnergy: base.present ? await sourceGrowth(ctx, st, sources, year.start, year.end) : null,
    states: stateCounts(pvDevices(st.roles), RUN_STATES),
  };
}

export async function inverterStatus(ctx: AppContext, user: AuthUser, siteId: number): Promise<InverterStatusList> {
  const st = await loadStation(ctx, user, siteId);
  const devices = pvDevices(st.roles);
  const inverters = devices.map((d): InverterStatus => {
    const e = stateEntry(d.type, 'state', d.values.state);
    const dc = d.type === 'dcdc';
    return {
      id: d.id, code: d.code, name: d.name, type: d.type, status: d.status, ts: d.ts ? new Date(d.ts).toISOString() : null, ratedPower: d.ratedPower,
      state: numberOf(d, 'state'), stateLabel: e?.label ?? null, colour: e?.colour ?? null,
      power: numberOf(d, dc ? 'outputPower' : 'activePower'),
      dcPower: numberOf(d, dc ? 'pvPower' : 'dcPower'),
      efficiency: numberOf(d, 'efficiency'),
      temperature: numberOf(d, dc ? 'temperature' : 'internalTemperature'),
      todayEnergy: numberOf(d, 'todayEnergy'),
      totalEnergy: numberOf(d, 'totalEnergy'),
    };
  });
  return { siteId: st.site.id, states: stateCounts(devices, RUN_STATES), inverters };
}

/** 5-minute curves of a day: each device's value, or their sum (`total`) — with the inverters' mean irradiance. */
async function pvCurves(ctx: AppContext, st: LoadedStation, q: SiteDayQuery, total: boolean): Promise<PowerCurves> {
  const tz = st.site.timeZone;
  const day = dayPeriod(tz, resolveDate(tz, q.date, st.now));
  const devices = pvDevices(st.roles);
  const avg = await bucketAverages(ctx, st.slots, devices, ['activePower', 'outputPower', 'irradiance'], '5m', day.start, day.end);
  const times = bucketTimes(day.start, day.end, st.now, FIVE_MINUTES);
  const powerAt = (d: StationDevice, t: number) => avg.get(d.id)?.get(t)?.[d.type === 'dcdc' ? 1 : 0] ?? null;
  const r2 = (x: number | null) => (x === null ? null : round(x, 2));
  const series = total
    ? [
        {
          key: 'pv', name: '光伏功率', unit: 'kW',
          points: times.map((t): [number, number | null] => {
            const vs = devices.map((d) => powerAt(d, t)).filter((v): v is number => v !== null);
            return [t, vs.length ? r2(vs.reduce((a, x) => a + x, 0)) : null];
          }),
        },
        ...(st.roles.inverters.length
          ? [{
              key: 'irradiance', name: '辐照度', unit: 'W/m²',
              points: times.map((t): [number, number | null] => {
                const vs = st.roles.inverters.map((d) => avg.get(d.id)?.get(t)?.[2] ?? null).filter((v): v is number => v !== null);
                return [t, vs.length ? r2(vs.reduce((a, x) => a + x, 0) / vs.length) : null];
              }),
            }]
          : []),
      ]
    : devices.map((d) => ({ key: `device-${d.id}`, name: d.name, unit: 'kW', points: times.map((t): [number, number | null] => [t, r2(powerAt(d, t))]) }));
  return { siteId: st.site.id, date: day.date, timeZone: tz, start: new Date(day.start).toISOString(), end: new Date(day.end).toISOString(), interval: FIVE_MINUTES, series };
}

export async function solarPower(ctx: AppContext, user: AuthUser, q: SiteDayQuery): Promise<PowerCurves> {
  return pvCurves(ctx, await loadStation(ctx, user, q.siteId), q, false);
}

export async function solarPowerCurve(ctx: AppContext, user: AuthUser, q: SiteDayQuery): Promise<PowerCurves> {
  return pvCurves(ctx, await loadStation(ctx, user, q.siteId), q, true);
}

export async function solarGeneration(ctx: AppContext, user: AuthUser, q: GenerationQuery): Promise<GenerationChart> {
  const st = await loadStation(ctx, user, q.siteId);
  return generationChart(ctx, st, q, pvSources(st.roles));
}
