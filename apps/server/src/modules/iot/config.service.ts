import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  CONNECTION_FAILED, CONNECTION_SUCCEEDED, IOT_ERRORS, IOT_PLATFORM_OPTIONS, type IotConfigRecord, type IotConnectResult, type IotPlatform, type iotConfigAdd, type iotConfigEdit,
  type iotConfigFilter, type iotConfigPage,
} from '@ess/contract/iot';
import { iotConfig } from '../../db/schema/iot.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { assertCompany, inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';
import { uniquely } from './unique.ts';
import { SecretError, secretBox } from '../../platform/secrets.ts';
import { ADAPTERS, PlatformError, type LiveTarget, type PlatformSession } from './adapters/index.ts';

/**
 * IoT applications (decision 0048): a company's connection to a platform. The password is sealed
 * at rest (purpose "iot.password") and leaves only as `passwordSet`; it is opened only to sign in
 * to the platform. Add and edit sign in first: an address nothing answers at, or credentials the
 * platform refuses, are refused (406 with the platform's reason) and nothing is stored.
 */
export const IOT_PASSWORD = 'iot.password';
/** How long one platform call may take. */
export const IOT_TIMEOUT_MS = 10_000;

const count = (table: string) => sql<number>`(select count(*) from ${sql.raw(table)} x where x.config_id = "iot_config"."id")`.mapWith(Number);

const configs = defineListQuery({
  table: iotConfig,
  columns: {
    id: iotConfig.id, companyId: iotConfig.companyId, companyName: company.name, name: iotConfig.name, platform: iotConfig.platform, baseUrl: iotConfig.baseUrl,
    username: iotConfig.username, requireApproval: iotConfig.requireApproval, enabled: iotConfig.enabled, remark: iotConfig.remark,
    lastConnectAt: iotConfig.lastConnectAt, lastConnectOk: iotConfig.lastConnectOk, lastConnectReason: iotConfig.lastConnectReason, lastSyncAt: iotConfig.lastSyncAt,
    productCount: count('iot_product'), deviceCount: count('iot_device'), createdAt: iotConfig.createdAt, updatedAt: iotConfig.updatedAt, createdByName: appUser.name,
  },
  joins: [
    { table: company, on: eq(company.id, iotConfig.companyId) },
    { table: appUser, on: eq(appUser.id, iotConfig.createdBy), left: true },
  ],
  scope: (db, user) => inCompanyScope(iotConfig.companyId, db, user),
  filter: (f: z.output<typeof iotConfigFilter>) => [
    f.name ? likeEscaped(iotConfig.name, f.name) : undefined,
    f.companyId ? eq(iotConfig.companyId, f.companyId) : undefined,
    f.platform ? eq(iotConfig.platform, f.platform) : undefined,
    f.enabled === undefined ? undefined : eq(iotConfig.enabled, f.enabled),
  ],
  orderBy: [asc(iotConfig.companyId), asc(iotConfig.name), asc(iotConfig.id)],
  sortable: { name: iotConfig.name, platform: iotConfig.platform, createdAt: iotConfig.createdAt },
  // The sealed password is not among the columns: it cannot leave by a list.
  toRecord: ({ createdByName: _by, ...r }): IotConfigRecord => ({
    ...r,
    platform: r.platform as IotPlatform,
    passwordSet: true,
    lastConnectAt: r.lastConnectAt?.toISOString() ?? null,
    lastSyncAt: r.lastSyncAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }),
});

export const configPage = (ctx: AppContext, user: AuthUser, req: z.output<typeof iotConfigPage>) => configs.page(ctx.db, user, req);
export const configList = (ctx: AppContext, user: AuthUser, f: z.output<typeof iotConfigFilter>) => configs.list(ctx.db, user, f, 500);
export const configOptionals = () => IOT_PLATFORM_OPTIONS;

export async function configOne(ctx: AppContext, user: AuthUser, id: number): Promise<IotConfigRecord> {
  const [r] = await configs.rows(ctx.db, and(eq(iotConfig.id, id), inCompanyScope(iotConfig.companyId, ctx.db, user)), 1);
  return found(r, IOT_ERRORS.configNotFound);
}

export type StoredConfig = typeof iotConfig.$inferSelect;

/** The application row, if the caller's scope holds it (else 404, as if it did not exist). */
export async function storedConfig(db: DbOrTx, user: AuthUser, id: number): Promise<StoredConfig> {
  const [r] = await db.select().from(iotConfig).where(and(eq(iotConfig.id, id), inCompanyScope(iotConfig.companyId, db, user)));
  return found(r, IOT_ERRORS.configNotFound);
}

const box = (ctx: AppContext) => secretBox(ctx.config.secretKey);

/**
 * Signs in to the application's platform (PlatformError when it cannot). A platform's error
 * words are shown to the user and recorded: a platform that echoes the request it got must not
 * carry the password out, so every error of the session has it (plain, URL-encoded, base64, JSON
 * escaped) blacked out.
 */
export async function signIn(ctx: AppContext, c: { platform: string; baseUrl: string; username: string; password: string }): Promise<PlatformSession> {
  const adapter = ADAPTERS[c.platform as IotPlatform];
  if (!adapter) throw new PlatformError('protocol', `unsupported platform ${c.platform}`);
  const clean = <A extends unknown[], R>(f: (...a: A) => Promise<R>) => async (...a: A): Promise<R> => {
    try {
      return await f(...a);
    } catch (err) {
      throw scrubbed(err, c.password);
    }
  };
  const session = await clean(() => adapter.login({ baseUrl: c.baseUrl, username: c.username, password: c.password, timeoutMs: IOT_TIMEOUT_MS }))();
  return {
    whoami: clean(() => session.whoami()),
    products: clean(() => session.products()),
    product: clean((id: string) => session.product(id)),
    devices: clean(() => session.devices()),
    device: clean((id: string) => session.device(id)),
    subscribe: clean((devices: Parameters<PlatformSession['subscribe']>[0], sink: Parameters<PlatformSession['subscribe']>[1]) => session.subscribe(devices, sink)),
    invoke: clean((target: LiveTarget, method: string, params: Record<string, unknown>, timeoutMs: number) => session.invoke(target, method, params, timeoutMs)),
  };
}

function scrubbed(err: unknown, secret: string): unknown {
  if (!(err instanceof PlatformError) || !secret) return err;
  let m = err.message;
  for (const form of [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64'), JSON.stringify(secret).slice(1, -1)]) m = m.split(form).join('[redacted]');
  return m === err.message ? err : new PlatformError(err.kind, m);
}

/** A stored application's session (PlatformError or SecretError when it cannot sign in; the caller words the refusal). */
export function sessionOf(ctx: AppContext, c: StoredConfig): Promise<PlatformSession> {
  if (!c.enabled) throw new AppError('RULE_VIOLATION', IOT_ERRORS.configDisabled);
  return signIn(ctx, { ...c, password: box(ctx).open(c.passwordEnc, IOT_PASSWORD) });
}

/** The words of a platform failure for the user (never a secret: the adapters do not echo it). */
export function reasonOf(err: unknown): string {
  if (err instanceof PlatformError) return err.message.slice(0, 400);
  if (err instanceof SecretError) return '已保存的密码无法解密（SECRET_KEY 已更换），请重新输入密码';
  throw err;
}
export const refusal = (err: unknown) => new AppError('RULE_VIOLATION', IOT_ERRORS.connectionFailed(reasonOf(err)));

async function verified(ctx: AppContext, c: { platform: string; baseUrl: string; username: string; password: string }): Promise<void> {
  try {
    const session = await signIn(ctx, c);
    await session.whoami();
  } catch (err) {
    throw refusal(err);
  }
}


export async function configAdd(ctx: AppContext, user: AuthUser, b: z.output<typeof iotConfigAdd>): Promise<{ id: number }> {
  await assertCompany(ctx.db, user, b.companyId);
  const [dup] = await ctx.db.select({ id: iotConfig.id }).from(iotConfig).where(and(eq(iotConfig.companyId, b.companyId), eq(iotConfig.name, b.name)));
  if (dup) throw new AppError('DUPLICATE', IOT_ERRORS.nameTaken);
  await verified(ctx, b);
  const { password, ...rest } = b;
  const [row] = await uniquely(() =>
    ctx.db.insert(iotConfig).values({ ...rest, passwordEnc: box(ctx).seal(password, IOT_PASSWORD), createdBy: user.id }).returning({ id: iotConfig.id }), IOT_ERRORS.nameTaken);
  return { id: row!.id };
}

/**
 * Edit: the company cannot change (the synchronised rows and relations are that company's). An
 * absent password keeps the stored one, unless the address or the user changed: the stored
 * password is not sent to another place or account.
 */
export async function configEdit(ctx: AppContext, user: AuthUser, b: z.output<typeof iotConfigEdit>): Promise<boolean> {
  const old = await storedConfig(ctx.db, user, b.id);
  if (b.companyId !== old.companyId) throw new AppError('RULE_VIOLATION', '物联网应用的所属公司不能修改');
  if (b.platform !== old.platform) throw new AppError('RULE_VIOLATION', '物联网应用的平台类型不能修改');
  let password = b.password;
  if (password === undefined) {
    if (old.baseUrl !== b.baseUrl || old.username !== b.username) throw new AppError('INVALID_PARAM', IOT_ERRORS.secretMoved);
    try {
      password = box(ctx).open(old.passwordEnc, IOT_PASSWORD);
    } catch (err) {
      throw refusal(err);
    }
  }
  if (b.enabled) await verified(ctx, { ...b, password });
  const { id, password: _p, companyId: _c, ...rest } = b;
  await uniquely(() =>
    ctx.db.update(iotConfig).set({ ...rest, passwordEnc: box(ctx).seal(password, IOT_PASSWORD), updatedAt: new Date() }).where(eq(iotConfig.id, id)), IOT_ERRORS.nameTaken);
  return true;
}

/** Deleting an application deletes what its syncs read and its relations (its company's own data). */
export async function configDelete(ctx: AppContext, user: AuthUser, id: number): Promise<boolean> {
  const c = await storedConfig(ctx.db, user, id);
  await ctx.db.delete(iotConfig).where(eq(iotConfig.id, c.id));
  return true;
}

/** The connection test (200 either way): sign in and ask who we are; the outcome is kept on the application. */
export async function configConnect(ctx: AppContext, user: AuthUser, id: number): Promise<IotConnectResult> {
  const c = await storedConfig(ctx.db, user, id);
  const started = performance.now();
  let result: IotConnectResult;
  try {
    const session = await signIn(ctx, { ...c, password: box(ctx).open(c.passwordEnc, IOT_PASSWORD) });
    await session.whoami();
    result = { ok: true, message: CONNECTION_SUCCEEDED, reason: null, latencyMs: Math.round(performance.now() - started) };
  } catch (err) {
    result = { ok: false, message: CONNECTION_FAILED, reason: reasonOf(err), latencyMs: Math.round(performance.now() - started) };
  }
  await ctx.db.update(iotConfig).set({ lastConnectAt: new Date(), lastConnectOk: result.ok, lastConnectReason: result.reason }).where(eq(iotConfig.id, c.id));
  return result;
}
