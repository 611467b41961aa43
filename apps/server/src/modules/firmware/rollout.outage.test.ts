import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FirmwarePreviewResult } from '@ess/contract/firmware';
import { DB_TARGETS, Teardown } from '../../../test/harness.ts';
import { cuttablePostgres, unhandledRejections } from '../../../test/outage-fixtures.ts';
import { okData } from '../../../test/factory.ts';
import { hasMosquittoBinary, startMosquitto, startTcpProxy, type TcpProxy, type TestMosquitto } from '../../../test/ingest-fixtures.ts';
import { firmwareTask } from '../../db/schema/firmware.ts';
import { commandTap, storedPackage } from './firmware.fixtures.ts';
import { rolloutBench, type RolloutBench } from './rollout.test-helpers.ts';

/**
 * A rollout through a database cut and a broker stop (issue 22): PostgreSQL behind a TCP proxy
 * that is cut (the application sees its database restart: connections reset, then refused), and
 * the MQTT broker (a Mosquitto of the test's own, behind its own proxy: the server and every device
 * lose it) stopped mid-rollout. The rollout goes on to the end when they are back: every device on
 * the version, nothing lost (every task success), no device told to flash twice (the broker's own
 * record of the commands, read beside the proxy), no unhandled rejection.
 *
 * PostgreSQL only: the cut is a TCP one, and PGlite runs inside the server's process (it has no
 * connection to lose).
 */
describe.skipIf(!DB_TARGETS.includes('postgres') || !hasMosquittoBinary)('a firmware rollout through a database cut and a broker stop', () => {
  let b: RolloutBench;
  let db: TcpProxy;
  let mq: TcpProxy;
  let mosquitto: TestMosquitto;
  let tap: Awaited<ReturnType<typeof commandTap>>;
  const cleanup = new Teardown();
  let rejections: unknown[] = [];

  beforeAll(async () => {
    rejections = unhandledRejections(cleanup);
    const pg = await cuttablePostgres(cleanup);
    db = pg.proxy;
    mosquitto = await startMosquitto();
    cleanup.add('Mosquitto', () => mosquitto.stop());
    mq = await startTcpProxy('127.0.0.1', Number(new URL(mosquitto.url).port));
    cleanup.add('the broker proxy', () => mq.close());
    const viaProxy = `mqtt://127.0.0.1:${mq.port}`;
    b = await rolloutBench('postgres', {
      flashMs: 1500, env: { MQTT_URL: viaProxy, MQTT_CLIENT_ID: `ess-fw-${randomBytes(3).toString('hex')}` }, shared: { databaseUrl: pg.databaseUrl }, simMqttUrl: viaProxy,
    });
    cleanup.add('the simulator and the server', () => b.stop());
    tap = await commandTap(mosquitto.url);
    cleanup.add('the command tap', () => tap.close());
  }, 180_000);
  // The server's stop waits for the job queue (bounded at 15 s per step).
  afterAll(() => cleanup.run(), 120_000);

  it('continues when the database and the broker are back: every device on the version, none flashed twice, nothing lost', async () => {
    const { t } = b;
    const pkg = await storedPackage(t.ctx, { siteCode: 'SH01', deviceType: 'airConditioner', name: 'hvac', version: '5.3.0' });
    const grouping = { canarySize: 1, groupSize: null, groupPercent: 50 };
    const preview = await okData(t.api.post<FirmwarePreviewResult>('/firmware/rollout/preview', t.adminToken, { target: { packageId: pkg.id }, grouping }));
    const { id: rid } = await okData(t.api.post<{ id: number }>('/firmware/rollout/add', t.adminToken, { name: '断库断网', target: { packageId: pkg.id }, grouping, safeGate: false }));
    await okData(t.api.post('/firmware/rollout/start', t.adminToken, { id: rid }));

    // The database goes while flashes of the second group are in flight.
    await b.waitFor('a flash of group 2 in flight', rid, (r) => r.groups[1]!.state !== 'waiting' && tap.count('otaFlash') > r.groups[0]!.counts.total, 60_000);
    await db.cut();
    await new Promise((r) => setTimeout(r, 4000));
    await db.restore();

    // The broker goes while the third group downloads or flashes.
    await b.waitFor('group 3 started', rid, (r) => r.groups[2]!.state !== 'waiting', 90_000);
    await mq.cut();
    await new Promise((r) => setTimeout(r, 4000));
    await mq.restore();

    const done = await b.waitFor('the rollout to finish', rid, (r) => r.state === 'finished', 150_000);
    expect(done.counts.success).toBe(preview.targeted);
    const rows = await t.ctx.db.select({ id: firmwareTask.id, state: firmwareTask.state }).from(firmwareTask).where(eq(firmwareTask.rolloutId, rid));
    expect(rows.length).toBe(preview.targeted);
    for (const r of rows) expect(tap.count('otaFlash', r.id), `otaFlash of task ${r.id}`).toBe(1);
    for (const d of preview.devices.filter((x) => x.skip === null)) expect(b.sim.firmware(d.code).version, d.code).toBe('5.3.0');
    expect(rejections.map(String)).toEqual([]);
  }, 360_000);
});
