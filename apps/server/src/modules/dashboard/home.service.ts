import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  GUN_STATES, type CurrencyAmount, type EnergyDay, type EnergyFigures, type HomeCharge, type HomeEnergy, type HomeError, type HomeIncome, type HomeTop,
} from '@ess/contract';
import { alarm } from '../../db/schema/alarm.ts';
import { device } from '../../db/schema/device.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { daysSince } from '../../platform/time/local-time.ts';
import { stateCounts, stationToday, stationTotals } from '../comprehensive/index.ts';
import { emptyCounts, productSlots, stationDevices, statusCounts, addCounts } from '../comprehensive/index.ts';
import { efficiency } from './revenue.calc.ts';
import { addDays, addMonths, bucketSums, companyStations, dateLabels, incompletePriceDays, periodTotals, sumsOf, type ScopedStation, type Sums } from './revenue.repository.ts';

/**
 * The home page (api-catalogue "Home page"): a company's stations (with its subsidiaries',
 * those the caller may see) added up. Energy and money come from revenue_daily; device and gun
 * states from the latest values; alarms from the alarm table.
 */

const DAY = 86_400_000;
const GUN_OFFLINE = GUN_STATES.find((s) => s.label === '离线')?.value;
const r3 = (x: number) => Math.round(x * 1000) / 1000 || 0;

/** The newest station-local today among the stations (the charts' last day). */
const latestToday = (list: readonly ScopedStation[], now: number) =>
  list.reduce((a, s) => (s.today > a ? s.today : a), new Date(now).toISOString().slice(0, 10));

const amounts = (totals: Map<string, { today: Sums; month: Sums; year: Sums; total: Sums }>, pick: (t: { today: Sums; month: Sums; year: Sums; total: Sums }) => number): CurrencyAmount[] =>
  [...totals].map(([currency, t]) => ({ currency, amount: pick(t) }));

export async function homeTop(ctx: AppContext, user: AuthUser, companyId: number): Promise<HomeTop> {
  const now = Date.now();
  const list = await companyStations(ctx, user, companyId, now);
  const ids = list.map((s) => s.id);
  const [totals, counts, lifetime] = await Promise.all([periodTotals(ctx, list), statusCounts(ctx, ids), stationTotals(ctx, ids)]);
  let devices = emptyCounts();
  for (const byType of counts.values()) for (const c of byType.values()) devices = addCounts(devices, c);
  const byType: Record<string, number> = {};
  for (const s of list) byType[s.siteType] = (byType[s.siteType] ?? 0) + 1;
  // Lifetime energy is the stations' own registers, as on the station overview (not the days with revenue figures).
  const sumOf = (f: (s: EnergyFigures) => number | null) => sumOver(lifetime, f);
  const operating = list.map((s) => daysSince(s.timeZone, s.commissioningDate, now)).filter((d): d is number => d !== null);
  return {
    companyId,
    stationCount: list.length,
    stationsByType: byType,
    installedCapacity: r3(list.reduce((a, s) => a + (s.installedCapacity ?? 0), 0)),
    installedPower: r3(list.reduce((a, s) => a + (s.installedPower ?? 0), 0)),
    devices,
    totalCharge: sumOf((s) => s.charge),
    totalDischarge: sumOf((s) => s.discharge),
    totalPv: sumOf((s) => s.pv),
    totalPiles: sumOf((s) => s.piles),
    totalRevenue: amounts(totals, (t) => t.total.total),
    todayRevenue: amounts(totals, (t) => t.today.total),
    operatingDays: operating.length ? Math.max(...operating) : null,
  };
}

/** A per-station figure added up over stations (a station that does not measure it adds nothing). */
const sumOver = (lifetime: Map<number, EnergyFigures>, f: (s: EnergyFigures) => number | null) =>
  r3([...lifetime.values()].reduce((a, s) => a + (f(s) ?? 0), 0));

/** The last 30 days (to the newest station-local today) of the stations, summed over currencies. */
async function lastDays(ctx: AppContext, list: readonly ScopedStation[], now: number) {
  const end = latestToday(list, now);
  const start = addDays(end, -29);
  const rows = await bucketSums(ctx, list.map((s) => s.id), start, end, 'day', false);
  const byDay = new Map(rows.map((r) => [r.bucket, r.sums]));
  return dateLabels(start, end).map((date) => ({ date, sums: byDay.get(date) }));
}

const energyOf = (s: Sums | undefined): Omit<EnergyDay, 'date'> => ({
  charge: s?.charge ?? 0, discharge: s?.discharge ?? 0, pv: s?.pv ?? 0, piles: s?.piles ?? 0,
});

/** Adds the per-currency sums of a period into one energy figure (energy does not depend on currency). */
function energyTotal(totals: Map<string, { today: Sums; month: Sums; year: Sums; total: Sums }>, key: 'today' | 'month' | 'year') {
  const out = { charge: 0, discharge: 0, pv: 0, piles: 0, cycles: 0 };
  for (const t of totals.values()) {
    const s = t[key];
    out.charge += s.charge;
    out.discharge += s.discharge;
    out.pv += s.pv ?? 0;
    out.piles += s.piles ?? 0;
    out.cycles += s.cycles ?? 0;
  }
  return { charge: r3(out.charge), discharge: r3(out.discharge), pv: r3(out.pv), piles: r3(out.piles), cycles: out.cycles };
}

/**
 * Today's energy of the stations as the station overview computes it (each station's local day up
 * to now), and the stored month and year with their stored today (refreshed every few minutes)
 * replaced by it, so today ≤ month ≤ year and today is the overview's figure.
 */
async function liveEnergy(ctx: AppContext, list: readonly ScopedStation[], totals: Awaited<ReturnType<typeof periodTotals>>, now: number) {
  const live = await stationToday(ctx, list, now);
  const today = {
    charge: sumOver(live, (s) => s.charge), discharge: sumOver(live, (s) => s.discharge), pv: sumOver(live, (s) => s.pv), piles: sumOver(live, (s) => s.piles),
  };
  const stored = energyTotal(totals, 'today');
  const shift = (p: ReturnType<typeof energyTotal>) => ({
    charge: r3(p.charge - stored.charge + today.charge), discharge: r3(p.discharge - stored.discharge + today.discharge),
    pv: r3(p.pv - stored.pv + today.pv), piles: r3(p.piles - stored.piles + today.piles), cycles: p.cycles,
  });
  return { today, month: shift(energyTotal(totals, 'month')), year: shift(energyTotal(totals, 'year')) };
}

export async function homeEnergy(ctx: AppContext, user: AuthUser, companyId: number): Promise<HomeEnergy> {
  const now = Date.now();
  const list = await companyStations(ctx, user, companyId, now);
  const [totals, days] = await Promise.all([periodTotals(ctx, list), lastDays(ctx, list, now)]);
  const { today, month, year } = await liveEnergy(ctx, list, totals, now);
  const storage = list.filter((s) => s.installedCapacity !== null && s.installedCapacity > 0).length;
  return {
    companyId,
    unit: 'kWh',
    today: { date: latestToday(list, now), charge: today.charge, discharge: today.discharge, pv: today.pv, piles: today.piles },
    month: { charge: month.charge, discharge: month.discharge, pv: month.pv, piles: month.piles },
    year: { charge: year.charge, discharge: year.discharge, pv: year.pv, piles: year.piles },
    days: days.map((d) => ({ date: d.date, ...energyOf(d.sums) })),
    efficiencyMonth: efficiency(month.charge, month.discharge),
    cyclesMonth: storage ? Math.round((month.cycles / storage) * 10_000) / 10_000 : null,
  };
}

export async function homeCharge(ctx: AppContext, user: AuthUser, companyId: number): Promise<HomeCharge> {
  const now = Date.now();
  const list = await companyStations(ctx, user, companyId, now);
  const ids = list.map((s) => s.id);
  const slots = await productSlots(ctx);
  const [totals, days, devices, lifetime] = await Promise.all([
    periodTotals(ctx, list), lastDays(ctx, list, now), stationDevices(ctx, slots, ids, ['chargingPile', 'chargingGun']), stationTotals(ctx, ids),
  ]);
  const piles = devices.filter((d) => d.type === 'chargingPile');
  const guns = devices.filter((d) => d.type === 'chargingGun');
  const live = await liveEnergy(ctx, list, totals, now);
  return {
    companyId,
    pileCount: piles.length,
    gunCount: guns.length,
    gunStates: stateCounts(guns, GUN_STATES, GUN_OFFLINE),
    todayEnergy: live.today.piles,
    monthEnergy: live.month.piles,
    yearEnergy: live.year.piles,
    totalEnergy: sumOver(lifetime, (s) => s.piles),
    todayRevenue: amounts(totals, (t) => t.today.chargingRevenue),
    monthRevenue: amounts(totals, (t) => t.month.chargingRevenue),
    totalRevenue: amounts(totals, (t) => t.total.chargingRevenue),
    days: days.map((d) => ({ date: d.date, energy: d.sums?.piles ?? 0 })),
  };
}

export async function homeError(ctx: AppContext, user: AuthUser, companyId: number): Promise<HomeError> {
  const now = Date.now();
  const list = await companyStations(ctx, user, companyId, now);
  const ids = list.map((s) => s.id);
  const openByLevel: HomeError['openByLevel'] = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  if (ids.length === 0) return { companyId, openByLevel, open: 0, raised24h: 0, ended24h: 0, stationsWithAlarms: 0, recent: [] };
  const since = new Date(now - DAY);
  const [levels, [counts], recent] = await Promise.all([
    ctx.db
      .select({ level: alarm.level, n: sql<number>`count(*)::int`, sites: sql<number>`count(distinct ${alarm.siteId})::int` })
      .from(alarm)
      .where(and(inArray(alarm.siteId, ids), eq(alarm.status, 'active')))
      .groupBy(alarm.level),
    ctx.db
      .select({
        raised: sql<number>`count(*) filter (where ${alarm.startedAt} >= ${since})::int`,
        ended: sql<number>`count(*) filter (where ${alarm.endedAt} >= ${since})::int`,
        sites: sql<number>`count(distinct ${alarm.siteId}) filter (where ${alarm.status} = 'active')::int`,
      })
      .from(alarm)
      .where(and(inArray(alarm.siteId, ids), sql`(${alarm.status} = 'active' or ${alarm.startedAt} >= ${since} or ${alarm.endedAt} >= ${since})`)),
    ctx.db
      .select({
        id: alarm.id, siteId: alarm.siteId, siteName: site.name, deviceName: device.name, level: alarm.level, description: alarm.description, startedAt: alarm.startedAt,
      })
      .from(alarm)
      .innerJoin(site, eq(site.id, alarm.siteId))
      .leftJoin(device, eq(device.id, alarm.deviceId))
      .where(and(inArray(alarm.siteId, ids), eq(alarm.status, 'active')))
      .orderBy(desc(alarm.startedAt), desc(alarm.id))
      .limit(10),
  ]);
  let open = 0;
  for (const l of levels) {
    const k = String(l.level) as keyof HomeError['openByLevel'];
    if (k in openByLevel) openByLevel[k] += l.n;
    open += l.n;
  }
  return {
    companyId,
    openByLevel,
    open,
    raised24h: counts?.raised ?? 0,
    ended24h: counts?.ended ?? 0,
    stationsWithAlarms: counts?.sites ?? 0,
    recent: recent.map(({ startedAt, ...r }) => ({ ...r, startTime: startedAt.toISOString() })),
  };
}

export async function homeIncome(ctx: AppContext, user: AuthUser, companyId: number): Promise<HomeIncome> {
  const now = Date.now();
  const list = await companyStations(ctx, user, companyId, now);
  const ids = list.map((s) => s.id);
  const end = latestToday(list, now);
  const dayFrom = addDays(end, -29);
  const monthFrom = `${addMonths(end.slice(0, 7), -11)}-01`;
  const [totals, days, months, incomplete] = await Promise.all([
    periodTotals(ctx, list), bucketSums(ctx, ids, dayFrom, end, 'day'), bucketSums(ctx, ids, monthFrom, end, 'month'), incompletePriceDays(ctx, ids),
  ]);
  // Every currency the stations bill in, also one without figures yet (its stations have no
  // price or no metered energy): the most stations first, then those with revenue (amounts of
  // different currencies are not compared), then by code.
  const stationsIn = new Map<string, number>();
  for (const s of list) stationsIn.set(s.currency, (stationsIn.get(s.currency) ?? 0) + 1);
  const empty = (c: string) => ({ today: sumsOf(undefined, '', c), month: sumsOf(undefined, '', c), year: sumsOf(undefined, '', c), total: sumsOf(undefined, '', c) });
  const all = new Map(totals);
  for (const c of stationsIn.keys()) if (!all.has(c)) all.set(c, empty(c));
  const order = [...all].sort(([a, x], [b, y]) =>
    (stationsIn.get(b) ?? 0) - (stationsIn.get(a) ?? 0) || Number(y.total.total !== 0) - Number(x.total.total !== 0) || a.localeCompare(b));
  const names = new Map(list.map((s) => [s.id, s.name]));
  const money = (s: Sums | undefined) => ({
    arbitrage: s?.arbitrage ?? 0, pvRevenue: s?.pvRevenue ?? 0, chargingRevenue: s?.chargingRevenue ?? 0, total: s?.total ?? 0,
  });
  const monthList: string[] = [];
  for (let i = 11; i >= 0; i--) monthList.push(addMonths(end.slice(0, 7), -i));
  return {
    companyId,
    currencies: order.map(([currency, t]) => {
      const d = new Map(days.filter((x) => x.currency === currency).map((x) => [x.bucket, x.sums]));
      const m = new Map(months.filter((x) => x.currency === currency).map((x) => [x.bucket, x.sums]));
      const pick = (s: Sums) => ({
        currency, arbitrage: s.arbitrage, chargeCost: s.chargeCost, dischargeIncome: s.dischargeIncome, pvRevenue: s.pvRevenue, chargingRevenue: s.chargingRevenue, total: s.total,
      });
      return {
        currency,
        stationCount: stationsIn.get(currency) ?? 0,
        missingPrices: incomplete.filter((x) => x.currency === currency).map((x) => ({ siteId: x.siteId, siteName: names.get(x.siteId) ?? '', days: x.days })),
        today: pick(t.today),
        month: pick(t.month),
        year: pick(t.year),
        total: pick(t.total),
        days: dateLabels(dayFrom, end).map((date) => ({ date, ...money(d.get(date)) })),
        months: monthList.map((month) => ({ month, ...money(m.get(month)) })),
      };
    }),
  };
}

