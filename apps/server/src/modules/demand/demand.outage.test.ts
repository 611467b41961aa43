/**
 * Demand windows through faults (issue 19): the database refusing the sink's write of closed
 * windows (a trigger that raises: one statement of a batch, or all), PostgreSQL going away while
 * the sink writes (its connections go through a TCP proxy that is cut, the shared server is never
 * touched), a write that commits with its answer lost (the connection cut while the statement
 * runs), and the ingest's connection to an external broker dropping in the middle of a window.
 * In each case every closed window is stored once with the meter's energy, none twice (a storage
 * meter's charge and discharge not added again by a retry), and the live window goes on.
 *
 * The meters read every 5 minutes on 2026-05-12 from 10:00 local (Asia/Shanghai, 02:00Z): the main
 * meter imports IMPORT[k] kWh and the storage meter charges CHARGE[k] / discharges DISCHARGE[k] kWh
 * in the k-th 5 minutes, so window w holds steps 3w..3w+2 and its demand is their import × 4.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, dbTargets, freshPostgres, startTestApp, Teardown, type TestApp } from '../../../test/harness.ts';
import { newDevice, newSite, seededCompanies, until } from '../../../test/factory.ts';
import { hasMosquittoBinary, sleep, startMosquitto, startTcpProxy, type TcpProxy, type TestMosquitto } from '../../../test/ingest-fixtures.ts';
import { demandWindow } from '../../db/schema/demand.ts';
import { site } from '../../db/schema/site.ts';
import { deviceRegistryOf, ingestOf, type RegisteredDevice } from '../telemetry/index.ts';
import { demandSinkOf } from './index.ts';

const T0 = Date.parse('2026-05-12T02:00:00Z');
const MIN = 60_000;
const IMPORT = [7, 7, 7, 10, 10, 5, 8, 8, 8, 5, 5, 5, 6, 6, 6, 9, 9, 9, 4, 4, 4];
const CHARGE = [0, 0, 0, 2.5, 2.5, 2.5, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 2, 2, 2];
const DISCHARGE = [0, 0, 0, 0, 0, 0, 8, 8, 8, 0, 0, 0, 0, 0, 0, 3, 3, 3, 0, 0, 0];
const sum = (a: number[], from: number, to: number) => a.slice(from, to).reduce((x, y) => x + y, 0);
/** Window w as the meters counted it: [start, import kWh, demand kW, charge kWh, discharge kWh, estimated]. */
const expected = (w: number) => [
  new Date(T0 + w * 15 * MIN).toISOString(), sum(IMPORT, 3 * w, 3 * w + 3), sum(IMPORT, 3 * w, 3 * w + 3) * 4, sum(CHARGE, 3 * w, 3 * w + 3), sum(DISCHARGE, 3 * w, 3 * w + 3), false,
];
/** The registers after k steps. */
const registers = (k: number) => ({ fwd: 1000 + sum(IMPORT, 0, k), cf: 500 + sum(CHARGE, 0, k), cr: 400 + sum(DISCHARGE, 0, k) });

interface Station {
  siteId: number;
  code: string;
  main: RegisteredDevice;
  storage: RegisteredDevice;
}

async function station(t: TestApp, code: string): Promise<Station> {
  const { east } = await seededCompanies(t);
  const s = await newSite(t, east.id, { code, name: `需量故障${code}` });
  await t.ctx.db.update(site).set({ timeZone: 'Asia/Shanghai' }).where(eq(site.id, s.id));
  const m = await newDevice(t, s.id, { type: 'meter', meterPurpose: 'main', code: `${code}-MTR-01` });
  const st = await newDevice(t, s.id, { type: 'meter', meterPurpose: 'storage', code: `${code}-MTR-02` });
  const registry = deviceRegistryOf(t.ctx);
  await registry.refresh();
  await demandSinkOf(t.ctx)!.reload();
  return { siteId: s.id, code: s.code, main: registry.byId.get(m.id)!, storage: registry.byId.get(st.id)! };
}

/** The stored windows of a station as [start, import, demand, charge, discharge, estimated]. */
async function windowsOf(t: TestApp, siteId: number) {
  const rows = await t.ctx.db.select().from(demandWindow).where(eq(demandWindow.siteId, siteId)).orderBy(asc(demandWindow.ts));
  return rows.map((r) => [r.ts.toISOString(), r.importKwh, r.demandKw, r.chargeKwh, r.dischargeKwh, r.importEstimated || r.storageEstimated]);
}

/** Live reports of both meters for steps from..to (inclusive): the readings at T0 + k × 5 min. */
function feed(t: TestApp, s: Station, from: number, to: number): void {
  const sink = demandSinkOf(t.ctx)!;
  const registry = deviceRegistryOf(t.ctx);
  const values = (dev: RegisteredDevice, v: Record<string, number>) => {
    const layout = registry.products.get(dev.productId)!;
    const a = new Float64Array(layout.identifiers.length).fill(Number.NaN);
    for (const [k, x] of Object.entries(v)) a[layout.indexOf.get(k)!] = x;
    return a;
  };
  for (let k = from; k <= to; k++) {
    const r = registers(k);
    const ts = T0 + k * 5 * MIN;
    sink.report(s.main, ts, values(s.main, { forwardActiveEnergy: r.fwd, activePower: (IMPORT[k] ?? 0) * 12 }));
    sink.report(s.storage, ts, values(s.storage, { forwardActiveEnergy: r.cf, reverseActiveEnergy: r.cr }));
  }
}

/** A trigger that makes PostgreSQL refuse every write of demand_window (or only one station's). */
const refuseWrites = (siteId?: number) => `
  create or replace function ess_test_refuse_demand() returns trigger language plpgsql as $$
  begin
    if ${siteId === undefined ? 'true' : `new.site_id = ${siteId}`} then raise exception 'demand_window refused (test fault)'; end if;
    return new;
  end $$;
  drop trigger if exists ess_test_refuse_demand on demand_window;
  create trigger ess_test_refuse_demand before insert or update on demand_window for each row execute function ess_test_refuse_demand();`;
const acceptWrites = 'drop trigger if exists ess_test_refuse_demand on demand_window';

describe.each(dbTargets(import.meta.url))('demand windows when the database refuses their write (%s)', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('keeps the closed windows while the write fails, writes each once when it works again, and the live window goes on', async () => {
    const sink = demandSinkOf(t.ctx)!;
    const s = await station(t, `DF${target === 'pglite' ? 'L' : 'P'}`);
    feed(t, s, 0, 3); // closes 10:00
    await sink.flush();
    expect(await windowsOf(t, s.siteId)).toEqual([expected(0)]);

    // The database refuses the batch that holds 10:15 and 10:30.
    await t.ctx.database.sql.exec(refuseWrites());
    feed(t, s, 4, 9);
    const errors = sink.counters.writeErrors;
    await sink.flush();
    expect(sink.counters.writeErrors).toBeGreaterThan(errors);
    expect(sink.pendingWindows).toBe(2);
    expect(await windowsOf(t, s.siteId)).toEqual([expected(0)]);

    // The meters go on: the window in progress closes (10:45) while the writes still fail.
    feed(t, s, 10, 12);
    await sink.flush();
    expect(sink.pendingWindows).toBe(3);

    // Writes work again: every window held is stored once, with the meters' energy.
    await t.ctx.database.sql.exec(acceptWrites);
    await sink.flush();
    expect(sink.pendingWindows).toBe(0);
    expect(await windowsOf(t, s.siteId)).toEqual([expected(0), expected(1), expected(2), expected(3)]);
    // The live window after the outage: 11:00 closes as usual.
    feed(t, s, 13, 15);
    await sink.flush();
    expect(await windowsOf(t, s.siteId)).toEqual([0, 1, 2, 3, 4].map(expected));
  });

  it('a batch of several statements failing in its second: the first stays written, the rest is written once later', async () => {
    const sink = demandSinkOf(t.ctx)!;
    const a = await station(t, `DA${target === 'pglite' ? 'L' : 'P'}`);
    const b = await station(t, `DB${target === 'pglite' ? 'L' : 'P'}`);
    // Station A: 520 windows from readings an hour apart (estimated), more than one statement's 500.
    const registry = deviceRegistryOf(t.ctx);
    const layout = registry.products.get(a.main.productId)!;
    const reading = (kwh: number) => {
      const v = new Float64Array(layout.identifiers.length).fill(Number.NaN);
      v[layout.indexOf.get('forwardActiveEnergy')!] = kwh;
      return v;
    };
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let h = 0; h <= 130; h++) sink.report(a.main, start + h * 60 * MIN, reading(10_000 + h * 40));
    // Station B's windows come after A's in the batch; the database refuses B's.
    feed(t, b, 0, 6);
    await t.ctx.database.sql.exec(refuseWrites(b.siteId));
    const written = sink.counters.rowsWritten;
    await sink.flush();
    expect(sink.counters.rowsWritten - written).toBe(500);
    expect(sink.pendingWindows).toBe(20 + 2);
    const storedA = async () => (await t.ctx.db.select().from(demandWindow).where(eq(demandWindow.siteId, a.siteId))).length;
    expect(await storedA()).toBe(500);
    expect(await windowsOf(t, b.siteId)).toEqual([]);

    await t.ctx.database.sql.exec(acceptWrites);
    await sink.flush();
    // Only what was held is written again: 22 rows, not the 500 already stored.
    expect(sink.counters.rowsWritten - written).toBe(522);
    expect(await storedA()).toBe(520);
    const demandA = await t.ctx.db.select({ d: demandWindow.demandKw }).from(demandWindow).where(eq(demandWindow.siteId, a.siteId));
    expect(new Set(demandA.map((r) => r.d))).toEqual(new Set([40]));
    expect(await windowsOf(t, b.siteId)).toEqual([expected(0), expected(1)]);
  });
});

describe.skipIf(!DB_TARGETS.includes('postgres'))('demand windows when PostgreSQL goes away during their write', () => {
  const cleanup = new Teardown();
  afterAll(async () => {
    await cleanup.run();
  });

  it('holds the windows through the outage and a write whose answer was lost, and stores each once', async () => {
    const pg = await freshPostgres();
    cleanup.add('the test database', pg.drop);
    const proxy: TcpProxy = await startTcpProxy('127.0.0.1', Number(new URL(pg.url).port || 5432));
    cleanup.add('the database proxy', () => proxy.close());
    const t = await startTestApp('postgres', {}, { databaseUrl: proxy.via(pg.url) });
    cleanup.add('the server', () => t.stop());
    const direct = new (await import('pg')).default.Pool({ connectionString: pg.url, max: 2 });
    cleanup.add('the direct connection', () => direct.end());
    const sink = demandSinkOf(t.ctx)!;
    const s = await station(t, 'DO01');
    const stored = async () => {
      const { rows } = await direct.query<{ ts: Date; import_kwh: number; demand_kw: number; charge_kwh: number; discharge_kwh: number; e: boolean }>(
        'select ts, import_kwh, demand_kw, charge_kwh, discharge_kwh, import_estimated or storage_estimated as e from demand_window where site_id = $1 order by ts', [s.siteId],
      );
      return rows.map((r) => [r.ts.toISOString(), r.import_kwh, r.demand_kw, r.charge_kwh, r.discharge_kwh, r.e]);
    };

    feed(t, s, 0, 6); // closes 10:00 and 10:15
    await proxy.cut();
    const errors = sink.counters.writeErrors;
    await sink.flush();
    expect(sink.counters.writeErrors).toBeGreaterThan(errors);
    expect(sink.pendingWindows).toBe(2);
    feed(t, s, 7, 9); // 10:30 closes during the outage
    expect(sink.pendingWindows).toBe(3);
    await proxy.restore();
    await until('the held windows are written', async () => {
      await sink.flush();
      return sink.pendingWindows === 0;
    });
    expect(await stored()).toEqual([0, 1, 2].map(expected));

    // A write that commits while its connection is cut: the statement sleeps in a trigger, the
    // proxy is cut meanwhile, PostgreSQL finishes and commits it; the sink only sees the error.
    await direct.query(`create function ess_test_slow() returns trigger language plpgsql as $$ begin perform pg_sleep(3); return null; end $$;
      create trigger ess_test_slow after insert or update on demand_window for each statement execute function ess_test_slow()`);
    feed(t, s, 10, 12); // 10:45: import 15, charge 0, discharge 0
    feed(t, s, 13, 15); // 11:00: import 18, charge 3
    const lost = sink.counters.writeErrors;
    const writing = sink.flush();
    await until('the upsert runs on the server', async () => {
      const { rows } = await direct.query(`select 1 from pg_stat_activity where datname = current_database() and state = 'active' and query like 'insert into demand_window%'`);
      return rows.length > 0;
    }, 10_000, 10);
    const cutAt = Date.now();
    await proxy.cut();
    await writing;
    expect(sink.counters.writeErrors).toBeGreaterThan(lost);
    expect(sink.pendingWindows, `held after the cut (${Date.now() - cutAt} ms after it)`).toBe(2);
    await until('the cut write committed', async () => (await stored()).length === 5, 10_000);
    await direct.query('drop trigger ess_test_slow on demand_window');
    // Back: the retry writes the same windows again — stored once, the storage energy not added twice.
    await proxy.restore();
    await until('the retry is written', async () => {
      await sink.flush();
      return sink.pendingWindows === 0;
    });
    expect(await stored()).toEqual([0, 1, 2, 3, 4].map(expected));
    feed(t, s, 16, 18);
    await sink.flush();
    expect(await stored()).toEqual([0, 1, 2, 3, 4, 5].map(expected));
  });
});

describe.skipIf(!hasMosquittoBinary)('demand windows when the ingest loses its broker in the middle of a window', () => {
  const cleanup = new Teardown();
  afterAll(async () => {
    await cleanup.run();
  });

  it('the window is completed from what the broker held, measured and stored once', async () => {
    const tag = `DM${randomBytes(2).toString('hex')}`;
    const mosquitto: TestMosquitto = await startMosquitto();
    cleanup.add('Mosquitto', () => mosquitto.stop());
    const port = Number(new URL(mosquitto.url).port);
    const proxy = await startTcpProxy('127.0.0.1', port);
    cleanup.add('the database proxy', () => proxy.close());
    const target = DB_TARGETS.includes('postgres') ? 'postgres' : 'pglite';
    const t = await startTestApp(target, {
      MQTT_URL: `mqtt://127.0.0.1:${proxy.port}`, MQTT_CLIENT_ID: `ess-test-${tag}`, MQTT_SHARE_GROUP: `g${tag}`, LATEST_FLUSH_MS: '200',
    });
    cleanup.add('the server', () => t.stop());
    const s = await station(t, tag);
    const ingest = ingestOf(t.ctx)!;
    await ingest.registry.load();
    // The meters publish to the broker itself (not through the cut connection).
    const { connectAsync } = await import('mqtt');
    const meter = await connectAsync(mosquitto.url, { clientId: `meter-${tag}`, clean: true });
    cleanup.add('the meter client', () => meter.endAsync(true));
    const publish = async (from: number, to: number) => {
      for (let k = from; k <= to; k++) {
        const r = registers(k);
        const ts = T0 + k * 5 * MIN;
        await meter.publishAsync(`ess/${s.code}/${s.main.code}/telemetry`, JSON.stringify({ ts, seq: k + 1, values: { forwardActiveEnergy: r.fwd, activePower: (IMPORT[k] ?? 0) * 12 } }), { qos: 1 });
        await meter.publishAsync(`ess/${s.code}/${s.storage.code}/telemetry`, JSON.stringify({ ts, seq: k + 1, values: { forwardActiveEnergy: r.cf, reverseActiveEnergy: r.cr } }), { qos: 1 });
      }
    };
    const windows = () => windowsOf(t, s.siteId);
    await until('the consumer is subscribed', async () => {
      await publish(0, 0);
      return ingest.counters.storedReports >= 2;
    });
    await publish(1, 3); // closes 10:00
    await until('10:00 is stored', async () => (await windows()).length === 1);

    // The connection drops in the middle of 10:15 (after its first reading); the meters go on.
    await publish(4, 4);
    await until('the 10:15 reading is taken', () => ingest.counters.storedReports >= 10);
    await proxy.cut();
    await publish(5, 9); // the rest of 10:15 and 10:30: held by the broker for the ingest's session
    await sleep(500);
    expect(await windows()).toEqual([expected(0)]);
    await proxy.restore();
    await until('10:15 and 10:30 are stored', async () => (await windows()).length === 3, 20_000);
    expect(await windows()).toEqual([0, 1, 2].map(expected));
    // The live window goes on after it.
    await publish(10, 12);
    await until('10:45 is stored', async () => (await windows()).length === 4, 20_000);
    expect(await windows()).toEqual([0, 1, 2, 3].map(expected));
    const [first] = await t.ctx.db.select().from(demandWindow).where(and(eq(demandWindow.siteId, s.siteId), eq(demandWindow.ts, new Date(T0 + 15 * MIN))));
    expect(first!.startRegister).toBe(registers(3).fwd);
  });
});
