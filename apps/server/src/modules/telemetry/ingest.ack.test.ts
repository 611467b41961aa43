/**
 * The ingest's side of acknowledge-after-commit (docs/decisions/0025): a message's ack comes only
 * once what it carries is committed (or at once when there is nothing to store), and a message
 * the broker delivers again (DUP) is stored once, whether its first copy was stored or not.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceTopic, THING_MODEL } from '@ess/contract';
import { registerFleet } from '../../demo/demo-seed.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { isolatedFleet } from '../../../test/ingest-fixtures.ts';
import { ingestOf } from './index.ts';

describe.each(dbTargets(import.meta.url))('acknowledgement after commit on %s', (target) => {
  const tag = `A${randomBytes(3).toString('hex')}`;
  const fleet = isolatedFleet(tag);
  const pack = fleet.stations[0]!.devices.find((d) => d.type === 'batteryPack')!;
  const fault = THING_MODEL.batteryPack.events[0]!.code;
  const otherFault = THING_MODEL.batteryPack.events[1]!.code;
  const T0 = Date.now() - 60_000;
  let t: TestApp;
  beforeAll(async () => {
    // Flushes only when the test asks for them.
    t = await startTestApp(target, { INGEST_BATCH_MS: '600000', LATEST_FLUSH_MS: '600000', ROLLUP_FLUSH_MS: '600000' });
    await registerFleet(t.ctx.db, fleet);
    await ingestOf(t.ctx)!.registry.load();
  });
  afterAll(async () => {
    await t.stop();
  });

  const telemetry = (seq: number) => Buffer.from(JSON.stringify({ ts: T0 + seq * 1000, seq, values: { soc: 50 } }));
  const stored = async () =>
    (
      await t.ctx.database.sql.query<{ seq: number; n: number }>(
        `select t.seq, count(*)::int as n from telemetry t join device d on d.id = t.device_id where d.code = $1 group by t.seq order by t.seq`,
        [pack.code],
      )
    ).rows;

  it('acks a report with its batch, and stores a redelivered one once', async () => {
    const ingest = ingestOf(t.ctx)!;
    const topic = deviceTopic(tag, pack.code, 'telemetry');
    const acks: string[] = [];
    ingest.handle(topic, telemetry(1), false, { ack: () => acks.push('1') });
    expect(acks).toEqual([]);
    await ingest.flushBatch();
    expect(acks).toEqual(['1']);

    // Delivered again after a reconnect: the newest report itself, an older stored one, and one
    // whose first copy never arrived.
    ingest.handle(topic, telemetry(2), false, { ack: () => acks.push('2') });
    ingest.handle(topic, telemetry(2), false, { ack: () => acks.push('2 again'), redelivered: true });
    ingest.handle(topic, telemetry(1), false, { ack: () => acks.push('1 again'), redelivered: true });
    ingest.handle(topic, telemetry(3), false, { ack: () => acks.push('3'), redelivered: true });
    expect(acks).toEqual(['1']);
    await ingest.flushBatch();
    expect(acks.sort()).toEqual(['1', '1 again', '2', '2 again', '3']);
    expect(await stored()).toEqual([
      { seq: 1, n: 1 },
      { seq: 2, n: 1 },
      { seq: 3, n: 1 },
    ]);
    expect(ingest.counters.redeliveredStored).toBe(2);
  });

  it('stores a batch once when its write committed but the answer was lost with the connection', async () => {
    const ingest = ingestOf(t.ctx)!;
    const topic = deviceTopic(tag, pack.code, 'telemetry');
    // The COPY commits, then the connection drops before its answer arrives (a database restart
    // or a network cut at that moment): the ingest sees a connection error and keeps the batch.
    const seam = ingest as unknown as { copy: (table: string, columns: string, data: Buffer) => Promise<void> };
    const copy = seam.copy;
    let lost = 0;
    seam.copy = async (table, columns, data) => {
      await copy(table, columns, data);
      if (lost++ > 0) return;
      throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
    };
    try {
      const acks: string[] = [];
      ingest.handle(topic, telemetry(10), false, { ack: () => acks.push('10') });
      ingest.handle(topic, telemetry(11), false, { ack: () => acks.push('11') });
      await ingest.flushBatch();
      expect(acks).toEqual(['10', '11']);
    } finally {
      seam.copy = copy;
    }
    expect(lost).toBe(1);
    expect((await stored()).filter((r) => r.seq >= 10)).toEqual([
      { seq: 10, n: 1 },
      { seq: 11, n: 1 },
    ]);
    expect(ingest.counters.retriedStored).toBe(2);
  });

  it('stores the events of a flush once when its commit was answered by a lost connection', async () => {
    const ingest = ingestOf(t.ctx)!;
    const topic = deviceTopic(tag, pack.code, 'event');
    const body = Buffer.from(JSON.stringify({ ts: T0, code: otherFault, active: true, message: 'x' }));
    const seam = ingest as unknown as { session: <T>(fn: (s: unknown) => Promise<T>) => Promise<T> };
    const session = seam.session;
    let lost = 0;
    seam.session = async (fn) => {
      const out = await session(fn);
      if (lost++ > 0) return out;
      throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
    };
    const acks: string[] = [];
    try {
      ingest.handle(topic, body, false, { ack: () => acks.push('event') });
      await expect(ingest.flushLatest()).rejects.toThrow('Connection terminated');
      expect(acks).toEqual([]);
      await ingest.flushLatest();
    } finally {
      seam.session = session;
    }
    expect(acks).toEqual(['event']);
    const { rows } = await t.ctx.database.sql.query<{ n: number }>(
      `select count(*)::int as n from device_event e join device d on d.id = e.device_id where d.code = $1 and e.code = $2`,
      [pack.code, otherFault],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('acks an event with the latest-values flush that stores it, and a redelivered one is stored once', async () => {
    const ingest = ingestOf(t.ctx)!;
    const topic = deviceTopic(tag, pack.code, 'event');
    const body = Buffer.from(JSON.stringify({ ts: T0, code: fault, active: true, message: 'x' }));
    const acks: string[] = [];
    ingest.handle(topic, body, false, { ack: () => acks.push('first') });
    // In the same flush as its first copy, and in a later one.
    ingest.handle(topic, body, false, { ack: () => acks.push('again'), redelivered: true });
    expect(acks).toEqual([]);
    await ingest.flushLatest();
    expect(acks).toEqual(['first', 'again']);
    ingest.handle(topic, body, false, { ack: () => acks.push('later'), redelivered: true });
    await ingest.flushLatest();
    expect(acks).toEqual(['first', 'again', 'later']);
    const { rows } = await t.ctx.database.sql.query<{ n: number }>(
      `select count(*)::int as n from device_event e join device d on d.id = e.device_id where d.code = $1 and e.code = $2`,
      [pack.code, fault],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('acks at once what it does not store', () => {
    const ingest = ingestOf(t.ctx)!;
    const acks: string[] = [];
    ingest.handle('ess/nowhere', Buffer.from('{}'), false, { ack: () => acks.push('not ours') });
    ingest.handle(deviceTopic(tag, pack.code, 'telemetry'), Buffer.from('not json'), false, { ack: () => acks.push('bad') });
    ingest.handle(deviceTopic(tag, 'NO-SUCH-DEVICE', 'telemetry'), telemetry(9), false, { ack: () => acks.push('unknown') });
    ingest.handle(deviceTopic(tag, pack.code, 'status'), Buffer.from(JSON.stringify({ ts: T0, online: true })), true, { ack: () => acks.push('retained') });
    ingest.handle(deviceTopic(tag, pack.code, 'telemetry'), Buffer.from(JSON.stringify({ ts: 9e15, seq: 1, values: {} })), false, { ack: () => acks.push('ts') });
    expect(acks).toEqual(['not ours', 'bad', 'unknown', 'retained', 'ts']);
  });
});
