/**
 * An ingest in a process of its own (the crash test kills it with SIGKILL mid-stream): the server
 * with only the ingest role against the PostgreSQL database and the MQTT broker named by argv
 * (database URL, broker URL, client id, shared-subscription group). Prints "ready" once it is
 * subscribed; on SIGTERM it stops gracefully and prints its ingest counters.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp } from '../src/app.ts';
import { ingestOf } from '../src/modules/telemetry/index.ts';
import { loadConfig } from '../src/platform/config.ts';
import { createLogger } from '../src/platform/logging.ts';

const [databaseUrl, mqttUrl, clientId, group] = process.argv.slice(2);
const config = loadConfig(
  {},
  {
    PORT: '0', HOST: '127.0.0.1', DATA_DIR: mkdtempSync(join(tmpdir(), 'ess-ingest-worker-')), ADMIN_PASSWORD: 'Admin12345', CAPTCHA_ENABLED: 'false',
    LOG_LEVEL: 'silent', SEED_DEMO: 'false', WEB_DIST: '/nonexistent', ROLES: 'ingest',
    DATABASE_URL: databaseUrl, MQTT_URL: mqttUrl, MQTT_CLIENT_ID: clientId, MQTT_SHARE_GROUP: group,
  },
);
const app = await startApp(config, { logger: createLogger(config.logLevel) });
process.stdout.write('ready\n');
const ingest = ingestOf(app.ctx)!;
process.once('SIGTERM', () =>
  void app.close().then(() => {
    process.stdout.write(`counters ${JSON.stringify(ingest.counters)}\n`, () => process.exit(0));
  }),
);
