import { describe, expect, it } from 'vitest';
import { demoFleet } from './fleet.ts';
import { DEFAULT_FAULT_RATE } from './incidents.ts';
import { deviceValues } from './readings.ts';
import { SOC_HIGH_KNEE, SOC_LOW_KNEE, estimatedSoc, socDriftRate, trackSocEstimate } from './soc.ts';
import type { SimState } from './state.ts';
import { capacityOf, createState, devicesOf, socOf } from './state.ts';
import { commissionedState, step } from './step.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** The demo's two weeks: commissioned 11 November 2026 09:00 UTC, up to 25 November. */
const START = Date.UTC(2026, 10, 11, 9, 0);
const STEP = 5 * MIN;

/** The default dictionary's SOC rules (alarm.seed.ts): raise below 4 / above 98, clear above 5 / below 95. */
const LOW = { raise: 4, clear: 5 };
const HIGH = { raise: 98, clear: 95 };

interface Episode {
  station: string;
  kind: 'low' | 'high';
  start: number;
  end: number | null;
  /** The BMS's SOC when it was raised, and the power it allowed then (kW) the other way. */
  soc: number;
  allowed: number;
}

/**
 * SOC-limit episodes as the alarm rules see them: the BMS's SOC every 5 minutes, as it reports it
 * (one decimal; the reading itself is checked where an episode starts, the cell matrix being slow).
 */
function episodesOf(s0: SimState, from: number, to: number, each?: (s: SimState) => void): { episodes: Episode[]; state: SimState } {
  let s = s0;
  const episodes: Episode[] = [];
  const open = new Map<string, Episode>();
  for (let t = from + STEP; t <= to; t += STEP) {
    s = step(s, STEP, t);
    each?.(s);
    for (const st of s.stations) {
      const soc = Math.round(estimatedSoc(st.def, st.dyn) * 10) / 10;
      const o = open.get(st.def.code);
      if (o) {
        if ((o.kind === 'low' && soc > LOW.clear) || (o.kind === 'high' && soc < HIGH.clear)) {
          o.end = t;
          open.delete(st.def.code);
        }
      } else if (soc < LOW.raise || soc > HIGH.raise) {
        const kind = soc < LOW.raise ? 'low' : 'high';
        const v = deviceValues(s, devicesOf(st.def, 'bms')[0]!.code);
        expect(v.soc).toBe(soc);
        const e: Episode = { station: st.def.code, kind, start: t, end: null, soc, allowed: (kind === 'low' ? v.allowedDischargePower : v.allowedChargePower) as number };
        episodes.push(e);
        open.set(st.def.code, e);
      }
    }
  }
  return { episodes, state: s };
}

describe('the BMS’s SOC estimate', () => {
  const fleet = demoFleet(1);

  it('drifts with the SOC moved and is calibrated where the real pack crosses a knee of the LFP curve', () => {
    const s = createState(fleet, START, { randomFaultsPerDevicePerDay: DEFAULT_FAULT_RATE });
    const { def, dyn } = s.stations[0]!;
    const cap = capacityOf(def, dyn);
    const rate = socDriftRate(1, def.code, 0);
    expect(Math.abs(rate)).toBeGreaterThanOrEqual(0.002);
    expect(Math.abs(rate)).toBeLessThan(0.008);
    // 40 points of SOC moved either way: the error grows by the rate times 40, whatever the direction.
    dyn.energy = cap * 0.9;
    expect(trackSocEstimate(def, dyn, 1, 50, true)).toBe(null);
    dyn.energy = cap * 0.5;
    expect(trackSocEstimate(def, dyn, 1, 90, true)).toBe(null);
    expect(dyn.socError).toBeCloseTo(80 * rate, 10);
    expect(estimatedSoc(def, dyn)).toBeCloseTo(50 + 80 * rate, 10);
    // Without drift (an ideal BMS, rate 0) nothing changes.
    dyn.energy = cap * 0.6;
    expect(trackSocEstimate(def, dyn, 1, 50, false)).toBe(null);
    expect(dyn.socError).toBeCloseTo(80 * rate, 10);
    // Down through the bottom knee: the estimate is the truth again, with the next calibration's rate.
    dyn.socError = 2.5;
    dyn.energy = (cap * (SOC_LOW_KNEE - 0.4)) / 100;
    expect(trackSocEstimate(def, dyn, 1, SOC_LOW_KNEE + 0.4, true)).toBe('low');
    expect(dyn.socError).toBe(0);
    expect(dyn.socCalibrations).toBe(1);
    expect(estimatedSoc(def, dyn)).toBeCloseTo(SOC_LOW_KNEE - 0.4, 10);
    // Up through the top knee: recalibrated at full charge.
    dyn.socError = -4.5;
    dyn.energy = (cap * (SOC_HIGH_KNEE + 0.2)) / 100;
    expect(trackSocEstimate(def, dyn, 1, SOC_HIGH_KNEE - 0.6, true)).toBe('high');
    expect(dyn.socError).toBe(0);
    expect(dyn.socCalibrations).toBe(2);
    // Moving away from a knee does not calibrate.
    dyn.energy = (cap * (SOC_HIGH_KNEE - 1)) / 100;
    expect(trackSocEstimate(def, dyn, 1, SOC_HIGH_KNEE + 0.2, true)).toBe(null);
    expect(dyn.socCalibrations).toBe(2);
  });

  it('two weeks of the demo hold a handful of SOC-limit episodes per station, low and high, each ending; the same for the same seed', () => {
    const s0 = commissionedState(fleet, START, { randomFaultsPerDevicePerDay: DEFAULT_FAULT_RATE });
    let minTrue = 100;
    let maxTrue = 0;
    let maxError = 0;
    const { episodes, state } = episodesOf(s0, START, START + 14 * DAY, (s) => {
      for (const st of s.stations) {
        const soc = socOf(st.def, st.dyn);
        minTrue = Math.min(minTrue, soc);
        maxTrue = Math.max(maxTrue, soc);
        maxError = Math.max(maxError, Math.abs(st.dyn.socError));
      }
    });
    const figures = Object.fromEntries(
      fleet.stations.map((d) => [
        d.code,
        { low: episodes.filter((e) => e.station === d.code && e.kind === 'low').length, high: episodes.filter((e) => e.station === d.code && e.kind === 'high').length },
      ]),
    );
    // Counted once for seed 1 (deterministic).
    expect(figures).toEqual({
      SH01: { low: 0, high: 4 },
      BE01: { low: 3, high: 1 },
      LA01: { low: 1, high: 1 },
    });
    // Every episode is a calibration at a knee: as many as the BMSes counted.
    expect(state.stations.reduce((a, st) => a + st.dyn.socCalibrations, 0)).toBe(episodes.length);
    for (const e of episodes) {
      const label = `${e.station} ${e.kind} ${new Date(e.start).toISOString()}`;
      // The BMS reports where the real pack is (just past the knee), and the PCS is derated the other way.
      if (e.kind === 'low') {
        expect(e.soc, label).toBeLessThanOrEqual(SOC_LOW_KNEE);
        expect(e.soc, label).toBeGreaterThan(SOC_LOW_KNEE - 1);
      } else {
        expect(e.soc, label).toBeGreaterThanOrEqual(SOC_HIGH_KNEE);
        expect(e.soc, label).toBeLessThan(SOC_HIGH_KNEE + 1);
      }
      expect(e.allowed, label).toBe(0);
      // Ended by the next charge (low) or discharge (high), within a day.
      expect(e.end, label).not.toBe(null);
      expect(e.end! - e.start, label).toBeLessThan(DAY);
    }
    // Not every day: spread over the two weeks.
    expect(new Set(episodes.map((e) => Math.floor((e.start - START) / DAY))).size).toBeGreaterThanOrEqual(7);
    // The real pack stays inside 0–100 %, reaching the knees but not beyond a minute's travel.
    expect(minTrue).toBeGreaterThan(SOC_LOW_KNEE - 1);
    expect(maxTrue).toBeLessThan(SOC_HIGH_KNEE + 1);
    expect(maxError).toBeLessThan(6);
    // The same seed plays the same episodes.
    const starts = (list: Episode[]) => list.map((e) => `${e.station} ${e.kind} ${e.start}`);
    expect(starts(episodesOf(s0, START, START + 4 * DAY).episodes)).toEqual(starts(episodes.filter((e) => e.start <= START + 4 * DAY)));
  });

  it('an ideal BMS (operating life off) never drifts: the SOC stays inside the limits', () => {
    const s0 = commissionedState(fleet, START, { randomFaultsPerDevicePerDay: 0 });
    const { episodes, state } = episodesOf(s0, START, START + 4 * DAY);
    expect(episodes).toEqual([]);
    for (const st of state.stations) {
      expect(st.dyn.socError).toBe(0);
      expect(st.dyn.socCalibrations).toBe(0);
    }
  });

  it('does not depend on the step size through an episode', () => {
    // BE01's first low episode of the two weeks (13 November, 08:10 UTC), from four hours before.
    const from = Date.UTC(2026, 10, 13, 4, 0);
    let s0 = commissionedState(fleet, START, { randomFaultsPerDevicePerDay: DEFAULT_FAULT_RATE });
    s0 = step(s0, from - START, from);
    let fine = s0;
    for (let t = from; t < from + 8 * HOUR; t += MIN) fine = step(fine, MIN, t + MIN);
    const oneGo = step(s0, 8 * HOUR, from + 8 * HOUR);
    expect(oneGo.stations.map((s) => s.dyn)).toEqual(fine.stations.map((s) => s.dyn));
    const be = fine.stations.find((s) => s.def.code === 'BE01')!;
    expect(be.dyn.socCalibrations).toBeGreaterThan(s0.stations.find((s) => s.def.code === 'BE01')!.dyn.socCalibrations);
  });
});
