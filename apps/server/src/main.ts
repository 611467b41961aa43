import { join } from 'node:path';
import { demoFleet } from '@ess/simulator';
import { startApp } from './app.ts';
import { refreshAll } from './modules/revenue/revenue.jobs.ts';
import { demoHistoryWanted, seedDemoHistory } from './modules/telemetry/demo-history.ts';
import { loadConfig } from './platform/config.ts';
import { startSimulatorProcess, wantsSimulator } from './modules/telemetry/simulator-process.ts';

const config = loadConfig();
const running = await startApp(config);
const { log } = running.ctx;
if (running.adminPassword) {
  // Printed once, at first start; it is stored only as an argon2id hash.
  process.stdout.write(
    `\n  First start: the built-in administrator is "admin" with password ${running.adminPassword}\n  (set ADMIN_PASSWORD before the first start to choose it; change it under Personal center).\n\n`,
  );
}
log.info({ url: running.url, db: running.ctx.database.kind, roles: [...config.roles] }, 'console server started');
process.stdout.write(`  Console: http://localhost:${new URL(running.url).port}/\n`);
// The demo stations, played over MQTT against this server's broker (SIMULATOR=auto|on|off).
const playDemo = wantsSimulator(config, running.ctx.telemetry);
if (playDemo && config.demoHistoryDays > 0) {
  // First start: the demo's past (the simulator's physics into the rollups) and the revenue it earned.
  const fleet = demoFleet();
  const stateFile = process.env.SIM_STATE_FILE ?? join(config.dataDir, 'simulator-state.json');
  if (await demoHistoryWanted(running.ctx, fleet, stateFile)) {
    process.stdout.write(`  Writing ${config.demoHistoryDays} days of demo history…\n`);
    await seedDemoHistory(running.ctx, fleet, config.demoHistoryDays, stateFile);
    await refreshAll(running.ctx);
  }
}
const simulator = playDemo ? startSimulatorProcess(config, running.ctx.telemetry, log) : null;

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    (simulator?.stop() ?? Promise.resolve()).then(() => running.close()).then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
