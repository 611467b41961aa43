import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../platform/config.ts';
import { distDir } from '../platform/dist.ts';
import type { Logger } from '../platform/logging.ts';
import type { DeviceBroker } from '../platform/context.ts';

/** The port of the demo hook's target (hooks.demo.ts: DEMO_HOOK_CATCHER_URL), where the simulator hosts its receiver. */
export const DEMO_HOOK_CATCHER_PORT = 8628;
/** The port of the demo's IoT application (iot.demo.ts: DEMO_IOT_PLATFORM_URL), where the simulator plays a ThingsBoard platform. */
export const DEMO_IOT_PLATFORM_PORT = 8629;

export interface SimulatorProcess {
  stop(): Promise<void>;
}

/**
 * Whether `npm start` plays the demo stations: SIMULATOR=on always, off never, auto (default)
 * when the demo is seeded and the broker is the embedded one, so a production deployment with
 * its own broker never gets simulated data.
 */
export function wantsSimulator(config: Config, broker: DeviceBroker): boolean {
  if (config.simulator === 'on') return broker.url !== '';
  return config.simulator === 'auto' && config.seedDemo && broker.embedded !== null;
}

/**
 * Runs apps/simulator's CLI as a child process against the server's broker, with its state
 * file in the data directory (registers keep counting across restarts), hosting the demo hook's
 * receiver (SIM_HOOK_CATCHER) and the demo's IoT platform (SIM_IOT_PLATFORM; the server itself hosts no peer). It stops with the server.
 */
export function startSimulatorProcess(config: Config, broker: DeviceBroker, log: Logger): SimulatorProcess {
  // The build bundles the simulator's CLI as dist/simulator.mjs; from the sources it runs under tsx.
  const args = distDir ? [join(distDir, 'simulator.mjs')] : ['--import', 'tsx', fileURLToPath(new URL('./main.ts', import.meta.resolve('@ess/simulator')))];
  const child: ChildProcess = spawn(process.execPath, args, {
    env: {
      ...process.env, MQTT_URL: broker.url, SIM_STATE_FILE: process.env.SIM_STATE_FILE ?? join(config.dataDir, 'simulator-state.json'),
      // The demo hook's receiver (its target, 127.0.0.1:8628) lives with the demo stations: the demo
      // hook is delivered, not failing into an open circuit, without a second terminal.
      SIM_HOOK_CATCHER: process.env.SIM_HOOK_CATCHER ?? String(DEMO_HOOK_CATCHER_PORT),
      // The demo's IoT application (decision 0055): station BE01's devices report through a
      // ThingsBoard-compatible platform the simulator plays on 127.0.0.1:8629.
      SIM_IOT_PLATFORM: process.env.SIM_IOT_PLATFORM ?? String(DEMO_IOT_PLATFORM_PORT),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let exited = false;
  const done = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = true;
      if (code !== 0 && signal !== 'SIGTERM') log.warn({ code, signal }, 'station simulator exited');
      resolve();
    });
  });
  log.info({ broker: broker.url, pid: child.pid }, 'station simulator started');
  return {
    stop: async () => {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await done;
      clearTimeout(timer);
    },
  };
}
