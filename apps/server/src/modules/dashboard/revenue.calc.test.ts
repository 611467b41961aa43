import { describe, expect, it } from 'vitest';
import type { DayTariff } from '../pricing/pricing.service.ts';
import { cents, cycleCount, dayFigures, efficiency, zeroPeriods } from './revenue.calc.ts';

const tariff = (over: Partial<DayTariff> = {}): DayTariff => ({
  date: '2026-03-10', startMs: 0, endMs: 86_400_000, hours: 24, configId: 1,
  template: { id: 1, name: 't', billingSystem: 'singlePart', currency: 'CNY' }, cycle: { id: 1, name: 'c' }, bands: [],
  prices: { tip: 1.5, peak: 1.2, flat: 0.7, valley: 0.3, deepValley: null },
  demandPrice: null, capacityPrice: null, serviceFee: 0.8, feedIn: { id: 1, price: 0.4, periods: { tip: 0.4, peak: 0.4, flat: 0.4, valley: 0.4, deepValley: 0.4 } },
  ...over,
});
const p = (v: Partial<ReturnType<typeof zeroPeriods>>) => ({ ...zeroPeriods(), ...v });

describe('the money of a day', () => {
  it('settles to the cent, half away from zero, robust to binary fractions', () => {
    expect(cents(1.005)).toBe(101);
    expect(cents(412.198425)).toBe(41220);
    expect(cents(-0.125)).toBe(-13);
  });

  it('prices charge, discharge, PV (self-used at the buy price, exported capped by production at the feed-in price) and charging with the service fee', () => {
    const f = dayFigures(
      { charge: p({ valley: 100 }), discharge: p({ peak: 50, tip: 40 }), pv: p({ flat: 30 }), gridExport: p({ flat: 50 }), piles: p({ flat: 10, peak: 5 }) },
      tariff(), { installedCapacity: 200, depthOfDischarge: 90 }, 'EUR',
    );
    expect(f.currency).toBe('CNY');
    expect(f.chargeCost).toBe(30); // 100 × 0.3
    expect(f.dischargeIncome).toBe(120); // 50 × 1.2 + 40 × 1.5
    expect(f.arbitrage).toBe(90);
    expect(f.pvExported).toBe(30); // min(30, 50)
    expect(f.pvSelfUsed).toBe(0);
    expect(f.pvRevenue).toBe(12); // 30 × 0.4
    expect(f.chargingRevenue).toBe(25); // 10 × (0.7 + 0.8) + 5 × (1.2 + 0.8) = 15 + 10
    expect(f.total).toBe(127);
    expect(f.cycles).toBe(0.5278); // 190 / (0.9 × 2 × 200)
    expect(f.pricesComplete).toBe(true);
  });

  it('counts no money for a period without a price and marks the day incomplete', () => {
    const f = dayFigures({ charge: p({ deepValley: 100 }), discharge: p({}), pv: null, gridExport: null, piles: null }, tariff(), { installedCapacity: null, depthOfDischarge: null }, 'CNY');
    expect(f.chargeCost).toBe(0);
    expect(f.pricesComplete).toBe(false);
    expect(f.cycles).toBeNull();
    const none = dayFigures({ charge: p({ valley: 1 }), discharge: null, pv: null, gridExport: null, piles: null }, null, { installedCapacity: 1, depthOfDischarge: 100 }, 'USD');
    expect(none.currency).toBe('USD');
    expect(none.pricesComplete).toBe(false);
  });

  it('has no efficiency without charge, without discharge (not 0 %) or with more out than in', () => {
    expect(efficiency(0, 5)).toBeNull();
    expect(efficiency(120, 0)).toBeNull();
    expect(efficiency(10, 12)).toBeNull();
    expect(efficiency(100, 91.234)).toBe(91.23);
    expect(cycleCount(10, 10, { installedCapacity: 0, depthOfDischarge: 90 })).toBeNull();
  });
});
