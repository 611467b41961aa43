import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoFleet } from './fleet.ts';
import { loadState, saveState } from './persist.ts';
import { createState } from './state.ts';
import { step } from './step.ts';

const dir = await mkdtemp(join(tmpdir(), 'ess-sim-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('state file', () => {
  it('a restarted simulator continues: same registers, caught up to now', async () => {
    const fleet = demoFleet(21);
    const t0 = Date.UTC(2025, 5, 10);
    const s = step(createState(fleet, t0), 6 * 3_600_000, t0 + 6 * 3_600_000);
    const file = join(dir, 'state.json');
    await saveState(file, s);

    const same = await loadState(file, fleet, s.timeMs);
    expect(same?.stations.map((x) => x.dyn)).toEqual(s.stations.map((x) => x.dyn));

    const later = await loadState(file, fleet, s.timeMs + 3_600_000);
    expect(later?.timeMs).toBe(s.timeMs + 3_600_000);
    expect(later?.stations.map((x) => x.dyn)).toEqual(step(s, 3_600_000, s.timeMs + 3_600_000).stations.map((x) => x.dyn));
  });

  it('ignores a file of another fleet, a missing file and a state from the future', async () => {
    const fleet = demoFleet(22);
    const t0 = Date.UTC(2025, 5, 10);
    const file = join(dir, 'other.json');
    await saveState(file, createState(fleet, t0));
    expect(await loadState(file, demoFleet(23), t0)).toBeNull();
    expect(await loadState(file, { seed: 22, stations: fleet.stations.slice(0, 2) }, t0)).toBeNull();
    expect(await loadState(file, fleet, t0 - 1)).toBeNull();
    expect(await loadState(join(dir, 'missing.json'), fleet, t0)).toBeNull();
    expect(await loadState(file, fleet, t0)).not.toBeNull();
  });

  it('a state saved without random faults resumes with the rate the simulator is started with (SIM_FAULT_RATE)', async () => {
    const fleet = demoFleet(24);
    const t0 = Date.UTC(2025, 5, 10);
    const file = join(dir, 'rate.json');
    await saveState(file, createState(fleet, t0, { randomFaultsPerDevicePerDay: 0 }));
    expect((await loadState(file, fleet, t0))?.options.randomFaultsPerDevicePerDay).toBe(0);
    const resumed = await loadState(file, fleet, t0 + 2 * 86_400_000, { randomFaultsPerDevicePerDay: 3 });
    expect(resumed?.options.randomFaultsPerDevicePerDay).toBe(3);
    // The catch-up to now already played them.
    expect(resumed?.stations.some((s) => s.dyn.incidents.length > 0)).toBe(true);
  });

  it('a file saved before the BMS’s SOC estimate was played resumes calibrated, and the same state saved with it', async () => {
    const fleet = demoFleet(25);
    const t0 = Date.UTC(2025, 5, 10);
    const s = step(createState(fleet, t0, { randomFaultsPerDevicePerDay: 0.1 }), 12 * 3_600_000, t0 + 12 * 3_600_000);
    expect(s.stations.some((x) => x.dyn.socError !== 0)).toBe(true);
    const file = join(dir, 'soc.json');
    await saveState(file, s);
    expect((await loadState(file, fleet, s.timeMs))?.stations.map((x) => x.dyn)).toEqual(s.stations.map((x) => x.dyn));
    const saved = JSON.parse(await readFile(file, 'utf8')) as { stations: { dyn: Record<string, unknown> }[] };
    for (const st of saved.stations) {
      delete st.dyn.socError;
      delete st.dyn.socCalibrations;
    }
    await writeFile(file, JSON.stringify(saved));
    const old = await loadState(file, fleet, s.timeMs);
    expect(old?.stations.map((x) => [x.dyn.socError, x.dyn.socCalibrations])).toEqual(s.stations.map(() => [0, 0]));
  });
});
