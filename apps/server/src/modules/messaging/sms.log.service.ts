import { and, desc, eq, gte, lt } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import {
  MESSAGE_ORIGIN_LABELS, MESSAGE_STATE_LABELS, SMS_PROVIDER_LABELS, type MessageOrigin, type MessageState, type SmsLogDetail, type SmsLogRecord,
  type SmsProvider, type smsLogFilter, type smsLogPage,
} from '@ess/contract/messaging';
import { messageRule, smsLog } from '../../db/schema/messaging.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';
import { filtered } from './message.scope.ts';
import { streamXlsx, type ExportLanguage, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';

/**
 * The SMS log (decision 0043): every message with recipient, template, rendered content,
 * channel, state, provider message id, error, attempts and times; page, one (with the provider
 * template's parameters and sign name), xlsx export (streamed, capped). Scoped to the caller's
 * companies. No secret is in any column.
 */

export const SMS_LOG_NOT_FOUND = '短信记录不存在';
/** An export holds at most this many rows (newest first). */
export const SMS_LOG_EXPORT_MAX = 50_000;

const logs = defineListQuery({
  table: smsLog,
  columns: { l: smsLog, companyName: company.name, userName: appUser.name, ruleName: messageRule.name },
  joins: [
    { table: company, on: eq(company.id, smsLog.companyId) },
    { table: appUser, on: eq(appUser.id, smsLog.userId), left: true },
    { table: messageRule, on: eq(messageRule.id, smsLog.ruleId), left: true },
  ],
  scope: (db, user) => inCompanyScope(smsLog.companyId, db, user),
  filter: (f: z.output<typeof smsLogFilter>) => [
    f.companyId ? eq(smsLog.companyId, f.companyId) : undefined,
    f.state ? eq(smsLog.state, f.state) : undefined,
    f.recipient ? likeEscaped(smsLog.recipient, f.recipient) : undefined,
    f.templateId ? eq(smsLog.templateId, f.templateId) : undefined,
    f.origin ? eq(smsLog.origin, f.origin) : undefined,
    f.channelId ? eq(smsLog.channelId, f.channelId) : undefined,
    f.start ? gte(smsLog.createdAt, new Date(f.start)) : undefined,
    f.end ? lt(smsLog.createdAt, new Date(f.end)) : undefined,
  ],
  orderBy: [desc(smsLog.createdAt), desc(smsLog.id)],
  sortable: { createdAt: smsLog.createdAt, sentAt: smsLog.sentAt, state: smsLog.state, recipient: smsLog.recipient, attempts: smsLog.attempts },
  toRecord: ({ l, companyName, userName, ruleName }) => ({
    record: {
      id: l.id,
      companyId: l.companyId,
      companyName,
      recipient: l.recipient,
      userId: l.userId,
      userName: userName ?? null,
      templateId: l.templateId,
      templateName: l.templateName,
      templateCode: l.templateCode,
      language: l.language,
      origin: l.origin as MessageOrigin,
      eventType: l.eventType,
      ruleId: l.ruleId,
      ruleName: ruleName ?? null,
      state: l.state as MessageState,
      providerMessageId: l.providerMessageId,
      error: l.error,
      attempts: l.attempts,
      createdAt: l.createdAt.toISOString(),
      lastAttemptAt: l.lastAttemptAt?.toISOString() ?? null,
      nextAttemptAt: l.nextAttemptAt?.toISOString() ?? null,
      sentAt: l.sentAt?.toISOString() ?? null,
      channelId: l.channelId,
      channelName: l.channelName,
      provider: (l.provider as SmsProvider | null) ?? null,
      content: l.content,
      segments: l.segments,
    } satisfies SmsLogRecord,
    params: (l.params ?? null) as Record<string, string> | null,
    providerTemplateCode: l.providerTemplateCode,
    signName: l.signName,
  }),
});

export async function logPage(ctx: AppContext, user: AuthUser, req: z.output<typeof smsLogPage>) {
  const page = await filtered(ctx, user, req.companyId, () => logs.page(ctx.db, user, req));
  return { ...page, records: page.records.map((r) => r.record) };
}

export async function logOne(ctx: AppContext, user: AuthUser, id: number): Promise<SmsLogDetail> {
  const [row] = await logs.rows(ctx.db, and(eq(smsLog.id, id), inCompanyScope(smsLog.companyId, ctx.db, user)), 1);
  const r = found(row, SMS_LOG_NOT_FOUND);
  return { ...r.record, params: r.params, providerTemplateCode: r.providerTemplateCode, signName: r.signName };
}

const EXPORT_COLUMNS: XlsxColumn<SmsLogRecord>[] = [
  { header: '创建时间', kind: 'instant', value: (r) => new Date(r.createdAt) },
  { header: '公司', kind: 'name', value: (r) => r.companyName },
  { header: '接收号码', value: (r) => r.recipient },
  { header: '接收人', value: (r) => r.userName },
  { header: '短信渠道', value: (r) => r.channelName },
  { header: '短信服务商', kind: 'label', value: (r) => (r.provider ? SMS_PROVIDER_LABELS[r.provider] : null) },
  { header: '模板', value: (r) => r.templateName },
  { header: '短信内容', width: 48, value: (r) => r.content },
  { header: '条数', width: 8, value: (r) => r.segments },
  { header: '来源', kind: 'label', value: (r) => MESSAGE_ORIGIN_LABELS[r.origin] },
  { header: '状态', kind: 'label', value: (r) => MESSAGE_STATE_LABELS[r.state] },
  { header: '服务商消息ID', value: (r) => r.providerMessageId },
  { header: '失败原因', width: 36, value: (r) => r.error },
  { header: '尝试次数', width: 10, value: (r) => r.attempts },
  { header: '发送时间', kind: 'instant', value: (r) => (r.sentAt ? new Date(r.sentAt) : null) },
];

export async function exportLog(ctx: AppContext, user: AuthUser, f: z.output<typeof smsLogFilter>, lang: ExportLanguage, reply: FastifyReply) {
  const rows = await filtered(ctx, user, f.companyId, () => logs.list(ctx.db, user, f, SMS_LOG_EXPORT_MAX));
  return streamXlsx(reply, { fileName: '短信日志', columns: EXPORT_COLUMNS }, rows.map((r) => r.record), lang);
}

/** Deletes log rows older than the retention (MESSAGE_LOG_RETENTION_DAYS); the daily job's SMS half. */
export async function pruneSmsLog(ctx: AppContext, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - ctx.config.messageLogRetentionDays * 86_400_000);
  const gone = await ctx.db.delete(smsLog).where(lt(smsLog.createdAt, before)).returning({ id: smsLog.id });
  return gone.length;
}
