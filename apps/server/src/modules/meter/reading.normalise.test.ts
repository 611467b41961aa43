import { describe, expect, it } from 'vitest';
import { fromWh, normaliseRegister, toWh, type RegisterPoint } from './reading.normalise.ts';

/**
 * The register rules by hand: UTC days from 2026-10-01 (bounds at 00:00), values in kWh turned
 * into Wh as the readings are stored (0.001 kWh).
 */
const DAY = 86_400_000;
const T0 = Date.parse('2026-10-01T00:00:00Z');
const bounds = (days: number) => Array.from({ length: days + 1 }, (_, i) => T0 + i * DAY);
const zero = (day: number, kwh: number | null, segment = 0, quality: RegisterPoint['quality'] = kwh === null ? 'missing' : 'measured'): RegisterPoint => ({
  t: T0 + day * DAY, wh: kwh === null ? null : toWh(kwh), segment, quality,
});

describe('normaliseRegister', () => {
  it('counts rises day by day', () => {
    const r = normaliseRegister({ bounds: bounds(3), points: [zero(0, 100), zero(1, 110.5), zero(2, 121), zero(3, 121)], changes: [], limitKw: null });
    expect(r.days).toEqual([10_500, 10_500, 0]);
    expect(r.flags).toEqual([[], [], []]);
  });

  it('never bills a drop negative: 0 that day (estimated), the next rise counts from the lower value', () => {
    const r = normaliseRegister({ bounds: bounds(2), points: [zero(0, 100), zero(1, 90), zero(2, 95)], changes: [], limitKw: null });
    expect(r.days).toEqual([0, 5_000]);
    expect(r.flags).toEqual([['estimated'], []]);
  });

  it('clamps a jump beyond rated power × 24 h × 1.2 and flags it', () => {
    // 10 kW × 24 h × 1.2 = 288 kWh a day.
    const r = normaliseRegister({ bounds: bounds(3), points: [zero(0, 0), zero(1, 100), zero(2, 1100), zero(3, 1200)], changes: [], limitKw: 10 });
    expect(r.days).toEqual([100_000, 288_000, 100_000]);
    expect(r.flags).toEqual([[], ['spike_clamped'], []]);
  });

  it('spreads the energy across a missing midnight in proportion to time, in whole Wh that add up', () => {
    const r = normaliseRegister({ bounds: bounds(3), points: [zero(0, 0), zero(1, 100), zero(2, null), zero(3, 301.001)], changes: [], limitKw: null });
    // 201.001 kWh over two equal days: 100.500 and 100.501.
    expect(r.days).toEqual([100_000, 100_500, 100_501]);
    expect(r.flags).toEqual([[], ['missing'], ['missing']]);
    expect(r.days.reduce((a, b) => a + b, 0)).toBe(toWh(301.001));
  });

  it('splits a day with a meter replacement: old end − old start + new end − new start', () => {
    const change = T0 + DAY + 6 * 3_600_000;
    const points = [
      zero(0, 1000), zero(1, 1050),
      { t: change, wh: toWh(1062.5), segment: 0, quality: 'measured' as const },
      { t: change, wh: toWh(0.2), segment: 1, quality: 'measured' as const },
      zero(2, 40.2, 1), zero(3, 80.2, 1),
    ];
    const r = normaliseRegister({ bounds: bounds(3), points, changes: [change], limitKw: null });
    expect(r.days).toEqual([50_000, 52_500, 40_000]);
    expect(r.bySegment).toEqual([[50_000, 0], [12_500, 40_000], [0, 40_000]]);
    expect(r.flags).toEqual([[], ['meter_replaced'], []]);
  });

  it('without the change readings a replacement day is unknown: 0 and missing', () => {
    const change = T0 + DAY + 6 * 3_600_000;
    const r = normaliseRegister({ bounds: bounds(3), points: [zero(0, 1000), zero(1, 1050), zero(2, 40.2, 1), zero(3, 80.2, 1)], changes: [change], limitKw: null });
    expect(r.days).toEqual([50_000, 0, 40_000]);
    expect(r.flags).toEqual([[], ['meter_replaced', 'missing'], []]);
  });

  it('flags the days an estimated reading bounds', () => {
    const r = normaliseRegister({ bounds: bounds(2), points: [zero(0, 0), zero(1, 10, 0, 'estimated'), zero(2, 20)], changes: [], limitKw: null });
    expect(r.days).toEqual([10_000, 10_000]);
    expect(r.flags).toEqual([['estimated'], ['estimated']]);
  });

  it('days no interval covers are 0 and missing', () => {
    const r = normaliseRegister({ bounds: bounds(3), points: [zero(0, 5), zero(1, 7), zero(2, null), zero(3, null)], changes: [], limitKw: null });
    expect(r.days).toEqual([2_000, 0, 0]);
    expect(r.flags).toEqual([[], ['missing'], ['missing']]);
  });

  it('is additive: a window cut out of a longer run gives the same days', () => {
    const points = [zero(0, 0), zero(1, 3.333), zero(2, null), zero(3, null), zero(4, 10.001), zero(5, 12)];
    const whole = normaliseRegister({ bounds: bounds(5), points, changes: [], limitKw: null });
    // Days 2..3 alone (bounds 2..4), with the same points around.
    const part = normaliseRegister({ bounds: bounds(5).slice(2, 5), points, changes: [], limitKw: null });
    expect(part.days).toEqual(whole.days.slice(2, 4));
    // 6.668 kWh over days 1..3 by cumulative floors: ⌊6668/3⌋ = 2222, ⌊2·6668/3⌋ − 2222 = 4445 − 2222 = 2223, 6668 − 4445 = 2223.
    expect(whole.days).toEqual([3_333, 2_222, 2_223, 2_223, 1_999]);
    expect(whole.days.reduce((a, b) => a + b, 0)).toBe(12_000);
  });

  it('keeps three exact decimals', () => {
    expect(toWh(1062.5)).toBe(1_062_500);
    expect(fromWh(100_501)).toBe(100.501);
    expect(fromWh(1)).toBe(0.001);
  });
});
