import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock, runSimulator, type Fleet } from '@ess/simulator';
import { startApp, type RunningApp } from '../../app.ts';
import { registerFleet } from '../../demo/demo-seed.ts';
import { loadConfig } from '../../platform/config.ts';
import { createLogger } from '../../platform/logging.ts';
import { ADMIN_PASSWORD, DB_TARGETS, type DbTarget, dbTargets, freshPostgres } from '../../../test/harness.ts';
import { isolatedFleet } from '../../../test/ingest-fixtures.ts';
import { ingestOf } from './index.ts';

const MOSQUITTO_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

async function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = netConnect({ host: u.hostname, port: Number(u.port || 1883) });
    s.setTimeout(1500);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

const mosquitto = await reachable(MOSQUITTO_URL);
const hasPostgres = DB_TARGETS.includes('postgres');

interface Boot {
  target: DbTarget;
  dataDir: string;
  databaseUrl?: string;
  clientId: string;
  group: string;
}

function boot(b: Boot): Promise<RunningApp> {
  const config = loadConfig(
    {},
    {
      PORT: '0', HOST: '127.0.0.1', DATA_DIR: b.dataDir, ADMIN_PASSWORD, CAPTCHA_ENABLED: 'false', LOG_LEVEL: 'silent', SEED_DEMO: 'false',
      WEB_DIST: '/nonexistent', MQTT_URL: MOSQUITTO_URL, MQTT_CLIENT_ID: b.clientId, MQTT_SHARE_GROUP: b.group, INGEST_BATCH_MS: '50',
      LATEST_FLUSH_MS: '200', ROLLUP_FLUSH_MS: '200',
      ...(b.databaseUrl ? { DATABASE_URL: b.databaseUrl } : {}),
    },
  );
  return startApp(config, { logger: createLogger('silent') });
}

const until = async (what: string, cond: () => Promise<boolean>, timeoutMs = 20_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** Every stored (device, seq) of the fleet, and how often each was stored. */
async function storedSeqs(app: RunningApp, siteCode: string) {
  const { rows } = await app.ctx.database.sql.query<{ code: string; seq: number; n: number }>(
    `select d.code, t.seq, count(*)::int as n from telemetry t join device d on d.id = t.device_id join site s on s.id = d.site_id
     where s.code = $1 group by d.code, t.seq order by d.code, t.seq`,
    [siteCode],
  );
  return rows;
}

/** Ends the broker's persistent sessions and retained statuses the test left behind. */
async function cleanBroker(clientIds: string[], fleet: Fleet) {
  for (const clientId of clientIds) {
    const c = await connectAsync(MOSQUITTO_URL, { clientId, clean: true });
    await c.endAsync();
  }
  const c = await connectAsync(MOSQUITTO_URL, { clientId: `cleanup-${randomBytes(4).toString('hex')}` });
  for (const s of fleet.stations) for (const d of s.devices) await c.publishAsync(`ess/${s.code}/${d.code}/status`, '', { qos: 1, retain: true });
  await c.endAsync();
}

describe.skipIf(!mosquitto).each(dbTargets(import.meta.url))('QoS 1 persistence through a server restart on %s (Mosquitto)', (target) => {
  const tag = `Q${randomBytes(3).toString('hex')}`;
  const fleet = isolatedFleet(tag);
  const clientId = `ess-test-${tag}`;
  let drop: (() => Promise<void>) | null = null;
  afterAll(async () => {
    await cleanBroker([clientId], fleet);
    await drop?.();
  });

  it('loses no report published while the ingest was down', async () => {
    const pg = target === 'postgres' ? await freshPostgres() : null;
    drop = pg?.drop ?? null;
    const b: Boot = { target, dataDir: mkdtempSync(join(tmpdir(), 'ess-qos-')), databaseUrl: pg?.url, clientId, group: `g${tag}` };
    let app = await boot(b);
    await registerFleet(app.ctx.db, fleet);
    await ingestOf(app.ctx)!.registry.load();
    const devices = fleet.stations[0]!.devices.length;
    const clock = manualClock(Date.now());
    const sim = await runSimulator({ mqttUrl: MOSQUITTO_URL, fleet, intervalMs: 0, clock });
    try {
      const tick = async () => {
        clock.advance(5000);
        await sim.tick();
      };
      await tick();
      await tick();
      await until('two reports stored', async () => (await storedSeqs(app, tag)).length === 2 * devices);
      await app.close();
      // Published while no ingest is connected: the broker keeps them for the persistent session.
      for (let i = 0; i < 3; i++) await tick();
      app = await boot(b);
      for (let i = 0; i < 2; i++) await tick();
      await until('seven reports stored', async () => (await storedSeqs(app, tag)).length === 7 * devices);
      const rows = await storedSeqs(app, tag);
      expect(rows.every((r) => r.n === 1)).toBe(true);
      const perDevice = new Map<string, number[]>();
      for (const r of rows) perDevice.set(r.code, [...(perDevice.get(r.code) ?? []), r.seq]);
      expect(perDevice.size).toBe(devices);
      for (const seqs of perDevice.values()) expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7]);
    } finally {
      await sim.stop();
      await app.close();
    }
    // Two server starts and a stop: 15–30 s on a quiet machine, past a minute on a loaded one.
  }, 180_000);
});

describe.skipIf(!mosquitto || !hasPostgres)('two ingest instances on Mosquitto and PostgreSQL', () => {
  const tag = `S${randomBytes(3).toString('hex')}`;
  const fleet = isolatedFleet(tag);
  const clientIds = [`ess-test-${tag}-a`, `ess-test-${tag}-b`];
  let drop: (() => Promise<void>) | null = null;
  afterAll(async () => {
    await cleanBroker(clientIds, fleet);
    await drop?.();
  });

  it('split the stream through the shared subscription with no report lost or stored twice', async () => {
    const pg = await freshPostgres();
    drop = pg.drop;
    const common = { target: 'postgres' as const, databaseUrl: pg.url, group: `g${tag}` };
    const a = await boot({ ...common, dataDir: mkdtempSync(join(tmpdir(), 'ess-a-')), clientId: clientIds[0]! });
    const b = await boot({ ...common, dataDir: mkdtempSync(join(tmpdir(), 'ess-b-')), clientId: clientIds[1]! });
    await registerFleet(a.ctx.db, fleet);
    await ingestOf(a.ctx)!.registry.load();
    await ingestOf(b.ctx)!.registry.load();
    const devices = fleet.stations[0]!.devices.length;
    const clock = manualClock(Date.now());
    const sim = await runSimulator({ mqttUrl: MOSQUITTO_URL, fleet, intervalMs: 0, clock });
    const reports = 6;
    try {
      for (let i = 0; i < reports; i++) {
        clock.advance(5000);
        await sim.tick();
      }
      await until('every report stored', async () => (await storedSeqs(a, tag)).length === reports * devices);
      const rows = await storedSeqs(a, tag);
      expect(rows.every((r) => r.n === 1)).toBe(true);
      const ia = ingestOf(a.ctx)!.counters;
      const ib = ingestOf(b.ctx)!.counters;
      expect(ia.storedReports).toBeGreaterThan(0);
      expect(ib.storedReports).toBeGreaterThan(0);
      expect(ia.storedReports + ib.storedReports).toBe(reports * devices);

      // Rollups merged from both instances count every report once.
      await ingestOf(a.ctx)!.flush();
      await ingestOf(b.ctx)!.flush();
      const { rows: counts } = await a.ctx.database.sql.query<{ code: string; n: number }>(
        `select d.code, sum(r.cnt[1])::int as n from telemetry_1h r join device d on d.id = r.device_id join site s on s.id = d.site_id
         where s.code = $1 group by d.code`,
        [tag],
      );
      expect(counts).toHaveLength(devices);
      expect(new Set(counts.map((c) => c.n))).toEqual(new Set([reports]));
    } finally {
      await sim.stop();
      await a.close();
      await b.close();
    }
  });
});
