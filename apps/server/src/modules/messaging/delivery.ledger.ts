import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { localTime } from '@ess/contract/time';
import { mailLog, messageDelivery, smsLog } from '../../db/schema/messaging.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { StoredQuietHours } from './message.rule.service.ts';

/**
 * The delivery ledger's small shared pieces (decision 0046): the keys of its rows, quiet hours,
 * backoff, and cancelling what has not gone yet (its mail and SMS log rows with it).
 */

/** Internal rows of the ledger: a condition to judge when its minutes are up, an escalation step. */
export const TIMER = 'timer';
export const ESCALATE = 'escalate';

/** Sending: the one retry policy of mail and SMS. */
export { backoffMs, MAX_ATTEMPTS } from './message.context.ts';
/** How long a claimed message is held by the instance sending it before another may try. */
export const CLAIM_MS = 120_000;

/** The minutes since midnight of HH:mm. */
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Until when quiet hours hold a message at `now` in `zone`, or null when it may go: outside the
 * window, no quiet hours, or an alarm at or above the override level (1 most severe). The window
 * wraps midnight when end < start; start = end is no window.
 */
export function quietUntil(q: StoredQuietHours | null, zone: string, level: number | null, now: Date): Date | null {
  if (!q) return null;
  if (level !== null && q.overrideLevel !== null && level <= q.overrideLevel) return null;
  const start = minutesOf(q.start);
  const end = minutesOf(q.end);
  if (start === end) return null;
  const m = localTime(now.getTime(), zone).minuteOfDay;
  const inside = start < end ? m >= start && m < end : m >= start || m < end;
  if (!inside) return null;
  const wait = (end - m + 1440) % 1440;
  return new Date(now.getTime() + Math.ceil(wait * 60_000));
}

/**
 * Cancels the ledger rows (and their mail/SMS log rows) under `where` that have not gone: the
 * alarm was acknowledged or ended, the device came back, the rule was disabled. Returns how many.
 */
export async function cancelDeliveries(tx: DbOrTx, where: SQL, reason: string): Promise<number> {
  const rows = await tx
    .update(messageDelivery)
    .set({ state: 'cancelled', error: reason, updatedAt: new Date() })
    .where(and(where, inArray(messageDelivery.state, ['queued', 'retrying'])))
    .returning({ mailLogId: messageDelivery.mailLogId, smsLogId: messageDelivery.smsLogId });
  const mailIds = rows.flatMap((r) => (r.mailLogId ? [r.mailLogId] : []));
  const smsIds = rows.flatMap((r) => (r.smsLogId ? [r.smsLogId] : []));
  const cancelled = { state: 'cancelled', error: reason, nextAttemptAt: null };
  if (mailIds.length) await tx.update(mailLog).set(cancelled).where(and(inArray(mailLog.id, mailIds), inArray(mailLog.state, ['queued', 'retrying'])));
  if (smsIds.length) await tx.update(smsLog).set(cancelled).where(and(inArray(smsLog.id, smsIds), inArray(smsLog.state, ['queued', 'retrying'])));
  return rows.length;
}

/** What has not gone yet about one subject (an alarm, a device, a work order). */
export const pendingAbout = (subjectType: string, subjectId: number) =>
  and(eq(messageDelivery.subjectType, subjectType), eq(messageDelivery.subjectId, subjectId)) ?? sql`false`;

export const CANCEL_ACKNOWLEDGED = '告警已确认';
export const CANCEL_ENDED = '告警已结束';
export const CANCEL_BACK_ONLINE = '设备已恢复在线';
export const CANCEL_RULE_DISABLED = '规则已停用';
