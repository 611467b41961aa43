import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { dispatcher, emitPings, prepareRecorder, recorder, seenCounts } from '../../../test/outbox-fixtures.ts';
import { createLogger } from '../logging.ts';
import { subscriber, type OutboxDeadPayload } from './outbox.ts';

const log = createLogger('silent');
const TOTAL = 300;

/**
 * The outbox delivers every event at least once, and a subscriber whose work is in the delivery's
 * transaction sees each exactly once, even when the dispatcher dies mid-way. The test servers run
 * without the jobs role, so the only dispatchers are the test's.
 */
describe.each(dbTargets(import.meta.url))('domain-event outbox on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target, { ROLES: 'api' });
    await prepareRecorder(t.ctx.database);
  });
  afterAll(async () => t?.stop());

  const reset = () => t.ctx.database.sql.exec('delete from outbox_test_seen; delete from domain_event');
  const pendingDeliveries = async () =>
    (await t.ctx.database.sql.query<{ n: number }>("select count(*)::int as n from domain_event_delivery where status <> 'done'")).rows[0]!.n;

  const stillPending = async () =>
    (await t.ctx.database.sql.query<{ n: number }>("select count(*)::int as n from domain_event_delivery where status = 'pending'")).rows[0]!.n;

  it('a dispatcher killed mid-way loses nothing, and the next one delivers nothing twice', async () => {
    await reset();
    await emitPings(t.ctx.database, TOTAL);
    // Dies inside its 4th batch, after that batch's ids were written in its transaction.
    const first = dispatcher(t.ctx.database, log, {
      onBatch: (n) => {
        if (n === 4) {
          first.kill();
          throw new Error('killed');
        }
      },
    });
    await first.drain();
    const partial = await seenCounts(t.ctx.database);
    expect(partial.rows).toBe(60);
    expect(await pendingDeliveries()).toBe(TOTAL - 60);

    const second = dispatcher(t.ctx.database, log, {});
    await second.drain();
    await second.stop();
    expect(await seenCounts(t.ctx.database)).toEqual({ rows: TOTAL, distinct: TOTAL });
    expect(await pendingDeliveries()).toBe(0);
  });

  it.runIf(target === 'postgres')('a dispatcher process killed with SIGKILL mid-way: the next one delivers the rest, each once', async () => {
    await reset();
    await emitPings(t.ctx.database, TOTAL);
    const url = t.ctx.config.databaseUrl!;
    const child = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, '../../../test/outbox-worker.ts'), url], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    // Killed when its third batch is in hand (printed inside the batch's transaction, before it commits).
    await new Promise<void>((r) => {
      child.stdout.on('data', (d: Buffer) => {
        if (/batch 3\b/.test(d.toString())) r();
      });
    });
    child.kill('SIGKILL');
    await exited;
    const partial = await seenCounts(t.ctx.database);
    expect(partial.rows).toBeGreaterThanOrEqual(40);
    expect(partial.rows).toBeLessThan(TOTAL);
    expect(partial.distinct).toBe(partial.rows);

    const next = dispatcher(t.ctx.database, log, {});
    await next.drain();
    await next.stop();
    expect(await seenCounts(t.ctx.database)).toEqual({ rows: TOTAL, distinct: TOTAL });
    expect(await pendingDeliveries()).toBe(0);
  });

  it('retries a failing subscriber with backoff, then marks the event dead; the others are delivered', async () => {
    await reset();
    await emitPings(t.ctx.database, 5);
    const failing = subscriber({
      name: 'test.failing',
      events: ['test.ping'],
      handle: (events) => (events.some((e) => e.payload.n === 2) ? Promise.reject(new Error('poison')) : Promise.resolve()),
    });
    const outbox = dispatcher(t.ctx.database, log, [recorder(), failing], { maxAttempts: 3, backoffMs: 1, maxBackoffMs: 2 });
    await outbox.drain();
    // The poison event's retries come due after their backoff (1–2 ms here).
    for (let i = 0; i < 50 && (await stillPending()) > 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
      await outbox.drain();
    }
    await outbox.stop();
    const { rows } = await t.ctx.database.sql.query<{ subscriber: string; status: string; attempts: number; last_error: string | null; n: number }>(
      `select d.subscriber, d.status, d.attempts, d.last_error, (e.payload->>'n')::int as n
       from domain_event_delivery d join domain_event e on e.id = d.event_id order by d.subscriber, n`,
    );
    expect(rows.filter((r) => r.subscriber === 'test.recorder').every((r) => r.status === 'done')).toBe(true);
    const failingRows = rows.filter((r) => r.subscriber === 'test.failing');
    expect(failingRows.map((r) => [r.n, r.status])).toEqual([[0, 'done'], [1, 'done'], [2, 'dead'], [3, 'done'], [4, 'done']]);
    expect(failingRows.find((r) => r.n === 2)).toMatchObject({ attempts: 3, last_error: 'poison' });
    // The death was announced with the mark: one outbox.dead event naming the subscriber, type, count and error.
    const { rows: notices } = await t.ctx.database.sql.query<{ payload: OutboxDeadPayload }>("select payload from domain_event where type = 'outbox.dead'");
    expect(notices.map((n) => n.payload)).toEqual([{ subscriber: 'test.failing', types: ['test.ping'], count: 1, eventIds: [expect.any(Number)], lastError: 'poison' }]);
    expect(await seenCounts(t.ctx.database)).toEqual({ rows: 5, distinct: 5 });
  });

  it('prunes delivered events after a week and dead ones after a month', async () => {
    await reset();
    await emitPings(t.ctx.database, 3);
    const outbox = dispatcher(t.ctx.database, log, {});
    await outbox.drain();
    await outbox.stop();
    await t.ctx.database.sql.exec("update domain_event set created_at = now() - interval '8 days'");
    await emitPings(t.ctx.database, 2);
    expect(await outbox.prune()).toBe(3);
    expect((await t.ctx.database.sql.query<{ n: number }>('select count(*)::int as n from domain_event')).rows[0]!.n).toBe(2);
  });
});
