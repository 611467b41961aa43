import { logEndpoints, type AccessLogRow, type LoginLogRow } from '@ess/contract/system';
import { Badge } from 'antd';
import { defineResource } from '../../components/crud/index.ts';

export const LOGIN_RESULT = [
  { value: true, label: '成功', color: 'success' },
  { value: false, label: '失败', color: 'error' },
] as const;

/** The server records why a sign-in failed as a short code. */
export const LOGIN_FAILURE: Record<string, string> = {
  captcha: '验证码错误',
  'unknown user': '用户不存在',
  locked: '账号已锁定',
  'wrong password': '密码错误',
  'wrong password, locked': '密码错误，账号已锁定',
  disabled: '账号已停用',
  'rate limited': '登录过于频繁',
};

/** Sign-in attempts (/log/login): who, from where, with what result; xlsx export of a search. */
export const loginLogResource = defineResource<LoginLogRow>({
  key: ['log', 'login'],
  name: '登录日志',
  endpoints: { page: logEndpoints.loginPage, export: logEndpoints.loginExport },
  columns: [
    { key: 'username', title: '用户名' },
    { key: 'ip', title: 'IP' },
    { key: 'success', title: '登录结果', type: 'boolean', options: LOGIN_RESULT },
    { key: 'reason', title: '失败原因', render: (row, t) => (row.reason ? t(LOGIN_FAILURE[row.reason] ?? row.reason) : '-') },
    { key: 'userAgent', title: '客户端', ellipsis: true, width: 320 },
    { key: 'createdAt', title: '登录时间', type: 'datetime' },
  ],
  filters: [
    { key: 'username', title: '用户名' },
    { key: 'ip', title: 'IP' },
    { key: 'success', title: '登录结果', type: 'enum', options: LOGIN_RESULT },
    { key: 'createdAt', title: '登录时间', type: 'datetimeRange' },
  ],
  detail: false,
  exportName: '登录日志.xlsx',
  pageSize: 20,
});

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].map((m) => ({ value: m, label: m, literal: true }));

const statusColor = (s: number) => (s >= 500 ? 'error' : s >= 400 ? 'warning' : 'success');

/** Calls to the API (/log/api): method, path, status, time taken; detail and xlsx export. */
export const accessLogResource = defineResource<AccessLogRow>({
  key: ['log', 'api'],
  name: '接口日志',
  endpoints: { page: logEndpoints.accessPage, one: logEndpoints.accessOne, export: logEndpoints.accessExport },
  columns: [
    { key: 'username', title: '用户名' },
    { key: 'method', title: '请求方式', type: 'code', width: 100 },
    { key: 'path', title: '接口路径', ellipsis: true, width: 300 },
    {
      key: 'status',
      title: '状态码',
      width: 90,
      render: (row) => <Badge status={statusColor(row.status)} text={row.status} />,
    },
    { key: 'errorCode', title: '错误码', width: 90 },
    { key: 'durationMs', title: '耗时(ms)', type: 'number', width: 100 },
    { key: 'ip', title: 'IP' },
    { key: 'createdAt', title: '请求时间', type: 'datetime' },
    { key: 'query', title: '查询参数', type: 'code', inTable: false, detailSpan: 2 },
    { key: 'requestId', title: '请求编号', type: 'code', inTable: false, detailSpan: 2 },
    { key: 'userAgent', title: '客户端', inTable: false, detailSpan: 2 },
  ],
  filters: [
    { key: 'username', title: '用户名' },
    { key: 'path', title: '接口路径' },
    { key: 'method', title: '请求方式', type: 'enum', options: HTTP_METHODS },
    { key: 'status', title: '状态码', type: 'number' },
    { key: 'createdAt', title: '请求时间', type: 'datetimeRange' },
  ],
  actionsWidth: 100,
  exportName: '接口日志.xlsx',
  pageSize: 20,
});
