import { describe, expect, it } from 'vitest';
import { counterfactualOf, demandOf, guardDischargeKw, projectDemand, windowStartOf, WindowTracker, type ClosedWindow } from './demand.compute.ts';

/**
 * Hand-worked day (Asia/Shanghai, UTC+8), 2026-03-10, 10:00–11:00 local = 02:00–03:00 UTC.
 * The main meter's import register and the storage meter's registers are read every 5 minutes.
 *
 *   5-minute import energy (kWh)      storage (kWh)        window energy   demand = ×4   counterfactual
 *   A 10:00–10:15   7,  7,  7         —                    21              84 kW         84 kW
 *   B 10:15–10:30  10, 10,  5         —                    25             100 kW        100 kW
 *   C 10:30–10:45   8,  8,  8         discharge 8, 8, 8    24              96 kW       (24 + 24) × 4 = 192 kW
 *   D 10:45–11:00   5,  5,  5         charge 2.5 × 3       15              60 kW       (15 − 7.5) × 4 = 30 kW
 *
 * Measured maximum: 100 kW in B (10:15 local, 02:15Z); counterfactual maximum 192 kW in C
 * (10:30 local): storage shaved 192 − 100 = 92 kW off the month's maximum.
 */
const TZ = 'Asia/Shanghai';
const T10 = Date.parse('2026-03-10T02:00:00Z');
const MIN = 60_000;
const IMPORT_STEPS = [7, 7, 7, 10, 10, 5, 8, 8, 8, 5, 5, 5];
const DISCHARGE_STEPS = [0, 0, 0, 0, 0, 0, 8, 8, 8, 0, 0, 0];
const CHARGE_STEPS = [0, 0, 0, 0, 0, 0, 0, 0, 0, 2.5, 2.5, 2.5];

function feedAll(tracker: WindowTracker, steps: number[][], start: number[]): ClosedWindow[] {
  const out: ClosedWindow[] = [];
  const reg = start.slice();
  out.push(...tracker.feed(T10, reg));
  steps.forEach((inc, k) => {
    inc.forEach((x, i) => (reg[i]! += x));
    out.push(...tracker.feed(T10 + (k + 1) * 5 * MIN, reg.slice()));
  });
  return out;
}

describe('15-minute windows (hand-worked)', () => {
  it('aligns windows to the quarter hour in the station zone', () => {
    expect(windowStartOf(Date.parse('2026-03-10T02:14:59Z'), TZ)).toBe(T10);
    expect(windowStartOf(Date.parse('2026-03-10T02:15:00Z'), TZ)).toBe(T10 + 15 * MIN);
    // Kathmandu is UTC+05:45: its quarter hours are UTC quarter hours too (every offset is a multiple of 15 minutes).
    expect(windowStartOf(Date.parse('2026-03-10T04:20:00Z'), 'Asia/Kathmandu')).toBe(Date.parse('2026-03-10T04:15:00Z'));
  });

  it('makes the four windows of the main meter: 84, 100, 96, 60 kW from 21, 25, 24, 15 kWh', () => {
    const tracker = new WindowTracker(TZ);
    const windows = feedAll(tracker, IMPORT_STEPS.map((x) => [x]), [1000]);
    expect(windows.map((w) => new Date(w.start).toISOString())).toEqual([
      '2026-03-10T02:00:00.000Z', '2026-03-10T02:15:00.000Z', '2026-03-10T02:30:00.000Z', '2026-03-10T02:45:00.000Z',
    ]);
    expect(windows.map((w) => w.deltas[0])).toEqual([21, 25, 24, 15]);
    expect(windows.map((w) => demandOf(w.deltas[0]!))).toEqual([84, 100, 96, 60]);
    expect(windows.map((w) => w.estimated)).toEqual([false, false, false, false]);
    expect(windows[1]!.startValues).toEqual([1021]);
    expect(windows[1]!.endValues).toEqual([1046]);
    // The month's maximum of these: 100 kW, window B at 10:15 local.
    const max = windows.reduce((a, b) => (demandOf(b.deltas[0]!) > demandOf(a.deltas[0]!) ? b : a));
    expect(new Date(max.start).toISOString()).toBe('2026-03-10T02:15:00.000Z');
  });

  it('gives the storage meter charge (forward) and discharge (reverse) per window, and the counterfactual 84, 100, 192, 30 kW', () => {
    const main = feedAll(new WindowTracker(TZ), IMPORT_STEPS.map((x) => [x]), [1000]);
    const storage = feedAll(new WindowTracker(TZ), CHARGE_STEPS.map((c, i) => [c, DISCHARGE_STEPS[i]!]), [500, 400]);
    expect(storage.map((w) => w.deltas)).toEqual([[0, 0], [0, 0], [0, 24], [7.5, 0]]);
    const cf = main.map((w, i) => counterfactualOf(w.deltas[0]!, storage[i]!.deltas[0]!, storage[i]!.deltas[1]!));
    expect(cf).toEqual([84, 100, 192, 30]);
    expect(Math.max(...cf) - Math.max(...main.map((w) => demandOf(w.deltas[0]!)))).toBe(92);
    // Never below zero: charging more than the import (a counterfactual export is not demand).
    expect(counterfactualOf(5, 10, 0)).toBe(0);
  });

  it('interpolates boundaries without a reading from the cumulative register and flags the windows estimated', () => {
    const tracker = new WindowTracker(TZ);
    expect(tracker.feed(T10, [1000])).toEqual([]);
    // Readings every 30 minutes (the demo's older days): 46 kWh in 10:00–10:30 → 23 kWh per window.
    const w = tracker.feed(T10 + 30 * MIN, [1046]);
    expect(w.map((x) => [x.deltas[0], demandOf(x.deltas[0]!), x.estimated])).toEqual([[23, 92, true], [23, 92, true]]);
    // 10:30 had a reading, 10:45 is interpolated from 10:40 and 10:50 (10 minutes apart): estimated; 5 kWh in 10:30–10:45.
    tracker.feed(T10 + 40 * MIN, [1050]);
    const next = tracker.feed(T10 + 50 * MIN, [1054]);
    expect(next.map((x) => [x.deltas[0], x.estimated])).toEqual([[6, true]]);
  });

  it('makes no window before the first boundary, nor across a register going back or a gap over two hours', () => {
    const tracker = new WindowTracker(TZ);
    tracker.feed(T10 + 3 * MIN, [1000]);
    expect(tracker.feed(T10 + 16 * MIN, [1010])).toEqual([]); // 10:00–10:15 began before the first reading
    expect(tracker.feed(T10 + 31 * MIN, [900])).toEqual([]); // replaced meter
    expect(tracker.feed(T10 + 5 * 60 * MIN, [950])).toEqual([]);
  });
});

describe('the live guard (hand-worked)', () => {
  it('projects the window: (10 kWh so far + 120 kW × 10 min) × 4 = 120 kW, and asks 22.5 kW to end at 105 kW', () => {
    const start = T10 + 15 * MIN;
    const now = start + 5 * MIN;
    // 120 kW for the 10 minutes left = 20 kWh; 10 + 20 = 30 kWh in the window → 120 kW.
    expect(projectDemand(10, 120, now, start)).toBe(120);
    // Target 110, margin 5 → pre-alarm line 105 kW: (120 − 105) / 4 = 3.75 kWh over 1/6 h = 22.5 kW.
    expect(guardDischargeKw(120, 105, now, start)).toBe(22.5);
    // Exporting counts as no import; below the line nothing is asked.
    expect(projectDemand(10, -50, now, start)).toBe(40);
    expect(guardDischargeKw(100, 105, now, start)).toBe(0);
  });

  it('follows the tracker: energy so far within the window from its start boundary', () => {
    const tracker = new WindowTracker(TZ);
    tracker.feed(T10 + 15 * MIN, [2000]);
    tracker.feed(T10 + 20 * MIN, [2010]);
    expect(tracker.energySoFar()).toBe(10);
    expect(projectDemand(tracker.energySoFar()!, 120, T10 + 20 * MIN, tracker.winStart)).toBe(120);
  });
});
