import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUser } from '../../db/schema/system.ts';
import { DB_TARGETS, freshPostgres, REDIS_TEST_URL, startTestApp, type TestApp } from '../../../test/harness.ts';
import { seededCompanies, newUser } from '../../../test/factory.ts';
import { SseStream } from '../../../test/sse-client.ts';
import { revokeUserSessions } from './auth.service.ts';

/** A real connection attempt: PING answered. */
async function redisReachable(url: string): Promise<boolean> {
  const r = new Redis(url, { lazyConnect: true, connectTimeout: 1500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on('error', () => undefined);
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

const available = DB_TARGETS.includes('postgres') && (await redisReachable(REDIS_TEST_URL));

interface Popup { id: number; title: string; content: string; createdAt: string }

/**
 * Two server instances on one PostgreSQL database and one Redis: a live event published on
 * one instance reaches a stream held by the other.
 */
describe.skipIf(!available)('live-event fan-out across instances over Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let drop: () => Promise<void>;
  const streams: SseStream[] = [];

  beforeAll(async () => {
    const db = await freshPostgres();
    drop = db.drop;
    a = await startTestApp('postgres', { REDIS_URL: REDIS_TEST_URL, SSE_HEARTBEAT_MS: '1000' }, { databaseUrl: db.url });
    // B serves HTTP only; background jobs (scheduled pushes) run on A.
    b = await startTestApp('postgres', { REDIS_URL: REDIS_TEST_URL, SSE_HEARTBEAT_MS: '1000', ROLES: 'api' }, { databaseUrl: db.url });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await b?.stop();
    await a?.stop();
    await drop?.();
  });

  const streamOnB = async (token: string) => {
    const s = await SseStream.open(b.url, token);
    streams.push(s);
    expect(s.status).toBe(200);
    await s.nextEvent('heartbeat');
    return s;
  };

  it('an immediate push through instance A reaches the stream held on instance B', async () => {
    const { east } = await seededCompanies(a);
    const u = await newUser(a, east.id);
    const s = await streamOnB(u.token);
    // The stream lives on B only.
    expect(a.ctx.sse.size).toBe(0);
    expect(b.ctx.sse.size).toBeGreaterThan(0);

    const title = `跨实例-${Date.now()}`;
    const r = await a.api.post<{ status: string }>('/system/notification/set/add', a.adminToken, {
      title, content: '来自实例 A', pushMode: 'immediate', targetType: 'user', targetIds: [u.id],
    });
    expect(r.body.data.status).toBe('sent');
    const popup = await s.nextEvent<Popup>('PopupWindow', (d) => d.title === title);
    expect(popup.data.content).toBe('来自实例 A');
    const unread = await s.nextEvent<{ count: number }>('Unread');
    expect(unread.data.count).toBe(1);

    // Marking read through A updates the count on B's stream too.
    await a.api.post('/system/notification/read', u.token, { all: true });
    expect((await s.nextEvent<{ count: number }>('Unread')).data.count).toBe(0);
  });

  it('a scheduled push run by the job worker on A reaches the stream on B', async () => {
    const { east } = await seededCompanies(a);
    const u = await newUser(a, east.id);
    const s = await streamOnB(u.token);
    const title = `跨实例定时-${Date.now()}`;
    await a.api.post('/system/notification/set/add', a.adminToken, {
      title, content: 'x', pushMode: 'scheduled', pushAt: new Date(Date.now() + 2000).toISOString(), targetType: 'user', targetIds: [u.id],
    });
    const popup = await s.nextEvent<Popup>('PopupWindow', (d) => d.title === title, 20_000);
    expect(popup.data.title).toBe(title);
    expect((await s.nextEvent<{ count: number }>('Unread')).data.count).toBe(1);
  });

  it('disabling a user through A closes their stream on B', async () => {
    const { east } = await seededCompanies(a);
    const u = await newUser(a, east.id);
    const s = await streamOnB(u.token);
    await a.ctx.db.update(appUser).set({ status: 0 }).where(eq(appUser.id, u.id));
    await revokeUserSessions(a.ctx, [u.id]);
    expect(await s.endsWithin(5000)).toBe(true);
  });
});
