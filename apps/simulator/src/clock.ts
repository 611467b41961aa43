/** Where simulated time comes from. Publishing cadence is wall-clock (intervalMs); physics follows the clock. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Simulated time runs `factor` times faster than the wall clock, from `startMs`. */
export function acceleratedClock(factor: number, startMs = Date.now(), wallNow: () => number = Date.now): Clock {
  const wallStart = wallNow();
  return { now: () => Math.floor(startMs + (wallNow() - wallStart) * factor) };
}

export interface ManualClock extends Clock {
  advance(ms: number): number;
  set(ms: number): void;
}

/** Time moves only when told: for tests that tick by hand. */
export function manualClock(startMs: number): ManualClock {
  let t = startMs;
  return {
    now: () => t,
    advance: (ms) => (t += ms),
    set: (ms) => {
      t = ms;
    },
  };
}
