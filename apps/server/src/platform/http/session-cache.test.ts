import pg from 'pg';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { eventually, newUser, seededCompanies } from '../../../test/factory.ts';
import { appUser, roleMenu } from '../../db/schema/system.ts';
import type { AuthUser, SessionCheck } from './auth.ts';
import { SessionCache } from './session-cache.ts';
import { ChangeHub } from '../db/change-cache.ts';

const user = (sessionId: number): AuthUser => ({ id: 7, username: 'u', name: 'U', companyId: 1, companyPath: '/1/', buildIn: false, allSites: false, sessionId });
const check = (sessionId: number, allowed: boolean, lastSeenAt = 0, expiresAt = 1_000_000): SessionCheck => ({
  user: user(sessionId), allowed, lastSeenAt, expiresAt,
});

describe('SessionCache', () => {
  const IDLE = 30_000;
  const listening = () => {
    const c = new SessionCache(60_000, 3);
    c.setListening(true);
    return c;
  };

  it('answers per interface what it was told, and nothing it was not', () => {
    const c = listening();
    c.keep('h', 5, check(1, true), c.stamp(), 0);
    c.keep('h', 6, check(1, false), c.stamp(), 0);
    expect(c.check('h', 5, IDLE, 10)?.allowed).toBe(true);
    expect(c.check('h', 6, IDLE, 10)?.allowed).toBe(false);
    expect(c.check('h', 7, IDLE, 10)).toBeUndefined();
    expect(c.check('other', 5, IDLE, 10)).toBeUndefined();
  });

  it('keeps nothing while it is not listening for changes', () => {
    const c = new SessionCache();
    c.keep('h', 5, check(1, true), c.stamp(), 0);
    expect(c.check('h', 5, IDLE, 1)).toBeUndefined();
    c.setListening(true);
    c.keep('h', 5, check(1, true), c.stamp(), 0);
    c.setListening(false);
    expect(c.check('h', 5, IDLE, 1)).toBeUndefined();
  });

  it('drops a check whose lookup overlapped a change, and everything on a change', () => {
    const c = listening();
    const stamp = c.stamp();
    c.invalidate();
    c.keep('h', 5, check(1, true), stamp, 0);
    expect(c.check('h', 5, IDLE, 1)).toBeUndefined();
    c.keep('h', 5, check(1, true), c.stamp(), 0);
    c.invalidate();
    expect(c.check('h', 5, IDLE, 1)).toBeUndefined();
  });

  it('never answers past the entry age, the session end or its idle limit', () => {
    const c = listening();
    c.keep('h', 5, check(1, true, 0, 50_000), c.stamp(), 0);
    expect(c.check('h', 5, IDLE, IDLE - 1)).toBeDefined();
    expect(c.check('h', 5, IDLE, IDLE)).toBeUndefined();
    c.keep('h', 5, check(1, true, 0, 50_000), c.stamp(), 0);
    c.seen('h', 40_000);
    expect(c.check('h', 5, IDLE, 49_999)).toBeDefined();
    expect(c.check('h', 5, IDLE, 50_000)).toBeUndefined();
    const young = listening();
    young.keep('h', 5, check(1, true, 0, 10_000_000), young.stamp(), 0);
    young.seen('h', 59_000);
    expect(young.check('h', 5, IDLE, 59_999)).toBeDefined();
    expect(young.check('h', 5, IDLE, 60_000)).toBeUndefined();
  });

  it('holds at most its size, dropping the oldest', () => {
    const c = listening();
    for (const h of ['a', 'b', 'c', 'd']) c.keep(h, 5, check(1, true), c.stamp(), 0);
    expect(c.size).toBe(3);
    expect(c.check('a', 5, IDLE, 1)).toBeUndefined();
    expect(c.check('d', 5, IDLE, 1)).toBeDefined();
  });
});

describe('ChangeHub', () => {
  it('drops the caches of the channel that changed, and starts a late cache in its channel\'s state', async () => {
    const hub = new ChangeHub();
    hub.signal('a', 'listening');
    const a = hub.cache<string, number>('a', 'one');
    const b = hub.cache<string, number>('b', 'two');
    expect(hub.cache<string, number>('a', 'one')).toBe(a);
    a.put('k', 1, a.stamp());
    b.put('k', 2, b.stamp());
    expect(a.get('k')).toBe(1);
    expect(b.get('k')).toBeUndefined(); // channel b is not listening yet
    hub.signal('b', 'listening');
    b.put('k', 2, b.stamp());
    hub.signal('a', 'notify');
    expect(a.get('k')).toBeUndefined();
    expect(b.get('k')).toBe(2);
    let loads = 0;
    const load = () => Promise.resolve(++loads);
    expect(await a.through('x', load)).toBe(1);
    expect(await a.through('x', load)).toBe(1);
    hub.signal('a', 'lost');
    expect(await a.through('x', load)).toBe(2);
    expect(await a.through('x', load)).toBe(3);
  });
});

describe.each(dbTargets(import.meta.url))('session checks cached on %s', (target) => {
  let t: TestApp;
  let sessionQueries = 0;
  let profileQueries = 0;
  beforeAll(async () => {
    t = await startTestApp(target);
    const sql = t.ctx.database.sql;
    const query = sql.query.bind(sql);
    sql.query = (text, values, name) => {
      if (name === 'session_check') sessionQueries++;
      if (name === 'profile_info') profileQueries++;
      return query(text, values, name);
    };
  });
  afterAll(async () => t?.stop());

  const userPage = (token: string) => t.api.post('/system/user/query/page', token, { current: 1, pageSize: 5 });

  it('answers a repeated call without asking the database who is calling', async () => {
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id, { menus: ['/system/user'] });
    expect((await userPage(u.token)).status).toBe(200);
    // The sign-in's own notification comes back a moment later through the instance's listener
    // connection too (and drops the cache once); wait until a repeated call is served from it.
    await eventually(async () => {
      const n = sessionQueries;
      expect((await userPage(u.token)).status).toBe(200);
      return sessionQueries === n ? true : undefined;
    });
    const before = sessionQueries;
    for (let i = 0; i < 5; i++) expect((await userPage(u.token)).status).toBe(200);
    expect(sessionQueries).toBe(before);
  });

  it('refuses at once what a change made through this instance took away', async () => {
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id, { menus: ['/system/user'] });
    expect((await userPage(u.token)).status).toBe(200);
    await t.ctx.db.delete(roleMenu).where(eq(roleMenu.roleId, u.roleId));
    expect((await userPage(u.token)).status).toBe(403);

    const v = await newUser(t, east.id, { menus: ['/system/user'] });
    expect((await userPage(v.token)).status).toBe(200);
    await t.ctx.db.update(appUser).set({ status: 0 }).where(eq(appUser.id, v.id));
    expect((await userPage(v.token)).status).toBe(401);

    const w = await newUser(t, east.id, { menus: ['/system/user'] });
    expect((await userPage(w.token)).status).toBe(200);
    expect((await t.api.get('/basic/user/logout', w.token)).status).toBe(200);
    expect((await userPage(w.token)).status).toBe(401);
  });

  it('answers the profile from the cache until something it shows changes', async () => {
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id, { name: '原名' });
    const profile = async () => (await t.api.get<{ name: string; phone: string | null }>('/system/user/profile/info', u.token)).body.data;
    expect((await profile()).name).toBe('原名');
    const before = profileQueries;
    expect((await profile()).name).toBe('原名');
    expect(profileQueries).toBe(before);
    const changed = await t.api.post('/system/user/profile/change/info', u.token, { name: '新名', phone: '13800000000', email: null });
    expect(changed.status).toBe(200);
    expect(await profile()).toMatchObject({ name: '新名', phone: '13800000000' });
    expect(profileQueries).toBe(before + 1);
  });

  it.runIf(target === 'postgres')('hears a change committed by another instance', async () => {
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id, { menus: ['/system/user'] });
    expect((await userPage(u.token)).status).toBe(200);
    // Another instance: its own connection, not this server's pool.
    const other = new pg.Client({ connectionString: t.ctx.config.databaseUrl });
    await other.connect();
    try {
      await other.query('update session set revoked_at = now() where user_id = $1', [u.id]);
    } finally {
      await other.end();
    }
    await eventually(async () => ((await userPage(u.token)).status === 401 ? true : undefined));
  });
});
