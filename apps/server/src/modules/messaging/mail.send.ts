import { join } from 'node:path';
import { and, eq, inArray, lt, or, isNull, lte, sql } from 'drizzle-orm';
import type { MailTlsMode, MessageOrigin } from '@ess/contract/messaging';
import { mailAccount, mailLog } from '../../db/schema/messaging.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { backoffMs, MAIL_PASSWORD, MAX_ATTEMPTS, nextUtcMidnight, PERSIST_SENT_MS, secretsOf, utcDay, givingBackClaim, type LeaseNote } from './message.context.ts';
import { smtpFailure, smtpTransport } from './mail.transport.ts';
import { writeThroughOutage } from '../../platform/db/outage.ts';

/**
 * Sending one mail of the log (decision 0043): a row is written `queued`, then each attempt
 * claims it (a lease: only one instance sends it), reserves one of the account's daily sends,
 * talks SMTP, and records the outcome: `sent` with the server's message id, `retrying` after a
 * temporary failure (the one retry policy of message.context.ts), or
 * `failed` with the server's reason. Nothing is lost: a row stays queued or retrying until an
 * attempt settles it, and the sweep picks up any whose job went missing.
 */
export const MAIL_SEND_JOB = 'messaging.mail.send';
export const MAIL_MAX_ATTEMPTS = MAX_ATTEMPTS;
export const DAILY_LIMIT_REACHED = '已达每日发送上限';
export const ACCOUNT_DISABLED = '邮件账号已停用';
export const ACCOUNT_MISSING = '邮件账号不存在';
const LEASE_MS = 10 * 60_000;

export interface QueueMail {
  companyId: number;
  /** Null: a test through an account's settings not saved yet. */
  accountId: number | null;
  /** The account's name in the log (default: the saved account's). */
  accountName?: string | null;
  recipient: string;
  subject: string;
  html: string;
  text: string;
  origin: MessageOrigin;
  userId?: number | null;
  template?: { id: number; name: string; code: string; language: string } | null;
  eventId?: number | null;
  eventType?: string | null;
  ruleId?: number | null;
  /** Files sent with the mail (paths relative to the data directory). */
  attachments?: { fileName: string; contentType: string; path: string }[] | null;
}

/** Writes a queued mail and asks the job queue to send it (the delivery engine's entry). */
export async function queueMail(ctx: AppContext, m: QueueMail): Promise<number> {
  const id = await insertMail(ctx, m);
  await mailSoon(ctx, id);
  return id;
}

/** Hands a queued mail to the send job (lost, the sweep sends it within SWEEP_MS). */
export async function mailSoon(ctx: AppContext, logId: number): Promise<void> {
  await ctx.jobs.send(MAIL_SEND_JOB, { logId });
}

/** The mail's log row, queued (in the caller's transaction when given); mailSoon sends it once that committed. */
export async function insertMail(ctx: AppContext, m: QueueMail, db: DbOrTx = ctx.db): Promise<number> {
  const [acc] = m.accountId === null ? [] : await db.select({ name: mailAccount.name }).from(mailAccount).where(eq(mailAccount.id, m.accountId));
  const [row] = await db
    .insert(mailLog)
    .values({
      companyId: m.companyId, accountId: m.accountId, accountName: m.accountName ?? acc?.name ?? null, recipient: m.recipient, subject: m.subject.slice(0, 1000),
      html: m.html, text: m.text, origin: m.origin, userId: m.userId ?? null, templateId: m.template?.id ?? null,
      templateName: m.template?.name ?? null, templateCode: m.template?.code ?? null, language: m.template?.language ?? null,
      eventId: m.eventId ?? null, eventType: m.eventType ?? null, ruleId: m.ruleId ?? null, attachments: m.attachments ?? null, state: 'queued',
    })
    .returning({ id: mailLog.id });
  return row!.id;
}

export interface AttemptResult {
  ok: boolean;
  reason: string | null;
  providerMessageId: string | null;
  /** The row's state after the attempt ('skipped': not due, or another instance holds it). */
  state: 'sent' | 'retrying' | 'failed' | 'skipped';
}

/** The SMTP account a mail goes through, its password opened. */
export interface MailSender {
  host: string;
  port: number;
  tlsMode: MailTlsMode;
  verifyCertificate: boolean;
  username: string | null;
  password: string | null;
  fromName: string | null;
  fromAddress: string;
  replyTo: string | null;
}

/**
 * One attempt at a queued or retrying mail. `retry: false` (a test send) settles it at once:
 * sent or failed. `sender`: a test through the form's settings before they are saved (no
 * stored account's state or daily count is used or changed).
 */
export function attemptMail(ctx: AppContext, logId: number, opts: { retry?: boolean; now?: Date; sender?: MailSender } = {}): Promise<AttemptResult> {
  return givingBackClaim(ctx, mailLog, logId, (lease) => attemptMailOnce(ctx, logId, opts, lease));
}

async function attemptMailOnce(ctx: AppContext, logId: number, opts: { retry?: boolean; now?: Date; sender?: MailSender }, lease: LeaseNote): Promise<AttemptResult> {
  const { db } = ctx;
  const now = opts.now ?? new Date();
  const retry = opts.retry ?? true;
  // Claim: due, unsettled, not held by another attempt.
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  // Noted before the claim: one whose answer the database cut off may have committed.
  lease.until = leaseUntil;
  const [m] = await db
    .update(mailLog)
    .set({ nextAttemptAt: leaseUntil, lastAttemptAt: now })
    .where(and(eq(mailLog.id, logId), inArray(mailLog.state, ['queued', 'retrying']), or(isNull(mailLog.nextAttemptAt), lte(mailLog.nextAttemptAt, now))))
    .returning();
  if (!m) return { ok: false, reason: null, providerMessageId: null, state: 'skipped' };
  const settle = async (state: 'sent' | 'retrying' | 'failed', patch: Partial<typeof mailLog.$inferInsert>) => {
    await db.update(mailLog).set({ state, ...patch }).where(eq(mailLog.id, logId));
  };
  const fail = async (reason: string, temporary: boolean, at: Date | null = null): Promise<AttemptResult> => {
    const attempts = m.attempts + 1;
    if (retry && temporary && attempts < MAIL_MAX_ATTEMPTS) {
      const nextAt = at ?? new Date(now.getTime() + backoffMs(attempts));
      await settle('retrying', { attempts, error: reason, nextAttemptAt: nextAt });
      await ctx.jobs.send(MAIL_SEND_JOB, { logId }, nextAt);
      return { ok: false, reason, providerMessageId: null, state: 'retrying' };
    }
    await settle('failed', { attempts, error: reason, nextAttemptAt: null });
    return { ok: false, reason, providerMessageId: null, state: 'failed' };
  };

  // The saved account's day count, reserved before the conversation and given back if it fails.
  const today = utcDay(now);
  let counted: number | null = null;
  let acc: MailSender;
  if (opts.sender) {
    acc = opts.sender;
  } else {
    const [row] = m.accountId === null ? [] : await db.select().from(mailAccount).where(eq(mailAccount.id, m.accountId));
    if (!row) return fail(ACCOUNT_MISSING, false);
    if (!row.enabled) return fail(ACCOUNT_DISABLED, false);
    const [reserved] = await db
      .update(mailAccount)
      .set({ sentDay: today, sentToday: sql`case when ${mailAccount.sentDay} = ${today} then ${mailAccount.sentToday} + 1 else 1 end` })
      .where(and(eq(mailAccount.id, row.id), or(sql`${mailAccount.sentDay} is distinct from ${today}`, lt(mailAccount.sentToday, mailAccount.dailyLimit))))
      .returning({ id: mailAccount.id });
    if (!reserved) {
      // Not the mail's fault: it waits for tomorrow without using an attempt.
      if (!retry) return fail(DAILY_LIMIT_REACHED, false);
      const at = nextUtcMidnight(now);
      await settle('retrying', { error: DAILY_LIMIT_REACHED, nextAttemptAt: at });
      await ctx.jobs.send(MAIL_SEND_JOB, { logId }, at);
      return { ok: false, reason: DAILY_LIMIT_REACHED, providerMessageId: null, state: 'retrying' };
    }
    counted = row.id;
    acc = { ...row, tlsMode: row.tlsMode as MailTlsMode, password: row.passwordEnc ? secretsOf(ctx).open(row.passwordEnc, MAIL_PASSWORD) : null };
  }
  const password = acc.password;
  const transport = smtpTransport({ ...acc, timeoutMs: ctx.config.mailTimeoutMs });
  try {
    const info = await transport.sendMail({
      from: acc.fromName ? { name: acc.fromName, address: acc.fromAddress } : acc.fromAddress,
      to: m.recipient,
      replyTo: acc.replyTo ?? undefined,
      subject: m.subject,
      html: m.html,
      text: m.text,
      headers: { 'X-ESS-Message-Id': `mail-${m.id}` },
      attachments: m.attachments?.map((a) => ({ filename: a.fileName, contentType: a.contentType, path: join(ctx.config.dataDir, a.path) })),
    });
    lease.handedOver = true;
    const providerMessageId = (info.messageId || null)?.slice(0, 256) ?? null;
    // The server has the mail: the record of it must land (retried while the database is away).
    await writeThroughOutage(() => settle('sent', { attempts: m.attempts + 1, sentAt: new Date(), providerMessageId, error: null, nextAttemptAt: null }), PERSIST_SENT_MS);
    return { ok: true, reason: null, providerMessageId, state: 'sent' };
  } catch (err) {
    if (counted !== null) {
      await db
        .update(mailAccount)
        .set({ sentToday: sql`greatest(${mailAccount.sentToday} - 1, 0)` })
        .where(and(eq(mailAccount.id, counted), eq(mailAccount.sentDay, today)));
    }
    const f = smtpFailure(err, password);
    return fail(f.reason, f.temporary);
  } finally {
    transport.close();
  }
}

/** Mails due (queued or retrying, their time come): attempted one by one (the sweep). */
export async function sendDueMail(ctx: AppContext, now = new Date(), limit = 50): Promise<number> {
  const due = await ctx.db
    .select({ id: mailLog.id })
    .from(mailLog)
    .where(and(inArray(mailLog.state, ['queued', 'retrying']), or(isNull(mailLog.nextAttemptAt), lte(mailLog.nextAttemptAt, now))))
    .orderBy(mailLog.id)
    .limit(limit);
  for (const d of due) await attemptMail(ctx, d.id, { now });
  return due.length;
}

/** Deletes mail log rows older than the retention (MESSAGE_LOG_RETENTION_DAYS). */
export async function pruneMailLog(ctx: AppContext, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - ctx.config.messageLogRetentionDays * 86_400_000);
  const rows = await ctx.db.delete(mailLog).where(lt(mailLog.createdAt, before)).returning({ id: mailLog.id });
  return rows.length;
}
