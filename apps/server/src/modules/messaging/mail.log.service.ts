import { and, desc, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PageRequest } from '@ess/contract';
import { MESSAGE_ORIGIN_LABELS, MESSAGE_STATE_LABELS, type MailLogDetail, type MailLogFilter, type MailLogRecord } from '@ess/contract/messaging';
import { mailLog } from '../../db/schema/messaging.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { inCompanyScope } from '../../platform/http/scope.ts';
import { sendXlsx } from '../../platform/xlsx/xlsx.ts';
import { exportLanguage } from '../i18n/index.ts';
import { logDates, logExportColumns, logJoins, logSelect, logSortable, logWhere } from './message.log.ts';

/** The mail log (decision 0043): page, one (with the rendered bodies), xlsx export; company-scoped. */
export const MAIL_LOG_EXPORT_MAX_ROWS = 50_000;

const columns = { ...logSelect(mailLog), accountId: mailLog.accountId, accountName: mailLog.accountName, subject: mailLog.subject };

const logs = defineListQuery({
  table: mailLog,
  columns,
  joins: logJoins(mailLog),
  scope: (db, user) => inCompanyScope(mailLog.companyId, db, user),
  filter: (f: MailLogFilter) => [...logWhere(mailLog, f), f.accountId ? eq(mailLog.accountId, Number(f.accountId)) : undefined],
  orderBy: [desc(mailLog.createdAt), desc(mailLog.id)],
  sortable: logSortable(mailLog),
  toRecord: (r): MailLogRecord => logDates(r),
});

export const mailLogPage = (ctx: AppContext, user: AuthUser, req: MailLogFilter & PageRequest) => logs.page(ctx.db, user, req);

export async function mailLogOne(ctx: AppContext, user: AuthUser, id: number): Promise<MailLogDetail> {
  const [r] = await logs.rows(ctx.db, and(eq(mailLog.id, id), inCompanyScope(mailLog.companyId, ctx.db, user)), 1);
  const rec = found(r, '邮件日志不存在');
  const [body] = await ctx.db.select({ html: mailLog.html, text: mailLog.text }).from(mailLog).where(eq(mailLog.id, id));
  return { ...rec, html: body!.html, text: body!.text };
}

export async function mailLogExport(ctx: AppContext, user: AuthUser, f: MailLogFilter, req: FastifyRequest, reply: FastifyReply) {
  const rows = await logs.list(ctx.db, user, f, MAIL_LOG_EXPORT_MAX_ROWS);
  const columnsOut = logExportColumns<MailLogRecord>(
    [
      { header: '邮件账号', width: 16, value: (r) => r.accountName },
      { header: '邮件主题', width: 40, value: (r) => r.subject },
    ],
    { state: MESSAGE_STATE_LABELS, origin: MESSAGE_ORIGIN_LABELS },
  );
  return sendXlsx(reply, { fileName: '邮件日志', columns: columnsOut }, rows, await exportLanguage(req));
}
