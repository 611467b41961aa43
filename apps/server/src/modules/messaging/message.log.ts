import { eq, gte, lte, type SQL } from 'drizzle-orm';
import type { MessageOrigin, MessageState } from '@ess/contract/messaging';
import { mailLog, messageRule, smsLog } from '../../db/schema/messaging.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { XlsxColumn } from '../../platform/xlsx/xlsx.ts';
import { AppError } from '../../platform/http/errors.ts';
import { likeEscaped } from '../../platform/http/scope.ts';
import type { ListJoin } from '../../platform/http/paging.ts';

/**
 * What the mail log and the SMS log share: their common columns (logColumns of the schema), the
 * filter, the joins naming the company, the user and the rule, and the export's common columns.
 */
type LogTable = typeof mailLog | typeof smsLog;

export interface LogFilter {
  companyId?: number | undefined;
  state?: MessageState | undefined;
  recipient?: string | undefined;
  templateId?: number | undefined;
  origin?: MessageOrigin | undefined;
  start?: string | undefined;
  end?: string | undefined;
}

export function logWhere(t: LogTable, f: LogFilter): (SQL | undefined)[] {
  const start = f.start ? new Date(f.start) : undefined;
  const end = f.end ? new Date(f.end) : undefined;
  if (start && end && start > end) throw new AppError('INVALID_PARAM', '开始时间不能晚于结束时间');
  return [
    f.companyId ? eq(t.companyId, Number(f.companyId)) : undefined,
    f.state ? eq(t.state, f.state) : undefined,
    f.recipient ? likeEscaped(t.recipient, f.recipient) : undefined,
    f.templateId ? eq(t.templateId, Number(f.templateId)) : undefined,
    f.origin ? eq(t.origin, f.origin) : undefined,
    start ? gte(t.createdAt, start) : undefined,
    end ? lte(t.createdAt, end) : undefined,
  ];
}

export const logJoins = (t: LogTable): ListJoin[] => [
  { table: company, on: eq(company.id, t.companyId) },
  { table: appUser, on: eq(appUser.id, t.userId), left: true },
  { table: messageRule, on: eq(messageRule.id, t.ruleId), left: true },
];

export const logSelect = (t: LogTable) => ({
  id: t.id, companyId: t.companyId, companyName: company.name, recipient: t.recipient, userId: t.userId, userName: appUser.name,
  templateId: t.templateId, templateName: t.templateName, templateCode: t.templateCode, language: t.language, origin: t.origin,
  eventType: t.eventType, ruleId: t.ruleId, ruleName: messageRule.name, state: t.state, providerMessageId: t.providerMessageId,
  error: t.error, attempts: t.attempts, createdAt: t.createdAt, lastAttemptAt: t.lastAttemptAt, nextAttemptAt: t.nextAttemptAt, sentAt: t.sentAt,
});

export const logSortable = (t: LogTable) => ({ createdAt: t.createdAt, sentAt: t.sentAt, state: t.state, recipient: t.recipient, attempts: t.attempts });

interface LogRowDates {
  origin: string;
  state: string;
  createdAt: Date;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  sentAt: Date | null;
}
/** A row's times as ISO text and its enumerations typed. */
export const logDates = <R extends LogRowDates>(r: R) => ({
  ...r,
  origin: r.origin as MessageOrigin,
  state: r.state as MessageState,
  createdAt: r.createdAt.toISOString(),
  lastAttemptAt: r.lastAttemptAt?.toISOString() ?? null,
  nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null,
  sentAt: r.sentAt?.toISOString() ?? null,
});

export interface LogExportRow {
  companyName: string;
  recipient: string;
  userName: string | null;
  templateName: string | null;
  ruleName: string | null;
  eventType: string | null;
  origin: string;
  state: string;
  providerMessageId: string | null;
  error: string | null;
  attempts: number;
  createdAt: string;
  sentAt: string | null;
}

/** The export's columns around a channel's own (account/subject, channel/content): never a secret. */
export function logExportColumns<R extends LogExportRow>(own: XlsxColumn<R>[], labels: { state: Record<string, string>; origin: Record<string, string> }): XlsxColumn<R>[] {
  const at = (s: string | null) => (s ? new Date(s) : null);
  return [
    { header: '公司', width: 16, kind: 'name', value: (r) => r.companyName },
    { header: '接收人', width: 28, value: (r) => r.recipient },
    { header: '用户', width: 12, kind: 'name', value: (r) => r.userName },
    ...own,
    { header: '模板', width: 16, value: (r) => r.templateName },
    { header: '消息规则', width: 16, value: (r) => r.ruleName },
    { header: '事件类型', width: 18, value: (r) => r.eventType },
    { header: '来源', width: 10, kind: 'label', value: (r) => labels.origin[r.origin] },
    { header: '状态', width: 10, kind: 'label', value: (r) => labels.state[r.state] },
    { header: '服务商消息ID', width: 28, value: (r) => r.providerMessageId },
    { header: '错误', width: 40, value: (r) => r.error },
    { header: '尝试次数', width: 8, value: (r) => r.attempts },
    { header: '创建时间', width: 22, kind: 'instant', value: (r) => at(r.createdAt) },
    { header: '发送时间', width: 22, kind: 'instant', value: (r) => at(r.sentAt) },
  ];
}
