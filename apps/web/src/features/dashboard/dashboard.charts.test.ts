// @vitest-environment node
import type { ArbitrageFeeCurve, ArbitrageQuantityCurve } from '@ess/contract/dashboard';
import { describe, expect, it } from 'vitest';
import { feeCurveOption, formatAmounts, formatMoney, quantityCurveOption } from './dashboard.charts.ts';

const t = (s: string, ...a: unknown[]) => a.reduce<string>((out, v, i) => out.replace(`$${i + 1}`, String(v)), s);
type Series = { id: string; data: (number | null)[]; stack?: string; yAxisIndex?: number };
const seriesOf = (o: object) => (o as { series: Series[] }).series;
const note = (o: object) => (o as { graphic: object[] }).graphic;

describe('money on the revenue screens', () => {
  it('shows cents and the currency, and never adds currencies up', () => {
    expect(formatMoney(1234.5, 'CNY')).toBe('1,234.50 CNY');
    expect(formatMoney(-0.2, 'EUR')).toBe('-0.20 EUR');
    expect(formatMoney(null, 'EUR')).toBe('-');
    expect(formatAmounts([{ currency: 'CNY', amount: 10 }, { currency: 'USD', amount: 2.5 }])).toBe('10.00 CNY · 2.50 USD');
    expect(formatAmounts([])).toBe('-');
    const piles = [{ currency: 'CNY', amount: 0 }, { currency: 'USD', amount: 660.7 }];
    expect(formatAmounts(piles, true)).toBe('660.70 USD');
    expect(formatAmounts([{ currency: 'CNY', amount: 0 }, { currency: 'EUR', amount: 0 }], true)).toBe('0.00 CNY');
  });
});

describe('arbitrage curves', () => {
  const fee: ArbitrageFeeCurve = {
    bucket: 'day', labels: ['2026-03-01', '2026-03-02'],
    currencies: [
      { currency: 'CNY', chargeCost: [10, 20], dischargeIncome: [30, 35], arbitrage: [20, 15] },
      { currency: 'USD', chargeCost: [1, 2], dischargeIncome: [3, 4], arbitrage: [2, 2] },
    ],
  };

  it('draws one currency: income up, cost below zero, arbitrage as a line', () => {
    const usd = seriesOf(feeCurveOption(fee, 'USD', t, 'none'));
    expect(usd.map((s) => [s.id, s.data])).toEqual([['dischargeIncome', [3, 4]], ['chargeCost', [-1, -2]], ['arbitrage', [2, 2]]]);
    expect(seriesOf(feeCurveOption(fee, undefined, t, 'none'))[0]!.data).toEqual([30, 35]);
    expect(note(feeCurveOption(fee, 'CNY', t, 'none'))).toEqual([]);
    expect(note(feeCurveOption({ bucket: 'day', labels: [], currencies: [] }, undefined, t, 'none'))).toHaveLength(1);
  });

  it('stacks charge and discharge by the periods used, with efficiency on the % axis', () => {
    const zero = [0, 0];
    const q: ArbitrageQuantityCurve = {
      bucket: 'day', labels: ['03-01', '03-02'], charge: [100, 80], discharge: [90, 70],
      chargeByPeriod: { tip: zero, peak: zero, flat: zero, valley: [100, 80], deepValley: zero },
      dischargeByPeriod: { tip: [40, 30], peak: [50, 40], flat: zero, valley: zero, deepValley: zero },
      efficiency: [90, null],
    };
    const s = seriesOf(quantityCurveOption(q, t, 'none'));
    // tip and peak (discharge) and valley (charge) occur: 3 periods × 2 ways + efficiency.
    expect(s.map((x) => x.id)).toEqual(['charge-tip', 'charge-peak', 'charge-valley', 'discharge-tip', 'discharge-peak', 'discharge-valley', 'efficiency']);
    expect(s.find((x) => x.id === 'charge-valley')).toMatchObject({ stack: 'charge', data: [100, 80] });
    expect(s.find((x) => x.id === 'efficiency')).toMatchObject({ yAxisIndex: 1, data: [90, null] });
  });
});
