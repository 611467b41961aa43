import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@ess/contract';
import {
  ALARM_MESSAGE_EVENTS, DELAYED_MESSAGE_EVENTS, MESSAGE_EVENT_LABELS, mailAddress, toE164, type MessageChannel, type MessageEvent,
} from '@ess/contract/messaging';
import { inspectionWorkOrder } from '../../db/schema/maintenance.ts';
import { mailAccount, mailLog, mailTemplate, messageDelivery, smsChannel, smsLog, smsTemplate } from '../../db/schema/messaging.ts';
import { appUser, userRole } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { subscriber, type DomainEvent } from '../../platform/events/outbox.ts';
import { alarmPopupUsers } from '../alarm/index.ts';
import { translatorOf } from '../i18n/index.ts';
import { deliver, notifyUsers, type Delivery } from '../system/index.ts';
import {
  CANCEL_ACKNOWLEDGED, CANCEL_BACK_ONLINE, CANCEL_ENDED, cancelDeliveries, ESCALATE, pendingAbout, quietUntil, TIMER,
} from './delivery.ledger.ts';
import './delivery.events.ts';
import { companyChain, hasSubject, MESSAGE_OF, subjectOf, type Subject } from './delivery.subject.ts';
import { pickVariant } from './message.context.ts';
import { rulesFor, type RuleRow, type StoredEscalation, type StoredQuietHours, type StoredRecipients } from './message.rule.service.ts';
import { htmlToText, renderTemplate, smsSegments } from './message.template.ts';

/**
 * The delivery engine's planning half (decision 0046), a subscriber of the domain-event outbox:
 * for each event, the enabled rules of its message event covering the station (the station's
 * company and those above it; level, minutes and stations as the rule says) → their recipients
 * (users, roles, the station's contact, the assignee) → one ledger row per channel and recipient,
 * inserted with ON CONFLICT DO NOTHING on the deduplication key (event, channel, recipient, step),
 * so a redelivered event or a second instance writes nothing twice → for mail and SMS the
 * rendered message in its log (queued, held until quiet hours end); console notifications at
 * once. Delayed events and escalation steps are timer rows of the same ledger, judged when due
 * (delivery.send.ts). The sending half picks the due rows up.
 */

/** A default region for phone numbers written without a country code (the product's home market). */
const DEFAULT_PHONE_REGION = 'CN';

export interface Recipient {
  userId: number | null;
  name: string;
  email: string | null;
  phone: string | null;
  language: string | null;
  /** The user's own IANA zone (personal center); null: the station's (a station contact's always). */
  timeZone: string | null;
}

const userColumns = {
  userId: appUser.id, name: appUser.name, email: appUser.email, phone: appUser.phone, language: appUser.language, timeZone: appUser.timeZone,
};
const activeUser = and(eq(appUser.status, 1), isNull(appUser.deletedAt));

/** Enabled users by id and by role, each once. */
async function usersOf(db: DbOrTx, userIds: readonly number[], roleIds: readonly number[]): Promise<Recipient[]> {
  const out = new Map<number, Recipient>();
  if (userIds.length) for (const u of await db.select(userColumns).from(appUser).where(and(inArray(appUser.id, [...userIds]), activeUser))) out.set(u.userId, u);
  if (roleIds.length) {
    const rows = await db.select(userColumns).from(appUser).innerJoin(userRole, eq(userRole.userId, appUser.id)).where(and(inArray(userRole.roleId, [...roleIds]), activeUser));
    for (const u of rows) out.set(u.userId, u);
  }
  return [...out.values()];
}

async function recipientsOf(db: DbOrTx, r: StoredRecipients, s: Subject): Promise<Recipient[]> {
  const list = await usersOf(db, r.userIds, [...r.roleIds]);
  if (r.assignee && s.assigneeIds.length) list.push(...(await usersOf(db, s.assigneeIds, [])));
  if (r.siteContacts) list.push({ userId: null, name: s.values.station ?? '', email: s.siteEmail, phone: s.sitePhone, language: null, timeZone: null });
  return list;
}

/** The normalised address of a recipient on a channel, or null (blank or invalid: dropped, not sent). */
export function addressOf(channel: MessageChannel, r: Recipient): string | null {
  if (channel === 'console') return r.userId === null ? null : `user:${r.userId}`;
  if (channel === 'mail') {
    const m = r.email?.trim() ? mailAddress.safeParse(r.email) : null;
    return m?.success ? `mail:${m.data.toLowerCase()}` : null;
  }
  const phone = r.phone?.trim() ? toE164(r.phone, DEFAULT_PHONE_REGION) : null;
  return phone ? `sms:${phone}` : null;
}

const localeOf = (language: string | null): Locale => ((LOCALES as readonly string[]).includes(language ?? '') ? (language as Locale) : DEFAULT_LOCALE);

interface Plan {
  rule: RuleRow;
  subject: Subject;
  step: number;
  now: Date;
  /**
   * Users the alarm module already pops this alarm up to (its PopupWindow): the console channel
   * does not tell them a second time (an opened alarm's first message only; decision 0046).
   */
  popupShown?: ReadonlySet<number>;
}

interface Variants {
  mail: (typeof mailTemplate.$inferSelect)[];
  sms: (typeof smsTemplate.$inferSelect)[];
}

async function variantsOf(db: DbOrTx, rule: RuleRow): Promise<Variants> {
  const [mail, sms] = await Promise.all([
    rule.mailTemplateCode
      ? db.select().from(mailTemplate).where(and(eq(mailTemplate.companyId, rule.companyId), eq(mailTemplate.code, rule.mailTemplateCode), eq(mailTemplate.enabled, true)))
      : [],
    rule.smsTemplateCode
      ? db.select().from(smsTemplate).where(and(eq(smsTemplate.companyId, rule.companyId), eq(smsTemplate.code, rule.smsTemplateCode), eq(smsTemplate.enabled, true)))
      : [],
  ]);
  return { mail, sms };
}

/** The rule's account (or its company's default) and channel, looked up once per plan. */
async function sendersOf(db: DbOrTx, rule: RuleRow) {
  const [account] = rule.channels.includes('mail')
    ? await db
        .select({ id: mailAccount.id, name: mailAccount.name })
        .from(mailAccount)
        .where(and(eq(mailAccount.companyId, rule.companyId), rule.mailAccountId ? eq(mailAccount.id, rule.mailAccountId) : eq(mailAccount.isDefault, true)))
    : [];
  const [channel] = rule.channels.includes('sms')
    ? await db
        .select({ id: smsChannel.id, name: smsChannel.name, provider: smsChannel.provider, signName: smsChannel.signName })
        .from(smsChannel)
        .where(and(eq(smsChannel.companyId, rule.companyId), rule.smsChannelId ? eq(smsChannel.id, rule.smsChannelId) : eq(smsChannel.isDefault, true)))
    : [];
  return { account, channel };
}

export const QUIET_HOURS_HELD = '免打扰时段，结束后发送';
export const NO_TEMPLATE = '没有可用的模板（已删除或停用）';
export const NO_ACCOUNT = '没有可用的邮件账号';
export const NO_CHANNEL = '没有可用的短信通道';
/** A console notice left out: the recipient is shown the alarm's own popup. */
export const POPUP_SHOWN = '已弹出告警窗口，不再重复站内通知';

/**
 * Writes the messages of one rule to its recipients at one step: ledger rows first (the
 * deduplication), then for each new row its log row or notification. Returns the notifications
 * written, for the live push after commit.
 */
export async function planMessages(tx: DbOrTx, plan: Plan, recipients: Recipient[]): Promise<Delivery[]> {
  const { rule, subject, step, now } = plan;
  const variants = await variantsOf(tx, rule);
  const senders = await sendersOf(tx, rule);
  const quiet = rule.quietHours as StoredQuietHours | null;
  const notices: Delivery[] = [];
  for (const channel of rule.channels as MessageChannel[]) {
    const seen = new Set<string>();
    for (const r of recipients) {
      const key = addressOf(channel, r);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      // Quiet hours in the recipient's zone: their own, else the station's.
      const held = channel === 'console' ? null : quietUntil(quiet, r.timeZone ?? subject.zone, subject.level, now);
      // One notice per alarm: who sees the alarm's popup gets no console notice of it (recorded, not sent).
      const shown = channel === 'console' && r.userId !== null && plan.popupShown?.has(r.userId) === true;
      const [row] = await tx
        .insert(messageDelivery)
        .values({
          companyId: rule.companyId, eventId: subject.eventId, eventType: subject.message, ruleId: rule.id, channel, recipientKey: key, userId: r.userId, step,
          subjectType: subject.subjectType, subjectId: subject.subjectId, dueAt: held ?? now, heldReason: held ? QUIET_HOURS_HELD : null,
          ...(shown ? { state: 'cancelled', error: POPUP_SHOWN } : {}),
        })
        .onConflictDoNothing()
        .returning({ id: messageDelivery.id });
      if (!row || shown) continue; // Already planned: this event reached this recipient on this channel (or its popup did).
      const values = { ...subject.values, recipient: r.name };
      if (channel === 'console') notices.push(...(await consoleNotice(tx, row.id, r, subject, values, variants)));
      else if (channel === 'mail') await mailMessage(tx, row.id, r, plan, key.slice(5), values, variants, senders.account, held);
      else await smsMessage(tx, row.id, r, plan, key.slice(4), values, variants, senders.channel, held);
    }
  }
  return notices;
}

async function consoleNotice(tx: DbOrTx, deliveryId: number, r: Recipient, s: Subject, values: Record<string, string>, v: Variants): Promise<Delivery[]> {
  const { t } = await translatorOf(localeOf(r.language));
  const mail = pickVariant(v.mail, r.language);
  const sms = pickVariant(v.sms, r.language);
  const title = mail ? renderTemplate(mail.subject, values, 'text') : t(MESSAGE_EVENT_LABELS[s.message]);
  const content = mail
    ? mail.text ? renderTemplate(mail.text, values, 'text') : htmlToText(renderTemplate(mail.html, values, 'html'))
    : sms ? renderTemplate(sms.content, values, 'text')
    : [values.station, values.device, values.orderNo, values.statementNo, values.month, values.description, values.time].filter(Boolean).join(' · ');
  const notices = await notifyUsers(tx, [r.userId!], title, content);
  await tx
    .update(messageDelivery)
    .set({ state: 'sent', notificationId: notices[0]?.id ?? null, attempts: 1, updatedAt: new Date() })
    .where(eq(messageDelivery.id, deliveryId));
  return notices;
}

const logBase = (r: Recipient, plan: Plan, address: string, held: Date | null) => ({
  companyId: plan.rule.companyId, recipient: address, userId: r.userId, origin: 'rule', eventId: plan.subject.eventId, eventType: plan.subject.message,
  ruleId: plan.rule.id, state: 'queued', nextAttemptAt: held ?? plan.now, createdAt: plan.now,
});

async function mailMessage(
  tx: DbOrTx, deliveryId: number, r: Recipient, plan: Plan, address: string, values: Record<string, string>, v: Variants,
  account: { id: number; name: string } | undefined, held: Date | null,
): Promise<void> {
  const tpl = pickVariant(v.mail, r.language);
  const html = tpl ? renderTemplate(tpl.html, values, 'html') : '';
  const problem = !tpl ? NO_TEMPLATE : !account ? NO_ACCOUNT : null;
  const [log] = await tx
    .insert(mailLog)
    .values({
      ...logBase(r, plan, address, held), templateId: tpl?.id ?? null, templateName: tpl?.name ?? null, templateCode: plan.rule.mailTemplateCode, language: tpl?.language ?? null,
      accountId: account?.id ?? null, accountName: account?.name ?? null, subject: tpl ? renderTemplate(tpl.subject, values, 'text').slice(0, 1000) : '',
      html, text: tpl ? (tpl.text ? renderTemplate(tpl.text, values, 'text') : htmlToText(html)) : '',
      ...(problem ? { state: 'failed', error: problem, nextAttemptAt: null } : {}),
    })
    .returning({ id: mailLog.id });
  await tx
    .update(messageDelivery)
    .set({ mailLogId: log!.id, ...(problem ? { state: 'failed', error: problem } : {}) })
    .where(eq(messageDelivery.id, deliveryId));
}

async function smsMessage(
  tx: DbOrTx, deliveryId: number, r: Recipient, plan: Plan, phone: string, values: Record<string, string>, v: Variants,
  channel: { id: number; name: string; provider: string; signName: string | null } | undefined, held: Date | null,
): Promise<void> {
  const tpl = pickVariant(v.sms, r.language);
  const content = tpl ? renderTemplate(tpl.content, values, 'text') : '';
  const problem = !tpl ? NO_TEMPLATE : !channel ? NO_CHANNEL : null;
  const params = tpl ? Object.fromEntries([...tpl.content.matchAll(/\$\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}/g)].map((m) => [m[1]!, values[m[1]!] ?? ''])) : null;
  const [log] = await tx
    .insert(smsLog)
    .values({
      ...logBase(r, plan, phone, held), templateId: tpl?.id ?? null, templateName: tpl?.name ?? null, templateCode: plan.rule.smsTemplateCode, language: tpl?.language ?? null,
      channelId: channel?.id ?? null, channelName: channel?.name ?? null, provider: channel?.provider ?? null, content: content.slice(0, 2000), params,
      providerTemplateCode: tpl?.providerTemplateCode ?? null, signName: tpl?.signName ?? channel?.signName ?? null, segments: Math.max(1, smsSegments(content).segments),
      ...(problem ? { state: 'failed', error: problem, nextAttemptAt: null } : {}),
    })
    .returning({ id: smsLog.id });
  await tx
    .update(messageDelivery)
    .set({ smsLogId: log!.id, ...(problem ? { state: 'failed', error: problem } : {}) })
    .where(eq(messageDelivery.id, deliveryId));
}

/** The rules of a message event that cover the subject (stations, level, minutes). */
async function matchingRules(db: DbOrTx, message: MessageEvent, s: Subject): Promise<RuleRow[]> {
  const all = await rulesFor(db, message, await companyChain(db, s.siteCompanyPath));
  return all.filter(
    (r) =>
      (r.siteIds.length === 0 || r.siteIds.includes(s.siteId)) &&
      (!ALARM_MESSAGE_EVENTS.includes(message) || r.maxLevel === null || (s.level !== null && s.level <= r.maxLevel)) &&
      (!DELAYED_MESSAGE_EVENTS.includes(message) || s.minutes === null || r.minutes === s.minutes),
  );
}

/** A timer row: judged when due (delivery.send.ts); its key names what it waits for, so two events about one subject set it once. */
async function setTimer(tx: DbOrTx, s: Subject, companyId: number, key: string, dueAt: Date, ruleId: number | null, step = 0): Promise<void> {
  await tx
    .insert(messageDelivery)
    .values({
      companyId, eventId: ruleId === null ? 0 : s.eventId, eventType: s.message, ruleId, channel: ruleId === null ? TIMER : ESCALATE, recipientKey: key, step,
      subjectType: s.subjectType, subjectId: s.subjectId, dueAt,
    })
    .onConflictDoNothing();
}

/** The delayed message event a base event starts the clock of. */
const DELAYED_FROM: Partial<Record<string, MessageEvent>> = {
  'alarm.opened': 'alarmUnacknowledged',
  'device.offline': 'deviceOffline',
  'workorder.created': 'workOrderOverdue',
  'workorder.assigned': 'workOrderOverdue',
};

/** The key of a delayed event's timer: the message event, its subject and its minutes. */
export const timerKey = (message: MessageEvent, s: { subjectType: string; subjectId: number }, minutes: number) => `${message}:${s.subjectType}:${s.subjectId}:${minutes}`;
export const escalationKey = (ruleId: number) => `rule:${ruleId}`;

async function startTimers(tx: DbOrTx, e: DomainEvent, now: Date): Promise<void> {
  const message = DELAYED_FROM[e.type];
  if (!message || !hasSubject(e)) return;
  const s = await subjectOf(tx, e, message);
  if (!s) return;
  const rules = (await matchingRules(tx, message, s)).filter((r) => r.minutes !== null);
  let from = s.at;
  if (s.subjectType === 'workorder') {
    const [o] = await tx.select({ dueAt: inspectionWorkOrder.dueAt }).from(inspectionWorkOrder).where(eq(inspectionWorkOrder.id, s.subjectId));
    if (!o) return;
    from = o.dueAt;
  }
  if (s.subjectType === 'alarm') from = new Date(Math.max(e.createdAt.getTime(), Math.min(s.at.getTime(), now.getTime())));
  for (const minutes of new Set(rules.map((r) => r.minutes!))) {
    await setTimer(tx, s, s.siteCompanyId, timerKey(message, s, minutes), new Date(from.getTime() + minutes * 60_000), null);
  }
}

/**
 * Plans every matching rule of a subject at step 0, and the first escalation step of those that
 * escalate. `popupLevel`: ALARM_POPUP_LEVEL, whose popup of an opened alarm stands for its console notice.
 */
export async function planSubject(tx: DbOrTx, s: Subject, now: Date, popupLevel: number): Promise<Delivery[]> {
  const notices: Delivery[] = [];
  const rules = await matchingRules(tx, s.message, s);
  const popupShown =
    rules.length && s.message === 'alarmOpened' && s.level !== null && rules.some((r) => r.channels.includes('console'))
      ? new Set(await alarmPopupUsers(tx, popupLevel, { siteId: s.siteId, level: s.level }))
      : undefined;
  for (const rule of rules) {
    const recipients = await recipientsOf(tx, rule.recipients as StoredRecipients, s);
    notices.push(...(await planMessages(tx, { rule, subject: s, step: 0, now, ...(popupShown ? { popupShown } : {}) }, recipients)));
    const esc = rule.escalation as StoredEscalation | null;
    if (esc && s.subjectType === 'alarm') {
      await setTimer(tx, s, rule.companyId, escalationKey(rule.id), new Date(now.getTime() + esc.intervalMinutes * 60_000), rule.id, 1);
    }
  }
  return notices;
}

/** Escalation step n of a rule: the n-th level's recipients (the last level again after the last). */
export async function planEscalation(tx: DbOrTx, rule: RuleRow, s: Subject, step: number, now: Date): Promise<Delivery[]> {
  const esc = rule.escalation as StoredEscalation | null;
  if (!esc || esc.levels.length === 0) return [];
  const level = esc.levels[Math.min(step, esc.levels.length) - 1]!;
  const recipients = await usersOf(tx, level.userIds, level.roleIds);
  const notices = await planMessages(tx, { rule, subject: s, step, now }, recipients);
  if (step < esc.levels.length + esc.maxRepeats) {
    await setTimer(tx, s, rule.companyId, escalationKey(rule.id), new Date(now.getTime() + esc.intervalMinutes * 60_000), rule.id, step + 1);
  }
  return notices;
}

/** Events that only stop what is pending: the alarm taken on (a repair order for it) or ended, the device back. */
async function stopPending(tx: DbOrTx, e: DomainEvent): Promise<void> {
  if (e.type === 'alarm.ended') await cancelDeliveries(tx, pendingAbout('alarm', e.payload.id), CANCEL_ENDED);
  if (e.type === 'repair.created' && e.payload.alarmId !== null) await cancelDeliveries(tx, pendingAbout('alarm', e.payload.alarmId), CANCEL_ACKNOWLEDGED);
  if (e.type === 'device.online') await cancelDeliveries(tx, and(pendingAbout('device', e.payload.deviceId), eq(messageDelivery.channel, TIMER))!, CANCEL_BACK_ONLINE);
}

/** The clock of the engine (tests move it; production is the wall clock). */
export const clock = { now: () => new Date() };

/** Plans one event in the caller's transaction; returns the notifications to push after commit. */
export async function planEvent(tx: DbOrTx, e: DomainEvent, now: Date, popupLevel: number): Promise<Delivery[]> {
  await stopPending(tx, e);
  await startTimers(tx, e, now);
  const message = MESSAGE_OF[e.type];
  if (!message || !hasSubject(e)) return [];
  const s = await subjectOf(tx, e, message);
  return s ? planSubject(tx, s, now, popupLevel) : [];
}

const EVENTS = [
  'alarm.opened', 'alarm.ended', 'alarm.unacknowledged', 'device.offline', 'device.online', 'device.offlineFor', 'workorder.created', 'workorder.assigned',
  'workorder.overdue', 'repair.created', 'repair.assigned', 'statement.generated',
] as const;

/** Wakes the sender (a job now, and one when the earliest held message is due). */
export type Wake = (ctx: AppContext) => Promise<void>;
let wake: Wake = () => Promise.resolve();
export const setWake = (w: Wake) => {
  wake = w;
};

/**
 * The subscriber. Not transactional (its work queues jobs): each event is planned in a
 * transaction of its own, and the deduplication key makes a redelivery write nothing.
 */
export const deliverySubscriber = subscriber({
  name: 'messaging.delivery',
  events: EVENTS,
  transactional: false,
  // Messages tell people what happens now: the demo's past is not sent (decision 0042, amendment).
  history: false,
  handle: async (events, _db, ctx) => {
    for (const e of events) {
      const notices = await ctx.db.transaction((tx) => planEvent(tx, e, clock.now(), ctx.config.alarmPopupLevel));
      await deliver(ctx, notices);
    }
    await wake(ctx);
  },
});

/** The earliest time a pending mail, SMS or timer is due (for the wake-up job). */
export async function nextDue(db: DbOrTx): Promise<Date | null> {
  const [r] = await db
    .select({ at: sql<Date | null>`min(${messageDelivery.dueAt})` })
    .from(messageDelivery)
    .where(and(inArray(messageDelivery.state, ['queued', 'retrying']), sql`${messageDelivery.channel} <> 'console'`));
  return r?.at ? new Date(r.at) : null;
}
