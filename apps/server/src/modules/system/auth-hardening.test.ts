import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import argon2 from 'argon2';
import { and, eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUser, captcha, company, loginLog, session } from '../../db/schema/system.ts';
import { dbTargets, REDIS_TEST_URL, solveCaptcha, startTestApp, type TestApp } from '../../../test/harness.ts';
import { hashPassword } from '../../platform/password.ts';

async function redisReachable(): Promise<boolean> {
  const r = new Redis(REDIS_TEST_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on('error', () => undefined);
  try {
    await r.connect();
    await r.ping();
    return true;
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}
const REDIS_UP = await redisReachable();

const uniq = () => randomBytes(4).toString('hex');
/** A client address of its own per call site, so rate-limit counts never collide between runs. */
const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;

async function createUser(t: TestApp, password = 'Passw0rd1', username = `u-${uniq()}`, cost?: { memoryCost: number; timeCost: number }) {
  const [group] = await t.ctx.db.select().from(company).where(eq(company.code, 'GROUP'));
  const passwordHash = cost ? await argon2.hash(password, { type: argon2.argon2id, ...cost }) : await hashPassword(password);
  const [u] = await t.ctx.db.insert(appUser).values({ username, name: username, companyId: group!.id, passwordHash }).returning();
  return u!;
}

/** The login log's reasons for one username, oldest first. */
async function reasonsOf(t: TestApp, username: string) {
  const rows = await t.ctx.db.select({ reason: loginLog.reason }).from(loginLog).where(eq(loginLog.username, username)).orderBy(loginLog.id);
  return rows.map((r) => r.reason);
}

const login = (t: TestApp, username: string, password: string, headers: Record<string, string> = {}) =>
  t.api.call<{ token: string; expiresAt: string }>('POST', '/basic/user/login', { body: { username, password }, headers });

const profile = (t: TestApp, token: string) => t.api.get<{ phone: string | null; email: string | null }>('/system/user/profile/info', token);

describe.each(dbTargets(import.meta.url))('sign-in hardening on %s', (target) => {
  describe('captcha on', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(target, { CAPTCHA_ENABLED: 'true' });
    });
    afterAll(async () => t?.stop());

    it('tells the login page, before anyone signs in, that the captcha is on', async () => {
      const r = await t.api.get<{ captcha: boolean }>('/basic/user/login/options', null);
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({ captcha: true });
    });

    it('serves an SVG image and sets the HttpOnly captcha cookie', async () => {
      const res = await fetch(`${t.url}/api/manager/basic/captcha`);
      const body = await res.text();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('image/svg+xml');
      expect(body).toMatch(/^<svg/);
      const cookie = res.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(/^ess_captcha=[\w-]+;/);
      expect(cookie).toContain('HttpOnly');
      const id = /ess_captcha=([^;]+)/.exec(cookie)![1]!;
      const [row] = await t.ctx.db.select().from(captcha).where(eq(captcha.id, id));
      expect(row?.code).toMatch(/^\w{4}$/);
    });

    it('refuses a login without a code or with a wrong code (A0104), accepts the right one once', async () => {
      const user = await createUser(t);
      const none = await login(t, user.username, 'Passw0rd1');
      expect(none.status).toBe(406);
      expect(none.body.errorCode).toBe('A0104');

      const solved = await solveCaptcha(t.api, t.ctx.db);
      const cookieOnly = await login(t, user.username, 'Passw0rd1', { cookie: solved.cookie });
      expect(cookieOnly.body.errorCode).toBe('A0104');

      const wrong = await solveCaptcha(t.api, t.ctx.db);
      const badCode = wrong.code === 'zzzz' ? 'yyyy' : 'zzzz';
      const r1 = await login(t, user.username, 'Passw0rd1', { cookie: wrong.cookie, 'x-image-code': badCode });
      expect(r1.body.errorCode).toBe('A0104');
      // A wrong guess spends the captcha: the right code no longer works with it.
      const r2 = await login(t, user.username, 'Passw0rd1', { cookie: wrong.cookie, 'x-image-code': wrong.code });
      expect(r2.body.errorCode).toBe('A0104');

      const right = await solveCaptcha(t.api, t.ctx.db);
      const ok = await login(t, user.username, 'Passw0rd1', { cookie: right.cookie, 'x-image-code': right.code.toUpperCase() });
      expect(ok.status).toBe(200);
      expect(ok.body.errorCode).toBe('00000');
      expect((await profile(t, ok.body.data.token)).status).toBe(200);
      // Single use.
      const again = await login(t, user.username, 'Passw0rd1', { cookie: right.cookie, 'x-image-code': right.code });
      expect(again.body.errorCode).toBe('A0104');

      const reasons = await t.ctx.db.select().from(loginLog).where(eq(loginLog.username, user.username)).orderBy(loginLog.id);
      expect(reasons.map((r) => [r.success, r.reason])).toEqual([
        [false, 'captcha'], [false, 'captcha'], [false, 'captcha'], [false, 'captcha'], [true, null], [false, 'captcha'],
      ]);
    });
  });

  describe('lockout, login log, tokens, password and profile', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(target);
    });
    afterAll(async () => t?.stop());

    it('tells the login page the captcha is off (CAPTCHA_ENABLED=false), and a sign-in without a code passes', async () => {
      const r = await t.api.get<{ captcha: boolean }>('/basic/user/login/options', null);
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({ captcha: false });
      const user = await createUser(t);
      expect((await login(t, user.username, 'Passw0rd1')).body.errorCode).toBe('00000');
    });

    it('locks the account after 5 wrong passwords, even for the right one, until lockedUntil passes; a locked account answers as a wrong password does', async () => {
      const user = await createUser(t);
      const wrongAnswer = await login(t, user.username, 'Wrong1234');
      expect(wrongAnswer.status).toBe(406);
      expect(wrongAnswer.body).toMatchObject({ errorCode: 'A0101', tipMsg: '用户名或密码错误', data: null });
      for (let i = 2; i <= 5; i++) {
        const r = await login(t, user.username, 'Wrong1234');
        expect(r.body, `attempt ${i}`).toEqual(wrongAnswer.body);
      }
      const [row] = await t.ctx.db.select().from(appUser).where(eq(appUser.id, user.id));
      expect(row!.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
      // Locked: the right password is refused, with the same answer as a wrong one.
      const right = await login(t, user.username, 'Passw0rd1');
      expect(right.status).toBe(406);
      expect(right.body).toEqual(wrongAnswer.body);
      expect(await reasonsOf(t, user.username)).toEqual([...Array<string>(4).fill('wrong password'), 'wrong password, locked', 'locked']);

      await t.ctx.db.update(appUser).set({ lockedUntil: new Date(Date.now() - 1000) }).where(eq(appUser.id, user.id));
      const after = await login(t, user.username, 'Passw0rd1');
      expect(after.body.errorCode).toBe('00000');
      const [cleared] = await t.ctx.db.select().from(appUser).where(eq(appUser.id, user.id));
      expect(cleared).toMatchObject({ failedCount: 0, lockedUntil: null });
    });

    it('counts concurrent wrong passwords as it counts them one after another: 25 at once lock the account', async () => {
      const user = await createUser(t);
      const answers = await Promise.all(Array.from({ length: 25 }, () => login(t, user.username, 'Wrong1234')));
      expect(new Set(answers.map((r) => `${r.status} ${r.body.errorCode}`))).toEqual(new Set(['406 A0101']));
      const right = await login(t, user.username, 'Passw0rd1');
      expect(right.body.errorCode).toBe('A0101');
      const [row] = await t.ctx.db.select().from(appUser).where(eq(appUser.id, user.id));
      expect(row!.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
      const reasons = await reasonsOf(t, user.username);
      expect(reasons.slice(0, 25).sort()).toEqual([...Array<string>(20).fill('locked'), ...Array<string>(4).fill('wrong password'), 'wrong password, locked'].sort());
      expect(reasons[25]).toBe('locked');
    });

    it('adds up bursts: 3 wrong at once, then 3 more at once, lock the account at the fifth', async () => {
      const user = await createUser(t);
      const burst = () => Promise.all(Array.from({ length: 3 }, () => login(t, user.username, 'Wrong1234')));
      await burst();
      const [between] = await t.ctx.db.select().from(appUser).where(eq(appUser.id, user.id));
      expect(between).toMatchObject({ failedCount: 3, lockedUntil: null });
      await burst();
      expect((await login(t, user.username, 'Passw0rd1')).body.errorCode).toBe('A0101');
      expect((await reasonsOf(t, user.username)).sort()).toEqual(['locked', 'locked', 'wrong password', 'wrong password', 'wrong password', 'wrong password', 'wrong password, locked']);
    });

    it.skipIf(target !== 'postgres')('counts attempts spread over two instances of one database together', async () => {
      const b = await startTestApp(target, {}, { databaseUrl: t.ctx.config.databaseUrl! });
      try {
        const user = await createUser(t);
        await Promise.all(Array.from({ length: 12 }, (_, i) => login(i % 2 ? b : t, user.username, 'Wrong1234')));
        expect((await login(b, user.username, 'Passw0rd1')).body.errorCode).toBe('A0101');
        const reasons = await reasonsOf(t, user.username);
        expect(reasons.filter((r) => r === 'wrong password')).toHaveLength(4);
        expect(reasons.filter((r) => r === 'wrong password, locked')).toHaveLength(1);
        expect(reasons.filter((r) => r === 'locked')).toHaveLength(8);
      } finally {
        await b.close();
      }
    });

    it('answers a locked account in the time a wrong password takes (the password is checked either way)', async () => {
      // Hashes of realistic cost (tens of milliseconds), so the check dominates the answer's time.
      const cost = { memoryCost: 32_768, timeCost: 3 };
      const locked = await createUser(t, 'Passw0rd1', `u-${uniq()}`, cost);
      const timed = async (username: string) => {
        const start = performance.now();
        const r = await login(t, username, 'Wrong1234');
        expect(r.body.errorCode).toBe('A0101');
        return performance.now() - start;
      };
      for (let i = 0; i < 5; i++) await timed(locked.username); // the fifth locks
      // Wrong passwords on three other accounts (three each: none locks), taken in turn with the
      // locked account's answers, so both kinds see the same load of a busy machine; the fastest
      // answer of each kind is its intrinsic cost.
      const others = await Promise.all([0, 1, 2].map(() => createUser(t, 'Passw0rd1', `u-${uniq()}`, cost)));
      const wrong: number[] = [];
      const lockedTimes: number[] = [];
      for (let i = 0; i < 9; i++) {
        wrong.push(await timed(others[i % 3]!.username));
        lockedTimes.push(await timed(locked.username));
      }
      expect((await reasonsOf(t, locked.username)).slice(-9)).toEqual(Array<string>(9).fill('locked'));
      for (const o of others) expect(await reasonsOf(t, o.username)).toEqual(Array<string>(3).fill('wrong password'));
      const w = Math.min(...wrong);
      const l = Math.min(...lockedTimes);
      expect(w).toBeGreaterThan(10);
      // Skipping the check would answer in a fraction of the hash's time.
      expect(l / w, `wrong ${w.toFixed(0)} ms, locked ${l.toFixed(0)} ms`).toBeGreaterThan(0.6);
      expect(l / w, `wrong ${w.toFixed(0)} ms, locked ${l.toFixed(0)} ms`).toBeLessThan(1.6);
    });

    it('writes every attempt to login_log with its reason, address and user agent', async () => {
      const user = await createUser(t);
      const headers = { 'x-forwarded-for': '203.0.113.7', 'user-agent': 'hardening-test/1.0' };
      await login(t, user.username, 'Wrong1234', headers);
      await login(t, user.username, 'Passw0rd1', headers);
      const ghost = `ghost-${uniq()}`;
      await login(t, ghost, 'Whatever1', headers);
      await t.ctx.db.update(appUser).set({ status: 0 }).where(eq(appUser.id, user.id));
      await login(t, user.username, 'Passw0rd1', headers);

      const rows = await t.ctx.db
        .select()
        .from(loginLog)
        .where(sql`${loginLog.username} in (${user.username}, ${ghost})`)
        .orderBy(loginLog.id);
      expect(rows.map((r) => ({ u: r.username, ok: r.success, reason: r.reason, userId: r.userId }))).toEqual([
        { u: user.username, ok: false, reason: 'wrong password', userId: user.id },
        { u: user.username, ok: true, reason: null, userId: user.id },
        { u: ghost, ok: false, reason: 'unknown user', userId: null },
        { u: user.username, ok: false, reason: 'disabled', userId: user.id },
      ]);
      for (const r of rows) expect(r).toMatchObject({ ip: '203.0.113.7', userAgent: 'hardening-test/1.0' });
    });

    it('issues tokens of at least 128 random bits and stores only their SHA-256', async () => {
      const user = await createUser(t);
      const tokens = [
        (await login(t, user.username, 'Passw0rd1')).body.data.token,
        (await login(t, user.username, 'Passw0rd1')).body.data.token,
      ];
      expect(tokens[0]).not.toBe(tokens[1]);
      for (const token of tokens) expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
      const rows = await t.ctx.db.select().from(session).where(eq(session.userId, user.id));
      expect(rows).toHaveLength(2);
      const dump = JSON.stringify(rows);
      for (const token of tokens) {
        expect(dump).not.toContain(token);
        expect(rows.map((r) => r.tokenHash)).toContain(createHash('sha256').update(token).digest('hex'));
      }
    });

    it('logout revokes the session', async () => {
      const user = await createUser(t);
      const token = (await login(t, user.username, 'Passw0rd1')).body.data.token;
      expect((await profile(t, token)).status).toBe(200);
      expect((await t.api.get('/basic/user/logout', token)).body.errorCode).toBe('00000');
      const r = await profile(t, token);
      expect(r.status).toBe(401);
      expect(r.body.errorCode).toBe('A0100');
      const [row] = await t.ctx.db.select().from(session).where(eq(session.userId, user.id));
      expect(row!.revokedAt).not.toBeNull();
    });

    it('change password: refuses rule violations with a clear tip, then switches passwords and ends other sessions', async () => {
      const user = await createUser(t);
      const mine = (await login(t, user.username, 'Passw0rd1')).body.data.token;
      const other = (await login(t, user.username, 'Passw0rd1')).body.data.token;
      const change = (body: Record<string, string>) => t.api.post('/system/user/profile/change/password', mine, body);

      const short = await change({ oldPassword: 'Passw0rd1', newPassword: 'Ab1', confirmPassword: 'Ab1' });
      expect(short.status).toBe(400);
      expect(short.body.tipMsg).toBe('newPassword: 密码长度为8-20位');
      const long = await change({ oldPassword: 'Passw0rd1', newPassword: 'Ab1'.repeat(7), confirmPassword: 'Ab1'.repeat(7) });
      expect(long.body.tipMsg).toBe('newPassword: 密码长度为8-20位');
      const oneClass = await change({ oldPassword: 'Passw0rd1', newPassword: 'abcdefghijk', confirmPassword: 'abcdefghijk' });
      expect(oneClass.status).toBe(400);
      expect(oneClass.body.tipMsg).toBe('newPassword: 密码须至少包含大写字母、小写字母、数字中的两种');
      const differs = await change({ oldPassword: 'Passw0rd1', newPassword: 'NewPassw0rd', confirmPassword: 'NewPassw0rX' });
      expect(differs.status).toBe(400);
      expect(differs.body.tipMsg).toBe('confirmPassword: 两次输入的密码不一致');
      const wrongOld = await change({ oldPassword: 'Nope12345', newPassword: 'NewPassw0rd', confirmPassword: 'NewPassw0rd' });
      expect(wrongOld.status).toBe(406);
      expect(wrongOld.body.tipMsg).toBe('原密码不正确');
      const same = await change({ oldPassword: 'Passw0rd1', newPassword: 'Passw0rd1', confirmPassword: 'Passw0rd1' });
      expect(same.body.tipMsg).toBe('新密码不能与原密码相同');
      const missing = await change({ oldPassword: 'Passw0rd1', newPassword: 'NewPassw0rd' });
      expect(missing.body.tipMsg).toBe('confirmPassword不能为空');
      // Nothing changed so far.
      expect((await profile(t, other)).status).toBe(200);

      const done = await change({ oldPassword: 'Passw0rd1', newPassword: 'NewPassw0rd', confirmPassword: 'NewPassw0rd' });
      expect(done.body.errorCode).toBe('00000');
      expect((await profile(t, mine)).status).toBe(200);
      expect((await profile(t, other)).status).toBe(401);
      expect((await login(t, user.username, 'Passw0rd1')).body.errorCode).toBe('A0101');
      expect((await login(t, user.username, 'NewPassw0rd')).body.errorCode).toBe('00000');
    });

    it('change info: checks phone and e-mail formats and saves valid values', async () => {
      const user = await createUser(t);
      const token = (await login(t, user.username, 'Passw0rd1')).body.data.token;
      const change = (body: Record<string, unknown>) => t.api.post('/system/user/profile/change/info', token, body);
      for (const phone of ['abc', '12', '+86 138-0000-0000-0000-00', '138 0000 000x']) {
        const r = await change({ name: '张三', phone });
        expect(r.status, phone).toBe(400);
        expect(r.body.tipMsg, phone).toContain('手机号格式不正确');
      }
      for (const email of ['x@', 'no-at.example.com', 'a b@example.com']) {
        const r = await change({ name: '张三', email });
        expect(r.status, email).toBe(400);
        expect(r.body.tipMsg, email).toContain('邮箱格式不正确');
      }
      expect((await change({ phone: '13800000000' })).body.tipMsg).toBe('name不能为空');
      const ok = await change({ name: '张三', phone: '+86 138-0000-0000', email: 'zhang@example.com' });
      expect(ok.body.errorCode).toBe('00000');
      expect((await profile(t, token)).body.data).toMatchObject({ name: '张三', phone: '+86 138-0000-0000', email: 'zhang@example.com' });
      // Empty strings clear the optional fields.
      await change({ name: '张三', phone: '', email: '' });
      expect((await profile(t, token)).body.data).toMatchObject({ phone: null, email: null });
    });
  });

  describe('session limits', () => {
    let t: TestApp;
    beforeAll(async () => {
      // Idle limit 1.2 s, absolute limit 3.6 s.
      t = await startTestApp(target, { SESSION_IDLE_MINUTES: '0.02', SESSION_MAX_HOURS: '0.001' });
    });
    afterAll(async () => t?.stop());

    it('ends an idle session (401)', async () => {
      const user = await createUser(t);
      const token = (await login(t, user.username, 'Passw0rd1')).body.data.token;
      expect((await profile(t, token)).status).toBe(200);
      await sleep(1500);
      const r = await profile(t, token);
      expect(r.status).toBe(401);
      expect(r.body.errorCode).toBe('A0100');
    });

    it('ends a session at its absolute limit even when it is active (401)', async () => {
      const user = await createUser(t);
      const r = await login(t, user.username, 'Passw0rd1');
      const token = r.body.data.token;
      expect(new Date(r.body.data.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(3600);
      const keepAlive = () => t.ctx.db.update(session).set({ lastSeenAt: new Date() }).where(eq(session.userId, user.id));
      await sleep(1000);
      await keepAlive();
      expect((await profile(t, token)).status).toBe(200);
      await sleep(1000);
      await keepAlive();
      expect((await profile(t, token)).status).toBe(200);
      await sleep(1800);
      await keepAlive();
      expect((await profile(t, token)).status).toBe(401);
    });
  });

  describe('per-address rate limit on sign-in', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(target, { LOGIN_RATE_LIMIT_PER_MINUTE: '3' });
    });
    afterAll(async () => t?.stop());

    it('refuses the 4th attempt a minute from one address with 429 A0105, but not other addresses or other calls', async () => {
      const user = await createUser(t);
      const ip = randomIp();
      for (let i = 0; i < 3; i++) {
        const r = await login(t, user.username, i === 2 ? 'Passw0rd1' : 'Wrong1234', { 'x-forwarded-for': ip });
        expect(r.status, `attempt ${i + 1}`).not.toBe(429);
      }
      const over = await login(t, user.username, 'Passw0rd1', { 'x-forwarded-for': ip });
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({ errorCode: 'A0105', data: null });
      expect(over.body.tipMsg).toBeTruthy();
      expect(over.headers.get('retry-after')).toBeTruthy();

      const elsewhere = await login(t, user.username, 'Passw0rd1', { 'x-forwarded-for': randomIp() });
      expect(elsewhere.body.errorCode).toBe('00000');
      // Only the sign-in route is limited.
      for (let i = 0; i < 5; i++) {
        expect((await t.api.call('GET', '/system/user/profile/info', { token: t.adminToken, headers: { 'x-forwarded-for': ip } })).status).toBe(200);
      }
      // The refused attempt never reached the password check, but it is in the login log.
      const logged = await t.ctx.db.select().from(loginLog).where(and(eq(loginLog.username, user.username), eq(loginLog.ip, ip))).orderBy(loginLog.id);
      expect(logged.map((r) => [r.success, r.reason])).toEqual([[false, 'wrong password'], [false, 'wrong password'], [true, null], [false, 'rate limited']]);
    });

    it('writes every attempt to the login log, those the rate limit refused too', async () => {
      const user = await createUser(t);
      const ip = randomIp();
      const headers = { 'x-forwarded-for': ip, 'user-agent': 'flood/1.0' };
      const answers = [];
      for (let i = 0; i < 10; i++) answers.push((await login(t, user.username, 'Wrong1234', headers)).status);
      await login(t, `ghost-${uniq()}`, 'Wrong1234', headers);
      expect(answers.filter((s) => s === 429)).toHaveLength(7);
      const rows = await t.ctx.db.select().from(loginLog).where(eq(loginLog.ip, ip)).orderBy(loginLog.id);
      expect(rows).toHaveLength(11);
      expect(rows.map((r) => r.reason)).toEqual([...Array<string>(3).fill('wrong password'), ...Array<string>(8).fill('rate limited')]);
      for (const r of rows.slice(3, 10)) expect(r).toMatchObject({ success: false, userId: user.id, companyId: user.companyId, username: user.username, userAgent: 'flood/1.0' });
      expect(rows[10]).toMatchObject({ userId: null, companyId: null });
    });

    it.skipIf(!REDIS_UP)('shares the count between instances through Redis', async () => {
      const a = await startTestApp(target, { REDIS_URL: REDIS_TEST_URL });
      try {
        const b = await startTestApp(target, { REDIS_URL: REDIS_TEST_URL }, target === 'postgres' ? { databaseUrl: a.ctx.config.databaseUrl! } : undefined);
        try {
          // Lowered after start (the limit is read per request), so the harness's own sign-ins are not counted against it.
          a.ctx.config.loginRateLimitPerMinute = 3;
          b.ctx.config.loginRateLimitPerMinute = 3;
          const ip = randomIp();
          const headers = { 'x-forwarded-for': ip };
          expect((await login(a, 'nobody', 'Wrong1234', headers)).status).toBe(406);
          expect((await login(b, 'nobody', 'Wrong1234', headers)).status).toBe(406);
          expect((await login(a, 'nobody', 'Wrong1234', headers)).status).toBe(406);
          const over = await login(b, 'nobody', 'Wrong1234', headers);
          expect(over.status).toBe(429);
          expect(over.body.errorCode).toBe('A0105');
          expect((await login(a, 'nobody', 'Wrong1234', headers)).status).toBe(429);
        } finally {
          await b.close();
        }
      } finally {
        await a.stop();
      }
    });
  });
});
