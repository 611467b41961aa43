import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Fleet } from './fleet.ts';
import type { SimOptions, SimState, StationDynamics } from './state.ts';
import { step } from './step.ts';

/**
 * The simulator's state on disk, so that a restarted simulator continues where it stopped:
 * registers and counters keep counting instead of starting again from a baseline.
 */

interface Saved {
  version: 1;
  seed: number;
  timeMs: number;
  options: SimOptions;
  stations: { code: string; devices: string[]; dyn: StationDynamics }[];
}

const MAX_CATCH_UP_MS = 31 * 24 * 3_600_000;

export async function saveState(file: string, state: SimState): Promise<void> {
  const saved: Saved = {
    version: 1,
    seed: state.seed,
    timeMs: state.timeMs,
    options: state.options,
    stations: state.stations.map((s) => ({ code: s.def.code, devices: s.def.devices.map((d) => d.code), dyn: s.dyn })),
  };
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  await writeFile(tmp, JSON.stringify(saved));
  await rename(tmp, file);
}

/**
 * The saved state if it belongs to this fleet (same seed, stations and devices) and is not older
 * than a month, stepped forward to `nowMs`; otherwise null. `options` given replace the saved
 * ones (the fault rate is the running simulator's setting, not the saver's), for the catch-up too.
 */
export async function loadState(file: string, fleet: Fleet, nowMs: number, options?: Partial<SimOptions>): Promise<SimState | null> {
  let saved: Saved;
  try {
    saved = JSON.parse(await readFile(file, 'utf8')) as Saved;
  } catch {
    return null;
  }
  if (saved.version !== 1 || saved.seed !== fleet.seed || saved.stations.length !== fleet.stations.length) return null;
  if (nowMs - saved.timeMs > MAX_CATCH_UP_MS || saved.timeMs > nowMs) return null;
  const stations = [];
  for (const [i, def] of fleet.stations.entries()) {
    const s = saved.stations[i];
    const same = s?.code === def.code && s.devices.length === def.devices.length && s.devices.every((c, j) => c === def.devices[j]?.code);
    if (!s || !same) return null;
    // A file saved before the operating life was played: no incidents yet.
    s.dyn.incidents ??= [];
    s.dyn.offline ??= {};
    s.dyn.incidentSlot ??= Math.floor(saved.timeMs / 3_600_000);
    // A file saved before the BMS's SOC estimate was played: calibrated.
    s.dyn.socError ??= 0;
    s.dyn.socCalibrations ??= 0;
    // Stopped in the middle of a reboot or a firmware flash: a restarted simulator has booted.
    s.dyn.controls.rebooting = {};
    stations.push({ def, dyn: s.dyn });
  }
  const state: SimState = { seed: saved.seed, timeMs: saved.timeMs, options: { ...saved.options, ...options }, stations };
  return nowMs > state.timeMs ? step(state, nowMs - state.timeMs, nowMs) : state;
}
