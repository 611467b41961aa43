import { describe, expect, it } from 'vitest';
import type { DayTariff } from '../pricing/index.ts';
import { dec, fixed, mul, round } from './decimal.ts';
import { settleLines, sharesOf, totalsOf, type MeterDays } from './settle.ts';

/**
 * Hand-worked settlement of October 2026 at one station: template A (cycle 11, station rate 21)
 * until the 14th, template B (cycle 12, station rate 22) from the 15th.
 *
 *   A: peak 1.0523, valley 0.3142, flat 0.6789   B: peak 1.1234, valley 0.2987, flat 0.7000
 *
 * Storage meter 7, every day: charge (forward, valley register) 100.125 kWh, discharge
 * (reverse, peak register) 90.010 kWh; the 20th's discharge was clamped as a spike.
 *
 *   charge    1st–14th  14 × 100.125 = 1401.750 kWh × 0.3142 = 440.429850 → 440.43
 *   charge    15th–31st 17 × 100.125 = 1702.125 kWh × 0.2987 = 508.424738 → 508.42
 *   discharge 1st–14th  14 ×  90.010 = 1260.140 kWh × 1.0523 = 1326.045322 → 1326.05
 *   discharge 15th–31st 17 ×  90.010 = 1530.170 kWh × 1.1234 = 1718.992978 → 1718.99
 *   storage revenue = 1326.05 + 1718.99 − 440.43 − 508.42 = 2096.19
 *   investor 70 % = 1467.333 → 1467.33; power user = 2096.19 − 1467.33 = 628.86
 */

const dates = Array.from({ length: 31 }, (_, i) => `2026-10-${String(i + 1).padStart(2, '0')}`);
const A = { peak: 1.0523, valley: 0.3142, flat: 0.6789 };
const B = { peak: 1.1234, valley: 0.2987, flat: 0.7 };

function day(date: string, p: { peak: number; valley: number; flat: number }, cycle: number, config: number, extra: Partial<DayTariff> = {}): DayTariff {
  return {
    date, startMs: 0, endMs: 0, hours: 24, configId: config,
    template: { id: cycle + 100, name: cycle === 11 ? '模板A' : '模板B', billingSystem: 'singlePart', currency: 'CNY' },
    cycle: { id: cycle, name: '全年' }, bands: [],
    prices: { tip: null, peak: p.peak, flat: p.flat, valley: p.valley, deepValley: null },
    demandPrice: null, capacityPrice: null, serviceFee: config === 21 ? 0.5 : 0.6, feedIn: null,
    ...extra,
  };
}
const days = dates.map((d) => (d < '2026-10-15' ? day(d, A, 11, 21) : day(d, B, 12, 22)));

const spike: Record<string, string[]> = { reverseActiveEnergyPeak: ['spike_clamped'] };
const storage: MeterDays = {
  meterId: 7,
  meterName: '储能电表',
  days: dates.map((date) => ({
    date,
    difference: { forwardActiveEnergyValley: 100.125, reverseActiveEnergyPeak: 90.01 },
    flags: date === '2026-10-20' ? spike : {},
  })),
};

describe('decimal arithmetic', () => {
  it('is exact and rounds half away from zero', () => {
    expect(fixed(mul(dec('0.1'), dec('3')), 2)).toBe('0.30');
    expect(fixed(dec('2.675'), 2)).toBe('2.68'); // 2.675 as a double is 2.67499…: toFixed(2) says 2.67
    expect(fixed(dec('-2.675'), 2)).toBe('-2.68');
    expect(fixed(round(dec('1401.750'), 1), 1)).toBe('1401.8');
    expect(fixed(dec(1e-7), 7)).toBe('0.0000001');
  });
});

describe('settlement of a month with a tariff change on the 15th', () => {
  const lines = settleLines({ days, storage: [storage], pv: [], main: [], piles: [], includePv: false, includePiles: false });

  it('splits each register at the change and prices each part to the cent', () => {
    expect(lines.map((l) => [l.category, l.period, l.fromDate, l.toDate, l.energy, l.price, l.amount, l.quality])).toEqual([
      ['storageCharge', 'valley', '2026-10-01', '2026-10-14', '1401.750', '0.3142', '440.43', ['measured']],
      ['storageCharge', 'valley', '2026-10-15', '2026-10-31', '1702.125', '0.2987', '508.42', ['measured']],
      ['storageDischarge', 'peak', '2026-10-01', '2026-10-14', '1260.140', '1.0523', '1326.05', ['measured']],
      ['storageDischarge', 'peak', '2026-10-15', '2026-10-31', '1530.170', '1.1234', '1718.99', ['spike_clamped']],
    ]);
    expect(lines[0]!.priceSource).toEqual({ kind: 'priceCycle', id: 11, name: '模板A', templateId: 111, sitePriceId: 21 });
    expect(lines[3]!.priceSource).toEqual({ kind: 'priceCycle', id: 12, name: '模板B', templateId: 112, sitePriceId: 22 });
  });

  it('totals and shares', () => {
    const t = totalsOf(lines);
    expect(t).toMatchObject({
      chargeEnergy: '3103.875', dischargeEnergy: '2790.310', storageRevenue: '2096.19', pvRevenue: '0.00', pileRevenue: '0.00', totalRevenue: '2096.19', flaggedLines: 1,
    });
    expect(sharesOf(t.totalRevenue, 70)).toEqual({ investorAmount: '1467.33', powerUserAmount: '628.86' });
    expect(sharesOf(t.totalRevenue, 62.5)).toEqual({ investorAmount: '1310.12', powerUserAmount: '786.07' });
    expect(sharesOf('-10.01', 50)).toEqual({ investorAmount: '-5.01', powerUserAmount: '-5.00' });
  });

  it('what-if: the same energy at another tariff, line by line', () => {
    // B for the whole month: the first half's lines get B's prices.
    const alt = dates.map((d) => day(d, B, 12, 22));
    const w = settleLines({ days, storage: [storage], pv: [], main: [], piles: [], includePv: false, includePiles: false, alt });
    expect(w.map((l) => [l.fromDate, l.energy, l.amount, l.altPrice, l.altAmount])).toEqual([
      ['2026-10-01', '1401.750', '440.43', '0.2987', '418.70'], // 1401.75 × 0.2987 = 418.702725
      ['2026-10-15', '1702.125', '508.42', '0.2987', '508.42'],
      ['2026-10-01', '1260.140', '1326.05', '1.1234', '1415.64'], // 1260.14 × 1.1234 = 1415.641276
      ['2026-10-15', '1530.170', '1718.99', '1.1234', '1718.99'],
    ]);
  });
});

describe('PV and charging piles', () => {
  const two = dates.slice(0, 2).map((d) => day(d, A, 11, 21, { feedIn: { id: 5, price: 0.35, periods: { tip: 0.35, peak: 0.35, flat: 0.35, valley: 0.35, deepValley: 0.35 } } }));
  const meter = (id: number, register: string, values: number[]): MeterDays => ({
    meterId: id, meterName: `M${id}`, days: values.map((v, i) => ({ date: dates[i]!, difference: { [register]: v }, flags: {} })),
  });

  it('PV: export is what left through the main meter up to the production; the rest is self-used', () => {
    // Produced 50 + 50 flat; main meter exported 20 then 60 → exported 20 + 50 = 70, self-used 30 + 0 = 30.
    const lines = settleLines({
      days: two, storage: [], pv: [meter(8, 'forwardActiveEnergyFlat', [50, 50])], main: [meter(9, 'reverseActiveEnergyFlat', [20, 60])],
      piles: [], includePv: true, includePiles: false,
    });
    expect(lines.map((l) => [l.category, l.energy, l.price, l.amount, l.priceSource?.kind])).toEqual([
      ['pvSelfUse', '30.000', '0.6789', '20.37', 'priceCycle'], // 30 × 0.6789 = 20.367
      ['pvExport', '70.000', '0.3500', '24.50', 'solarPrice'],
    ]);
    expect(totalsOf(lines)).toMatchObject({ pvSelfUseEnergy: '30.000', pvExportEnergy: '70.000', pvRevenue: '44.87', totalRevenue: '44.87' });
  });

  it('piles: the period price plus the service fee per kWh; left out when not included', () => {
    const pile = meter(10, 'forwardActiveEnergyPeak', [12.5, 7.25]);
    const lines = settleLines({ days: two, storage: [], pv: [], main: [], piles: [pile], includePv: false, includePiles: true });
    expect(lines.map((l) => [l.category, l.period, l.energy, l.price, l.amount])).toEqual([
      ['pileEnergy', 'peak', '19.750', '1.0523', '20.78'], // 19.75 × 1.0523 = 20.782925
      ['pileService', null, '19.750', '0.5000', '9.88'], // 19.75 × 0.5 = 9.875 → 9.88
    ]);
    expect(totalsOf(lines).pileRevenue).toBe('30.66');
    expect(settleLines({ days: two, storage: [], pv: [], main: [], piles: [pile], includePv: false, includePiles: false })).toEqual([]);
  });

  it('a register without a price that day: price 0, no source (the console shows it unpriced)', () => {
    const lines = settleLines({ days: [day(dates[0]!, A, 11, 21, { prices: null, cycle: null })], storage: [meter(7, 'reverseActiveEnergyPeak', [5])], pv: [], main: [], piles: [], includePv: false, includePiles: false });
    expect(lines).toEqual([expect.objectContaining({ energy: '5.000', price: '0.0000', amount: '0.00', priceSource: null })]);
  });
});
