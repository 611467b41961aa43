import { startApp } from './app.ts';
import { loadDemo } from './demo/load.ts';
import { loadConfig } from './platform/config.ts';

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
const demo = config.seedDemo || config.simulator === 'on' ? await loadDemo(log) : null;
const simulator = demo ? await demo.playDemo(running) : null;

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
