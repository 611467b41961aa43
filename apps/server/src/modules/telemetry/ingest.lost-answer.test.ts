/**
 * A telemetry write that commits while its answer is lost (the connection cut between the commit
 * and the reply): the ingest cannot tell it from a write that failed, retries the batch through the
 * check against the table, and must count every report in the rollups exactly once — those the
 * lost write committed too. Produced on purpose: the ingest's connections go through a TCP proxy,
 * a statement trigger holds the COPY in the database, the proxy is cut meanwhile, and PostgreSQL
 * commits the statement after the client has gone. Both kinds of checked batch are covered: a plain
 * batch (retried) and reports the broker delivered again (redelivered, one of them stored before).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceTopic } from '@ess/contract';
import { registerFleet } from '../../demo/demo-seed.ts';
import { DB_TARGETS, freshPostgres, startTestApp, Teardown, type TestApp } from '../../../test/harness.ts';
import { isolatedFleet, startTcpProxy, until, type TcpProxy } from '../../../test/ingest-fixtures.ts';
import { ingestOf } from './index.ts';

describe.skipIf(!DB_TARGETS.includes('postgres'))('a telemetry write whose answer is lost', () => {
  const tag = `L${randomBytes(3).toString('hex')}`;
  const fleet = isolatedFleet(tag);
  const pack = fleet.stations[0]!.devices.find((d) => d.type === 'batteryPack')!;
  const topic = deviceTopic(tag, pack.code, 'telemetry');
  const T0 = Date.now() - 120_000;
  const cleanup = new Teardown();
  let t: TestApp;
  let proxy: TcpProxy;
  let q: <R>(text: string, values?: unknown[]) => Promise<R[]>;

  beforeAll(async () => {
    const pg = await freshPostgres();
    cleanup.add('the test database', pg.drop);
    proxy = await startTcpProxy('127.0.0.1', Number(new URL(pg.url).port || 5432));
    cleanup.add('the database proxy', () => proxy.close());
    // Flushes only when the test asks for them.
    t = await startTestApp('postgres', { INGEST_BATCH_MS: '600000', LATEST_FLUSH_MS: '600000', ROLLUP_FLUSH_MS: '600000' }, { databaseUrl: proxy.via(pg.url) });
    cleanup.add('the server', () => t.stop());
    await registerFleet(t.ctx.db, fleet);
    await ingestOf(t.ctx)!.registry.load();
    // What the test reads and the trigger it sets go straight to the database, not through the proxy.
    const direct = new (await import('pg')).default.Pool({ connectionString: pg.url, max: 2 });
    cleanup.add('the direct connection', () => direct.end());
    q = async <R>(text: string, values: unknown[] = []) => (await direct.query(text, values)).rows as R[];
    await q(`create function ess_test_slow() returns trigger language plpgsql as $$ begin perform pg_sleep(2); return null; end $$`);
  }, 60_000);
  afterAll(async () => {
    await cleanup.run();
  });

  const report = (seq: number) => Buffer.from(JSON.stringify({ ts: T0 + seq * 1000, seq, values: { soc: 40 + seq } }));
  const storedSeqs = async () =>
    (await q<{ seq: number }>(`select t.seq from telemetry t join device d on d.id = t.device_id where d.code = $1 order by t.seq`, [pack.code])).map((r) => r.seq);
  /** Reports counted in the hour rollups of the pack (soc is its only value here). */
  const counted = async () => {
    await ingestOf(t.ctx)!.flushRollups(true);
    const [row] = await q<{ n: number }>(
      `select coalesce(sum((select max(c) from unnest(r.cnt) c)), 0)::int as n from telemetry_1h r join device d on d.id = r.device_id where d.code = $1`,
      [pack.code],
    );
    return row!.n;
  };

  /** Writes what the ingest holds, cutting the connection while the COPY waits in the trigger. */
  async function flushLosingTheAnswer(): Promise<void> {
    const ingest = ingestOf(t.ctx)!;
    await q(`create trigger ess_test_slow after insert on telemetry for each statement execute function ess_test_slow()`);
    const flushed = ingest.flushBatch();
    await until('the COPY held by the trigger', async () => (await q(`select 1 from pg_stat_activity where wait_event = 'PgSleep'`)).length > 0, 10_000);
    await proxy.cut();
    // PostgreSQL finishes the statement and commits it; nobody hears the answer.
    await until('the held COPY committed', async () => (await q(`select 1 from pg_stat_activity where wait_event = 'PgSleep'`)).length === 0, 10_000);
    await q(`drop trigger ess_test_slow on telemetry`);
    await proxy.restore();
    await flushed;
    expect(ingest.pendingReports).toBe(0);
  }

  it('counts a plain batch once when its write committed and the answer was lost', async () => {
    const ingest = ingestOf(t.ctx)!;
    const acks: number[] = [];
    for (const seq of [1, 2, 3, 4, 5]) ingest.handle(topic, report(seq), false, { ack: () => acks.push(seq) });
    const before = ingest.counters.retriedStored;
    await flushLosingTheAnswer();
    // The retry found every report stored by the lost write: acknowledged, not written twice.
    expect(ingest.counters.retriedStored - before).toBe(5);
    expect(acks.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(await storedSeqs()).toEqual([1, 2, 3, 4, 5]);
    expect(await counted()).toBe(5);
  }, 60_000);

  it('counts redelivered reports once when their checked write committed and the answer was lost', async () => {
    const ingest = ingestOf(t.ctx)!;
    const acks: number[] = [];
    // Delivered again after a reconnect: one stored (and counted) before, three never seen.
    for (const seq of [3, 6, 7, 8]) ingest.handle(topic, report(seq), false, { ack: () => acks.push(seq), redelivered: true });
    const before = ingest.counters.redeliveredStored;
    await flushLosingTheAnswer();
    expect(acks.sort()).toEqual([3, 6, 7, 8]);
    // Seq 3 found stored by the first check; seq 3 and the three the lost write committed by the retry.
    expect(ingest.counters.redeliveredStored - before).toBe(1 + 4);
    expect(await storedSeqs()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Each stored report counted once: 5 before, the 3 the lost write committed, seq 3 not again.
    expect(await counted()).toBe(8);
  }, 60_000);
});
