import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSE_RETRY_MS } from '@ess/contract';
import { accessLog, appUser } from '../../db/schema/system.ts';
import { revokeUserSessions } from '../system/auth.service.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { seededCompanies, eventually, FACTORY_PASSWORD, newUser } from '../../../test/factory.ts';
import { SseStream } from '../../../test/sse-client.ts';

describe.each(dbTargets(import.meta.url))('live events (SSE) on %s', (target) => {
  let t: TestApp;
  const streams: SseStream[] = [];
  const open = async (token: string | null) => {
    const s = await SseStream.open(t.url, token);
    streams.push(s);
    return s;
  };

  beforeAll(async () => {
    t = await startTestApp(target, { SSE_HEARTBEAT_MS: '150' });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t?.stop();
  });

  it('answers 401 with the envelope without a token or with a dead one', async () => {
    const none = await open(null);
    expect(none.status).toBe(401);
    expect(none.json?.errorCode).toBe('A0100');
    const bad = await open('x'.repeat(43));
    expect(bad.status).toBe(401);
    expect(bad.json?.errorCode).toBe('A0100');
  });

  it('opens a text/event-stream with a valid token and sends heartbeats at the configured interval', async () => {
    const s = await open(t.adminToken);
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const first = await s.nextEvent<{ time: number }>('heartbeat');
    expect(typeof first.data.time).toBe('number');
    expect(first.retry).toBe(SSE_RETRY_MS);
    expect(first.id).toMatch(/^\d+$/);
    // Two more within well under a second: the 150 ms interval, not the 30 s default.
    const started = Date.now();
    await s.nextEvent('heartbeat', () => true, 2000);
    await s.nextEvent('heartbeat', () => true, 2000);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(s.closed).toBe(false);
    s.close();
  });

  it('delivers a live event sent to the user, and not to another user', async () => {
    const { east } = await seededCompanies(t);
    const a = await newUser(t, east.id);
    const b = await newUser(t, east.id);
    const sa = await open(a.token);
    const sb = await open(b.token);
    await sa.nextEvent('heartbeat');
    await sb.nextEvent('heartbeat');
    await t.ctx.sse.send([a.id], 'Unread', { count: 42 });
    const got = await sa.nextEvent<{ count: number }>('Unread');
    expect(got.data).toEqual({ count: 42 });
    // b keeps receiving heartbeats but never the Unread event.
    await sb.nextEvent('heartbeat');
    await sb.nextEvent('heartbeat');
    expect(sb.events.some((e) => e.event === 'Unread')).toBe(false);
  });

  it("closes a disabled user's stream, and the next connect is refused", async () => {
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id);
    const s = await open(u.token);
    await s.nextEvent('heartbeat');
    await t.ctx.db.update(appUser).set({ status: 0 }).where(eq(appUser.id, u.id));
    await revokeUserSessions(t.ctx, [u.id]);
    expect(await s.endsWithin(5000)).toBe(true);
    const again = await open(u.token);
    expect(again.status).toBe(401);
  });

  it("a password change ends the streams of the user's other sessions and keeps the caller's", async () => {
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id);
    const otherToken = await t.api.login(u.username, FACTORY_PASSWORD);
    const mine = await open(u.token);
    const other = await open(otherToken);
    await mine.nextEvent('heartbeat');
    await other.nextEvent('heartbeat');
    const changed = await t.api.post('/system/user/profile/change/password', u.token, { oldPassword: FACTORY_PASSWORD, newPassword: 'NewPassw0rd', confirmPassword: 'NewPassw0rd' });
    expect(changed.body.errorCode).toBe('00000');
    expect(await other.endsWithin(5000)).toBe(true);
    // The caller's own stream keeps its heartbeats.
    await mine.nextEvent('heartbeat');
    await mine.nextEvent('heartbeat');
    expect(mine.closed).toBe(false);
    mine.close();
  });

  it('writes one access-log entry per connect, at open', async () => {
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id);
    const s = await open(u.token);
    await s.nextEvent('heartbeat');
    const rows = await eventually(async () => {
      const r = await t.ctx.db
        .select()
        .from(accessLog)
        .where(and(eq(accessLog.userId, u.id), eq(accessLog.path, '/basic/sse/connect')));
      return r.length ? r : undefined;
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ method: 'GET', status: 200, username: u.username, companyId: east.id });
    s.close();
    await s.ended;
    // The client going away writes nothing more.
    await new Promise((r) => setTimeout(r, 300));
    const after = await t.ctx.db.select().from(accessLog).where(and(eq(accessLog.userId, u.id), eq(accessLog.path, '/basic/sse/connect')));
    expect(after).toHaveLength(1);
  });
});

describe('live events: server close', () => {
  it('ends open streams when the server closes', async () => {
    const t = await startTestApp('pglite');
    let s: SseStream | null = null;
    try {
      s = await SseStream.open(t.url, t.adminToken);
      await s.nextEvent('heartbeat');
      expect(t.ctx.sse.size).toBe(1);
    } finally {
      await t.stop();
    }
    expect(await s.endsWithin(5000)).toBe(true);
  });
});
