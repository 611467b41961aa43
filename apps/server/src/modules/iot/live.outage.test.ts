import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IotSyncDetail } from '@ess/contract/iot';
import { iotDevice, iotProduct, iotProperty } from '../../db/schema/iot.ts';
import { startThingsBoardPeer, type PlatformPeer } from '../../../test/iot-peers.ts';
import { DB_TARGETS, Teardown, type TestApp } from '../../../test/harness.ts';
import { appOnCuttablePostgres, type CuttablePostgres } from '../../../test/outage-fixtures.ts';
import { newDevice, newSite, okData, seededCompanies } from '../../../test/factory.ts';
import { sleep, until, type TcpProxy } from '../../../test/ingest-fixtures.ts';
import { ingestOf } from '../telemetry/index.ts';
import { liveOf } from './live/live.service.ts';

/**
 * An IoT platform's live stream through a database cut (decision 0051): PostgreSQL behind a TCP
 * proxy that is cut (the application sees its database restart) while the ThingsBoard peer keeps
 * pushing telemetry, a key no relation maps and the device's connectivity, and then drops its
 * socket (the subscriber must sign in again, which reads the application from the database). Once
 * the database is back: every pushed report stored once, the unmapped key counted every time, the
 * device's state the platform's last word, the stream running again, no unhandled rejection.
 *
 * PostgreSQL only: the cut is a TCP one; PGlite runs inside the server's process.
 */
const DURING = 12;

describe.skipIf(!DB_TARGETS.includes('postgres'))('an IoT live stream through a database cut', () => {
  let t: TestApp;
  let tb: PlatformPeer;
  let proxy: TcpProxy;
  let dev: { id: number; code: string; productId: number };
  let q: CuttablePostgres['q'];
  const cleanup = new Teardown();
  let rejections: unknown[] = [];

  beforeAll(async () => {
    ({ t, proxy, q, rejections } = await appOnCuttablePostgres(cleanup, { INGEST_BATCH_MS: '50', LATEST_FLUSH_MS: '100' }));
    const { east } = await seededCompanies(t);
    dev = await newDevice(t, (await newSite(t, east.id)).id, { type: 'pcs' });
    await ingestOf(t.ctx)!.registry.load();
    tb = await startThingsBoardPeer({
      username: 'tenant@example.com', password: 'Tb-Outage-Secret-1',
      products: [{ id: 'prof-pcs', name: 'PCS', properties: [{ id: 'power_w' }, { id: 'cabinet_humidity' }], events: [] }],
      devices: [{ id: 'tb-1', name: dev.code, productId: 'prof-pcs', online: true }],
    });
    cleanup.add('the ThingsBoard peer', () => tb.close());
    const { id: configId } = await okData(t.api.post<{ id: number }>('/iot/config/add', t.adminToken, {
      companyId: east.id, requireApproval: true, name: 'TB outage', platform: 'thingsboard', baseUrl: tb.url, username: tb.world.username, password: tb.world.password,
    }));
    const plan = await okData(t.api.get<IotSyncDetail>('/iot/sync/full', t.adminToken, { configId }));
    await okData(t.api.post('/iot/sync/approve', t.adminToken, { id: plan.id }));
    const [p] = await t.ctx.db.select().from(iotProduct).where(eq(iotProduct.configId, configId));
    const [power] = await t.ctx.db.select().from(iotProperty).where(and(eq(iotProperty.iotProductId, p!.id), eq(iotProperty.identifier, 'power_w')));
    await okData(t.api.post('/iot/relate/property/add', t.adminToken, {
      iotProductId: p!.id, iotDeviceId: null, productId: dev.productId, iotPropertyId: power!.id, identifier: 'activePower', scale: 0.001, offset: 0, valueMap: [], active: true,
    }));
    await until('the ThingsBoard subscription', () => tb.live.subscribed() > 0);
  }, 120_000);
  afterAll(() => cleanup.run(), 60_000);

  const stored = async () => (await q<{ n: number }>('select count(*)::int n from telemetry where device_id = $1', [dev.id]))[0]!.n;
  const unmappedCount = async () => (await q<{ count: number }>(`select count from iot_unmapped where key = 'cabinet_humidity'`))[0]?.count ?? 0;
  const state = async () => (await t.ctx.db.select({ s: iotDevice.state }).from(iotDevice).where(eq(iotDevice.externalId, 'tb-1')))[0]!.s;

  it('stores every pushed report once, counts every unmapped key, keeps the last connectivity, and signs in again', async () => {
    const t0 = Date.now() - 60_000;
    tb.live.push('tb-1', { power_w: 1000, cabinet_humidity: 40 }, t0);
    await until('the first report stored', async () => (await stored()) === 1);

    // The database goes while the platform pushes reports, a key no relation maps and the device going offline.
    await proxy.cut();
    for (let i = 1; i <= DURING; i++) {
      tb.live.push('tb-1', { power_w: 1000 + i * 1000, cabinet_humidity: 40 + i }, t0 + i * 1000);
      await sleep(100);
    }
    tb.live.connectivity('tb-1', false);
    // The unmapped keys' flush meets the cut (its timer would too, every 5 s).
    await liveOf(t.ctx)!.flushUnmapped();
    await sleep(2000);
    await proxy.restore();
    await until('every report stored', async () => (await stored()) === 1 + DURING, 60_000);
    await until('the device offline, as the platform said last', async () => (await state()) === 'offline', 30_000);
    await liveOf(t.ctx)!.flushUnmapped();
    expect(await unmappedCount()).toBe(1 + DURING);

    // The database goes again and the platform drops the socket: signing in again reads the
    // application from the database, so the subscriber keeps trying until it is back.
    await proxy.cut();
    tb.live.drop();
    await sleep(3000);
    await proxy.restore();
    await until('the stream subscribed again', () => tb.live.subscribed() > 0, 60_000);
    tb.live.connectivity('tb-1', true);
    tb.live.push('tb-1', { power_w: 99_000 }, t0 + 30_000);
    await until('the report after the cut', async () => (await stored()) === 2 + DURING, 30_000);
    await until('the device online', async () => (await state()) === 'online', 30_000);
    await until('the latest values flushed', async () => {
      const [l] = await q<{ ts: Date }>('select ts from device_latest where device_id = $1', [dev.id]);
      return l?.ts.getTime() === t0 + 30_000;
    });
    expect(rejections.map(String)).toEqual([]);
  }, 180_000);
});
