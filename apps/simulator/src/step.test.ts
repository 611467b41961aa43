import { PRICE_PERIODS, meterRegisterIdentifier, parseHhMm, type PricePeriod } from '@ess/contract';
import { describe, expect, it } from 'vitest';
import { demoFleet } from './fleet.ts';
import type { StationDef } from './fleet.ts';
import { deviceValues } from './readings.ts';
import type { SimState, StationState } from './state.ts';
import { createState, socOf } from './state.ts';
import { ETA_BATTERY, ETA_PCS, step } from './step.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Tuesday 10 June 2025 00:00 UTC. */
const JUNE = Date.UTC(2025, 5, 10);

function run(state: SimState, from: number, durationMs: number, dtMs: number, each: (s: SimState, t0: number, t1: number) => void): SimState {
  let s = state;
  for (let t = from; t < from + durationMs; t += dtMs) {
    s = step(s, dtMs, t + dtMs);
    each(s, t, t + dtMs);
  }
  return s;
}

const code = (st: StationState, suffix: string) => `${st.def.code}-${suffix}`;
const num = (v: unknown): number => {
  if (typeof v !== 'number') throw new Error(`expected a number, got ${String(v)}`);
  return v;
};

const hourMinute = new Map<string, Intl.DateTimeFormat>();
function localHourMinute(timeZone: string, epochMs: number): [number, number] {
  let fmt = hourMinute.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    hourMinute.set(timeZone, fmt);
  }
  const parts = fmt.formatToParts(epochMs);
  return [Number(parts.find((p) => p.type === 'hour')?.value), Number(parts.find((p) => p.type === 'minute')?.value)];
}

/** Local period by an independent route: Intl's hour and minute, then the schedule. */
function expectedPeriod(def: StationDef, epochMs: number): PricePeriod {
  const [h, m] = localHourMinute(def.timeZone, epochMs);
  const minute = h * 60 + m;
  const seg = [...def.touSchedule].reverse().find((s) => parseHhMm(s.start) <= minute);
  if (!seg) throw new Error('schedule must start at 00:00');
  return seg.period;
}

describe('energy balance', () => {
  it('main meter = load − PV + storage charge − storage discharge + piles, at every step, with no export', () => {
    const fleet = demoFleet(3);
    let checked = 0;
    let sawExportPressure = 0;
    const errors: string[] = [];
    // From Saturday: the Berlin office's weekend load is below its PV.
    const saturday = JUNE + 4 * DAY;
    run(createState(fleet, saturday), saturday, 3 * DAY, 5 * MIN, (s) => {
      for (const st of s.stations) {
        const f = st.dyn.flows;
        const at = `${st.def.code} ${new Date(s.timeMs).toISOString()}`;
        // Unrounded flows: exact.
        if (Math.abs(f.grid - (f.load - f.pvAc - f.pcs + f.pile)) > 1e-9) errors.push(`${at}: flows unbalanced`);
        if (f.grid < -1e-9) errors.push(`${at}: export ${f.grid}`);
        // Published values (rounded to 0.01 kW): main = load − pv + storage(forward = charge) + pile.
        const main = num(deviceValues(s, code(st, 'MT-MAIN')).activePower);
        const load = num(deviceValues(s, code(st, 'EMS-01')).loadPower);
        const storage = num(deviceValues(s, code(st, 'MT-ESS')).activePower);
        const pv = st.def.devices.some((d) => d.meterPurpose === 'pv') ? num(deviceValues(s, code(st, 'MT-PV')).activePower) : 0;
        const pile = st.def.devices.some((d) => d.meterPurpose === 'pile') ? num(deviceValues(s, code(st, 'MT-PILE')).activePower) : 0;
        if (Math.abs(main - (load - pv + storage + pile)) > 0.03) errors.push(`${at}: main ${main} ≠ ${load} − ${pv} + ${storage} + ${pile}`);
        // The storage meter sees the PCS (+ discharge) with the opposite sign.
        if (Math.abs(storage + f.pcs) > 0.006) errors.push(`${at}: storage meter ${storage} vs PCS ${f.pcs}`);
        if (f.pvAc + f.dcdcOut > f.load + f.pile) sawExportPressure++;
        checked++;
      }
    });
    expect(errors).toEqual([]);
    expect(checked).toBe(3 * 3 * 24 * 12);
    // PV exceeded the site's consumption at some point and was absorbed or curtailed, not exported.
    expect(sawExportPressure).toBeGreaterThan(0);
  });

  it('main meter registers integrate the grid power', () => {
    const fleet = demoFleet(4);
    const s0 = createState(fleet, JUNE);
    let integral = 0;
    const s1 = run(s0, JUNE, DAY, MIN, (s) => {
      integral += (s.stations[2]!.dyn.flows.grid * MIN) / HOUR;
    });
    const sum = (st: StationState) => {
      const m = st.dyn.meters['LA01-MT-MAIN']!;
      return PRICE_PERIODS.reduce((a, p) => a + m.forward[p] - m.reverse[p], 0);
    };
    expect(sum(s1.stations[2]!) - sum(s0.stations[2]!)).toBeCloseTo(integral, 6);
    expect(integral).toBeGreaterThan(100);
  });
});

describe('state of charge', () => {
  it('stays within the depth-of-discharge limits over a simulated week, and uses the range', () => {
    const fleet = demoFleet(5);
    const seen = new Map<string, { min: number; max: number }>();
    run(createState(fleet, JUNE), JUNE, 7 * DAY, 5 * MIN, (s) => {
      for (const st of s.stations) {
        const soc = socOf(st.def, st.dyn);
        const c = st.dyn.controls;
        expect(soc).toBeGreaterThanOrEqual(c.socLowerLimit - 1e-6);
        expect(soc).toBeLessThanOrEqual(c.socUpperLimit + 1e-6);
        const m = seen.get(st.def.code) ?? { min: 100, max: 0 };
        seen.set(st.def.code, { min: Math.min(m.min, soc), max: Math.max(m.max, soc) });
      }
    });
    for (const st of fleet.stations) {
      const dod = st.storage.depthOfDischarge;
      const lower = ((1 - dod) / 2) * 100;
      const m = seen.get(st.code)!;
      // Time-of-use arbitrage cycles the battery close to both limits.
      expect(m.min).toBeLessThan(lower + 3);
      expect(m.max).toBeGreaterThan(100 - lower - 3);
    }
  });

  it('manual discharge stops at the lower limit; round trip efficiency is realistic', () => {
    const fleet = demoFleet(6);
    let s = createState(fleet, JUNE);
    const st = () => s.stations[0]!;
    st().dyn.controls.runMode = 1;
    st().dyn.controls.manualPowerSetpoint = -150;
    s = run(s, JUNE, 6 * HOUR, 5 * MIN, () => undefined);
    expect(socOf(st().def, st().dyn)).toBeCloseTo(st().dyn.controls.socUpperLimit, 0);
    const charged = st().dyn.total.pcsCharge;
    const discharged = st().dyn.total.pcsDischarge;
    const socFull = socOf(st().def, st().dyn);
    st().dyn.controls.manualPowerSetpoint = 150;
    s = run(s, JUNE + 6 * HOUR, 6 * HOUR, 5 * MIN, () => undefined);
    expect(socOf(st().def, st().dyn)).toBeCloseTo(st().dyn.controls.socLowerLimit, 0);
    expect(st().dyn.flows.pcs).toBeCloseTo(0, 6);
    // Full → empty discharges about DoD × capacity × efficiencies.
    const out = st().dyn.total.pcsDischarge - discharged;
    const capacity = st().def.storage.installedEnergy * st().dyn.soh;
    const expected = (capacity * (socFull - st().dyn.controls.socLowerLimit)) / 100 * ETA_BATTERY * ETA_PCS;
    expect(out).toBeCloseTo(expected, 0);
    expect(charged).toBeGreaterThan(0);
  });
});

describe('meter registers and time-of-use periods', () => {
  // 2025-03-30 is the European switch to summer time; 2025-03-09 the American one.
  const windows: [string, number][] = [['June', JUNE], ['DST Europe', Date.UTC(2025, 2, 29, 12)], ['DST America', Date.UTC(2025, 2, 8, 20)]];
  it.each(windows)('registers never decrease and increments land in the local period (%s)', (_name, from) => {
    const fleet = demoFleet(7);
    let prev = createState(fleet, from);
    const touched = new Map<string, Set<PricePeriod>>();
    const errors: string[] = [];
    run(prev, from, 30 * HOUR, MIN, (s, t0) => {
      s.stations.forEach((st, i) => {
        const expected = expectedPeriod(st.def, t0);
        const at = `${st.def.code} ${new Date(t0).toISOString()}`;
        if (st.dyn.flows.period !== expected) errors.push(`${at}: period ${st.dyn.flows.period}, expected ${expected}`);
        for (const [meterCode, m] of Object.entries(st.dyn.meters)) {
          const before = prev.stations[i]!.dyn.meters[meterCode]!;
          for (const dir of ['forward', 'reverse'] as const) {
            for (const p of PRICE_PERIODS) {
              const delta = m[dir][p] - before[dir][p];
              if (delta < 0) errors.push(`${at}: ${meterCode} ${dir} ${p} decreased`);
              if (p !== expected && delta !== 0) errors.push(`${at}: ${meterCode} ${dir} ${p} counted in ${expected}`);
              if (delta > 0) touched.set(st.def.code, (touched.get(st.def.code) ?? new Set()).add(p));
            }
          }
        }
      });
      prev = s;
    });
    expect(errors).toEqual([]);
    // Over 30 h every period of each schedule has counted something.
    for (const st of fleet.stations) {
      expect([...(touched.get(st.code) ?? [])].sort()).toEqual([...new Set(st.touSchedule.map((x) => x.period))].sort());
    }
  });

  it('puts tip energy at the stations’ own evening hours (UTC windows checked by hand)', () => {
    const fleet = demoFleet(8);
    // June: Shanghai UTC+8 tip 19–21 → 11–13 UTC; Berlin UTC+2 tip 18–20 → 16–18 UTC; Los Angeles UTC−7 tip 17–20 → 00–03 UTC.
    const tipUtcHours: Record<string, number[]> = { SH01: [11, 12], BE01: [16, 17], LA01: [0, 1, 2] };
    let prev = createState(fleet, JUNE);
    const tipHours = new Map<string, Set<number>>();
    run(prev, JUNE, DAY, 5 * MIN, (s, t0) => {
      s.stations.forEach((st, i) => {
        let tip = 0;
        for (const [meterCode, m] of Object.entries(st.dyn.meters)) {
          const b = prev.stations[i]!.dyn.meters[meterCode]!;
          tip += m.forward.tip - b.forward.tip + m.reverse.tip - b.reverse.tip;
        }
        if (tip > 0) tipHours.set(st.def.code, (tipHours.get(st.def.code) ?? new Set()).add(new Date(t0).getUTCHours()));
      });
      prev = s;
    });
    for (const [station, hours] of Object.entries(tipUtcHours)) {
      expect([...(tipHours.get(station) ?? [])].sort((a, b) => a - b)).toEqual(hours);
    }
  });
});

describe('photovoltaics', () => {
  it('produce nothing at local night and peak near local solar noon', () => {
    const fleet = demoFleet(9);
    let s = createState(fleet, JUNE);
    for (const st of s.stations) st.dyn.controls.antiBackflow = false; // no curtailment: see the sun
    const byHour = new Map<string, number[]>();
    s = run(s, JUNE, 7 * DAY, 5 * MIN, (x, t0) => {
      for (const st of x.stations) {
        if (!st.def.pv) continue;
        const pv = st.dyn.flows.pvAc + st.dyn.flows.dcdcOut;
        const [hour] = localHourMinute(st.def.timeZone, t0 + 2.5 * MIN);
        if (hour < 3 || hour >= 23) expect(pv).toBe(0);
        const h = byHour.get(st.def.code) ?? new Array<number>(24).fill(0);
        h[hour] = (h[hour] ?? 0) + pv;
        byHour.set(st.def.code, h);
      }
    });
    expect([...byHour.keys()].sort()).toEqual(['BE01', 'LA01']);
    for (const [, hours] of byHour) {
      const peakHour = hours.indexOf(Math.max(...hours));
      // Summer time: solar noon is about 13:00 on the wall clock in Berlin and Los Angeles.
      expect(peakHour).toBeGreaterThanOrEqual(11);
      expect(peakHour).toBeLessThanOrEqual(14);
      expect(hours[1]).toBe(0);
      expect(hours[peakHour]!).toBeGreaterThan(0);
    }
  });
});

describe('determinism', () => {
  const snapshot = (seed: number) => {
    const fleet = demoFleet(seed);
    const s = run(createState(fleet, JUNE), JUNE, DAY, 10 * MIN, () => undefined);
    return fleet.stations.flatMap((st) => st.devices.map((d) => ({ code: d.code, values: deviceValues(s, d.code) })));
  };

  it('same seed gives identical telemetry; a different seed differs', () => {
    const a = snapshot(11);
    expect(snapshot(11)).toEqual(a);
    const b = snapshot(12);
    expect(b.map((x) => x.code)).toEqual(a.map((x) => x.code));
    expect(b).not.toEqual(a);
    const differing = a.filter((x, i) => JSON.stringify(x.values) !== JSON.stringify(b[i]!.values));
    expect(differing.length).toBeGreaterThan(a.length / 2);
  });

  it('does not depend on the step size, and does not change its input', () => {
    const fleet = demoFleet(13);
    const s0 = createState(fleet, JUNE);
    const before = JSON.stringify(s0.stations.map((s) => s.dyn));
    const fine = run(s0, JUNE, 12 * HOUR, MIN, () => undefined);
    const coarse = run(s0, JUNE, 12 * HOUR, 15 * MIN, () => undefined);
    const oneGo = step(s0, 12 * HOUR, JUNE + 12 * HOUR);
    expect(JSON.stringify(s0.stations.map((s) => s.dyn))).toBe(before);
    expect(coarse.stations.map((s) => s.dyn)).toEqual(fine.stations.map((s) => s.dyn));
    expect(oneGo.stations.map((s) => s.dyn)).toEqual(fine.stations.map((s) => s.dyn));
  });
});

describe('batteries, temperatures and transformer protection', () => {
  it('cell voltages stay within 2.8–3.65 V and follow SOC', () => {
    const fleet = demoFleet(14);
    const bySoc: { soc: number; avg: number }[] = [];
    run(createState(fleet, JUNE), JUNE, 2 * DAY, 30 * MIN, (s) => {
      const pack = deviceValues(s, 'SH01-BP-01-05');
      for (let i = 1; i <= 16; i++) {
        const v = num(pack[`cellVoltage${i}`]);
        expect(v).toBeGreaterThanOrEqual(2.8);
        expect(v).toBeLessThanOrEqual(3.65);
      }
      const bms = deviceValues(s, 'SH01-BMS-01');
      if (Math.abs(num(bms.power)) < 1) bySoc.push({ soc: num(bms.soc), avg: num(bms.avgCellVoltage) });
      expect(num(bms.maxCellVoltage)).toBeGreaterThanOrEqual(num(bms.avgCellVoltage));
      expect(String(bms.maxCellVoltagePosition)).toMatch(/^[12]-\d{1,2}-\d{1,2}$/);
    });
    const high = bySoc.filter((x) => x.soc > 80);
    const low = bySoc.filter((x) => x.soc < 20);
    expect(high.length).toBeGreaterThan(0);
    expect(low.length).toBeGreaterThan(0);
    expect(Math.min(...high.map((x) => x.avg))).toBeGreaterThan(Math.max(...low.map((x) => x.avg)));
  });

  it('air conditioning holds the cabinet; switched off under load the cells overheat and raise an alarm', () => {
    const fleet = demoFleet(15);
    let s = createState(fleet, Date.UTC(2025, 6, 15));
    const la = () => s.stations[2]!;
    la().dyn.controls.runMode = 1;
    la().dyn.controls.manualPowerSetpoint = 0;
    const cycle = (on: boolean) => {
      la().dyn.controls.airConditioners['LA01-AC-01']!.on = on;
      let maxCab = -Infinity;
      let alarm = false;
      for (let h = 0; h < 36; h++) {
        // Cycle the battery hard: 2 h charge, 2 h discharge.
        la().dyn.controls.manualPowerSetpoint = Math.floor(h / 2) % 2 === 0 ? -200 : 200;
        const t = s.timeMs;
        s = step(s, HOUR, t + HOUR);
        maxCab = Math.max(maxCab, la().dyn.cabinets['LA01-CAB-01']!.airTemperature);
        alarm ||= (la().dyn.autoFaults['LA01-BMS-01'] ?? []).includes('BMS_CELL_OVER_TEMPERATURE');
      }
      return { maxCab, alarm };
    };
    const withAc = cycle(true);
    expect(withAc.maxCab).toBeLessThan(25 + 2.5);
    expect(withAc.alarm).toBe(false);
    const without = cycle(false);
    expect(without.maxCab).toBeGreaterThan(40);
    expect(without.alarm).toBe(true);
    const pack = deviceValues(s, 'LA01-BP-01-08');
    expect(num(pack.maxCellTemperature)).toBeGreaterThan(num(deviceValues(s, 'LA01-AC-01').cabinetTemperature));
  });

  it('charging never pushes the grid import over the transformer protection power', () => {
    const fleet = demoFleet(16);
    let s = createState(fleet, JUNE);
    const protection = 250;
    for (const st of s.stations) st.dyn.controls.transformerProtectionPower = protection;
    let charging = 0;
    s = run(s, JUNE, 3 * DAY, 5 * MIN, (x) => {
      for (const st of x.stations) {
        const f = st.dyn.flows;
        if (f.pcs < -0.1) {
          charging++;
          expect(f.grid).toBeLessThanOrEqual(protection + 1e-6);
        }
      }
    });
    expect(charging).toBeGreaterThan(50);
  });

  it('anti-backflow: with the battery full, AC-coupled PV is curtailed instead of exported', () => {
    const demo = demoFleet(19);
    const la = demo.stations[2]!;
    const fleet = { seed: 19, stations: [{ ...la, load: { base: 8, peak: 15, profile: la.load.profile } }] };
    // 12:00–15:00 in Los Angeles (PDT) on a June day.
    const noon = Date.UTC(2025, 5, 10, 19);
    const play = (antiBackflow: boolean) => {
      let s = createState(fleet, noon);
      const st = s.stations[0]!;
      st.dyn.controls.antiBackflow = antiBackflow;
      for (const pile of ['LA01-CP-01', 'LA01-CP-02']) st.dyn.controls.off[pile] = true;
      st.dyn.energy = (st.def.storage.installedEnergy * st.dyn.soh * st.dyn.controls.socUpperLimit) / 100;
      let minGrid = Infinity;
      let maxPv = 0;
      s = run(s, noon, 3 * HOUR, 5 * MIN, (x) => {
        minGrid = Math.min(minGrid, x.stations[0]!.dyn.flows.grid);
        maxPv = Math.max(maxPv, x.stations[0]!.dyn.flows.pvAc);
      });
      return { minGrid, maxPv };
    };
    const limited = play(true);
    expect(limited.minGrid).toBeGreaterThanOrEqual(-1e-9);
    const free = play(false);
    expect(free.minGrid).toBeLessThan(-20);
    expect(free.maxPv).toBeGreaterThan(limited.maxPv + 20);
  });

  it('electric vehicles come and go at the charging station', () => {
    const fleet = demoFleet(17);
    const states = new Set<number>();
    let maxSessionEnergy = 0;
    let sessions = 0;
    run(createState(fleet, JUNE), JUNE, DAY, 5 * MIN, (s) => {
      for (const gun of ['LA01-CG-01-1', 'LA01-CG-01-2', 'LA01-CG-02-1', 'LA01-CG-02-2']) {
        const v = deviceValues(s, gun);
        states.add(num(v.state));
        maxSessionEnergy = Math.max(maxSessionEnergy, num(v.sessionEnergy));
        if (num(v.state) === 2) {
          expect(num(v.power)).toBeGreaterThan(0);
          expect(num(v.vehicleSoc)).toBeGreaterThan(0);
        }
      }
      sessions = Math.max(sessions, num(deviceValues(s, 'LA01-CP-01').todaySessions) + num(deviceValues(s, 'LA01-CP-02').todaySessions));
    });
    expect([...states].sort()).toEqual(expect.arrayContaining([0, 2, 3]));
    expect(sessions).toBeGreaterThan(3);
    expect(maxSessionEnergy).toBeGreaterThan(10);
  });
});

describe('meter identifiers', () => {
  it('the total register equals the sum of the period registers', () => {
    const fleet = demoFleet(18);
    const s = run(createState(fleet, JUNE), JUNE, 6 * HOUR, 30 * MIN, () => undefined);
    const v = deviceValues(s, 'SH01-MT-MAIN');
    const sum = PRICE_PERIODS.reduce((a, p) => a + num(v[meterRegisterIdentifier('forward', p)]), 0);
    expect(num(v.forwardActiveEnergy)).toBeCloseTo(sum, 2);
  });
});
