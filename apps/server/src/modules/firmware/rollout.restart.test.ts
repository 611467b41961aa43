import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FirmwareRolloutDetail, FirmwarePreviewResult } from '@ess/contract/firmware';
import { createState, demoFleet, manualClock, runSimulator, type ManualClock, type SimulatorHandle } from '@ess/simulator';
import { dbTargets, freshPostgres, startTestApp, type TestApp } from '../../../test/harness.ts';
import { freePort } from '../../../test/ingest-fixtures.ts';
import type { RawConfig } from '../../platform/config.ts';
import { okData, until } from '../../../test/factory.ts';
import { firmwareTask } from '../../db/schema/firmware.ts';
import { ingestOf } from '../telemetry/index.ts';
import { commandTap, fastSettings, storedPackage } from './firmware.fixtures.ts';

const FLEET = demoFleet();
const DEVICES = FLEET.stations.reduce((a, s) => a + s.devices.length, 0);

/**
 * Restart safety (issue 22): the engine's instance stops mid-rollout, while a flash is in flight,
 * and starts again. The devices keep running (a server restart does not restart the devices): the
 * rollout goes on to the end, and no device gets otaFlash twice — the broker's own record of every
 * command published says so.
 *
 * - PostgreSQL: the API and the ingest (the embedded broker) run on one instance without the jobs
 *   role; the engine's instance (api,jobs) is replaced by another on the same database.
 * - PGlite: one process owns the embedded database, so the whole server (API, ingest with its
 *   embedded broker, engine) stops and starts again on the same data directory, port and broker
 *   port; the devices reconnect to it as they would in the field.
 */
describe.each(dbTargets(import.meta.url))('a firmware rollout across an engine restart on %s', (target) => {
  let db: { url: string; drop: () => Promise<void> } | null = null;
  let t: TestApp;
  let engine: TestApp | null = null;
  let sim: SimulatorHandle;
  let clock: ManualClock;
  /** PGlite: the whole server's fixed address, data directory and broker port (kept across its restart). */
  let fixed: Partial<RawConfig> = {};
  const appEnv = { SEED_DEMO: 'true' as const, DEVICE_OFFLINE_TIMEOUT_MS: '600000', INGEST_BATCH_MS: '50', LATEST_FLUSH_MS: '100' };
  // Instances share the data directory (the package files), as they do in production.
  const engineEnv = () => ({ ROLES: 'api,jobs', MQTT_URL: t.ctx.mqtt.url, SEED_DEMO: 'false' as const, DEVICE_OFFLINE_TIMEOUT_MS: '600000', DATA_DIR: t.ctx.config.dataDir });
  const startEngineInstance = async () => {
    if (target === 'postgres') engine = await startTestApp('postgres', engineEnv(), { databaseUrl: db!.url });
  };
  /** Stops the engine's instance mid-rollout and starts it again. */
  const restart = async () => {
    if (target === 'postgres') {
      await engine!.stop();
      await startEngineInstance();
      return;
    }
    await t.stop();
    t = await startTestApp('pglite', { ...appEnv, ...fixed }, { persistent: true });
  };

  beforeAll(async () => {
    if (target === 'postgres') {
      db = await freshPostgres();
      // The API and the ingest (the embedded broker) without the jobs role: the engine runs elsewhere.
      t = await startTestApp('postgres', { ROLES: 'api,ingest', ...appEnv }, { databaseUrl: db.url });
    } else {
      fixed = { DATA_DIR: mkdtempSync(join(tmpdir(), 'ess-fw-restart-')), PORT: String(await freePort()), MQTT_PORT: String(await freePort()) };
      t = await startTestApp('pglite', { ...appEnv, ...fixed }, { persistent: true });
    }
    await fastSettings(t.ctx);
    const start = Date.now() - 30 * 60_000;
    clock = manualClock(start);
    sim = await runSimulator({ mqttUrl: t.ctx.mqtt.url, fleet: FLEET, intervalMs: 0, clock, state: createState(FLEET, start), flashMs: 2500, rebootMs: 300 });
    for (let i = 0; i < 2; i++) {
      const before = ingestOf(t.ctx)!.counters.storedReports;
      clock.advance(60_000);
      await sim.tick();
      await until('reports', () => ingestOf(t.ctx)!.counters.storedReports >= before + DEVICES - 10);
      await ingestOf(t.ctx)!.flush();
    }
  }, 120_000);
  afterAll(async () => {
    await sim?.stop();
    await engine?.stop();
    await t?.stop();
    await db?.drop();
  });

  it('continues after the restart and flashes no device twice', async () => {
    const tap = await commandTap(t.ctx.mqtt.url);
    await startEngineInstance();
    const pkg = await storedPackage(t.ctx, { siteCode: 'SH01', deviceType: 'airConditioner', name: 'hvac', version: '5.2.0' });
    const grouping = { canarySize: 1, groupSize: null, groupPercent: 50 };
    const preview = await okData(t.api.post<FirmwarePreviewResult>('/firmware/rollout/preview', t.adminToken, { target: { packageId: pkg.id }, grouping }));
    const { id: rid } = await okData(t.api.post<{ id: number }>('/firmware/rollout/add', t.adminToken, { name: '重启', target: { packageId: pkg.id }, grouping, safeGate: false }));
    await okData(t.api.post('/firmware/rollout/start', t.adminToken, { id: rid }));

    // A flash of the second group is in flight: the engine's instance goes away.
    let last = '';
    await until('a flash of group 2 in flight', async () => {
      const r = await okData(t.api.post<FirmwareRolloutDetail>('/firmware/rollout/query/one', t.adminToken, { id: rid }));
      last = JSON.stringify({ s: r.state, g: r.groups.map((g) => [g.state, g.counts.total, g.counts.success]), p: r.pauseReason, flashes: tap.count('otaFlash'), dl: tap.count('otaDownload') });
      return r.groups[1]!.state !== 'waiting' && tap.count('otaFlash') > r.groups[0]!.counts.total && r.state === 'running';
    }, 60_000, 50).catch((err: unknown) => {
      throw new Error(`${(err as Error).message} ${last}`);
    });
    const inFlight = tap.count('otaFlash');
    await restart();

    await until('the rollout to finish', async () => (await okData(t.api.post<FirmwareRolloutDetail>('/firmware/rollout/query/one', t.adminToken, { id: rid }))).state === 'finished', 90_000, 200).catch(async (err: unknown) => {
      const rows = await t.ctx.db.select().from(firmwareTask).where(eq(firmwareTask.rolloutId, rid));
      throw new Error(`${(err as Error).message} ${JSON.stringify(rows.map((r) => [r.id, r.state, r.flashedAt, r.reason, r.deadlineAt, r.waitReason]))} ${JSON.stringify(tap.seen.map((x) => [x.command, x.params.taskId]))}`);
    });
    const done = await okData(t.api.post<FirmwareRolloutDetail>('/firmware/rollout/query/one', t.adminToken, { id: rid }));
    expect(done.counts.success).toBe(preview.targeted);
    const rows = await t.ctx.db.select({ id: firmwareTask.id }).from(firmwareTask).where(eq(firmwareTask.rolloutId, rid));
    expect(rows.length).toBe(preview.targeted);
    for (const r of rows) expect(tap.count('otaFlash', r.id), `otaFlash of task ${r.id}`).toBe(1);
    expect(inFlight).toBeLessThan(preview.targeted);
    await tap.close();
  }, 180_000);
});
