import { randomBytes } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import svgCaptcha from 'svg-captcha';
import { appUser, captcha, loginLog, session } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
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

interface LoginInput {
  username: string;
  password: string;
  captchaId?: string;
  captchaCode?: string;
  ip: string;
  userAgent: string | null;
}

export async function login(ctx: AppContext, input: LoginInput) {
  const { config, db } = ctx;
  const record = async (success: boolean, reason: string | null, userId: number | null, companyId: number | null) => {
    await db.insert(loginLog).values({
      username: input.username.slice(0, 64), userId, companyId, ip: input.ip, userAgent: input.userAgent?.slice(0, 256) ?? null, success, reason,
    });
  };
  if (config.captchaEnabled && !(await consumeCaptcha(ctx, input.captchaId, input.captchaCode))) {
    await record(false, 'captcha', null, null);
    throw new AppError('CAPTCHA_INVALID');
  }
  const [user] = await db.select().from(appUser).where(sql`lower(${appUser.username}) = lower(${input.username})`);
  if (!user) {
    await burnTime(input.password);
    await record(false, 'unknown user', null, null);
    throw new AppError('BAD_CREDENTIALS');
  }
  const now = Date.now();
  if (user.lockedUntil && user.lockedUntil.getTime() > now) {
    await record(false, 'locked', user.id, user.companyId);
    throw new AppError('ACCOUNT_LOCKED');
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    const windowOpen = user.failedSince && now - user.failedSince.getTime() < config.loginFailureWindowMs;
    const failedCount = windowOpen ? user.failedCount + 1 : 1;
    const lock = failedCount >= config.loginMaxFailures;
    await db
      .update(appUser)
      .set({
        failedCount: lock ? 0 : failedCount,
        failedSince: windowOpen ? user.failedSince : new Date(now),
        lockedUntil: lock ? new Date(now + config.loginLockMs) : user.lockedUntil,
      })
      .where(eq(appUser.id, user.id));
    await record(false, lock ? 'wrong password, locked' : 'wrong password', user.id, user.companyId);
    throw new AppError(lock ? 'ACCOUNT_LOCKED' : 'BAD_CREDENTIALS');
  }
  if (user.status !== 1) {
    await record(false, 'disabled', user.id, user.companyId);
    throw new AppError('ACCOUNT_DISABLED');
  }
  const token = newToken();
  await db.transaction(async (tx) => {
    await tx
      .update(appUser)
      .set({ failedCount: 0, failedSince: null, lockedUntil: null, lastLoginAt: new Date(now) })
      .where(eq(appUser.id, user.id));
    await tx.insert(session).values({
      tokenHash: hashToken(token),
      userId: user.id,
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, 256) ?? null,
      expiresAt: new Date(now + config.sessionMaxMs),
    });
  });
  await record(true, null, user.id, user.companyId);
  return { token, expiresAt: new Date(now + config.sessionMaxMs).toISOString() };
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
