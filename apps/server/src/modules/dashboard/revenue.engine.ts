import { eq, sql } from 'drizzle-orm';
import { PRICE_PERIODS, meterRegisterIdentifier, todayIn, type PeriodValues, type PricePeriod } from '@ess/contract';
import { revenueDaily } from '../../db/schema/dashboard.ts';
import { site, siteKeyValue } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import { growthByBucket } from '../comprehensive/index.ts';
import { POWER_TYPES, productSlots, rolesOf, stationDevices, subsystemsOf, type Slots, type StationDevice } from '../comprehensive/index.ts';
import { bandAt, tariffsForSite, type DayTariff } from '../pricing/index.ts';
import type { Granularity } from '../telemetry/index.ts';
import { localStart } from '../../platform/time/local-time.ts';
import { dayFigures, zeroPeriods, type DayEnergy, type DayFigures } from './revenue.calc.ts';

/**
 * The revenue engine: reads a station's energy per price period for a range of its local days
 * from the rollups, prices it with `tariffsForSite` and stores one revenue_daily row per day
 * that has readings (docs/decisions/0014-revenue-daily-figures.md).
 *
 * Energy per period, per quantity (the same devices as comprehensive/energy.ts reads):
 * - a meter with per-period registers (forwardActiveEnergyTip, …): the growth of each period's
 *   register over the day, from the day rollups — the meter's own time-of-use split, as the
 *   utility settles it (DOMAIN.md §3);
 * - otherwise the growth of the total register per 5-minute bucket (hourly where the 5-minute
 *   rollups are already purged), each bucket put into the price band it starts in.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Longest range computed in one pass (tariffsForSite resolves about ten years). */
export const MAX_RANGE_DAYS = 3650;

interface Station {
  id: number;
  timeZone: string;
  currency: string;
  slots: Slots;
  devices: StationDevice[];
  rating: { installedCapacity: number | null; depthOfDischarge: number | null };
}

async function loadStationForRevenue(ctx: AppContext, siteId: number, slots?: Slots): Promise<Station | null> {
  const [s] = await ctx.db
    .select({ id: site.id, timeZone: site.timeZone, currency: site.currency, cap: siteKeyValue.installedCapacity, dod: siteKeyValue.depthOfDischarge })
    .from(site)
    .leftJoin(siteKeyValue, eq(siteKeyValue.siteId, site.id))
    .where(eq(site.id, siteId));
  if (!s) return null;
  const sl = slots ?? (await productSlots(ctx));
  const devices = await stationDevices(ctx, sl, [s.id], POWER_TYPES);
  return { id: s.id, timeZone: s.timeZone, currency: s.currency, slots: sl, devices, rating: { installedCapacity: s.cap, depthOfDischarge: s.dod } };
}

/** What a quantity is read from: devices, their total register, and the per-period register names (meters). */
interface Source {
  devices: StationDevice[];
  total: string;
  perPeriod: ((p: PricePeriod) => string) | null;
}

const meterSource = (m: StationDevice, dir: 'forward' | 'reverse'): Source => ({
  devices: [m], total: meterRegisterIdentifier(dir), perPeriod: (p) => meterRegisterIdentifier(dir, p),
});
const deviceSource = (devices: StationDevice[], total: string): Source | null => (devices.length ? { devices, total, perPeriod: null } : null);

/** The sources of a station's quantities, as energyFigures (comprehensive/energy.ts) reads them. */
function sourcesOf(devices: StationDevice[]) {
  const r = rolesOf(devices);
  const s = subsystemsOf(r);
  const battery = s.pvCoupling === 'dc' && r.bms.length > 0;
  const storage = (dir: 'forward' | 'reverse', register: string): Source | null => {
    if (!s.storage) return null;
    if (battery) return deviceSource(r.bms, register);
    return r.storageMeter ? meterSource(r.storageMeter, dir) : deviceSource(r.pcs, register);
  };
  const pv: Source[] = [];
  if (s.pvCoupling === 'ac') {
    if (r.pvMeter) pv.push(meterSource(r.pvMeter, 'forward'));
    else if (r.inverters.length) pv.push({ devices: r.inverters, total: 'totalEnergy', perPeriod: null });
  }
  if (r.dcdc.length) pv.push({ devices: r.dcdc, total: 'totalEnergy', perPeriod: null });
  return {
    charge: storage('forward', 'totalChargeEnergy'),
    discharge: storage('reverse', 'totalDischargeEnergy'),
    pv,
    gridExport: r.mainMeter ? meterSource(r.mainMeter, 'reverse') : null,
    piles: s.charging ? (r.pileMeter ? meterSource(r.pileMeter, 'forward') : deviceSource(r.piles, 'totalEnergy')) : null,
  };
}

/** date → kWh per period */
type ByDay = Map<string, PeriodValues>;

function dayIndex(days: readonly DayTariff[]) {
  const starts = days.map((d) => d.startMs);
  return (t: number): DayTariff | undefined => {
    let lo = 0;
    let hi = days.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const d = days[mid]!;
      if (t < starts[mid]!) hi = mid - 1;
      else if (t >= d.endMs) lo = mid + 1;
      else return d;
    }
    return undefined;
  };
}

function add(out: ByDay, date: string, p: PricePeriod, v: number) {
  let m = out.get(date);
  if (!m) out.set(date, (m = zeroPeriods()));
  m[p] += v;
}

/** Energy per day and period of one source over the days (contiguous, oldest first). */
async function readSource(ctx: AppContext, st: Station, src: Source, days: readonly DayTariff[], now: number): Promise<ByDay> {
  const out: ByDay = new Map();
  const from = days[0]!.startMs;
  const to = days[days.length - 1]!.endMs;
  const find = dayIndex(days);
  const hasAll = (ids: string[]) => src.devices.every((d) => ids.every((id) => st.slots.get(d.productId)?.indexOf.has(id)));
  if (src.perPeriod && hasAll(PRICE_PERIODS.map(src.perPeriod))) {
    const dayOf = (ts: number) => localStart(st.timeZone, ts, 'day');
    for (const p of PRICE_PERIODS) {
      const growth = await growthByBucket(ctx, st.slots, src.devices, src.perPeriod(p), '1d', from, to, now, dayOf);
      for (const [t, v] of growth) {
        const d = find(t + HOUR);
        if (d) add(out, d.date, p, v);
      }
    }
    if (out.size) return out;
  }
  // Totals split over the price bands: 5-minute buckets where kept, hours before.
  const fiveFrom = Math.max(from, Math.floor((now - (ctx.config.fiveMinuteRetentionDays - 1) * DAY) / HOUR) * HOUR);
  const parts: [Granularity, number, number, (ts: number) => number][] = [];
  if (from < fiveFrom) parts.push(['1h', from, Math.min(to, fiveFrom), (ts) => localStart(st.timeZone, ts, 'hour')]);
  if (fiveFrom < to) parts.push(['5m', fiveFrom, to, (ts) => Math.floor(ts / 300_000) * 300_000]);
  for (const [g, a, b, bucketOf] of parts) {
    const growth = await growthByBucket(ctx, st.slots, src.devices, src.total, g, a, b, now, bucketOf);
    for (const [t, v] of growth) {
      const d = find(t);
      if (!d) continue;
      add(out, d.date, bandAt(d, t)?.period ?? 'flat', v);
    }
  }
  return out;
}

/** Energy per day of a station over the days, or nothing for days without a reading. */
export async function readEnergy(ctx: AppContext, st: Station, days: readonly DayTariff[], now: number): Promise<Map<string, DayEnergy>> {
  const src = sourcesOf(st.devices);
  const read = (s: Source | null) => (s ? readSource(ctx, st, s, days, now) : Promise.resolve(null));
  const charge = await read(src.charge);
  const discharge = await read(src.discharge);
  const gridExport = await read(src.gridExport);
  const piles = await read(src.piles);
  const pvParts: ByDay[] = [];
  for (const s of src.pv) pvParts.push(await readSource(ctx, st, s, days, now));
  const out = new Map<string, DayEnergy>();
  for (const d of days) {
    const pick = (m: ByDay | null) => (m ? (m.get(d.date) ?? null) : null);
    const pvs = pvParts.map((m) => m.get(d.date)).filter((x): x is PeriodValues => x !== undefined);
    const pv = pvs.length ? pvs.reduce((a, x) => { for (const p of PRICE_PERIODS) a[p] += x[p]; return a; }, zeroPeriods()) : null;
    const e: DayEnergy = { charge: pick(charge), discharge: pick(discharge), pv, gridExport: pick(gridExport), piles: pick(piles) };
    if (!e.charge && !e.discharge && !e.pv && !e.piles) continue;
    // A station with storage that measured the day's other flows measured no storage energy: zero, not unknown.
    if (src.charge && !e.charge) e.charge = zeroPeriods();
    if (src.discharge && !e.discharge) e.discharge = zeroPeriods();
    if (src.piles && !e.piles) e.piles = zeroPeriods();
    out.set(d.date, e);
  }
  return out;
}

const money = (x: number) => x.toFixed(2);

function toRow(siteId: number, date: string, f: DayFigures, at: Date) {
  return {
    siteId, day: date, currency: f.currency, charge: f.charge, discharge: f.discharge, chargeByPeriod: f.chargeByPeriod, dischargeByPeriod: f.dischargeByPeriod,
    chargeCost: money(f.chargeCost), dischargeIncome: money(f.dischargeIncome), arbitrage: money(f.arbitrage), pv: f.pv, pvSelfUsed: f.pvSelfUsed,
    pvExported: f.pvExported, pvRevenue: money(f.pvRevenue), piles: f.piles, chargingRevenue: money(f.chargingRevenue), total: money(f.total), cycles: f.cycles,
    pricesComplete: f.pricesComplete, computedAt: at,
  };
}

/** Runs one computation at a time per server instance, so a recompute after a price change is never overwritten by an older pass. */
const chains = new WeakMap<AppContext, Promise<unknown>>();
function serial<T>(ctx: AppContext, fn: () => Promise<T>): Promise<T> {
  const prev = chains.get(ctx) ?? Promise.resolve();
  const next = prev.catch(() => undefined).then(fn);
  chains.set(ctx, next.catch(() => undefined));
  return next;
}

/**
 * Computes and stores the figures of a station's local days `fromDate`..`toDate` (clamped to
 * its today and to ten years back). Days without any reading get no row (an old row of such a
 * day is removed: its readings are gone). Returns the number of days stored.
 */
export function computeSiteDays(ctx: AppContext, siteId: number, fromDate: string, toDate?: string, now = Date.now(), slots?: Slots): Promise<number> {
  return serial(ctx, async () => {
    const st = await loadStationForRevenue(ctx, siteId, slots);
    if (!st) return 0;
    const today = todayIn(st.timeZone, new Date(now));
    const earliest = new Date(Date.parse(`${today}T00:00:00Z`) - MAX_RANGE_DAYS * DAY).toISOString().slice(0, 10);
    const from = fromDate < earliest ? earliest : fromDate;
    const to = !toDate || toDate > today ? today : toDate;
    if (from > to) return 0;
    const days = await tariffsForSite(ctx, siteId, from, to);
    const energy = await readEnergy(ctx, st, days, now);
    const at = new Date(now);
    const rows = days.flatMap((d) => {
      const e = energy.get(d.date);
      return e ? [toRow(siteId, d.date, dayFigures(e, d, st.rating, st.currency), at)] : [];
    });
    await ctx.db.transaction(async (tx) => {
      await tx.delete(revenueDaily).where(sql`${revenueDaily.siteId} = ${siteId} and ${revenueDaily.day} between ${from} and ${to}`);
      for (let i = 0; i < rows.length; i += 500) await tx.insert(revenueDaily).values(rows.slice(i, i + 500));
    });
    return rows.length;
  });
}
