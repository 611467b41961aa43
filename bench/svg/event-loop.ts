import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Watched<T> {
  /** What `fn` resolved to (undefined when it threw). */
  value: T;
  /** What `fn` threw, if it did. */
  error?: unknown;
  /** Longest the event loop was held up while `fn` ran (ms). */
  stallMs: number;
  /** 99th percentile of the loop's delay (ms). */
  p99Ms: number;
  tookMs: number;
}

/**
 * Runs `fn` with the event loop's delay watched (perf_hooks.monitorEventLoopDelay), for bench/svg's
 * figures. Tests do not time the loop (they count its turns, see site/diagram-svg.test.ts).
 */
export async function watchLoop<T>(fn: () => Promise<T>, resolutionMs = 2): Promise<Watched<T>> {
  const h = monitorEventLoopDelay({ resolution: resolutionMs });
  h.enable();
  const start = performance.now();
  let value = undefined as T;
  let error: unknown;
  try {
    value = await fn();
  } catch (err) {
    error = err;
  }
  const tookMs = performance.now() - start;
  // A stall is recorded when the loop's next timer fires after it: let one fire.
  await sleep(15);
  h.disable();
  return { value, error, stallMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6, tookMs };
}
