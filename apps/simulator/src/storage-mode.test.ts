import { localTime, periodAt, type CommandPayload } from '@ess/contract';
import { describe, expect, it } from 'vitest';
import { applyCommand } from './commands.ts';
import { demoFleet } from './fleet.ts';
import { deviceValues } from './readings.ts';
import type { SimState, StationState } from './state.ts';
import { capacityOf, createState, findStation } from './state.ts';
import { step } from './step.ts';
import { expireManualMode } from './storage-mode.ts';

const MIN = 60_000;
/** Tuesday 10 June 2025 00:00 UTC. */
const JUNE = Date.UTC(2025, 5, 10);

/** SH01 (PCS 200 kW) at `startMs`, half full, with anti-backflow off so a set-point is not capped by the site load. */
function sh01(startMs: number): SimState {
  const s = createState(demoFleet(), startMs, { randomFaultsPerDevicePerDay: 0 });
  const st = s.stations[0]!;
  st.dyn.energy = capacityOf(st.def, st.dyn) * 0.5;
  st.dyn.socError = 0;
  st.dyn.controls.antiBackflow = false;
  return s;
}

function send(s: SimState, code: string, params: Extract<CommandPayload, { command: 'storageMode' }>['params']) {
  const found = findStation(s, code)!;
  return applyCommand(s, found.station, found.device, { requestId: 'r', ts: s.timeMs, command: 'storageMode', params });
}

function advance(s: SimState, minutes: number): SimState {
  let out = s;
  for (let i = 0; i < minutes; i++) out = step(out, MIN, out.timeMs + MIN);
  return out;
}

const station = (s: SimState): StationState => s.stations[0]!;

describe('storage mode (storageMode command)', () => {
  it('holds a manual discharge of 100 kW for its duration, then returns to auto by itself and reports it', () => {
    let s = sh01(JUNE + 3 * 60 * MIN);
    const reply = send(s, 'SH01-PCS-01', { mode: 'manual', powerKw: 100, durationMin: 15 });
    // Until = command time + 15 min = 15 × 60 000 ms.
    expect(reply).toEqual({ ok: true, result: { mode: 'manual', powerKw: 100, durationMin: 15, until: s.timeMs + 900_000 } });
    s = advance(s, 5);
    expect(station(s).dyn.flows.pcs).toBeCloseTo(100, 6);
    expect(deviceValues(s, 'SH01-PCS-01').activePower).toBeCloseTo(100, 1);
    expect(deviceValues(s, 'SH01-EMS-01')).toMatchObject({ runMode: 1, manualPowerSetpoint: 100, manualEndTime: JUNE + 3 * 60 * MIN + 900_000, strategyState: 2 });
    s = advance(s, 9);
    expect(station(s).dyn.controls.runMode).toBe(1);
    s = advance(s, 1);
    // 15 minutes after the command: auto again, and the EMS says so.
    expect(deviceValues(s, 'SH01-EMS-01')).toMatchObject({ runMode: 0, manualEndTime: 0 });
  });

  it('charges on a negative set-point and refuses one beyond the rating, changing nothing', () => {
    let s = sh01(JUNE + 3 * 60 * MIN);
    expect(send(s, 'SH01-EMS-01', { mode: 'manual', powerKw: -80, durationMin: 30 }).ok).toBe(true);
    s = advance(s, 3);
    expect(station(s).dyn.flows.pcs).toBeCloseTo(-80, 6);
    const before = JSON.stringify(station(s).dyn.controls);
    const refused = send(s, 'SH01-PCS-01', { mode: 'manual', powerKw: 200.5, durationMin: 10 });
    expect(refused).toEqual({ ok: false, error: 'powerKw 200.5 exceeds the rated power ±200 kW' });
    expect(send(s, 'SH01-PCS-01', { mode: 'manual', powerKw: -201, durationMin: 10 }).ok).toBe(false);
    expect(send(s, 'SH01-PCS-01', { mode: 'manual', durationMin: 10 })).toEqual({ ok: false, error: 'manual mode needs powerKw' });
    expect(send(s, 'SH01-PCS-01', { mode: 'standby', powerKw: 10 }).ok).toBe(false);
    expect(JSON.stringify(station(s).dyn.controls)).toBe(before);
    // At the rating exactly: accepted.
    expect(send(s, 'SH01-PCS-01', { mode: 'manual', powerKw: -200, durationMin: 10 }).ok).toBe(true);
  });

  it('holds the battery at 0 kW in standby, even in a valley the strategy charges in, until auto', () => {
    // The first hour of the day (local) that the schedule calls valley.
    const def = demoFleet().stations[0]!;
    let t = JUNE;
    while (!['valley', 'deepValley'].includes(periodAt(def.touSchedule, localTime(t, def.timeZone).minuteOfDay))) t += 15 * MIN;
    let s = advance(sh01(t), 3);
    // The strategy charges here: the reference.
    expect(station(s).dyn.flows.pcs).toBeLessThan(-50);
    expect(send(s, 'SH01-EMS-01', { mode: 'standby' })).toEqual({ ok: true, result: { mode: 'standby', powerKw: 0, durationMin: null, until: null } });
    s = advance(s, 3);
    expect(station(s).dyn.flows.pcs).toBe(0);
    expect(station(s).dyn.flows.battery).toBe(0);
    expect(deviceValues(s, 'SH01-EMS-01')).toMatchObject({ runMode: 2, strategyState: 0, manualEndTime: 0 });
    expect(deviceValues(s, 'SH01-PCS-01').activePower).toBe(0);
    // Standby has no end of its own: an hour later still standby.
    s = advance(s, 60);
    expect(station(s).dyn.controls.runMode).toBe(2);
    expect(send(s, 'SH01-EMS-01', { mode: 'auto' }).ok).toBe(true);
    s = advance(s, 3);
    expect(station(s).dyn.controls.runMode).toBe(0);
    expect(station(s).dyn.flows.pcs).toBeLessThan(-50);
  });

  it('is refused by devices that do not drive the storage', () => {
    const s = sh01(JUNE);
    expect(send(s, 'SH01-BMS-01', { mode: 'auto' })).toEqual({ ok: false, error: 'command storageMode is not supported by bms' });
  });

  it('ends a timed manual period only once its end has come, and never an untimed one', () => {
    const c = { runMode: 1, manualUntil: 1000 } as Parameters<typeof expireManualMode>[0];
    expect(expireManualMode(c, 999)).toBe(false);
    expect(expireManualMode(c, 1000)).toBe(true);
    expect(c).toMatchObject({ runMode: 0, manualUntil: 0 });
    const untimed = { runMode: 1, manualUntil: 0 } as Parameters<typeof expireManualMode>[0];
    expect(expireManualMode(untimed, 1e15)).toBe(false);
    expect(untimed.runMode).toBe(1);
  });
});
