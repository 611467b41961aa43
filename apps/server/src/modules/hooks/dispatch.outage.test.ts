import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hook, hookSetting } from '../../db/schema/hooks.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { emit, type DomainEvent } from '../../platform/events/outbox.ts';
import { DB_TARGETS, freshPostgres, startTestApp, Teardown, type TestApp } from '../../../test/harness.ts';
import { newSite, seededCompanies, until } from '../../../test/factory.ts';
import { sleep, startTcpProxy, type TcpProxy } from '../../../test/ingest-fixtures.ts';
import { planDeliveries } from './dispatch.plan.ts';
import { DISPATCH, dispatcherOf } from './dispatch.send.ts';
import { HOOK_SIGNING_SECRET } from './hooks.context.ts';

/**
 * The hook dispatcher through a database outage (PostgreSQL behind a TCP proxy that is cut; the
 * shared server is never touched), with a short lease and poll: deliveries queued when the
 * database goes away are all delivered once it is back, each exactly once (counted at the
 * receiver by webhook-id); and a request the target answered while the database was away is
 * recorded when it is back, not sent again when its lease runs out. No promise is left rejected.
 */

const SECRET = `whsec_${Buffer.from('outage-test-key-of-32-bytes-long').toString('base64')}`;
const LEASE_MS = 4_000;

interface Receiver {
  url: string;
  /** webhook-id → requests seen, per path. */
  seen: Map<string, number>;
  close(): Promise<void>;
}

describe.skipIf(!DB_TARGETS.includes('postgres'))('hook dispatch through a database outage', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let direct: pg.Client;
  let rx: Receiver;
  let companyId = 0;
  let siteId = 0;
  const saved = { ...DISPATCH };
  const rejections: unknown[] = [];
  const onRejection = (e: unknown) => void rejections.push(e);
  const cleanup = new Teardown();

  /** Requests to /cut: the database is cut before the answer, and back 1.5 s later. */
  async function startReceiver(): Promise<Receiver> {
    const seen = new Map<string, number>();
    const server: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const key = `${req.url} ${String(req.headers['webhook-id'])}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        const answer = () => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('ok');
        };
        if (req.url !== '/cut') return answer();
        void proxy.cut().then(() => {
          setTimeout(() => void proxy.restore(), 1_500);
          answer();
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      seen,
      close: () => new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    };
  }
  const seenAt = (path: string) => [...rx.seen].filter(([k]) => k.startsWith(`${path} `)).map(([, n]) => n);
  async function newHook(name: string): Promise<number> {
    const [h] = await t.ctx.db
      .insert(hook)
      .values({
        companyId, name, eventType: 'alarm.opened', url: `${rx.url}/${name}`, secretEnc: dispatcherOf(t.ctx)!.box.seal(SECRET, HOOK_SIGNING_SECRET), secretHint: 'whsec_',
        timeoutMs: 2000, maxRetries: 3, backoffMs: 500,
      })
      .returning({ id: hook.id });
    return h!.id;
  }
  const alarmPayload = (no: string) => ({ id: 1, no, siteId, deviceId: 1, level: 1, description: 'outage', startedAt: new Date().toISOString() });
  /** Read past the proxy: the database itself. */
  const deliveries = async (hookId: number) =>
    (await direct.query<{ id: string; state: string; attempts: number }>(`select id, state, attempts from hook_delivery where hook_id = $1 order by id`, [hookId])).rows;
  const records = async (hookId: number) =>
    (await direct.query<{ delivery_id: string; state: string; response_status: number | null }>(`select delivery_id, state, response_status from hook_exec_record where hook_id = $1 order by id`, [hookId])).rows;

  beforeAll(async () => {
    Object.assign(DISPATCH, { leaseMs: LEASE_MS, pollMs: 200 });
    process.on('unhandledRejection', onRejection);
    const fresh = await freshPostgres();
    cleanup.add('the test database', fresh.drop);
    direct = new pg.Client({ connectionString: fresh.url });
    await direct.connect();
    cleanup.add('the direct connection', () => direct.end());
    proxy = await startTcpProxy('127.0.0.1', Number(new URL(fresh.url).port || 5432));
    cleanup.add('the database proxy', () => proxy.close());
    rx = await startReceiver();
    cleanup.add('the hook receiver', () => rx.close());
    t = await startTestApp('postgres', {}, { databaseUrl: proxy.via(fresh.url) });
    cleanup.add('the server', () => t.stop());
    const { east } = await seededCompanies(t);
    companyId = east.id;
    siteId = (await newSite(t, east.id, { name: 'Outage Station' })).id;
    await t.ctx.db.update(hookSetting).set({ allowPrivateTargets: true }).where(eq(hookSetting.id, 1));
  });
  afterAll(async () => {
    await cleanup.run();
    process.off('unhandledRejection', onRejection);
    Object.assign(DISPATCH, saved);
  });

  it('deliveries queued when the database goes away are all delivered once it is back, each exactly once', async () => {
    const hookId = await newHook('queued');
    // Planned by the planner itself, in a transaction of the test's own (past the proxy) that
    // commits only once the server has lost the database: the dispatcher cannot have seen them.
    const N = 12;
    const events = Array.from({ length: N }, (_, i): DomainEvent => ({ id: 900_000 + i, type: 'alarm.opened', payload: alarmPayload(`Q-${i}`), createdAt: new Date() }));
    await direct.query('begin');
    expect(await planDeliveries(drizzle(direct) as unknown as DbOrTx, events)).toBe(N);
    await proxy.cut();
    await direct.query('commit');
    // The poll tries (and fails) meanwhile.
    await sleep(1_500);
    expect(seenAt('/queued')).toEqual([]);
    await proxy.restore();
    await until('all delivered', async () => (await deliveries(hookId)).filter((d) => d.state === 'delivered').length === N, 30_000, 100);
    // Past every lease: nothing goes again.
    await sleep(LEASE_MS + 1_000);
    expect(seenAt('/queued').length).toBe(N);
    expect(seenAt('/queued').every((n) => n === 1)).toBe(true);
    expect((await deliveries(hookId)).every((d) => d.state === 'delivered' && d.attempts === 1)).toBe(true);
    const recs = await records(hookId);
    expect(recs.length).toBe(N);
    expect(recs.every((r) => r.state === 'delivered' && r.response_status === 200)).toBe(true);
    expect(rejections).toEqual([]);
  }, 60_000);

  it('a request the target answered while the database was away is recorded when it is back, and not sent again after its lease', async () => {
    const hookId = await newHook('cut');
    await t.ctx.db.transaction((tx) => emit(tx, 'alarm.opened', [alarmPayload('CUT-1')]));
    await t.ctx.outbox.drain();
    // The dispatcher sends at once; the receiver cuts the database before answering.
    await until('the request', () => seenAt('/cut').length === 1, 15_000);
    await until('the attempt recorded', async () => (await records(hookId)).some((r) => r.state === 'delivered'), 15_000, 100);
    const [d] = await deliveries(hookId);
    expect(d).toMatchObject({ state: 'delivered', attempts: 1 });
    // Well past the lease the attempt held: the delivery did not go again.
    await sleep(LEASE_MS + 2_000);
    expect(seenAt('/cut')).toEqual([1]);
    const recs = await records(hookId);
    expect(recs).toEqual([{ delivery_id: d!.id, state: 'delivered', response_status: 200 }]);
    expect((await deliveries(hookId))[0]).toMatchObject({ state: 'delivered', attempts: 1 });
    expect(rejections).toEqual([]);
  }, 60_000);
});
