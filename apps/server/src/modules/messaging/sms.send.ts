import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { MessageOrigin } from '@ess/contract/messaging';
import { smsChannel, smsLog } from '../../db/schema/messaging.ts';
import type { AppContext } from '../../platform/context.ts';
import { renderTemplate, smsSegments, type TemplateValues } from './message.template.ts';
import { backoffMs, MAX_ATTEMPTS, nextUtcMidnight, PERSIST_SENT_MS, secretsOf, SMS_SECRET, utcDay, givingBackClaim, type LeaseNote } from './message.context.ts';
import { failure, type SmsFailure, type SmsSendResult } from './sms-providers/provider.ts';
import { credentialsOf, sendSms } from './sms-providers/registry.ts';
import type { SmsProvider } from '@ess/contract/messaging';
import { writeThroughOutage } from '../../platform/db/outage.ts';

/**
 * One SMS from queue to provider (decision 0043's states): a message is written to the log as
 * `queued` with its rendered content and the parameters of the provider's template, then each
 * attempt claims the row (a lease in `next_attempt_at`, so two workers never send it twice),
 * sends it through the channel's adapter and records the outcome: `sent` with the provider's
 * message id; `retrying` with exponential backoff on a temporary failure; `failed` with the
 * provider's reason on a permanent one or when the attempts are spent. A channel past its daily
 * limit holds the message until the next UTC day. The job `sms.send` runs attempts; a periodic
 * sweep picks up any due row whose job was lost.
 */

export const SMS_SEND_JOB = 'sms.send';

/** The channel as the sender needs it: the provider's credentials with the secret opened (never returned to a caller). */
export async function channelForSending(ctx: AppContext, id: number) {
  const [c] = await ctx.db.select().from(smsChannel).where(eq(smsChannel.id, id));
  if (!c) return null;
  const secret = c.secretEnc === null ? null : secretsOf(ctx).open(c.secretEnc, SMS_SECRET);
  return { row: c, provider: c.provider as SmsProvider, credentials: credentialsOf({ provider: c.provider as SmsProvider, accessKeyId: c.accessKeyId, secret, region: c.region, appId: c.appId, sender: c.sender }) };
}
/** Attempts of a message from a rule before it fails (the one retry policy); a test send tries once. */
export const SMS_MAX_ATTEMPTS = MAX_ATTEMPTS;
export { backoffMs };
/** How long a claimed attempt holds the row against another worker. */
const LEASE_MS = 120_000;
export const SMS_CHANNEL_GONE = '短信渠道不存在或已删除';
export const SMS_DAILY_LIMIT = '已达短信渠道每日上限，次日发送';
export const SMS_NO_TEMPLATE_CODE = '该服务商须填写服务商模板编码';
export const SMS_NO_SIGN_NAME = '该服务商须填写短信签名';

/** A channel as an attempt sends through it: a saved one (channelForSending) or a form's before saving. */
export interface SmsSender {
  row: { id: number | null; endpoint: string | null };
  provider: SmsProvider;
  credentials: Record<string, string | undefined>;
}

export interface SmsToQueue {
  companyId: number;
  /** Null: a test through a channel's settings not saved yet (`channel` names it). */
  channelId: number | null;
  channel?: { name: string; provider: SmsProvider; signName: string | null };
  template: { id: number | null; name: string | null; code: string | null; language: string | null; content: string; providerTemplateCode: string | null; signName: string | null };
  /** E.164. */
  phone: string;
  values: TemplateValues;
  origin: MessageOrigin;
  userId?: number | null;
  eventId?: number | null;
  eventType?: string | null;
  ruleId?: number | null;
}

/**
 * The provider template's parameters: the template's variables in order of first use with their
 * values (Aliyun takes them by name, Tencent in this order).
 */
export function templateParams(values: TemplateValues, variables: string[]): Record<string, string> {
  return Object.fromEntries(variables.map((n) => [n, values[n] === null || values[n] === undefined ? '' : String(values[n])]));
}

/** Writes the message to the log as queued (rendered now: the log shows what went out) and returns its id. */
export async function queueSms(ctx: AppContext, m: SmsToQueue, variables: string[]): Promise<number> {
  const [saved] = m.channel || m.channelId === null
    ? []
    : await ctx.db.select({ name: smsChannel.name, provider: smsChannel.provider, signName: smsChannel.signName }).from(smsChannel).where(eq(smsChannel.id, m.channelId));
  const channel = m.channel ?? saved;
  const content = renderTemplate(m.template.content, m.values, 'text');
  const [row] = await ctx.db
    .insert(smsLog)
    .values({
      companyId: m.companyId, recipient: m.phone, userId: m.userId ?? null, templateId: m.template.id, templateName: m.template.name, templateCode: m.template.code,
      language: m.template.language, origin: m.origin, eventId: m.eventId ?? null, eventType: m.eventType ?? null, ruleId: m.ruleId ?? null,
      state: 'queued', channelId: m.channelId, channelName: channel?.name ?? null, provider: channel?.provider ?? null,
      content: content.slice(0, 2000), params: templateParams(m.values, variables), providerTemplateCode: m.template.providerTemplateCode,
      signName: m.template.signName ?? channel?.signName ?? null, segments: Math.min(32_767, smsSegments(content).segments),
      // This process's clock, in milliseconds, as the attempt's claim compares: the database's now() has microseconds
      // and could fall after an attempt made within the same millisecond (the claim then missed it).
      nextAttemptAt: new Date(),
    })
    .returning({ id: smsLog.id });
  return row!.id;
}

/** Queues the message and its first attempt as a job. */
export async function enqueueSms(ctx: AppContext, m: SmsToQueue, variables: string[]): Promise<number> {
  const id = await queueSms(ctx, m, variables);
  await ctx.jobs.send(SMS_SEND_JOB, { logId: id });
  return id;
}

export interface AttemptOutcome {
  /** false: the row was not due or already taken by another attempt. */
  attempted: boolean;
  state: 'sent' | 'retrying' | 'failed' | 'queued' | null;
  result: SmsSendResult | null;
}

/**
 * One attempt of a due message: claim, send, record. `maxAttempts` 1 for a test send; `sender`:
 * a test through the form's settings before they are saved (no stored channel's daily count).
 */
export function attemptSms(ctx: AppContext, logId: number, opts: { maxAttempts?: number; now?: () => Date; sender?: SmsSender } = {}): Promise<AttemptOutcome> {
  return givingBackClaim(ctx, smsLog, logId, (lease) => attemptSmsOnce(ctx, logId, opts, lease));
}

async function attemptSmsOnce(ctx: AppContext, logId: number, opts: { maxAttempts?: number; now?: () => Date; sender?: SmsSender }, lease: LeaseNote): Promise<AttemptOutcome> {
  const now = opts.now?.() ?? new Date();
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  // Noted before the claim: one whose answer the database cut off may have committed.
  lease.until = leaseUntil;
  const [row] = await ctx.db
    .update(smsLog)
    .set({ attempts: sql`${smsLog.attempts} + 1`, lastAttemptAt: now, nextAttemptAt: leaseUntil })
    .where(and(eq(smsLog.id, logId), inArray(smsLog.state, ['queued', 'retrying']), lte(smsLog.nextAttemptAt, now)))
    .returning();
  if (!row) return { attempted: false, state: null, result: null };
  const maxAttempts = opts.maxAttempts ?? SMS_MAX_ATTEMPTS;
  const record = async (result: SmsSendResult): Promise<AttemptOutcome> => {
    if (result.ok) {
      lease.handedOver = true;
      // The provider has the message: the record of it must land (retried while the database is away).
      const sent = { state: 'sent', providerMessageId: result.providerMessageId.slice(0, 256), sentAt: now, nextAttemptAt: null, error: null };
      await writeThroughOutage(() => ctx.db.update(smsLog).set(sent).where(eq(smsLog.id, logId)), PERSIST_SENT_MS);
      return { attempted: true, state: 'sent', result };
    }
    const error = `${result.providerCode}: ${result.reason}`.slice(0, 1000);
    const retry = result.kind === 'temporary' && row.attempts < maxAttempts;
    await ctx.db
      .update(smsLog)
      .set(retry ? { state: 'retrying', error, nextAttemptAt: new Date(now.getTime() + backoffMs(row.attempts)) } : { state: 'failed', error, nextAttemptAt: null })
      .where(eq(smsLog.id, logId));
    return { attempted: true, state: retry ? 'retrying' : 'failed', result };
  };

  const channel: SmsSender | null = opts.sender ?? (row.channelId === null ? null : await channelForSending(ctx, row.channelId).catch((err: unknown) => {
    ctx.log.error({ err, channelId: row.channelId }, 'SMS channel secret does not open');
    return null;
  }));
  if (!channel) return record(failure('permanent', 'ChannelMissing', SMS_CHANNEL_GONE));
  const missing = missingTemplateParts(channel.provider, row.providerTemplateCode, row.signName);
  if (missing) return record(failure('permanent', 'TemplateIncomplete', missing));

  // The daily limit: counted per UTC day on the saved channel's row, atomically; past it the message waits for tomorrow.
  const day = utcDay(now);
  const countedId = opts.sender ? null : channel.row.id;
  const [counted] = countedId === null ? [{ n: 0 }] : await ctx.db
    .update(smsChannel)
    .set({ sentDay: day, sentToday: sql`case when ${smsChannel.sentDay} = ${day} then ${smsChannel.sentToday} + 1 else 1 end` })
    .where(and(eq(smsChannel.id, countedId), sql`(${smsChannel.sentDay} is distinct from ${day} or ${smsChannel.sentToday} < ${smsChannel.dailyLimit})`))
    .returning({ n: smsChannel.sentToday });
  if (!counted) {
    await ctx.db.update(smsLog).set({ attempts: sql`${smsLog.attempts} - 1`, error: SMS_DAILY_LIMIT, nextAttemptAt: nextUtcMidnight(now) }).where(eq(smsLog.id, logId));
    return { attempted: true, state: 'queued', result: failure('temporary', 'DailyLimit', SMS_DAILY_LIMIT) };
  }

  const result = await sendSms(channel.provider, channel.credentials, {
    phone: row.recipient,
    templateCode: row.providerTemplateCode ?? '',
    signName: row.signName ?? '',
    params: (row.params ?? {}) as Record<string, string>,
    text: row.content,
  }, { baseUrl: channel.row.endpoint, timeoutMs: ctx.config.mailTimeoutMs });
  if (!result.ok && countedId !== null) {
    // Not sent: the day's count gives the message back.
    await ctx.db.update(smsChannel).set({ sentToday: sql`greatest(${smsChannel.sentToday} - 1, 0)` }).where(and(eq(smsChannel.id, countedId), eq(smsChannel.sentDay, day)));
  }
  return record(result);
}

/** Aliyun and Tencent send a registered template under a sign name; without them the provider would refuse. */
function missingTemplateParts(provider: string, templateCode: string | null, signName: string | null): string | null {
  if (provider === 'twilio') return null;
  if (!templateCode) return SMS_NO_TEMPLATE_CODE;
  if (!signName) return SMS_NO_SIGN_NAME;
  return null;
}

/** The job: one attempt; a retry is scheduled as a job at its time. */
export async function runSmsJob(ctx: AppContext, data: { logId: number }): Promise<void> {
  const out = await attemptSms(ctx, data.logId);
  if (out.state === 'retrying' || out.state === 'queued') {
    const [row] = await ctx.db.select({ next: smsLog.nextAttemptAt }).from(smsLog).where(eq(smsLog.id, data.logId));
    if (row?.next) await ctx.jobs.send(SMS_SEND_JOB, { logId: data.logId }, row.next);
  }
}

/** Rows due whose job was lost (a crash between commit and enqueue): attempted by the sweep. */
export async function sweepDueSms(ctx: AppContext, limit = 100): Promise<number> {
  const due = await ctx.db
    .select({ id: smsLog.id })
    .from(smsLog)
    .where(and(inArray(smsLog.state, ['queued', 'retrying']), lte(smsLog.nextAttemptAt, sql`now() - interval '1 minute'`)))
    .limit(limit);
  for (const d of due) await runSmsJob(ctx, { logId: d.id });
  return due.length;
}

export type { SmsFailure };
