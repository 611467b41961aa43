import { and, asc, count, desc, eq, inArray, like, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  LiveEventData, NotificationLogSortField, NotificationSetSortField, NotificationSortField, PageRequest, PushMode, PushResult, SettingSaved,
  SettingStatus, TargetType, notificationLogPage, notificationPage, notificationRead, notificationSetAdd, notificationSetPage,
} from '@ess/contract';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@ess/contract';
import { appUser, company, notification, notificationLog, notificationSetting, role, userRole } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx, Tx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';

type SettingInput = z.infer<typeof notificationSetAdd>;
type Setting = typeof notificationSetting.$inferSelect;

export const PUSH_JOB = 'notification.push';
export interface PushJobData {
  id: number;
  /** The pushAt the job was scheduled for; an edited setting's old jobs no longer match. */
  pushAt: string;
}

const INSERT_CHUNK = 1000;

/**
 * The varchar columns of settings and logs hold only the contract's values (every write goes
 * through its schemas and this module); these say so to the type checker.
 */
const typedSetting = <T extends { pushMode: string; targetType: string; status: string }>(r: T) => ({
  ...r,
  pushMode: r.pushMode as PushMode,
  targetType: r.targetType as TargetType,
  status: r.status as SettingStatus,
});
const typedLog = <T extends { status: string }>(r: T) => ({ ...r, status: r.status as PushResult });

// ---------------------------------------------------------------------------------------------
// The signed-in user's own inbox

const inboxColumns = {
  id: notification.id,
  settingId: notification.settingId,
  title: notification.title,
  content: notification.content,
  read: notification.read,
  readAt: notification.readAt,
  createdAt: notification.createdAt,
};

const inbox = defineListQuery({
  table: notification,
  columns: inboxColumns,
  // The scope of an inbox is its owner.
  scope: (_db, user) => eq(notification.userId, user.id),
  filter: (f: z.infer<typeof notificationPage>) => [
    f.title ? likeEscaped(notification.title, f.title) : undefined,
    f.read === undefined ? undefined : eq(notification.read, f.read),
  ],
  orderBy: [desc(notification.createdAt), desc(notification.id)],
  sortable: {
    read: notification.read, title: notification.title, content: notification.content, createdAt: notification.createdAt, readAt: notification.readAt,
  } satisfies Record<NotificationSortField, unknown>,
});

export const inboxPage = (ctx: AppContext, user: AuthUser, req: z.infer<typeof notificationPage>) => inbox.page(ctx.db, user, req);

export async function inboxCount(ctx: AppContext, user: AuthUser) {
  const [row] = await ctx.db
    .select({ total: count(), unread: sql<number>`count(*) filter (where ${notification.read} = false)`.mapWith(Number) })
    .from(notification)
    .where(eq(notification.userId, user.id));
  return { unread: row?.unread ?? 0, total: row?.total ?? 0 };
}

export async function inboxOne(ctx: AppContext, user: AuthUser, id: number) {
  const [row] = await ctx.db
    .select(inboxColumns)
    .from(notification)
    .where(and(eq(notification.id, id), eq(notification.userId, user.id)));
  return found(row, '通知不存在');
}

/** Marks the caller's notifications read (the given ones, or all), then tells their streams the new count. */
export async function markRead(ctx: AppContext, user: AuthUser, req: z.infer<typeof notificationRead>) {
  const updated = await ctx.db
    .update(notification)
    .set({ read: true, readAt: new Date() })
    .where(
      and(
        eq(notification.userId, user.id),
        eq(notification.read, false),
        req.all === true ? undefined : inArray(notification.id, req.ids ?? []),
      ),
    )
    .returning({ id: notification.id });
  const unread = (await unreadCounts(ctx.db, [user.id])).get(user.id) ?? 0;
  await sendLive(ctx, () => ctx.sse.send([user.id], 'Unread', { count: unread } satisfies LiveEventData<'Unread'>));
  return { updated: updated.length, unread };
}

async function unreadCounts(db: DbOrTx, userIds: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>(userIds.map((id) => [id, 0]));
  if (userIds.length === 0) return out;
  const rows = await db
    .select({ userId: notification.userId, n: count() })
    .from(notification)
    .where(and(inArray(notification.userId, userIds), eq(notification.read, false)))
    .groupBy(notification.userId);
  for (const r of rows) out.set(r.userId, r.n);
  return out;
}

/** Live events are best effort: the data is committed, a lost event is fixed by the next page load. */
async function sendLive(ctx: AppContext, fn: () => Promise<void>) {
  try {
    await fn();
  } catch (err) {
    ctx.log.warn({ err }, 'live event not sent');
  }
}

// ---------------------------------------------------------------------------------------------
// Notification settings (what to push, to whom, when)

const settingColumns = {
  id: notificationSetting.id,
  companyId: notificationSetting.companyId,
  companyName: company.name,
  title: notificationSetting.title,
  content: notificationSetting.content,
  pushMode: notificationSetting.pushMode,
  pushAt: notificationSetting.pushAt,
  targetType: notificationSetting.targetType,
  targetIds: notificationSetting.targetIds,
  status: notificationSetting.status,
  createdBy: notificationSetting.createdBy,
  createdByName: appUser.name,
  sentAt: notificationSetting.sentAt,
  createdAt: notificationSetting.createdAt,
  updatedAt: notificationSetting.updatedAt,
};

const settings = defineListQuery({
  table: notificationSetting,
  columns: settingColumns,
  joins: [
    { table: company, on: eq(company.id, notificationSetting.companyId) },
    { table: appUser, on: eq(appUser.id, notificationSetting.createdBy), left: true },
  ],
  scope: (db, user) => inCompanyScope(notificationSetting.companyId, db, user),
  filter: (f: z.infer<typeof notificationSetPage>) => [
    f.title ? likeEscaped(notificationSetting.title, f.title) : undefined,
    f.pushMode ? eq(notificationSetting.pushMode, f.pushMode) : undefined,
  ],
  orderBy: [desc(notificationSetting.createdAt), desc(notificationSetting.id)],
  sortable: {
    title: notificationSetting.title, targetType: notificationSetting.targetType, pushMode: notificationSetting.pushMode, pushAt: notificationSetting.pushAt,
    status: notificationSetting.status, sentAt: notificationSetting.sentAt, createdByName: appUser.name, createdAt: notificationSetting.createdAt,
  } satisfies Record<NotificationSetSortField, unknown>,
  toRecord: typedSetting,
});

export const settingPage = (ctx: AppContext, user: AuthUser, req: z.infer<typeof notificationSetPage>) => settings.page(ctx.db, user, req);

export async function settingOne(ctx: AppContext, user: AuthUser, id: number) {
  const { db } = ctx;
  const [row] = await settings.rows(db, and(eq(notificationSetting.id, id), inCompanyScope(notificationSetting.companyId, db, user)));
  const setting = found(row, '消息不存在');
  const targets =
    setting.targetType === 'role'
      ? await db.select({ id: role.id, name: role.name }).from(role).where(inArray(role.id, setting.targetIds)).orderBy(asc(role.id))
      : await db.select({ id: appUser.id, name: appUser.name }).from(appUser).where(inArray(appUser.id, setting.targetIds)).orderBy(asc(appUser.id));
  return { ...setting, targets };
}

/** A scheduled push must lie in the future; an immediate one carries no time. */
function checkPushAt(input: SettingInput): Date | null {
  if (input.pushMode !== 'scheduled') return null;
  const at = input.pushAt;
  if (!at || Number.isNaN(at.getTime())) throw new AppError('INVALID_PARAM', 'pushAt: 推送时间无效');
  if (at.getTime() <= Date.now()) throw new AppError('RULE_VIOLATION', '推送时间必须晚于当前时间');
  return at;
}

const likePrefix = (path: string) => `${path.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
const underPath = (path: string) => like(company.path, likePrefix(path));

/** Every target must exist inside the scope (company path) the setting pushes from. */
async function assertTargets(tx: DbOrTx, scopePath: string, input: SettingInput): Promise<void> {
  const ids = input.targetIds;
  const rows =
    input.targetType === 'role'
      ? await tx.select({ id: role.id }).from(role).innerJoin(company, eq(company.id, role.companyId)).where(and(inArray(role.id, ids), underPath(scopePath)))
      : await tx.select({ id: appUser.id }).from(appUser).innerJoin(company, eq(company.id, appUser.companyId)).where(and(inArray(appUser.id, ids), underPath(scopePath)));
  if (rows.length !== new Set(ids).size) {
    throw new AppError('OUT_OF_SCOPE', input.targetType === 'role' ? '推送对象包含不存在或无权访问的角色' : '推送对象包含不存在或无权访问的用户');
  }
}

/** Enabled users the setting reaches, inside the scope of the company it pushes from. */
async function recipients(tx: DbOrTx, setting: Setting, scopePath: string): Promise<number[]> {
  if (setting.targetIds.length === 0) return [];
  if (setting.targetType === 'role') {
    const roleCompany = sql`(select c.path from company c where c.id = ${role.companyId})`;
    const rows = await tx
      .selectDistinct({ id: appUser.id })
      .from(userRole)
      .innerJoin(role, eq(role.id, userRole.roleId))
      .innerJoin(appUser, eq(appUser.id, userRole.userId))
      .innerJoin(company, eq(company.id, appUser.companyId))
      .where(and(inArray(userRole.roleId, setting.targetIds), eq(appUser.status, 1), underPath(scopePath), sql`${roleCompany} like ${likePrefix(scopePath)}`))
      .orderBy(asc(appUser.id));
    return rows.map((r) => r.id);
  }
  const rows = await tx
    .select({ id: appUser.id })
    .from(appUser)
    .innerJoin(company, eq(company.id, appUser.companyId))
    .where(and(inArray(appUser.id, setting.targetIds), eq(appUser.status, 1), underPath(scopePath)))
    .orderBy(asc(appUser.id));
  return rows.map((r) => r.id);
}

async function companyPath(tx: DbOrTx, companyId: number): Promise<string> {
  const [row] = await tx.select({ path: company.path }).from(company).where(eq(company.id, companyId));
  return found(row, '公司不存在').path;
}

export interface Delivery {
  id: number;
  userId: number;
  title: string;
  content: string;
  createdAt: Date;
}

type PushOutcome = { ok: true; deliveries: Delivery[] } | { ok: false; error: string };

const NO_RECIPIENTS = '推送对象中没有可接收通知的启用用户';

/**
 * Inside the caller's transaction: one notification per recipient, the setting marked sent
 * and a log row. With no recipient the setting is marked failed (and logged) instead.
 */
async function pushInTx(tx: Tx, setting: Setting): Promise<PushOutcome> {
  const scopePath = await companyPath(tx, setting.companyId);
  const userIds = await recipients(tx, setting, scopePath);
  const now = new Date();
  if (userIds.length === 0) {
    await tx.update(notificationSetting).set({ status: 'failed', updatedAt: now }).where(eq(notificationSetting.id, setting.id));
    await tx.insert(notificationLog).values({
      settingId: setting.id, companyId: setting.companyId, title: setting.title, recipientCount: 0, status: 'failed', error: NO_RECIPIENTS,
    });
    return { ok: false, error: NO_RECIPIENTS };
  }
  const deliveries: Delivery[] = [];
  for (let i = 0; i < userIds.length; i += INSERT_CHUNK) {
    const chunk = userIds.slice(i, i + INSERT_CHUNK);
    const rows = await tx
      .insert(notification)
      .values(chunk.map((userId) => ({ userId, settingId: setting.id, title: setting.title, content: setting.content, createdAt: now })))
      .returning({ id: notification.id, userId: notification.userId, title: notification.title, content: notification.content, createdAt: notification.createdAt });
    deliveries.push(...rows);
  }
  await tx.update(notificationSetting).set({ status: 'sent', sentAt: now, updatedAt: now }).where(eq(notificationSetting.id, setting.id));
  await tx.insert(notificationLog).values({
    settingId: setting.id, companyId: setting.companyId, title: setting.title, recipientCount: userIds.length, status: 'success', error: null,
  });
  return { ok: true, deliveries };
}

/**
 * After commit: a PopupWindow to each recipient, then their new unread counts (read with `db`; a
 * domain-event subscriber sends from its delivery's transaction, which holds the new rows).
 */
export async function deliver(ctx: AppContext, deliveries: Delivery[], db: DbOrTx = ctx.db): Promise<void> {
  if (deliveries.length === 0) return;
  await sendLive(ctx, async () => {
    const counts = await unreadCounts(db, [...new Set(deliveries.map((d) => d.userId))]);
    // Issued in order (popups before counts) on one bus connection; awaited together.
    const sends: Promise<void>[] = deliveries.map((d) =>
      ctx.sse.send([d.userId], 'PopupWindow', {
        id: d.id, title: d.title, content: d.content, createdAt: d.createdAt.toISOString(),
      } satisfies LiveEventData<'PopupWindow'>),
    );
    const byCount = new Map<number, number[]>();
    for (const [userId, n] of counts) byCount.set(n, [...(byCount.get(n) ?? []), userId]);
    for (const [n, userIds] of byCount) sends.push(ctx.sse.send(userIds, 'Unread', { count: n } satisfies LiveEventData<'Unread'>));
    await Promise.all(sends);
  });
}

/**
 * The language a notice to this user is written in: the one they last signed in with, else the
 * default. A notification row keeps its text as written (no key and arguments to render on read),
 * so the text is made in the reader's language when it is stored.
 */
export async function noticeLanguageOf(db: DbOrTx, userId: number): Promise<Locale> {
  const [u] = await db.select({ language: appUser.language }).from(appUser).where(eq(appUser.id, userId));
  return (LOCALES as readonly string[]).includes(u?.language ?? '') ? (u!.language as Locale) : DEFAULT_LOCALE;
}

/**
 * Notifies users from another module's work (a work order assigned, a plan paused): writes one
 * notification each in the caller's transaction and returns the deliveries, which the caller
 * hands to deliver() (PopupWindow and Unread live events) once the rows are visible.
 */
export async function notifyUsers(db: DbOrTx, userIds: readonly number[], title: string, content: string): Promise<Delivery[]> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return [];
  const createdAt = new Date();
  return db
    .insert(notification)
    .values(ids.map((userId) => ({ userId, title: title.slice(0, 100), content, createdAt })))
    .returning({ id: notification.id, userId: notification.userId, title: notification.title, content: notification.content, createdAt: notification.createdAt });
}

async function schedule(ctx: AppContext, setting: Setting): Promise<void> {
  const at = setting.pushAt!;
  await ctx.jobs.send<PushJobData>(PUSH_JOB, { id: setting.id, pushAt: at.toISOString() }, at);
}

export async function addSetting(ctx: AppContext, user: AuthUser, input: SettingInput): Promise<SettingSaved> {
  const pushAt = checkPushAt(input);
  const { setting, outcome } = await ctx.db.transaction(async (tx) => {
    await assertTargets(tx, user.companyPath, input);
    const [row] = await tx
      .insert(notificationSetting)
      .values({
        companyId: user.companyId, title: input.title, content: input.content, pushMode: input.pushMode, pushAt,
        targetType: input.targetType, targetIds: input.targetIds, status: 'pending', createdBy: user.id,
      })
      .returning();
    const created = row!;
    if (input.pushMode === 'scheduled') return { setting: created, outcome: null };
    const pushed = await pushInTx(tx, created);
    // Nothing is kept when an immediate push reaches nobody.
    if (!pushed.ok) throw new AppError('RULE_VIOLATION', pushed.error);
    return { setting: created, outcome: pushed };
  });
  if (outcome) {
    await deliver(ctx, outcome.deliveries);
    return { id: setting.id, status: 'sent', recipientCount: outcome.deliveries.length };
  }
  try {
    await schedule(ctx, setting);
  } catch (err) {
    // Without its job the setting would wait forever: take it back.
    await ctx.db.delete(notificationSetting).where(eq(notificationSetting.id, setting.id));
    throw err;
  }
  return { id: setting.id, status: 'pending', recipientCount: 0 };
}

/** Only a pending (scheduled, not yet pushed) setting can change; a new pushAt reschedules it. */
export async function editSetting(ctx: AppContext, user: AuthUser, input: SettingInput & { id: number }): Promise<SettingSaved> {
  const pushAt = checkPushAt(input);
  const { setting, outcome } = await ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(notificationSetting)
      .where(and(eq(notificationSetting.id, input.id), inCompanyScope(notificationSetting.companyId, tx, user)))
      .for('update');
    const cur = found(current, '消息不存在');
    if (cur.status !== 'pending') throw new AppError('RULE_VIOLATION', '只有待推送的消息可以编辑');
    await assertTargets(tx, await companyPath(tx, cur.companyId), input);
    const [row] = await tx
      .update(notificationSetting)
      .set({
        title: input.title, content: input.content, pushMode: input.pushMode, pushAt, targetType: input.targetType,
        targetIds: input.targetIds, updatedAt: new Date(),
      })
      .where(and(eq(notificationSetting.id, cur.id), eq(notificationSetting.status, 'pending')))
      .returning();
    if (!row) throw new AppError('RULE_VIOLATION', '只有待推送的消息可以编辑');
    if (input.pushMode === 'scheduled') return { setting: row, outcome: null };
    const pushed = await pushInTx(tx, row);
    if (!pushed.ok) throw new AppError('RULE_VIOLATION', pushed.error);
    return { setting: row, outcome: pushed };
  });
  if (outcome) {
    await deliver(ctx, outcome.deliveries);
    return { id: setting.id, status: 'sent', recipientCount: outcome.deliveries.length };
  }
  // The job of the old pushAt stays queued and skips itself: its pushAt no longer matches.
  await schedule(ctx, setting);
  return { id: setting.id, status: 'pending', recipientCount: 0 };
}

/**
 * The scheduled push (job handler). Idempotent: the setting is claimed with a conditional
 * update (still pending, still this pushAt) inside the same transaction as the push, so a
 * repeated or outdated job finds nothing to claim, and a failed push leaves it pending for
 * the queue's retry.
 */
export async function runScheduledPush(ctx: AppContext, data: PushJobData): Promise<'sent' | 'failed' | 'skipped'> {
  const pushAt = new Date(data.pushAt);
  if (!Number.isInteger(data.id) || Number.isNaN(pushAt.getTime())) return 'skipped';
  const outcome = await ctx.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(notificationSetting)
      .set({ status: 'sending', updatedAt: new Date() })
      .where(
        and(
          eq(notificationSetting.id, data.id),
          eq(notificationSetting.status, 'pending'),
          eq(notificationSetting.pushMode, 'scheduled'),
          eq(notificationSetting.pushAt, pushAt),
        ),
      )
      .returning();
    if (!claimed) return null;
    return pushInTx(tx, claimed);
  });
  if (!outcome) return 'skipped';
  if (!outcome.ok) return 'failed';
  await deliver(ctx, outcome.deliveries);
  return 'sent';
}

// ---------------------------------------------------------------------------------------------
// Push history

const logColumns = {
  id: notificationLog.id,
  settingId: notificationLog.settingId,
  companyId: notificationLog.companyId,
  title: notificationLog.title,
  recipientCount: notificationLog.recipientCount,
  status: notificationLog.status,
  error: notificationLog.error,
  createdAt: notificationLog.createdAt,
};

const logs = defineListQuery({
  table: notificationLog,
  columns: logColumns,
  scope: (db, user) => inCompanyScope(notificationLog.companyId, db, user),
  filter: (f: z.infer<typeof notificationLogPage>) => [f.settingId ? eq(notificationLog.settingId, f.settingId) : undefined],
  orderBy: [desc(notificationLog.createdAt), desc(notificationLog.id)],
  sortable: {
    title: notificationLog.title, recipientCount: notificationLog.recipientCount, status: notificationLog.status, createdAt: notificationLog.createdAt,
  } satisfies Record<NotificationLogSortField, unknown>,
  toRecord: typedLog,
});

export const logPage = (ctx: AppContext, user: AuthUser, req: z.infer<typeof notificationLogPage> & PageRequest) => logs.page(ctx.db, user, req);

export async function logOne(ctx: AppContext, user: AuthUser, id: number) {
  const { db } = ctx;
  const [row] = await db
    .select({ ...logColumns, pushMode: notificationSetting.pushMode, targetType: notificationSetting.targetType })
    .from(notificationLog)
    .innerJoin(notificationSetting, eq(notificationSetting.id, notificationLog.settingId))
    .where(and(eq(notificationLog.id, id), inCompanyScope(notificationLog.companyId, db, user)));
  const log = found(row, '推送记录不存在');
  const recipientRows =
    log.status === 'success'
      ? await db
          .select({ userId: appUser.id, username: appUser.username, name: appUser.name, read: notification.read, readAt: notification.readAt })
          .from(notification)
          .innerJoin(appUser, eq(appUser.id, notification.userId))
          .where(eq(notification.settingId, log.settingId))
          .orderBy(asc(appUser.username))
      : [];
  return { ...typedLog(log), pushMode: log.pushMode as PushMode, targetType: log.targetType as TargetType, recipients: recipientRows };
}
