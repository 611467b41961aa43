import { randomBytes } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import svgCaptcha from 'svg-captcha';
import { appUser, captcha, loginLog, session } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { hashToken, newToken } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { hashPassword, verifyPassword } from '../../platform/password.ts';

const CAPTCHA_TTL_MS = 5 * 60_000;
export const CAPTCHA_COOKIE = 'ess_captcha';


/** Spends the same time on unknown usernames as on wrong passwords. */
let dummyHash: Promise<string> | null = null;
const burnTime = async (plain: string) => {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, plain);
};

export async function issueCaptcha(ctx: AppContext) {
  const c = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1ilI', color: true, background: '#f5f7fa' });
  const id = randomBytes(18).toString('base64url');
  await ctx.db.delete(captcha).where(lt(captcha.expiresAt, new Date()));
  await ctx.db.insert(captcha).values({ id, code: c.text.toLowerCase(), expiresAt: new Date(Date.now() + CAPTCHA_TTL_MS) });
  return { id, svg: c.data };
}

/** Single use: the captcha is deleted whether the code matches or not. */
async function consumeCaptcha(ctx: AppContext, id: string | undefined, code: string | undefined) {
  if (!id || !code) return false;
  const [row] = await ctx.db.delete(captcha).where(eq(captcha.id, id)).returning();
  return !!row && row.expiresAt.getTime() > Date.now() && row.code === code.trim().toLowerCase();
}

interface Attempt {
  username: string;
  ip: string;
  userAgent: string | null;
  /** The console's language (Client-Language): kept on the account at sign-in, for what the server writes to the user. */
  language?: string;
}

interface LoginInput extends Attempt {
  password: string;
  captchaId?: string;
  captchaCode?: string;
}

type AccountRef = { id: number; companyId: number | null } | null | undefined;

/** One row of the login log: every sign-in attempt, whatever its outcome. */
async function recordAttempt(ctx: AppContext, a: Attempt, success: boolean, reason: string | null, user: AccountRef) {
  await ctx.db.insert(loginLog).values({
    username: a.username.slice(0, 64),
    userId: user?.id ?? null,
    companyId: user?.companyId ?? null,
    ip: a.ip,
    userAgent: a.userAgent?.slice(0, 256) ?? null,
    success,
    reason,
  });
}

const accountOf = (db: DbOrTx, username: string) => db.select().from(appUser).where(sql`lower(${appUser.username}) = lower(${username})`);

/** An attempt the per-address rate limit refused (429) before it was checked: logged all the same. */
export async function recordRateLimited(ctx: AppContext, a: Attempt) {
  const [user] = a.username ? await accountOf(ctx.db, a.username) : [];
  await recordAttempt(ctx, a, false, 'rate limited', user);
}

type Outcome = { reason: 'locked' | 'wrong password' | 'wrong password, locked' | 'disabled' } | { reason: null; token: string; expiresAt: Date };

/**
 * Settles a checked password against the account in one transaction that holds the account's
 * row: a failure is counted (and may lock) and a success is accepted only while the account is
 * not locked, so concurrent attempts, on one instance or many, count as the same attempts one
 * after another would. The lock is read here, after the password check, never before it.
 */
function settle(ctx: AppContext, userId: number, passwordOk: boolean, a: Attempt): Promise<Outcome> {
  const { config } = ctx;
  return ctx.db.transaction(async (tx): Promise<Outcome> => {
    const [u] = await tx.select().from(appUser).where(eq(appUser.id, userId)).for('update');
    const now = Date.now();
    if (!u || (u.lockedUntil && u.lockedUntil.getTime() > now)) return { reason: 'locked' };
    if (!passwordOk) {
      const windowOpen = u.failedSince && now - u.failedSince.getTime() < config.loginFailureWindowMs;
      const failedCount = windowOpen ? u.failedCount + 1 : 1;
      const lock = failedCount >= config.loginMaxFailures;
      await tx
        .update(appUser)
        .set({
          failedCount: lock ? 0 : failedCount,
          failedSince: windowOpen ? u.failedSince : new Date(now),
          lockedUntil: lock ? new Date(now + config.loginLockMs) : u.lockedUntil,
        })
        .where(eq(appUser.id, u.id));
      return { reason: lock ? 'wrong password, locked' : 'wrong password' };
    }
    if (u.status !== 1) return { reason: 'disabled' };
    const token = newToken();
    const expiresAt = new Date(now + config.sessionMaxMs);
    await tx
      .update(appUser)
      .set({ failedCount: 0, failedSince: null, lockedUntil: null, lastLoginAt: new Date(now), ...(a.language ? { language: a.language } : {}) })
      .where(eq(appUser.id, u.id));
    await tx.insert(session).values({
      tokenHash: hashToken(token),
      userId: u.id,
      ip: a.ip,
      userAgent: a.userAgent?.slice(0, 256) ?? null,
      expiresAt,
    });
    return { reason: null, token, expiresAt };
  });
}

/**
 * Signs in. An unknown user, a wrong password and a locked account answer alike (A0101, after
 * the same password check), so neither the answer nor its time tells whether an account exists
 * or is locked; the login log keeps the real reason.
 */
export async function login(ctx: AppContext, input: LoginInput) {
  if (ctx.config.captchaEnabled && !(await consumeCaptcha(ctx, input.captchaId, input.captchaCode))) {
    await recordAttempt(ctx, input, false, 'captcha', null);
    throw new AppError('CAPTCHA_INVALID');
  }
  const [user] = await accountOf(ctx.db, input.username);
  if (!user) {
    await burnTime(input.password);
    await recordAttempt(ctx, input, false, 'unknown user', null);
    throw new AppError('BAD_CREDENTIALS');
  }
  const outcome = await settle(ctx, user.id, await verifyPassword(user.passwordHash, input.password), input);
  await recordAttempt(ctx, input, outcome.reason === null, outcome.reason, user);
  if (outcome.reason === 'disabled') throw new AppError('ACCOUNT_DISABLED');
  if (outcome.reason !== null) throw new AppError('BAD_CREDENTIALS');
  return { token: outcome.token, expiresAt: outcome.expiresAt.toISOString() };
}

export async function logout(ctx: AppContext, sessionId: number) {
  await ctx.db.update(session).set({ revokedAt: new Date() }).where(and(eq(session.id, sessionId)));
}

/** Ends every session of the users at once (disabled accounts, changed passwords). */
export async function revokeUserSessions(ctx: AppContext, userIds: number[], exceptSessionId?: number) {
  for (const userId of userIds) {
    await ctx.db
      .update(session)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(session.userId, userId),
          sql`${session.revokedAt} is null`,
          exceptSessionId ? sql`${session.id} <> ${exceptSessionId}` : undefined,
        ),
      );
  }
  await ctx.sse.revoke(userIds, exceptSessionId);
}
