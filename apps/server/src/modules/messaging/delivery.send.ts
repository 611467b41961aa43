import { and, eq, inArray, sql } from 'drizzle-orm';
import type { MessageEvent } from '@ess/contract/messaging';
import { alarm } from '../../db/schema/alarm.ts';
import { device, devicePresence } from '../../db/schema/device.ts';
import { inspectionWorkOrder, repairOrder } from '../../db/schema/maintenance.ts';
import { mailLog, messageDelivery, messageRule, sendRate, smsLog } from '../../db/schema/messaging.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { emit, type DomainEvent } from '../../platform/events/outbox.ts';
import { perApp } from '../../platform/module.ts';
import { deliver, type Delivery } from '../system/index.ts';
import { CANCEL_ACKNOWLEDGED, CANCEL_ENDED, CLAIM_MS, ESCALATE, TIMER } from './delivery.ledger.ts';
import { clock, nextDue, planEscalation, setWake } from './delivery.plan.ts';
import { subjectOf } from './delivery.subject.ts';
import { attemptMail } from './mail.send.ts';
import { claimsGivenBack } from './message.context.ts';
import { attemptSms } from './sms.send.ts';

/**
 * The delivery engine's sending half (decision 0046): due timers are judged (the condition still
 * holds → its event is emitted, or the escalation step planned; else cancelled), due mail and SMS
 * are claimed (a lease, so two instances never send one message twice at once), held to at most
 * the per-minute rate per account/channel (MESSAGE_RATE_PER_MINUTE, across instances), and handed to the mail or SMS sender (attemptMail,
 * attemptSms: the log row's claim, the daily limit, the one retry policy, the outcome); the ledger
 * row then follows its log row. Everything lives in the ledger and the logs, so a restart loses
 * nothing: the sweep at start picks up what was due.
 */

export const DUE_JOB = 'messaging.due';
/** The safety net: every instance with the jobs role sweeps this often. */
export const SWEEP_MS = 30_000;
const BATCH = 50;

export const RATE_LIMITED = '发送过于频繁，稍后发送';

const iso = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * Per instance: sweeps one after the other (a queued one not yet begun takes the place of another),
 * and the claims in hand: the end of each claim this instance made (or tried to:
 * a claim whose answer the database cut off may have committed) and has not finished. A sweep the
 * database cut short leaves them there, and the next sweep gives back the messages still held by
 * them first, so those go as soon as the database is back rather than when the claim runs out (a
 * message whose attempt had begun is kept from a second send by its log row's own claim, which
 * the attempt gives back itself if the peer took nothing).
 */
const running = perApp<{
  chain: Promise<unknown>;
  queued: boolean;
  claimEnds: Set<number>;
}>('message delivery');
const stateOf = (ctx: AppContext) => {
  let s = running.get(ctx);
  if (!s) {
    s = { chain: Promise.resolve(), queued: false, claimEnds: new Set() };
    running.set(ctx, s);
  }
  return s;
};

export interface SweepResult {
  timers: number;
  sent: number;
  retrying: number;
  failed: number;
  held: number;
}

/**
 * Judges the due timers and sends the due messages as of `now` (tests pass a later clock), after
 * any sweep of this instance in progress (so one message is never in two hands here; across
 * instances the claim's lease keeps them apart).
 */
export function processDue(ctx: AppContext, now?: Date): Promise<SweepResult> {
  const s = stateOf(ctx);
  const run = s.chain.then(() => runDue(ctx, now ?? clock.now()));
  s.chain = run.catch(() => undefined);
  return run;
}

async function runDue(ctx: AppContext, now: Date): Promise<SweepResult> {
  const result: SweepResult = { timers: 0, sent: 0, retrying: 0, failed: 0, held: 0 };
  await giveBack(ctx, now);
  for (;;) {
    const n = await judgeTimers(ctx, now);
    result.timers += n;
    if (n < BATCH) break;
  }
  for (;;) {
    const claimEnds = stateOf(ctx).claimEnds;
    const until = new Date(now.getTime() + CLAIM_MS);
    claimEnds.add(until.getTime());
    const claimed = await claim(ctx, now, until);
    for (const d of claimed) {
      const outcome = await sendOne(ctx, d, now);
      result[outcome] += 1;
    }
    claimEnds.delete(until.getTime());
    if (claimed.length < BATCH) break;
  }
  return result;
}

/** A sweep on the wall clock (the job, the periodic safety net, the planner's wake-up); one waiting is enough. */
export async function sweep(ctx: AppContext): Promise<void> {
  const s = stateOf(ctx);
  if (s.queued) return;
  s.queued = true;
  await s.chain;
  s.queued = false;
  await processDue(ctx);
}

// ── Timers ──────────────────────────────────────────────────────────────────────────────

type Judged = { notices: Delivery[]; emitted: boolean };

async function judgeTimers(ctx: AppContext, now: Date): Promise<number> {
  const due = await ctx.db
    .select({ id: messageDelivery.id })
    .from(messageDelivery)
    .where(and(inArray(messageDelivery.channel, [TIMER, ESCALATE]), eq(messageDelivery.state, 'queued'), sql`${messageDelivery.dueAt} <= ${iso(now)}`))
    .orderBy(messageDelivery.dueAt)
    .limit(BATCH);
  for (const { id } of due) {
    const judged = await ctx.db.transaction(async (tx): Promise<Judged> => {
      const locked = await tx.execute<{ id: string }>(sql`select id from message_delivery where id = ${id} and state = 'queued' for update skip locked`);
      if (locked.rows.length === 0) return { notices: [], emitted: false };
      const [row] = await tx.select().from(messageDelivery).where(eq(messageDelivery.id, id));
      return judge(tx, row!, now);
    });
    await deliver(ctx, judged.notices);
    if (judged.emitted) ctx.outbox.nudge();
  }
  return due.length;
}

type LedgerRow = typeof messageDelivery.$inferSelect;

const close = (tx: DbOrTx, id: number, state: 'sent' | 'cancelled', error: string | null = null) =>
  tx.update(messageDelivery).set({ state, error, attempts: sql`${messageDelivery.attempts} + 1`, updatedAt: new Date() }).where(eq(messageDelivery.id, id));

/** An alarm still open and not taken on: its payload as the alarm events carry it; else why not. */
async function openAlarm(tx: DbOrTx, id: number) {
  const [a] = await tx
    .select({ id: alarm.id, no: alarm.no, siteId: alarm.siteId, deviceId: alarm.deviceId, level: alarm.level, description: alarm.description, startedAt: alarm.startedAt, status: alarm.status })
    .from(alarm)
    .where(eq(alarm.id, id));
  if (!a || a.status !== 'active') return { why: CANCEL_ENDED } as const;
  const [repair] = await tx.select({ id: repairOrder.id }).from(repairOrder).where(eq(repairOrder.alarmId, id)).limit(1);
  if (repair) return { why: CANCEL_ACKNOWLEDGED } as const;
  return { payload: { id: a.id, no: a.no, siteId: a.siteId, deviceId: a.deviceId, level: a.level, description: a.description, startedAt: a.startedAt.toISOString() } } as const;
}

const OPEN_ORDER = ['toBeAssigned', 'pending', 'processing'];
export const CONDITION_GONE = '条件已不满足';

async function judge(tx: DbOrTx, row: LedgerRow, now: Date): Promise<Judged> {
  const none: Judged = { notices: [], emitted: false };
  if (row.channel === ESCALATE) {
    const a = await openAlarm(tx, row.subjectId!);
    if ('why' in a) return close(tx, row.id, 'cancelled', a.why).then(() => none);
    const [rule] = row.ruleId ? await tx.select().from(messageRule).where(eq(messageRule.id, row.ruleId)) : [];
    if (!rule?.enabled) return close(tx, row.id, 'cancelled', CONDITION_GONE).then(() => none);
    const e: DomainEvent<'alarm.opened'> = { id: row.eventId, type: 'alarm.opened', payload: a.payload, createdAt: row.createdAt };
    const s = await subjectOf(tx, e, rule.event as MessageEvent);
    await close(tx, row.id, 'sent');
    return { notices: s ? await planEscalation(tx, rule, s, row.step, now) : [], emitted: false };
  }
  const [message, , , minutesText] = row.recipientKey.split(':');
  const minutes = Number(minutesText);
  if (message === 'alarmUnacknowledged') {
    const a = await openAlarm(tx, row.subjectId!);
    if ('why' in a) return close(tx, row.id, 'cancelled', a.why).then(() => none);
    await emit(tx, 'alarm.unacknowledged', [{ ...a.payload, minutes }]);
  } else if (message === 'deviceOffline') {
    const [d] = await tx
      .select({ code: device.code, siteId: device.siteId, online: devicePresence.online, changedAt: devicePresence.changedAt })
      .from(device)
      .innerJoin(devicePresence, eq(devicePresence.deviceId, device.id))
      .where(eq(device.id, row.subjectId!));
    if (!d || d.online || d.siteId === null) return close(tx, row.id, 'cancelled', CONDITION_GONE).then(() => none);
    await emit(tx, 'device.offlineFor', [{ deviceId: row.subjectId!, code: d.code, siteId: d.siteId, at: d.changedAt.toISOString(), minutes }]);
  } else if (message === 'workOrderOverdue') {
    const [o] = await tx
      .select({ id: inspectionWorkOrder.id, no: inspectionWorkOrder.no, siteId: inspectionWorkOrder.siteId, status: inspectionWorkOrder.status, assigneeId: inspectionWorkOrder.assigneeId, dueAt: inspectionWorkOrder.dueAt })
      .from(inspectionWorkOrder)
      .where(eq(inspectionWorkOrder.id, row.subjectId!));
    if (!o || !OPEN_ORDER.includes(o.status)) return close(tx, row.id, 'cancelled', CONDITION_GONE).then(() => none);
    await emit(tx, 'workorder.overdue', [{ id: o.id, no: o.no, siteId: o.siteId, assigneeId: o.assigneeId, dueAt: o.dueAt.toISOString(), minutes }]);
  } else {
    return close(tx, row.id, 'cancelled', CONDITION_GONE).then(() => none);
  }
  await close(tx, row.id, 'sent');
  return { notices: [], emitted: true };
}

// ── Sending ─────────────────────────────────────────────────────────────────────────────

interface Claimed {
  id: number;
  channel: string;
  mailLogId: number | null;
  smsLogId: number | null;
  attempts: number;
}

/** Takes the due mail and SMS until `until`, CLAIM_MS from now (another instance skips them meanwhile). */
async function claim(ctx: AppContext, now: Date, until: Date): Promise<Claimed[]> {
  const { rows } = await ctx.db.execute<{ id: string; channel: string; mail_log_id: string | null; sms_log_id: string | null; attempts: number }>(sql`
    update message_delivery set due_at = ${iso(until)}
    where id in (
      select id from message_delivery
      where channel in ('mail', 'sms') and state in ('queued', 'retrying') and due_at <= ${iso(now)}
      order by due_at, id limit ${BATCH} for update skip locked)
    returning id, channel, mail_log_id, sms_log_id, attempts`);
  const n = (v: string | null) => (v === null ? null : Number(v));
  return rows.map((r) => ({ id: Number(r.id), channel: r.channel, mailLogId: n(r.mail_log_id), smsLogId: n(r.sms_log_id), attempts: r.attempts }));
}

/**
 * What a sweep the database cut short left in hand: messages still held by its claim (their due
 * time still the claim's end as written: not sent, not taken since) are due again now, after the
 * log rows of attempts it cut short before the peer took anything (claimsGivenBack).
 */
async function giveBack(ctx: AppContext, now: Date): Promise<void> {
  const { claimEnds } = stateOf(ctx);
  await claimsGivenBack(ctx);
  for (const end of [...claimEnds]) {
    await ctx.db
      .update(messageDelivery)
      .set({ dueAt: now })
      .where(and(inArray(messageDelivery.channel, ['mail', 'sms']), inArray(messageDelivery.state, ['queued', 'retrying']), sql`${messageDelivery.dueAt} = ${iso(new Date(end))}`));
    claimEnds.delete(end);
  }
}

type Outcome = 'sent' | 'retrying' | 'failed' | 'held';

/**
 * Reserves one send through the sender (`mail:3`, `sms:5`) in the current minute, counted across
 * all instances (one conditional upsert on send_rate): false when the minute is full. A fixed
 * window: at most the rate in each calendar minute.
 */
async function withinRate(ctx: AppContext, key: string, now: Date): Promise<boolean> {
  const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const reserved = await ctx.db
    .insert(sendRate)
    .values({ senderKey: key, minute, sent: 1 })
    .onConflictDoUpdate({
      target: sendRate.senderKey,
      set: { minute, sent: sql`case when ${sendRate.minute} = ${iso(minute)} then ${sendRate.sent} + 1 else 1 end` },
      setWhere: sql`${sendRate.minute} <> ${iso(minute)} or ${sendRate.sent} < ${ctx.config.messageRatePerMinute}`,
    })
    .returning({ sent: sendRate.sent });
  return reserved.length > 0;
}

type LogTable = typeof mailLog | typeof smsLog;

/** Holds a message without counting an attempt (the per-minute rate): due again at `until`. */
async function hold(ctx: AppContext, d: Claimed, log: LogTable, logId: number, until: Date, why: string): Promise<Outcome> {
  await ctx.db.transaction(async (tx) => {
    await tx.update(messageDelivery).set({ dueAt: until, heldReason: why, updatedAt: new Date() }).where(eq(messageDelivery.id, d.id));
    await tx.update(log).set({ nextAttemptAt: until }).where(eq(log.id, logId));
  });
  return 'held';
}

/**
 * The ledger row follows its log row after an attempt by the mail or SMS sender (one sender per
 * kind, with its claim, daily limit, retry policy and outcome): state, attempts, error and when
 * it is due again. A row still queued (a daily limit) or not attempted (another holds it) is held.
 */
async function follow(ctx: AppContext, d: Claimed, log: LogTable, logId: number): Promise<Outcome> {
  const [l] = await ctx.db.select({ state: log.state, attempts: log.attempts, error: log.error, next: log.nextAttemptAt }).from(log).where(eq(log.id, logId));
  if (!l) return settled(ctx, d, 'failed');
  await ctx.db
    .update(messageDelivery)
    .set({ state: l.state, attempts: l.attempts, error: l.error, ...(l.next ? { dueAt: l.next } : {}), updatedAt: new Date() })
    .where(eq(messageDelivery.id, d.id));
  return l.state === 'sent' || l.state === 'retrying' || l.state === 'failed' ? l.state : 'held';
}

/** A log row that was cancelled (or finished) meanwhile: the ledger row follows it, nothing is sent. */
async function settled(ctx: AppContext, d: Claimed, state: string): Promise<Outcome> {
  await ctx.db.update(messageDelivery).set({ state, updatedAt: new Date() }).where(eq(messageDelivery.id, d.id));
  return state === 'sent' ? 'sent' : 'failed';
}

/** One due mail or SMS of the ledger: the per-minute rate here, the attempt by its sender. */
async function sendOne(ctx: AppContext, d: Claimed, now: Date): Promise<Outcome> {
  const mail = d.channel === 'mail';
  const log: LogTable = mail ? mailLog : smsLog;
  const logId = mail ? d.mailLogId : d.smsLogId;
  if (logId === null) return settled(ctx, d, 'failed');
  const [l] = mail
    ? await ctx.db.select({ state: mailLog.state, sender: mailLog.accountId }).from(mailLog).where(eq(mailLog.id, logId))
    : await ctx.db.select({ state: smsLog.state, sender: smsLog.channelId }).from(smsLog).where(eq(smsLog.id, logId));
  if (!l) return settled(ctx, d, 'failed');
  if (l.state !== 'queued' && l.state !== 'retrying') return settled(ctx, d, l.state);
  if (l.sender !== null && !(await withinRate(ctx, `${d.channel}:${l.sender}`, now))) return hold(ctx, d, log, logId, new Date((Math.floor(now.getTime() / 60_000) + 1) * 60_000), RATE_LIMITED);
  if (mail) await attemptMail(ctx, logId, { now });
  else await attemptSms(ctx, logId, { now: () => now });
  return follow(ctx, d, log, logId);
}

// ── Jobs ────────────────────────────────────────────────────────────────────────────────

/** The job that runs a sweep, the periodic safety net, and the wake-ups the planner asks for. */
export function registerDeliveryJobs(ctx: AppContext): void {
  ctx.jobs.handle(DUE_JOB, () => sweep(ctx));
  ctx.jobs.every(SWEEP_MS, () => sweep(ctx));
  setWake(async (c) => {
    await c.jobs.send(DUE_JOB, {});
    const next = await nextDue(c.db);
    if (next && next.getTime() > Date.now()) await c.jobs.send(DUE_JOB, {}, next);
  });
}
