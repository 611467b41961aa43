import { join } from 'node:path';
import { demoDemandTarget, demoFleet } from '@ess/simulator';
import type { RunningApp } from '../app.ts';
import { pause } from '../platform/db/outage.ts';
import { defineModule } from '../platform/module.ts';
import { refreshRevenue } from '../modules/dashboard/index.ts';
import { seedMaintenanceDemo } from '../modules/maintenance/index.ts';
import { seedStatementDemo } from '../modules/statement/index.ts';
import { seedDemandDemo, seedDemandTargets } from '../modules/demand/index.ts';
import { seedStrategyDemo } from '../modules/strategy/index.ts';
import { playFirmwareDemo } from '../modules/firmware/index.ts';
import { startIotDemo } from '../modules/iot/index.ts';
import { sweepReadings } from '../modules/meter/index.ts';
import { demoHistoryDefaultDays, demoHistoryWanted, seedDemoHistory } from './demo-history.ts';
import { seedDemoOnce } from './demo-seed.ts';
import { startSimulatorProcess, wantsSimulator, type SimulatorProcess } from './simulator-process.ts';

/**
 * The demo world of `npm start` (SEED_DEMO): the simulator's stations registered at the first
 * start. The only part of the server that imports the station simulator; app.ts loads it only
 * when the demo is wanted.
 */
export const demoModule = defineModule({
  name: 'demo',
  seeds: [({ db }) => seedDemoOnce(db).then(() => undefined)],
});

/**
 * Plays the demo stations (SIMULATOR=auto|on|off) over MQTT against the server's broker; at the
 * first start, first writes the demo's past (the simulator's physics into the rollups) and the
 * revenue it earned. Returns the simulator process, or null when the demo is not played.
 */
export async function playDemo(running: RunningApp): Promise<SimulatorProcess | null> {
  const { config, log, mqtt } = running.ctx;
  const fleet = demoFleet();
  // First the demand targets (from the stations' load profiles), then the strategies that carry
  // them to the EMS (decision 0040): the history below runs under both. Once each.
  await seedDemandTargets(running.ctx, fleet.stations.map((st) => ({ code: st.code, ...demoDemandTarget(st) })));
  await seedStrategyDemo(running.ctx, fleet.stations);
  if (!wantsSimulator(config, mqtt)) {
    await seedMaintenanceDemo(running.ctx);
    await seedStatementDemo(running.ctx);
    await seedDemandDemo(running.ctx);
    return null;
  }
  // By default from the first day of the previous month: a whole past month to read and settle.
  const days = config.demoHistoryDays ?? demoHistoryDefaultDays(fleet);
  if (days > 0) {
    const stateFile = process.env.SIM_STATE_FILE ?? join(config.dataDir, 'simulator-state.json');
    if (await demoHistoryWanted(running.ctx, fleet, stateFile)) {
      process.stdout.write(`  Writing ${Math.ceil(days)} days of demo history…\n`);
      await seedDemoHistory(running.ctx, fleet, days, stateFile);
      await refreshRevenue(running.ctx);
      // The meters' readings of the history (zero, month-end and the whole past months' periods), before anything settles on them.
      await sweepReadings(running.ctx);
    }
  }
  // After the history: the repair orders refer to its alarms. Once (it skips when plans exist).
  await seedMaintenanceDemo(running.ctx);
  // After the history and its readings: statements of the last ended months, in every state. Once.
  await seedStatementDemo(running.ctx);
  // After the history's demand windows: their few pre-alarms (the days the storage ran short).
  await seedDemandDemo(running.ctx);
  const simStarted = new Date();
  const sim = startSimulatorProcess(config, mqtt, log);
  // The IoT demo's first sync and relations, once the simulator's platform answers (BE01's devices report through it). Once.
  startIotDemo(running.ctx);
  // The firmware rollouts and log capture run live against the simulated devices. Once. Only when
  // every station's devices report again: an upgrade command sent before the simulated device
  // listens is lost, and the rollout pauses on a device that "did not answer within 30 s".
  void stationsReporting(running, fleet.stations.map((st) => st.code), simStarted)
    .then(() => playFirmwareDemo(running.ctx))
    .catch((err: unknown) => log.warn({ err }, 'firmware demo not started'));
  return sim;
}

/** Resolves once a device of each station has been heard since `since` (at most a minute). */
async function stationsReporting(running: RunningApp, codes: string[], since: Date): Promise<void> {
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    const { rows } = await running.ctx.database.sql.query<{ n: number }>(
      `select count(distinct s.code)::int as n from device_latest l join device d on d.id = l.device_id join site s on s.id = d.site_id
        where s.code = any($1) and l.last_seen_at >= $2`,
      [codes, since.toISOString()],
    );
    if ((rows[0]?.n ?? 0) >= codes.length) return;
    await pause(1000);
  }
}
