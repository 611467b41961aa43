import { acceleratedClock, systemClock } from './clock.ts';
import { startEmbeddedBroker } from './broker.ts';
import type { EmbeddedBroker } from './broker.ts';
import { createFleet } from './fleet.ts';
import { DEFAULT_FAULT_RATE } from './incidents.ts';
import { parseOtaFaults } from './ota.ts';
import { loadState, saveState } from './persist.ts';
import { runSimulator, type SimulatorHandle } from './agent.ts';
import { DEMO_PLATFORM_STATION, startThingsBoardPlatform, type ThingsBoardPlatform } from './thingsboard.ts';
// The demo hook's receiver (a demo peer, never the product's): hosted here when asked.
import { startHookCatcher, type HookCatcher } from '../../../scripts/hook-catcher.mjs';

/**
 * CLI: plays the demo (or a scaled) fleet against an MQTT broker. Environment:
 *   MQTT_URL          broker (default mqtt://127.0.0.1:1883; the server's embedded broker listens on 18830)
 *   MQTT_USERNAME, MQTT_PASSWORD
 *   SIM_BROKER        "embedded": start an in-process broker on MQTT_URL's port first
 *   SIM_INTERVAL_MS   report interval, wall clock (default 5000)
 *   SIM_STATIONS      3 = the demo; 1–2 its first stations; more = a scaled fleet (default 3)
 *   SIM_SEED          fleet seed (default 1)
 *   SIM_SPEED         simulated seconds per wall second (default 1)
 *   SIM_FAULT_RATE    the stations' operating life: faults per device per day before the type's weight;
 *                     offline devices and cabinet communication losses scale with it (default 0.1; 0 = none)
 *   SIM_STATE_FILE    where state is saved to continue after a restart (default .data/simulator-state.json; "" = none)
 *   SIM_HOOK_CATCHER  a port: also host the demo hook's receiver there on 127.0.0.1 (scripts/hook-catcher.mjs, one
 *                     line a request; GET / lists them). `npm start` sets 8628, the demo hook's target, so its
 *                     alarms arrive without a second terminal. Unset: none. A port taken (`npm run hook-catcher`
 *                     already runs) is left to that one.
 *   SIM_IOT_PLATFORM  a port: also play a ThingsBoard-compatible IoT platform there on 127.0.0.1 (thingsboard.ts;
 *                     decision 0055) for the devices of station BE01, whose telemetry and faults then report through
 *                     it instead of MQTT (tenant@thingsboard.org / tenant). `npm start` sets 8629, where the demo's IoT
 *                     application points. Unset: none, every station on MQTT. A port taken: BE01 stays on MQTT.
 *   SIM_FLASH_MS      wall-clock ms a device flashing firmware stays offline (default 8000)
 *   SIM_OTA_FAULTS    injected firmware/log faults for demos: "SH01-PCS-01=flash,BE01-BMS-01=verify"
 *                     (issue | download | verify | flash | log)
 */

const env = process.env;
const num = (name: string, fallback: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const v = Number(raw);
  if (!Number.isFinite(v)) throw new Error(`${name} must be a number, got ${raw}`);
  return v;
};

const log = (message: string) => console.log(`${new Date().toISOString()} [simulator] ${message}`);

async function main(): Promise<void> {
  const mqttUrl = env.MQTT_URL || 'mqtt://127.0.0.1:1883';
  const intervalMs = num('SIM_INTERVAL_MS', 5000);
  const stations = num('SIM_STATIONS', 3);
  const seed = num('SIM_SEED', 1);
  const speed = num('SIM_SPEED', 1);
  const faultRate = num('SIM_FAULT_RATE', DEFAULT_FAULT_RATE);
  const stateFile = env.SIM_STATE_FILE ?? '.data/simulator-state.json';
  const flashMs = num('SIM_FLASH_MS', 8000);
  const otaFaults = parseOtaFaults(env.SIM_OTA_FAULTS);

  let broker: EmbeddedBroker | null = null;
  if (env.SIM_BROKER === 'embedded') {
    const url = new URL(mqttUrl);
    broker = await startEmbeddedBroker(Number(url.port || 1883), url.hostname);
    log(`embedded broker on ${broker.url}`);
  }

  let catcher: HookCatcher | null = null;
  if (env.SIM_HOOK_CATCHER) {
    const port = num('SIM_HOOK_CATCHER', 8628);
    catcher = await startHookCatcher({ port, quiet: true, log }).catch((err: unknown) => {
      const taken = (err as { code?: string }).code === 'EADDRINUSE';
      log(taken ? `port ${port} is taken (npm run hook-catcher?): the demo hook's receiver is not hosted here` : `the demo hook's receiver did not start: ${(err as Error).message}`);
      return null;
    });
    if (catcher) log(`the demo hook's receiver on ${catcher.url} (GET ${catcher.url}/ lists its requests)`);
  }

  const fleet = createFleet(stations, seed);

  let platform: ThingsBoardPlatform | null = null;
  let handle: SimulatorHandle | null = null;
  const platformStation = fleet.stations.find((s) => s.code === DEMO_PLATFORM_STATION);
  if (env.SIM_IOT_PLATFORM && platformStation) {
    const port = num('SIM_IOT_PLATFORM', 8629);
    platform = await startThingsBoardPlatform({
      port,
      source: { station: platformStation, command: (device, command, params) => (handle ? handle.command(device, command, params) : Promise.resolve(null)) },
    }).catch((err: unknown) => {
      log(`the IoT platform did not start (${(err as { code?: string }).code ?? (err as Error).message}): ${DEMO_PLATFORM_STATION} reports over MQTT`);
      return null;
    });
    if (platform) log(`a ThingsBoard-compatible platform on ${platform.url} for the devices of ${DEMO_PLATFORM_STATION}`);
  }
  const clock = speed === 1 ? systemClock : acceleratedClock(speed);
  const resumed = stateFile && speed === 1 ? await loadState(stateFile, fleet, clock.now(), { randomFaultsPerDevicePerDay: faultRate }) : null;
  if (resumed) log(`resumed from ${stateFile}`);
  const sim = await runSimulator({
    mqttUrl,
    fleet,
    intervalMs,
    clock,
    ...(resumed ? { state: resumed } : {}),
    randomFaultsPerDevicePerDay: faultRate,
    flashMs,
    otaFaults,
    ...(platform ? { platform: { station: DEMO_PLATFORM_STATION, outlet: platform } } : {}),
    mqtt: { ...(env.MQTT_USERNAME ? { username: env.MQTT_USERNAME } : {}), ...(env.MQTT_PASSWORD ? { password: env.MQTT_PASSWORD } : {}) },
    log,
  });
  handle = sim;
  const deviceCount = fleet.stations.reduce((a, s) => a + s.devices.length, 0);
  log(`${fleet.stations.length} stations, ${deviceCount} devices, every ${intervalMs} ms to ${mqttUrl}`);

  const save = async () => {
    if (stateFile && speed === 1) await saveState(stateFile, sim.state);
  };
  const saver = setInterval(() => {
    save().catch((err: unknown) => log(`saving state failed: ${(err as Error).message}`));
  }, 60_000);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    clearInterval(saver);
    save()
      .then(() => sim.stop())
      .then(() => broker?.close())
      .then(() => catcher?.close())
      .then(() => platform?.close())
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        log(`stop failed: ${(err as Error).message}`);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  log(`failed: ${(err as Error).stack ?? String(err)}`);
  process.exit(1);
});
