/**
 * A PostgreSQL outage during ingest (issue 14, defects 1 and 5): the test's own connections go
 * through a TCP proxy that is cut (connections reset, new ones refused) for a while and restored,
 * as a database restart looks to the application — the shared PostgreSQL itself is never touched.
 * Devices keep reporting throughout; afterwards every report the broker acknowledged is stored
 * once, and every background writer works again by itself: latest values, fault events and their
 * alarms, rollups, the access log and the domain-event dispatch.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { THING_MODEL } from '@ess/contract';
import { registerFleet } from '../../demo/demo-seed.ts';
import { DB_TARGETS, freshPostgres, startTestApp, Teardown, type TestApp } from '../../../test/harness.ts';
import {
  hasMosquittoBinary, isolatedFleet, ReportPublisher, sleep, startMosquitto, startTcpProxy, storedReports, until, type TcpProxy, type TestMosquitto,
} from '../../../test/ingest-fixtures.ts';
import { ingestOf } from './index.ts';

const hasPostgres = DB_TARGETS.includes('postgres');
const OUTAGE_MS = 8000;
const RATE = 300;
const brokers = ['embedded', ...(hasMosquittoBinary ? ['mosquitto'] : [])] as const;

describe.skipIf(!hasPostgres).each(brokers)('a PostgreSQL outage during ingest (%s broker)', (broker) => {
  const tag = `O${randomBytes(3).toString('hex')}`;
  const fleet = isolatedFleet(tag);
  const station = fleet.stations[0]!;
  const pack = station.devices.find((d) => d.type === 'batteryPack')!;
  const [faultDuring, faultAfter] = THING_MODEL.batteryPack.events;
  const cleanup = new Teardown();
  afterAll(async () => {
    await cleanup.run();
  });

  it('loses no acknowledged report, and every writer works again once the database is back', async () => {
    const pg = await freshPostgres();
    cleanup.add('the test database', pg.drop);
    const proxy: TcpProxy = await startTcpProxy('127.0.0.1', Number(new URL(pg.url).port || 5432));
    cleanup.add('the database proxy', () => proxy.close());
    let mosquitto: TestMosquitto | null = null;
    if (broker === 'mosquitto') {
      mosquitto = await startMosquitto();
      cleanup.add('Mosquitto', () => mosquitto!.stop());
    }
    const t: TestApp = await startTestApp(
      'postgres',
      {
        LATEST_FLUSH_MS: '200', ROLLUP_FLUSH_MS: '500', INGEST_BATCH_MS: '100', ALARM_SYNC_MS: '1000',
        ...(mosquitto ? { MQTT_URL: mosquitto.url, MQTT_CLIENT_ID: `ess-test-${tag}`, MQTT_SHARE_GROUP: `g${tag}` } : {}),
      },
      { databaseUrl: proxy.via(pg.url) },
    );
    cleanup.add('the server', () => t.stop());
    await registerFleet(t.ctx.db, fleet);
    const ingest = ingestOf(t.ctx)!;
    await ingest.registry.load();
    const { sql } = t.ctx.database;
    // What the test reads goes straight to the database, not through the proxy.
    const direct = (await import('pg')).default;
    const check = new direct.Pool({ connectionString: pg.url, max: 2 });
    cleanup.add('the direct connection', () => check.end());
    const q = async <R>(text: string, values: unknown[] = []) => (await check.query(text, values)).rows as R[];

    const publisher = await ReportPublisher.connect(t.ctx.mqtt.url, tag, station.devices.map((d) => d.code), `pub-${tag}`);
    cleanup.add('the publisher', () => publisher.close());
    publisher.start(RATE);
    await sleep(2000);
    expect((await storedReports(sql, tag)).rows).toBeGreaterThan(0);

    // ── The outage ──
    await proxy.cut();
    const cutAt = Date.now();
    const eventTopic = `ess/${tag}/${pack.code}/event`;
    // A fault during the outage (the broker holds it until the ingest has stored it), and a call
    // to the API whose access-log entry must survive.
    const during = publisher.send(eventTopic, { ts: Date.now(), code: faultDuring!.code, active: true, message: 'during the outage' });
    await fetch(`${t.url}/api/manager/basic/captcha?probe=${tag}`).catch(() => undefined);
    await sleep(OUTAGE_MS - (Date.now() - cutAt));
    // Held meanwhile, unacknowledged (the broker holds the rest).
    expect(ingest.pendingReports).toBeGreaterThan(0);
    await proxy.restore();

    await sleep(2000);
    await publisher.send(eventTopic, { ts: Date.now(), code: faultAfter!.code, active: true, message: 'after the outage' });
    await sleep(1000);
    await publisher.stop();
    await during;

    // Every report the broker acknowledged to a device is stored, once.
    // Wait for the count to settle (it may never reach what was published where reports were lost).
    await until('every published report stored', async () => (await storedReports(sql, tag)).rows >= publisher.published, 30_000).catch(() => undefined);
    const stored = await storedReports(sql, tag);
    console.log(`outage test (${broker}): published ${publisher.published}, stored ${stored.rows} (distinct ${stored.distinct}), ` +
      `held at most through ${OUTAGE_MS} ms, batch errors ${ingest.counters.batchErrors}, found stored on retry ${ingest.counters.retriedStored}`);
    expect(publisher.failed).toBe(0);
    expect(stored.rows).toBe(publisher.published);
    expect(stored.distinct).toBe(stored.rows);
    expect(ingest.counters.droppedReports).toBe(0);

    // Latest values caught up with the newest report of every device (device_latest not frozen).
    await until('latest values written', async () => {
      const rows = await q<{ code: string; seq: number }>(
        `select d.code, l.seq from device_latest l join device d on d.id = l.device_id join site s on s.id = d.site_id where s.code = $1`,
        [tag],
      );
      const seqs = new Map(rows.map((r) => [r.code, r.seq]));
      return [...publisher.newest.values()].every((r) => seqs.get(r.device) === r.seq);
    });
    // Both faults stored as events and opened as alarms, their domain events dispatched.
    await until('fault events and alarms', async () => {
      const events = await q<{ code: string }>(`select e.code from device_event e join device d on d.id = e.device_id where d.code = $1`, [pack.code]);
      const alarms = await q<{ code: string }>(`select a.code from alarm a join device d on d.id = a.device_id where d.code = $1 and a.status = 'active'`, [pack.code]);
      const want = [faultDuring!.code, faultAfter!.code].sort();
      return JSON.stringify(events.map((e) => e.code).sort()) === JSON.stringify(want) && JSON.stringify(alarms.map((a) => a.code).sort()) === JSON.stringify(want);
    });
    await until('alarm events dispatched', async () => {
      const rows = await q<{ pending: number; done: number }>(
        `select count(*) filter (where d.status <> 'done')::int as pending, count(*) filter (where d.status = 'done')::int as done
         from domain_event e join domain_event_delivery d on d.event_id = e.id where e.type = 'alarm.opened'`,
      );
      return rows[0]!.pending === 0 && rows[0]!.done > 0;
    });
    // The access-log entry of the call made while the database was away.
    await until('access log written', async () => (await q(`select 1 from access_log where query = $1`, [`probe=${tag}`])).length === 1);
    // Rollups of the whole run, written after the outage: each report with a value (soc, where
    // the device's product has it) is counted once in the hour rollups.
    await ingest.flush();
    const [rollup] = await q<{ n: number }>(
      `select coalesce(sum((select max(c) from unnest(r.cnt) c)), 0)::int as n
       from telemetry_1h r join device d on d.id = r.device_id join site s on s.id = d.site_id where s.code = $1`,
      [tag],
    );
    const [valued] = await q<{ n: number }>(
      `select count(*)::int as n from telemetry t join device d on d.id = t.device_id join site s on s.id = d.site_id
       where s.code = $1 and exists (select 1 from unnest(t.v) x where x is not null)`,
      [tag],
    );
    expect(valued!.n).toBeGreaterThan(0);
    expect(rollup!.n).toBe(valued!.n);
  }, 120_000);
});
