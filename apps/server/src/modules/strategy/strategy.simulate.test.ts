import { describe, expect, it } from 'vitest';
import { strategyAdd, type StrategyContent } from '@ess/contract/strategy';
import { simulateDay, type DayStep } from './strategy.simulate.ts';

const H = 3_600_000;
/** Thursday 15 January 2026, 00:00 UTC. */
const DAY = Date.UTC(2026, 0, 15);

const content: StrategyContent = strategyAdd.parse({
  siteId: 1, socMin: 10, socMax: 90, transformerProtectionKw: 120, antiBackflow: true,
  schedules: [{
    name: '全年', priority: 1, months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], weekdays: [1, 2, 3, 4, 5, 6, 7],
    windows: [{ start: '00:00', end: '02:00', mode: 'charge', powerKw: 30 }, { start: '02:00', end: '24:00', mode: 'discharge', powerKw: 40 }],
  }],
});

const step = (h: number, loadKw: number, pvKw: number, price: number, actualBatteryKw: number, actualGridKw: number): DayStep => ({
  t: DAY + h * H, loadKw, pvKw, price, actualBatteryKw, actualGridKw, actualSoc: null,
});

describe('simulating a strategy over a measured day', () => {
  it('applies the set-points within the transformer, anti-backflow, PCS and SOC limits (hand-worked)', () => {
    // 100 kWh, SOC 50 % at 00:00, hourly steps, PCS 50 kW, transformer 120 kW, no export.
    // 00:00 load 100: charge 30 wanted, import capped at 120 → 20 kW; SOC 70; grid 120.
    // 01:00 load 60: charge 30 wanted, SOC room 90−70 = 20 kWh → 20 kW; SOC 90; grid 80.
    // 02:00 load 30: discharge 40 wanted, no export → 30 kW; SOC 60; grid 0.
    // 03:00 load 150, PV 20 (net 130): discharge 40 (import 90 < 120); SOC 20; grid 90.
    const r = simulateDay({
      content, demand: null, timeZone: 'UTC', stepMinutes: 60, capacityKwh: 100, pcsRatedKw: 50, startSoc: 50,
      steps: [step(0, 100, 0, 0.3, 0, 100), step(1, 60, 0, 0.3, -40, 100), step(2, 30, 0, 1, 35, -5), step(3, 150, 20, 1, 0, 130)],
    });
    expect(r.steps.map((s) => [s.time, s.batteryKw, s.gridKw, s.soc])).toEqual([
      ['00:00', -20, 120, 70], ['01:00', -20, 80, 90], ['02:00', 30, 0, 60], ['03:00', 40, 90, 20],
    ]);
    // Revenue: −20×0.3 −20×0.3 +30×1 +40×1 = 58.00; usable 100 × (90 − 10) % = 80 kWh → 70 / 80 = 0.875 cycles.
    expect(r.expected).toEqual({
      revenue: '58.00', chargeKwh: 40, dischargeKwh: 70, cycles: 0.875, peakDemandKw: 120,
      transformerMinutes: 0, transformerWorstKw: null, backflowMinutes: 0, backflowKwh: 0,
    });
    // What happened: −40×0.3 + 35×1 = 23.00; 130 kW over the transformer for an hour; 5 kWh exported.
    expect(r.actual).toEqual({
      revenue: '23.00', chargeKwh: 40, dischargeKwh: 35, cycles: 0.438, peakDemandKw: 130,
      transformerMinutes: 60, transformerWorstKw: 130, backflowMinutes: 60, backflowKwh: 5,
    });
  });

  it('stops at a target SOC and charges the PV surplus rather than export it', () => {
    const target: StrategyContent = { ...content, schedules: [{ ...content.schedules[0]!, windows: [{ start: '00:00', end: '24:00', mode: 'discharge', powerKw: 40, targetSoc: 45 }] }] };
    const r = simulateDay({
      content: target, demand: null, timeZone: 'UTC', stepMinutes: 60, capacityKwh: 100, pcsRatedKw: 50, startSoc: 50,
      steps: [step(0, 100, 0, 1, 0, 100), step(1, 100, 0, 1, 0, 100), step(2, 10, 40, 1, 0, -30)],
    });
    // 50 % → 10 % would overshoot: 40 kW the first hour (SOC 10 ≤ 45 then), 0 kW after; PV surplus 30 kW is charged.
    expect(r.steps.map((s) => [s.batteryKw, s.gridKw, s.soc])).toEqual([[40, 60, 10], [0, 100, 10], [-30, 0, 40]]);
    expect(r.expected.backflowMinutes).toBe(0);
    expect(r.actual.backflowKwh).toBe(30);
  });

  it('holds the import to the demand target less its margin, as the EMS does (hand-worked)', () => {
    // Charge 200 kW all day; transformer 500; target 250, margin 10 → line 240. 400 kWh at 50 %, PCS 250.
    const charge: StrategyContent = {
      ...content, transformerProtectionKw: 500, antiBackflow: false,
      schedules: [{ ...content.schedules[0]!, windows: [{ start: '00:00', end: '24:00', mode: 'charge', powerKw: 200, targetSoc: null }] }],
    };
    const r = simulateDay({
      content: charge, demand: { targetKw: 250, marginKw: 10 }, timeZone: 'UTC', stepMinutes: 60, capacityKwh: 400, pcsRatedKw: 250, startSoc: 50,
      steps: [step(0, 180, 0, 0.3, 0, 180), step(1, 300, 0, 0.3, 0, 300), step(2, 40, 0, 0.3, 0, 40)],
    });
    // 00:00 load 180: 200 wanted, 240 − 180 = 60 kW; SOC 65; import 240.
    // 01:00 load 300: above the line alone → discharge 60 kW; SOC 50; import 240.
    // 02:00 load 40: 200 wanted, the line allows it, the SOC limit 90 % (160 kWh of room) does not → 160 kW; import 200.
    expect(r.steps.map((s) => [s.batteryKw, s.gridKw, s.soc])).toEqual([[-60, 240, 65], [60, 240, 50], [-160, 200, 90]]);
    expect(r.expected.peakDemandKw).toBe(240);
    // Without a target: 200 kW on top of the load (import 380; the transformer's 500 still holds).
    const free = simulateDay({
      content: charge, demand: null, timeZone: 'UTC', stepMinutes: 60, capacityKwh: 400, pcsRatedKw: 250, startSoc: 10,
      steps: [step(0, 180, 0, 0.3, 0, 180)],
    });
    expect(free.steps.map((s) => [s.batteryKw, s.gridKw])).toEqual([[-200, 380]]);
  });
});
