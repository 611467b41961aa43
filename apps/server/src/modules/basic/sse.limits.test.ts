import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totalStreamLimit } from '../../platform/sse/hub.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { FACTORY_PASSWORD, newUser, seededCompanies } from '../../../test/factory.ts';
import { SseStream } from '../../../test/sse-client.ts';

/** Issue 14, item 7: one user must not be able to exhaust the server's file descriptors with streams. */
describe('live events: stream caps', () => {
  let t: TestApp;
  const streams: SseStream[] = [];
  const open = async (token: string) => {
    const s = await SseStream.open(t.url, token);
    streams.push(s);
    expect(s.status).toBe(200);
    await s.nextEvent('heartbeat');
    return s;
  };

  beforeAll(async () => {
    t = await startTestApp('pglite', { SSE_MAX_STREAMS_PER_SESSION: '2', SSE_MAX_STREAMS_PER_USER: '3', SSE_MAX_STREAMS: '8' });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t?.stop();
  });

  it('a session over its cap: the oldest stream gets a close event (superseded) and ends, the others stay', async () => {
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id);
    const other = await newUser(t, east.id);
    const o = await open(other.token);
    const a1 = await open(u.token);
    const a2 = await open(u.token);
    const a3 = await open(u.token);
    const close = await a1.nextEvent<{ reason: string }>('close');
    expect(close.data).toEqual({ reason: 'superseded' });
    expect(await a1.endsWithin(5000)).toBe(true);
    expect(a2.closed).toBe(false);
    expect(a3.closed).toBe(false);
    expect(o.closed).toBe(false);
    expect(t.ctx.sse.size).toBe(3);

    // A second session of the same user: the user's cap (3) closes the user's oldest stream.
    const b1 = await open(await t.api.login(u.username, FACTORY_PASSWORD));
    expect(a2.closed).toBe(false);
    const b2 = await open(await t.api.login(u.username, FACTORY_PASSWORD));
    expect((await a2.nextEvent<{ reason: string }>('close')).data.reason).toBe('superseded');
    expect(await a2.endsWithin(5000)).toBe(true);
    for (const s of [a3, b1, b2, o]) expect(s.closed).toBe(false);
    // Every open stream still gets heartbeats and live events.
    await t.ctx.sse.send([u.id], 'Unread', { count: 7 });
    for (const s of [a3, b1, b2]) expect((await s.nextEvent<{ count: number }>('Unread')).data.count).toBe(7);
    expect(t.ctx.sse.size).toBe(4);
    for (const s of [a3, b1, b2, o]) s.close();
    await Promise.all([a3, b1, b2, o].map((s) => s.ended));
  });

  it('past the instance cap a new stream is refused with 503 while sign-in and API calls still answer', async () => {
    const { east } = await seededCompanies(t);
    // Wait for the streams of the previous test to be gone on the server side too.
    for (let i = 0; i < 100 && t.ctx.sse.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(t.ctx.sse.size).toBe(0);
    const users = await Promise.all(Array.from({ length: 4 }, () => newUser(t, east.id)));
    const held: SseStream[] = [];
    for (const u of users) {
      held.push(await open(u.token));
      held.push(await open(u.token));
    }
    expect(t.ctx.sse.size).toBe(8);
    const refused = await SseStream.open(t.url, t.adminToken);
    expect(refused.status).toBe(503);
    expect(refused.json?.errorCode).toBe('B0002');
    expect(refused.json?.tipMsg).toBeTruthy();
    expect(refused.headers.get('content-type')).not.toMatch(/event-stream/);
    // Sign-in and API calls are not starved.
    const token = await t.api.login(users[0]!.username, FACTORY_PASSWORD);
    expect((await t.api.call('GET', '/system/user/profile/info', { token })).status).toBe(200);
    // A closed stream frees its place.
    held[0]!.close();
    for (let i = 0; i < 100 && t.ctx.sse.size > 7; i++) await new Promise((r) => setTimeout(r, 20));
    await open(t.adminToken);
  });
});

describe('live events: the instance stream cap from the open-file limit', () => {
  it('keeps SSE_FD_RESERVE descriptors (half the limit when the limit is small), or uses SSE_MAX_STREAMS', () => {
    expect(totalStreamLimit(0, 1024, 20_000)).toBe(18_976);
    expect(totalStreamLimit(0, 1024, 1024)).toBe(512);
    expect(totalStreamLimit(500, 1024, 20_000)).toBe(500);
    expect(totalStreamLimit(0, 1024, null)).toBe(Number.POSITIVE_INFINITY);
  });
});
