import { and, desc, eq, gte, isNull, lte, or, type AnyColumn, type SQL } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AccessLogSortField, LoginLogSortField, PageRequest, accessLogFilter, loginLogFilter } from '@ess/contract';
import { accessLog, loginLog } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';
import { exportLanguage } from '../i18n/index.ts';
import { sendXlsx, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';

type LoginLogFilter = z.infer<typeof loginLogFilter>;
type AccessLogFilter = z.infer<typeof accessLogFilter>;

/** An export never holds more rows than this (newest first). */
export const LOG_EXPORT_MAX_ROWS = 50_000;

/**
 * Log rows are limited to companies in the caller's scope; rows with no company (unknown
 * usernames, anonymous calls) only to built-in users.
 */
function logScope(column: AnyColumn, db: DbOrTx, user: AuthUser): SQL {
  const inScope = inCompanyScope(column, db, user);
  return user.buildIn ? (or(inScope, isNull(column)) as SQL) : inScope;
}

function timeRange(column: AnyColumn, f: { start?: Date; end?: Date }): SQL[] {
  if (f.start && f.end && f.start.getTime() > f.end.getTime()) throw new AppError('INVALID_PARAM', '开始时间不能晚于结束时间');
  const out: SQL[] = [];
  if (f.start) out.push(gte(column, f.start));
  if (f.end) out.push(lte(column, f.end));
  return out;
}

// Login log

const loginLogColumns = {
  id: loginLog.id,
  userId: loginLog.userId,
  companyId: loginLog.companyId,
  username: loginLog.username,
  ip: loginLog.ip,
  userAgent: loginLog.userAgent,
  success: loginLog.success,
  reason: loginLog.reason,
  createdAt: loginLog.createdAt,
};

const loginLogs = defineListQuery({
  table: loginLog,
  columns: loginLogColumns,
  scope: (db, user) => logScope(loginLog.companyId, db, user),
  filter: (f: LoginLogFilter) => [
    f.username ? likeEscaped(loginLog.username, f.username) : undefined,
    f.success === undefined ? undefined : eq(loginLog.success, f.success),
    f.ip ? likeEscaped(loginLog.ip, f.ip) : undefined,
    ...timeRange(loginLog.createdAt, f),
  ],
  orderBy: [desc(loginLog.createdAt), desc(loginLog.id)],
  sortable: {
    username: loginLog.username, ip: loginLog.ip, success: loginLog.success, reason: loginLog.reason, createdAt: loginLog.createdAt,
  } satisfies Record<LoginLogSortField, unknown>,
});

export function loginLogPage(ctx: AppContext, user: AuthUser, req: LoginLogFilter & PageRequest) {
  return loginLogs.page(ctx.db, user, req);
}

export async function loginLogExport(ctx: AppContext, user: AuthUser, f: LoginLogFilter, req: FastifyRequest, reply: FastifyReply) {
  const { db } = ctx;
  const rows = await loginLogs.list(db, user, f, LOG_EXPORT_MAX_ROWS);
  type Row = (typeof rows)[number];
  const columns: XlsxColumn<Row>[] = [
    { header: '用户名', value: (r) => r.username },
    { header: 'IP', value: (r) => r.ip },
    { header: '结果', width: 10, kind: 'label', value: (r) => (r.success ? '成功' : '失败') },
    { header: '原因', width: 24, kind: 'label', value: (r) => r.reason },
    { header: '客户端', width: 40, value: (r) => r.userAgent },
    { header: '时间', width: 22, kind: 'instant', value: (r) => r.createdAt },
  ];
  return sendXlsx(reply, { fileName: '登录日志', columns }, rows, await exportLanguage(req));
}

// Access log

const accessLogColumns = {
  id: accessLog.id,
  requestId: accessLog.requestId,
  userId: accessLog.userId,
  companyId: accessLog.companyId,
  username: accessLog.username,
  method: accessLog.method,
  path: accessLog.path,
  query: accessLog.query,
  status: accessLog.status,
  durationMs: accessLog.durationMs,
  ip: accessLog.ip,
  userAgent: accessLog.userAgent,
  errorCode: accessLog.errorCode,
  createdAt: accessLog.createdAt,
};

const accessLogs = defineListQuery({
  table: accessLog,
  columns: accessLogColumns,
  scope: (db, user) => logScope(accessLog.companyId, db, user),
  filter: (f: AccessLogFilter) => [
    f.username ? likeEscaped(accessLog.username, f.username) : undefined,
    f.path ? likeEscaped(accessLog.path, f.path) : undefined,
    f.method ? eq(accessLog.method, f.method.toUpperCase()) : undefined,
    f.status === undefined ? undefined : eq(accessLog.status, f.status),
    ...timeRange(accessLog.createdAt, f),
  ],
  orderBy: [desc(accessLog.createdAt), desc(accessLog.id)],
  sortable: {
    username: accessLog.username, method: accessLog.method, path: accessLog.path, status: accessLog.status,
    durationMs: accessLog.durationMs, ip: accessLog.ip, createdAt: accessLog.createdAt,
  } satisfies Record<AccessLogSortField, unknown>,
});

export function accessLogPage(ctx: AppContext, user: AuthUser, req: AccessLogFilter & PageRequest) {
  return accessLogs.page(ctx.db, user, req);
}

export async function accessLogOne(ctx: AppContext, user: AuthUser, id: number) {
  const { db } = ctx;
  const [row] = await db
    .select(accessLogColumns)
    .from(accessLog)
    .where(and(eq(accessLog.id, id), logScope(accessLog.companyId, db, user)));
  return found(row, '日志不存在');
}

export async function accessLogExport(ctx: AppContext, user: AuthUser, f: AccessLogFilter, req: FastifyRequest, reply: FastifyReply) {
  const { db } = ctx;
  const rows = await accessLogs.list(db, user, f, LOG_EXPORT_MAX_ROWS);
  type Row = (typeof rows)[number];
  const columns: XlsxColumn<Row>[] = [
    { header: '用户名', value: (r) => r.username },
    { header: '请求方式', width: 10, value: (r) => r.method },
    { header: '接口路径', width: 40, value: (r) => r.path },
    { header: '查询参数', width: 24, value: (r) => r.query },
    { header: '状态码', width: 10, value: (r) => r.status },
    { header: '错误码', width: 10, value: (r) => r.errorCode },
    { header: '耗时', unit: 'ms', width: 10, numFmt: '#,##0', value: (r) => r.durationMs },
    { header: 'IP', value: (r) => r.ip },
    { header: '请求编号', width: 38, value: (r) => r.requestId },
    { header: '时间', width: 22, kind: 'instant', value: (r) => r.createdAt },
  ];
  return sendXlsx(reply, { fileName: '接口日志', columns }, rows, await exportLanguage(req));
}
