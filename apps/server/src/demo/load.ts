import type { Logger } from '../platform/logging.ts';

export type Demo = typeof import('./index.ts');

let loaded: Promise<Demo | null> | null = null;

/**
 * Loads the demo (and with it the station simulator, a development dependency) on first use;
 * null, with a warning, where the simulator is not installed (a production install).
 */
export function loadDemo(log: Logger): Promise<Demo | null> {
  loaded ??= import('./index.ts').catch((err: unknown) => {
    log.warn({ err }, 'demo stations unavailable: the station simulator (@ess/simulator) is not installed');
    return null;
  });
  return loaded;
}
