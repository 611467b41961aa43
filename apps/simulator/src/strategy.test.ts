import { strategyHash, type EmsStrategy, type StrategyWindowInput } from '@ess/contract';
import { describe, expect, it } from 'vitest';
import { applyCommand } from './commands.ts';
import { demoFleet } from './fleet.ts';
import { deviceValues } from './readings.ts';
import { createState, type SimState } from './state.ts';
import { step } from './step.ts';

const MIN = 60_000;
/** Tuesday 10 June 2025 00:00 UTC (08:00 in Asia/Shanghai). */
const JUNE = Date.UTC(2025, 5, 10);

const every = { priority: 1, months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], weekdays: [1, 2, 3, 4, 5, 6, 7] };
function strategyOf(timeZone: string, windows: StrategyWindowInput[], more: Partial<EmsStrategy> = {}): EmsStrategy {
  return {
    timeZone, socMin: 10, socMax: 95, transformerProtectionKw: null, antiBackflow: false, demandTargetKw: null, pcsRatedKw: 200,
    schedules: [{ name: 'all', ...every, windows: windows.map((w) => ({ targetSoc: null, ...w })) }],
    ...more,
  };
}

function command(state: SimState, deviceCode: string, command: string, params: unknown) {
  const station = state.stations.find((s) => deviceCode.startsWith(`${s.def.code}-`))!;
  const device = station.def.devices.find((d) => d.code === deviceCode)!;
  return applyCommand(state, station, device, { requestId: 'r', ts: state.timeMs, command, params } as Parameters<typeof applyCommand>[3]);
}

const advance = (state: SimState, ms: number) => {
  let s = state;
  for (let t = s.timeMs; t < state.timeMs + ms; t += MIN) s = step(s, MIN, t + MIN);
  return s;
};

describe('the EMS follows the synchronised strategy', () => {
  it('discharges and charges at the window set-points instead of its TOU behaviour, and reports the hash', () => {
    const fleet = demoFleet(1);
    let s = createState(fleet, JUNE);
    const st = s.stations[0]!;
    const ems = `${st.def.code}-EMS-01`;
    // 08:00–12:00 local: discharge 60 kW; the rest idle; 14:00–16:00 charge 80 kW.
    const strategy = strategyOf(st.def.timeZone, [
      { start: '00:00', end: '08:00', mode: 'idle', powerKw: 0 },
      { start: '08:00', end: '12:00', mode: 'discharge', powerKw: 60 },
      { start: '12:00', end: '14:00', mode: 'idle', powerKw: 0 },
      { start: '14:00', end: '16:00', mode: 'charge', powerKw: 80 },
      { start: '16:00', end: '24:00', mode: 'idle', powerKw: 0 },
    ]);
    const hash = strategyHash(strategy);
    expect(deviceValues(s, ems).strategyHash).toBe('');
    expect(command(s, ems, 'applyStrategy', { strategy, hash })).toEqual({ ok: true, result: { hash } });
    s = advance(s, 10 * MIN);
    let v = deviceValues(s, ems);
    expect(v.strategyHash).toBe(hash);
    expect(v.activePower as number).toBeCloseTo(60, 0);
    expect(v.socLowerLimit).toBe(10);
    expect(v.socUpperLimit).toBe(95);
    s = advance(s, 4 * 60 * MIN); // 12:10 local: idle
    expect(Math.abs(deviceValues(s, ems).activePower as number)).toBeLessThan(0.5);
    s = advance(s, 2 * 60 * MIN); // 14:10 local: charge 80 kW
    v = deviceValues(s, ems);
    expect(v.activePower as number).toBeCloseTo(-80, 0);
  });

  it('stops a discharge window at its target SOC and keeps the SOC lower limit', () => {
    const fleet = demoFleet(1);
    let s = createState(fleet, JUNE);
    const st = s.stations[0]!;
    const ems = `${st.def.code}-EMS-01`;
    const soc0 = deviceValues(s, ems).soc as number;
    const target = Math.max(15, soc0 - 5);
    const strategy = strategyOf(st.def.timeZone, [{ start: '00:00', end: '24:00', mode: 'discharge', powerKw: 150, targetSoc: target }]);
    command(s, ems, 'applyStrategy', { strategy, hash: strategyHash(strategy) });
    s = advance(s, 6 * 60 * MIN);
    const v = deviceValues(s, ems);
    expect(Math.abs(v.activePower as number)).toBeLessThan(0.5);
    expect(v.soc as number).toBeGreaterThanOrEqual(target - 1.5);
  });

  it('a setProperty of a limit changes the strategy it runs, so its hash', () => {
    const s = createState(demoFleet(1), JUNE);
    const st = s.stations[0]!;
    const ems = `${st.def.code}-EMS-01`;
    const strategy = strategyOf(st.def.timeZone, [{ start: '00:00', end: '24:00', mode: 'idle', powerKw: 0 }]);
    const hash = strategyHash(strategy);
    command(s, ems, 'applyStrategy', { strategy, hash });
    expect(command(s, ems, 'setProperty', { values: { socLowerLimit: 20 } }).ok).toBe(true);
    expect(deviceValues(s, ems).strategyHash).toBe(strategyHash({ ...strategy, socMin: 20 }));
    expect(deviceValues(s, ems).strategyHash).not.toBe(hash);
  });

  it('obeys a demand guard: discharges at least the granted power until it ends', () => {
    const fleet = demoFleet(1);
    let s = createState(fleet, JUNE);
    const st = s.stations[0]!;
    const ems = `${st.def.code}-EMS-01`;
    const strategy = strategyOf(st.def.timeZone, [{ start: '00:00', end: '24:00', mode: 'idle', powerKw: 0 }]);
    command(s, ems, 'applyStrategy', { strategy, hash: strategyHash(strategy) });
    s = advance(s, 5 * MIN);
    expect(Math.abs(deviceValues(s, ems).activePower as number)).toBeLessThan(0.5);
    const reply = command(s, ems, 'demandGuard', { dischargeKw: 500, until: s.timeMs + 30 * MIN });
    // A 500 kW request on a 200 kW PCS: 200 granted.
    expect(reply).toEqual({ ok: true, result: { dischargeKw: st.def.storage.installedPower } });
    s = advance(s, 10 * MIN);
    expect(deviceValues(s, ems).activePower as number).toBeGreaterThan(st.def.storage.installedPower - 5);
    s = advance(s, 25 * MIN);
    expect(Math.abs(deviceValues(s, ems).activePower as number)).toBeLessThan(0.5);
    expect(command(s, ems, 'demandGuard', { dischargeKw: -1, until: 1 }).ok).toBe(false);
  });
});

describe('the EMS holds the import to the demand target less its margin (decision 0040)', () => {
  /** 00:00 local in Shanghai: the factory's night load (about 90 kW). */
  const NIGHT = JUNE + 16 * 60 * MIN;
  const chargeAll = (timeZone: string, more: Partial<EmsStrategy> = {}) =>
    strategyOf(timeZone, [{ start: '00:00', end: '24:00', mode: 'charge', powerKw: 200 }], { socMin: 5, socMax: 100, ...more });

  it('charges only up to the line: target 250 kW, margin 10 kW → import 240 kW, the charge the rest', () => {
    let s = createState(demoFleet(1), NIGHT);
    const st = s.stations[0]!;
    const ems = `${st.def.code}-EMS-01`;
    const strategy = chargeAll(st.def.timeZone, { demandTargetKw: 250, demandMarginKw: 10 });
    expect(command(s, ems, 'applyStrategy', { strategy, hash: strategyHash(strategy) }).ok).toBe(true);
    expect(deviceValues(s, ems).demandLimit).toBe(250);
    s = advance(s, 5 * MIN);
    const f = s.stations[0]!.dyn.flows;
    // The last minute: load (with the cabinets' air conditioning) well under the line; the schedule's 200 kW cut to 240 − load.
    expect(f.load).toBeGreaterThan(60);
    expect(f.load).toBeLessThan(140);
    expect(f.grid).toBeCloseTo(240, 6);
    expect(f.pcs).toBeCloseTo(-(240 - f.load), 6);
    expect(-f.pcs).toBeLessThan(200);
  });

  it('without a target charges the schedule\'s full 200 kW on top of the load', () => {
    let s = createState(demoFleet(1), NIGHT);
    const st = s.stations[0]!;
    const strategy = chargeAll(st.def.timeZone);
    command(s, `${st.def.code}-EMS-01`, 'applyStrategy', { strategy, hash: strategyHash(strategy) });
    s = advance(s, 5 * MIN);
    const f = s.stations[0]!.dyn.flows;
    expect(f.pcs).toBeCloseTo(-200, 6);
    expect(f.grid).toBeCloseTo(f.load + 200, 6);
  });

  it('discharges when the load alone is above the line (the target below the night load)', () => {
    let s = createState(demoFleet(1), NIGHT);
    const st = s.stations[0]!;
    const strategy = chargeAll(st.def.timeZone, { demandTargetKw: 60, demandMarginKw: 10 });
    command(s, `${st.def.code}-EMS-01`, 'applyStrategy', { strategy, hash: strategyHash(strategy) });
    s = advance(s, 5 * MIN);
    const f = s.stations[0]!.dyn.flows;
    expect(f.grid).toBeCloseTo(50, 6);
    expect(f.pcs).toBeCloseTo(f.load - 50, 6);
  });
});
