import { and, desc, eq, gt, sql } from 'drizzle-orm';
import {
  SECONDARY_PASSWORD_TTL_MS, THING_MODEL, writableProperties,
  type CommandName, type CommandPayload, type ControlResult, type DeviceRecord, type DeviceType, type PasswordCheckResult, type TelemetryValue,
} from '@ess/contract';
import { deviceOperation } from '../../db/schema/monitor.ts';
import { appUser } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { deviceOne } from '../device/index.ts';
import { platformCommand } from '../iot/index.ts';
import { verifyPassword } from '../../platform/password.ts';
import { commandChannel } from './command.channel.ts';
import { assertType } from './monitor.service.ts';

/**
 * Critical remote operations (product-spec §6): they change what a device does or hide its
 * faults, so they need the secondary password (docs/decisions/0007-secondary-password.md).
 * `temperature` (a set point within the thing model's range) does not.
 */
export const CRITICAL_COMMANDS: ReadonlySet<CommandName> = new Set(['reboot', 'setProperty', 'switch', 'faultRecover', 'remoteSet', 'warnMask', 'storageMode']);

type Journal = Omit<typeof deviceOperation.$inferInsert, 'userId' | 'username' | 'companyId' | 'sessionId' | 'path'>;

async function journal(db: DbOrTx, user: AuthUser, path: string, row: Journal): Promise<void> {
  await db.insert(deviceOperation).values({
    userId: user.id, username: user.username, companyId: user.companyId, sessionId: user.sessionId, path, ...row,
  });
}

const deviceOf = (d: DeviceRecord | null) => (d ? { deviceId: d.id, deviceCode: d.code, siteId: d.siteId } : {});

/**
 * The lock's refusal while the user's wrong secondary passwords since their last right one,
 * within the sign-in failure window, reach the sign-in limit (locked for the sign-in lock time
 * after the last failure); null when not locked.
 */
async function lockRefusal(ctx: AppContext, db: DbOrTx, user: AuthUser): Promise<AppError | null> {
  const { loginMaxFailures, loginFailureWindowMs, loginLockMs } = ctx.config;
  const since = new Date(Date.now() - Math.max(loginFailureWindowMs, loginLockMs));
  const [lastOk] = await db
    .select({ at: deviceOperation.createdAt })
    .from(deviceOperation)
    .where(and(eq(deviceOperation.userId, user.id), eq(deviceOperation.passwordOk, true), gt(deviceOperation.createdAt, since)))
    .orderBy(desc(deviceOperation.createdAt))
    .limit(1);
  const from = lastOk && lastOk.at > since ? lastOk.at : since;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int`, last: sql<Date | null>`max(${deviceOperation.createdAt})` })
    .from(deviceOperation)
    .where(and(eq(deviceOperation.userId, user.id), eq(deviceOperation.passwordOk, false), gt(deviceOperation.createdAt, from)));
  const n = row?.n ?? 0;
  const last = row?.last ? new Date(row.last).getTime() : 0;
  return n >= loginMaxFailures && Date.now() - last < loginLockMs
    ? new AppError('ACCOUNT_LOCKED', '二级密码错误次数过多，已临时锁定，请稍后再试')
    : null;
}

/**
 * Checks an entered secondary password; a refusal is journaled and thrown, a right one returns
 * for the caller to journal with its outcome. As at sign-in, the password is checked first and
 * settled after, one attempt of the user at a time (a transaction-scoped lock on the user): the
 * lock is read and the refusal journaled together, so concurrent wrong attempts count as the
 * same attempts one after another would, and none slips past a lock an earlier one set. A locked
 * user is refused even with the right password, journaled without a password outcome (a right
 * one would end the lock).
 */
async function settlePassword(ctx: AppContext, user: AuthUser, path: string, password: string, base: Omit<Journal, 'result'>): Promise<void> {
  const ok = await passwordRight(ctx, user, password);
  const refusal = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('ess.secondary_password'), ${user.id}::int)`);
    const locked = await lockRefusal(ctx, tx, user);
    const error = locked ?? (ok ? null : new AppError('SECONDARY_PASSWORD'));
    if (error) await journal(tx, user, path, { ...base, result: 'refused', ...(locked ? {} : { passwordOk: false }), error: error.tip });
    return error;
  });
  if (refusal) throw refusal;
}

/** Whether this session checked the secondary password within SECONDARY_PASSWORD_TTL_MS. */
async function sessionElevated(ctx: AppContext, user: AuthUser): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: deviceOperation.id })
    .from(deviceOperation)
    .where(and(
      eq(deviceOperation.sessionId, user.sessionId), eq(deviceOperation.userId, user.id), eq(deviceOperation.command, 'checkPassword'),
      eq(deviceOperation.passwordOk, true), gt(deviceOperation.createdAt, new Date(Date.now() - SECONDARY_PASSWORD_TTL_MS)),
    ))
    .limit(1);
  return !!row;
}

async function passwordRight(ctx: AppContext, user: AuthUser, password: string): Promise<boolean> {
  const [u] = await ctx.db.select({ hash: appUser.passwordHash }).from(appUser).where(eq(appUser.id, user.id));
  return !!u && (await verifyPassword(u.hash, password));
}

/** POST …/check/password: verifies the secondary password, journals it, opens the session's window. */
export async function checkPassword(ctx: AppContext, user: AuthUser, path: string, b: { deviceId?: number; password: string }): Promise<PasswordCheckResult> {
  const dev = b.deviceId ? await deviceOne(ctx, user, b.deviceId) : null;
  const base = { ...deviceOf(dev), command: 'checkPassword', params: {} };
  await settlePassword(ctx, user, path, b.password, base);
  await journal(ctx.db, user, path, { ...base, result: 'ok', passwordOk: true });
  return { ok: true, validUntil: new Date(Date.now() + SECONDARY_PASSWORD_TTL_MS).toISOString() };
}

/** Checks a setProperty's values against the device type's writable properties (type, enum, range). */
export function checkWritable(type: DeviceType, values: Record<string, TelemetryValue>): void {
  const writable = writableProperties(type);
  for (const [identifier, value] of Object.entries(values)) {
    const p = writable.get(identifier);
    if (!p) throw new AppError('INVALID_PARAM', `values.${identifier}: 不是可写属性`);
    const bad = (why: string) => new AppError('INVALID_PARAM', `values.${identifier}: ${why}`);
    switch (p.dataType) {
      case 'bool':
        if (typeof value !== 'boolean') throw bad('须为布尔值');
        break;
      case 'enum':
        if (typeof value !== 'number' || !(p.enumValues ?? []).some((e) => e.value === value)) {
          throw bad(`须为${(p.enumValues ?? []).map((e) => e.value).join('、')}之一`);
        }
        break;
      case 'int':
      case 'float':
        if (typeof value !== 'number') throw bad('须为数字');
        if (p.dataType === 'int' && !Number.isInteger(value)) throw bad('须为整数');
        if ((p.min !== undefined && value < p.min) || (p.max !== undefined && value > p.max)) throw bad(`须在${p.min ?? '-∞'}~${p.max ?? '∞'}之间`);
        break;
      case 'string':
        if (typeof value !== 'string') throw bad('须为文本');
        break;
    }
  }
}

export interface ControlRequest<C extends CommandName> {
  path: string;
  deviceId: number;
  /** Device types the call serves (all that accept the command when absent). */
  types?: readonly DeviceType[];
  command: C;
  params: Extract<CommandPayload, { command: C }>['params'];
  password?: string;
  /**
   * The call's own checks on the device before anything is sent (e.g. storage control: online, no
   * active fault, set-point within the rating): an AppError it throws is journaled as refused.
   */
  guard?: (dev: DeviceRecord) => Promise<void>;
}

/**
 * One control call: the device in the caller's scope and of a type that accepts the command,
 * the secondary password for critical commands (entered now, or checked in this session within
 * the window), then the command over MQTT and the device's answer, or a timeout. Every outcome
 * once the device is known is journaled.
 */
export async function control<C extends CommandName>(ctx: AppContext, user: AuthUser, r: ControlRequest<C>): Promise<ControlResult> {
  const dev = await deviceOne(ctx, user, r.deviceId);
  if (r.types) assertType(dev, r.types);
  if (!THING_MODEL[dev.type as DeviceType]?.commands.includes(r.command)) {
    throw new AppError('RULE_VIOLATION', `设备${dev.code}不支持此操作（${r.command}）`);
  }
  if (dev.disabled) throw new AppError('RULE_VIOLATION', `设备${dev.code}已禁用`);
  if (r.command === 'setProperty') checkWritable(dev.type as DeviceType, (r.params as { values: Record<string, TelemetryValue> }).values);

  const base = { ...deviceOf(dev), command: r.command, params: r.params as Record<string, unknown> };
  if (r.guard) {
    try {
      await r.guard(dev);
    } catch (err) {
      if (err instanceof AppError) await journal(ctx.db, user, r.path, { ...base, result: 'refused', error: err.tip.slice(0, 500) });
      throw err;
    }
  }
  let passwordOk: boolean | null = null;
  if (CRITICAL_COMMANDS.has(r.command)) {
    if (r.password !== undefined) {
      await settlePassword(ctx, user, r.path, r.password, base);
      passwordOk = true;
    } else if (!(await sessionElevated(ctx, user))) {
      const err = new AppError('SECONDARY_PASSWORD', '请输入二级密码');
      await journal(ctx.db, user, r.path, { ...base, result: 'refused', error: err.tip });
      throw err;
    }
  }

  const channel = commandChannel(ctx);
  const t0 = Date.now();
  let sent: Awaited<ReturnType<NonNullable<typeof channel>['send']>>;
  try {
    // A device fed through an IoT platform gets its commands through the platform (decision 0051).
    const viaPlatform = await platformCommand(ctx, dev.id, r.command, r.params, ctx.config.commandTimeoutMs);
    if (viaPlatform) sent = viaPlatform;
    else {
      if (!channel) throw new Error('no MQTT broker configured');
      sent = await channel.send(dev.siteCode, dev.code, r.command, r.params, ctx.config.commandTimeoutMs);
    }
  } catch (err) {
    if (err instanceof AppError) {
      await journal(ctx.db, user, r.path, { ...base, result: 'refused', passwordOk, error: err.tip.slice(0, 500) });
      throw err;
    }
    ctx.log.warn({ err: (err as Error).message, device: dev.code }, 'command not sent');
    await journal(ctx.db, user, r.path, { ...base, result: 'failed', passwordOk, error: (err as Error).message.slice(0, 500), durationMs: Date.now() - t0 });
    throw new AppError('UNAVAILABLE', '设备通信服务不可用，请稍后再试');
  }
  const { requestId, outcome } = sent;
  if (outcome.kind === 'timeout') {
    await journal(ctx.db, user, r.path, { ...base, requestId, result: 'timeout', passwordOk, durationMs: outcome.durationMs });
    throw new AppError('DEVICE_TIMEOUT', `设备${dev.code}未在${Math.round(ctx.config.commandTimeoutMs / 100) / 10}秒内应答`);
  }
  const { reply, durationMs } = outcome;
  await journal(ctx.db, user, r.path, {
    ...base, requestId, result: reply.ok ? 'ok' : 'error', passwordOk, durationMs,
    ...(reply.result ? { response: reply.result } : {}), ...(reply.error ? { error: reply.error.slice(0, 500) } : {}),
  });
  if (!reply.ok) throw new AppError('RULE_VIOLATION', `设备拒绝执行：${reply.error ?? '未说明原因'}`);
  return { requestId, command: r.command, ok: true, result: reply.result ?? {}, durationMs };
}
