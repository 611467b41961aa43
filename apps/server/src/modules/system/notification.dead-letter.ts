import { and, asc, eq } from 'drizzle-orm';
import { issueMessage } from '@ess/contract';
import { appUser, notification, role, userRole } from '../../db/schema/system.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { subscriber } from '../../platform/events/outbox.ts';
import { deliver } from './notification.service.ts';

/** The built-in role whose holders administer the platform (db/seed.ts; built-in roles keep their names). */
export const ADMIN_ROLE_NAME = '系统管理员';

/** Source texts (Simplified Chinese, translated by the language packs; `$n` filled here). */
export const DEAD_LETTER_TITLE = '事件投递失败';
export const DEAD_LETTER_TEXT = '订阅者 $1 有 $2 个事件重试耗尽，已停止投递（事件类型：$3）。最后错误：$4';

/** Enabled users holding the built-in administrator role. */
export async function platformAdministrators(db: DbOrTx): Promise<number[]> {
  const rows = await db
    .selectDistinct({ id: appUser.id })
    .from(userRole)
    .innerJoin(role, eq(role.id, userRole.roleId))
    .innerJoin(appUser, eq(appUser.id, userRole.userId))
    .where(and(eq(role.buildIn, true), eq(role.name, ADMIN_ROLE_NAME), eq(appUser.status, 1)))
    .orderBy(asc(appUser.id));
  return rows.map((r) => r.id);
}

/**
 * Dead domain-event deliveries made visible: for the `outbox.dead` events of a batch, one
 * notification per subscriber (its event types, how many went dead, the last error) to each
 * administrator's message list, with the usual popup and unread count. The rows are written in
 * the delivery's transaction, so each dead batch is announced once.
 */
export const deadLetterNoticeSubscriber = subscriber({
  name: 'system.deadLetterNotice',
  events: ['outbox.dead'],
  handle: async (events, tx, ctx) => {
    const bySubscriber = new Map<string, { types: Set<string>; count: number; lastError: string }>();
    for (const { payload } of events) {
      const seen = bySubscriber.get(payload.subscriber) ?? { types: new Set<string>(), count: 0, lastError: '' };
      for (const type of payload.types) seen.types.add(type);
      seen.count += payload.count;
      seen.lastError = payload.lastError;
      bySubscriber.set(payload.subscriber, seen);
    }
    const admins = await platformAdministrators(tx);
    if (admins.length === 0) {
      ctx.log.error({ subscribers: [...bySubscriber.keys()] }, 'dead domain events: no enabled administrator to notify');
      return;
    }
    const createdAt = new Date();
    const rows = [...bySubscriber].flatMap(([name, dead]) => {
      const content = issueMessage({ text: DEAD_LETTER_TEXT, args: [name, dead.count, [...dead.types].join('、'), dead.lastError] });
      return admins.map((userId) => ({ userId, title: DEAD_LETTER_TITLE, content, createdAt }));
    });
    const deliveries = await tx
      .insert(notification)
      .values(rows)
      .returning({ id: notification.id, userId: notification.userId, title: notification.title, content: notification.content, createdAt: notification.createdAt });
    await deliver(ctx, deliveries, tx);
  },
});
