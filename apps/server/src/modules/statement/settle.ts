import {
  meterRegisterIdentifier,
  PRICE_PERIODS,
  type PricePeriod,
} from '@ess/contract';
import {
  ENERGY_DECIMALS, MONEY_DECIMALS, PRICE_DECIMALS, SETTLEMENT_CATEGORIES,
  type PriceSource, type SettlementCategory, type StatementLine, type StatementQualityFlag,
} from '@ess/contract/statement';
import type { DayTariff } from '../pricing/index.ts';
import { add, dec, fixed, isZero, min, mul, round, sub, sum, ZERO, type Dec } from './decimal.ts';

/**
 * Settlement of a period (issue 18 item 5; DOMAIN.md §2–§3), without the database: Σ per register
 * of the day's normalised energy × the price of that register in force that day, storage charge
 * and discharge separately, PV self-consumed at the buy price and exported at the feed-in price,
 * charging piles at the period's price plus the service fee. Exact decimals throughout.
 *
 * Lines: one per category, register (price period) and meter over the consecutive days one price
 * was in force — a tariff change on the 15th makes two lines of each register. A line's amount is
 * its energy × price rounded half away from zero to the cent; totals add the rounded lines.
 */

/** One meter's normalised energy per station-local day (the metering module's period energy). */
export interface MeterDays {
  meterId: number;
  meterName: string;
  days: { date: string; difference: Record<string, number>; flags: Record<string, readonly string[]> }[];
}

export interface SettleInput {
  days: readonly DayTariff[];
  storage: readonly MeterDays[];
  pv: readonly MeterDays[];
  /** Main (gateway) meters: their reverse registers are the export to the grid. */
  main: readonly MeterDays[];
  piles: readonly MeterDays[];
  includePv: boolean;
  includePiles: boolean;
  /** Another tariff for the same days (what-if): each line also carries its price. */
  alt?: readonly DayTariff[];
}

export interface SettledLine extends StatementLine {
  /** With `alt`: the line's price and amount under it. */
  altPrice?: string;
  altAmount?: string;
}

export interface Totals {
  chargeEnergy: string;
  dischargeEnergy: string;
  pvSelfUseEnergy: string;
  pvExportEnergy: string;
  pileEnergy: string;
  storageRevenue: string;
  pvRevenue: string;
  pileRevenue: string;
  totalRevenue: string;
  flaggedLines: number;
}

const energyOf = (v: number | undefined): Dec => (v === undefined || !Number.isFinite(v) ? ZERO : dec(v.toFixed(ENERGY_DECIMALS)));

interface Priced {
  price: Dec | null;
  source: PriceSource | null;
}

const buyPrice = (d: DayTariff | undefined, p: PricePeriod): Priced => {
  const v = d?.prices?.[p];
  if (!d || v === null || v === undefined || !d.cycle || !d.template) return { price: null, source: null };
  return {
    price: dec(v.toFixed(PRICE_DECIMALS + 2)),
    source: { kind: 'priceCycle', id: d.cycle.id, name: d.template.name, templateId: d.template.id, sitePriceId: d.configId },
  };
};
const feedInPrice = (d: DayTariff | undefined, p: PricePeriod): Priced => {
  if (!d?.feedIn) return { price: null, source: null };
  return {
    price: dec(d.feedIn.periods[p].toFixed(PRICE_DECIMALS + 2)),
    source: { kind: 'solarPrice', id: d.feedIn.id, name: '', templateId: null, sitePriceId: null },
  };
};
const serviceFee = (d: DayTariff | undefined): Priced => {
  if (!d || d.serviceFee === null || d.configId === null) return { price: null, source: null };
  return {
    price: dec(d.serviceFee.toFixed(PRICE_DECIMALS + 2)),
    source: { kind: 'sitePrice', id: d.configId, name: d.template?.name ?? '', templateId: d.template?.id ?? null, sitePriceId: d.configId },
  };
};

/** One day's energy and flags of a line's key. */
interface DayPoint {
  date: string;
  energy: Dec;
  flags: readonly string[];
}

interface Series {
  category: SettlementCategory;
  period: PricePeriod | null;
  meterId: number | null;
  meterName: string | null;
  points: DayPoint[];
  price: (d: DayTariff | undefined) => Priced;
}

const flagsOf = (m: MeterDays['days'][number], register: string) => m.flags[register] ?? ['measured'];

/** The energy per day of a meter's register of a direction and period. */
function meterSeries(m: MeterDays, dir: 'forward' | 'reverse', p: PricePeriod): DayPoint[] {
  const r = meterRegisterIdentifier(dir, p);
  return m.days.map((d) => ({ date: d.date, energy: energyOf(d.difference[r]), flags: flagsOf(d, r) }));
}

/** Sum of meters' registers per day (dates in the order of the first meter). */
function summed(meters: readonly MeterDays[], dir: 'forward' | 'reverse', p: PricePeriod): Map<string, { energy: Dec; flags: Set<string> }> {
  const out = new Map<string, { energy: Dec; flags: Set<string> }>();
  for (const m of meters) {
    for (const pt of meterSeries(m, dir, p)) {
      const cur = out.get(pt.date) ?? { energy: ZERO, flags: new Set<string>() };
      cur.energy = add(cur.energy, pt.energy);
      for (const f of pt.flags) cur.flags.add(f);
      out.set(pt.date, cur);
    }
  }
  return out;
}

function seriesOf(input: SettleInput): Series[] {
  const out: Series[] = [];
  for (const m of input.storage) {
    for (const p of PRICE_PERIODS) {
      out.push({ category: 'storageCharge', period: p, meterId: m.meterId, meterName: m.meterName, points: meterSeries(m, 'forward', p), price: (d) => buyPrice(d, p) });
      out.push({ category: 'storageDischarge', period: p, meterId: m.meterId, meterName: m.meterName, points: meterSeries(m, 'reverse', p), price: (d) => buyPrice(d, p) });
    }
  }
  if (input.includePv && input.pv.length) {
    for (const p of PRICE_PERIODS) {
      const produced = summed(input.pv, 'forward', p);
      const exported = summed(input.main, 'reverse', p);
      const self: DayPoint[] = [];
      const exp: DayPoint[] = [];
      for (const [date, v] of produced) {
        const grid = exported.get(date);
        // What left through the main meter, up to what the PV produced, was exported; the rest was used on site.
        const e = grid ? min(v.energy, grid.energy) : ZERO;
        const flags = [...v.flags, ...(grid?.flags ?? [])];
        self.push({ date, energy: sub(v.energy, e), flags });
        exp.push({ date, energy: e, flags });
      }
      out.push({ category: 'pvSelfUse', period: p, meterId: null, meterName: null, points: self, price: (d) => buyPrice(d, p) });
      out.push({ category: 'pvExport', period: p, meterId: null, meterName: null, points: exp, price: (d) => feedInPrice(d, p) });
    }
  }
  if (input.includePiles) {
    for (const m of input.piles) {
      for (const p of PRICE_PERIODS) {
        out.push({ category: 'pileEnergy', period: p, meterId: m.meterId, meterName: m.meterName, points: meterSeries(m, 'forward', p), price: (d) => buyPrice(d, p) });
      }
      // The service fee is per kWh whatever the period: the day's forward energy over all periods.
      const byDay = new Map<string, DayPoint>();
      for (const p of PRICE_PERIODS) {
        for (const pt of meterSeries(m, 'forward', p)) {
          const cur = byDay.get(pt.date);
          byDay.set(pt.date, cur ? { date: pt.date, energy: add(cur.energy, pt.energy), flags: [...cur.flags, ...pt.flags] } : pt);
        }
      }
      out.push({ category: 'pileService', period: null, meterId: m.meterId, meterName: m.meterName, points: [...byDay.values()], price: serviceFee });
    }
  }
  return out;
}

const QUALITY_ORDER: readonly StatementQualityFlag[] = ['measured', 'estimated', 'spike_clamped', 'meter_replaced', 'missing'];
function qualityOf(flags: Iterable<string>): StatementQualityFlag[] {
  const set = new Set([...flags].filter((f): f is StatementQualityFlag => (QUALITY_ORDER as readonly string[]).includes(f)));
  if (set.size > 1) set.delete('measured');
  if (!set.size) set.add('measured');
  return QUALITY_ORDER.filter((f) => set.has(f));
}

const priceKey = (p: Priced) => (p.price ? `${fixed(p.price, PRICE_DECIMALS + 2)}|${p.source?.kind}|${p.source?.id}|${p.source?.sitePriceId}` : 'none');

/** The lines of a period, in category, register, meter and date order; lines without energy are left out. */
export function settleLines(input: SettleInput): SettledLine[] {
  const byDate = new Map(input.days.map((d) => [d.date, d]));
  const altByDate = input.alt ? new Map(input.alt.map((d) => [d.date, d])) : null;
  const lines: SettledLine[] = [];
  for (const s of seriesOf(input)) {
    let cur: { from: string; to: string; energy: Dec; flags: Set<string>; priced: Priced; alt: Priced | null; key: string } | null = null;
    const close = () => {
      if (!cur || isZero(round(cur.energy, ENERGY_DECIMALS))) return;
      const price = cur.priced.price ?? ZERO;
      const line: SettledLine = {
        category: s.category, period: s.period, meterId: s.meterId, meterName: s.meterName,
        fromDate: cur.from, toDate: cur.to,
        energy: fixed(cur.energy, ENERGY_DECIMALS),
        price: fixed(price, PRICE_DECIMALS),
        amount: fixed(mul(cur.energy, price), MONEY_DECIMALS),
        priceSource: cur.priced.source,
        quality: qualityOf(cur.flags),
      };
      if (cur.alt) {
        const ap = cur.alt.price ?? ZERO;
        line.altPrice = fixed(ap, PRICE_DECIMALS);
        line.altAmount = fixed(mul(cur.energy, ap), MONEY_DECIMALS);
      }
      lines.push(line);
    };
    for (const pt of s.points) {
      const priced = s.price(byDate.get(pt.date));
      const alt = altByDate ? s.price(altByDate.get(pt.date)) : null;
      const key = `${priceKey(priced)}#${alt ? priceKey(alt) : ''}`;
      if (!cur || cur.key !== key) {
        close();
        cur = { from: pt.date, to: pt.date, energy: ZERO, flags: new Set(), priced, alt, key };
      }
      cur.to = pt.date;
      cur.energy = add(cur.energy, pt.energy);
      for (const f of pt.flags) cur.flags.add(f);
    }
    close();
  }
  const period = (p: PricePeriod | null) => (p === null ? PRICE_PERIODS.length : PRICE_PERIODS.indexOf(p));
  return lines.sort(
    (a, b) =>
      SETTLEMENT_CATEGORIES.indexOf(a.category) - SETTLEMENT_CATEGORIES.indexOf(b.category) ||
      period(a.period) - period(b.period) ||
      (a.meterId ?? 0) - (b.meterId ?? 0) ||
      a.fromDate.localeCompare(b.fromDate),
  );
}

const COSTS: readonly SettlementCategory[] = ['storageCharge'];
const signed = (l: { category: SettlementCategory }, amount: string) => (COSTS.includes(l.category) ? sub(ZERO, dec(amount)) : dec(amount));

/** Energies and revenues of the lines (revenues from the lines' rounded amounts, charge counted negative). */
export function totalsOf(lines: readonly StatementLine[]): Totals {
  const of = (cats: SettlementCategory[], pick: (l: StatementLine) => Dec) => sum(lines.filter((l) => cats.includes(l.category)).map(pick));
  const e = (c: SettlementCategory) => fixed(of([c], (l) => dec(l.energy)), ENERGY_DECIMALS);
  const rev = (cats: SettlementCategory[]) => of(cats, (l) => signed(l, l.amount));
  const storage = rev(['storageCharge', 'storageDischarge']);
  const pv = rev(['pvSelfUse', 'pvExport']);
  const piles = rev(['pileEnergy', 'pileService']);
  return {
    chargeEnergy: e('storageCharge'),
    dischargeEnergy: e('storageDischarge'),
    pvSelfUseEnergy: e('pvSelfUse'),
    pvExportEnergy: e('pvExport'),
    pileEnergy: e('pileEnergy'),
    storageRevenue: fixed(storage, MONEY_DECIMALS),
    pvRevenue: fixed(pv, MONEY_DECIMALS),
    pileRevenue: fixed(piles, MONEY_DECIMALS),
    totalRevenue: fixed(add(add(storage, pv), piles), MONEY_DECIMALS),
    flaggedLines: lines.filter((l) => l.quality.some((q) => q !== 'measured')).length,
  };
}

/** The investor's share = ratio % × total, half away from zero to the cent; the power user's = the rest. */
export function sharesOf(totalRevenue: string, ratio: number | string): { investorAmount: string; powerUserAmount: string } {
  const total = dec(totalRevenue);
  const percent = mul(total, dec(String(ratio)));
  const inv = round({ units: percent.units, scale: percent.scale + 2 }, MONEY_DECIMALS);
  return { investorAmount: fixed(inv, MONEY_DECIMALS), powerUserAmount: fixed(sub(total, inv), MONEY_DECIMALS) };
}

/** The line's revenue effect (negative for a cost). */
export const signedAmount = (l: { category: SettlementCategory }, amount: string): Dec => signed(l, amount);
