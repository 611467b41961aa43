import { hookEndpoints, type HookExecRecord, type HookExecRecordDetail, type HookHttpMessage } from '@ess/contract/hooks';
import { Space, Typography } from 'antd';
import { defineResource, type ColumnDef, type Translate } from '../../components/crud/index.ts';
import { companyTreeSource } from '../../components/options/companies.ts';
import { hookKeys } from './hooks.keys.ts';
import { eventLabel, hookSource, ORIGIN_OPTIONS, RECORD_STATE_OPTIONS, triggerSource } from './hooks.options.ts';
import { JsonBlock, RecordStateTag } from './parts.tsx';

/** The records' time range as the contract takes it (ISO times with their offset). */
export const isoRange = (v: unknown): Record<string, unknown> => {
  const [from, to] = Array.isArray(v) ? (v as unknown[]) : [];
  const iso = (x: unknown) => {
    if (x === null || x === undefined || x === '') return undefined;
    const ms = typeof x === 'number' ? x : typeof x === 'string' ? Date.parse(x) : typeof x === 'object' ? Number(x.valueOf()) : NaN;
    return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
  };
  const start = iso(from);
  const end = iso(to);
  return { ...(start ? { start } : {}), ...(end ? { end } : {}) };
};

/** A request or response as sent: status line, headers, the kept body (and whether it was cut). */
function HttpMessage({ m, first, t, testId }: { m: HookHttpMessage; first: string; t: Translate; testId: string }) {
  const head = [first, ...Object.entries(m.headers).map(([k, v]) => `${k}: ${v}`)].join('\n');
  return (
    <Space direction="vertical" size={4} style={{ width: '100%' }} data-testid={testId}>
      <JsonBlock value={head} label={t('请求头')} />
      <JsonBlock value={m.body === null ? null : m.encoding === 'base64' ? `base64: ${m.body}` : m.body} label={t('正文')} />
      <Typography.Text type="secondary">
        {t('$1 字节', m.bytes)}
        {m.truncated ? ` · ${t('仅保存前 64 KB')}` : ''}
      </Typography.Text>
    </Space>
  );
}

const columns: ColumnDef<HookExecRecord>[] = [
  { key: 'startedAt', title: '开始时间', type: 'datetime', width: 170 },
  { key: 'hookName', title: '钩子名称', width: 160, ellipsis: true },
  { key: 'eventType', title: '触发器', width: 180, render: (r, t) => `${t(eventLabel(r.eventType))}` },
  { key: 'state', title: '状态', width: 100, render: (r) => <RecordStateTag state={r.state} /> },
  { key: 'attempt', title: '第几次尝试', width: 100 },
  { key: 'responseStatus', title: '响应状态码', width: 110, render: (r) => (r.responseStatus === null ? '-' : <code>{r.responseStatus}</code>) },
  { key: 'durationMs', title: '耗时(ms)', width: 100, render: (r) => (r.durationMs === null ? '-' : Math.round(r.durationMs)) },
  { key: 'origin', title: '来源', type: 'enum', options: ORIGIN_OPTIONS, width: 90 },
  { key: 'error', title: '失败原因', width: 220, ellipsis: true, render: (r) => r.error ?? '-' },
];

/** /hook/dispatch: every run of a hook (one record per attempt): what went in, what went out, what came back. */
export const recordResource = defineResource<HookExecRecord, never, HookExecRecordDetail>({
  key: hookKeys.records,
  name: '执行记录',
  endpoints: { page: hookEndpoints.execRecordPage, one: hookEndpoints.execRecordOne },
  columns,
  detailColumns: [
    ...(columns as ColumnDef<HookExecRecordDetail>[]),
    { key: 'eventId', title: '事件ID', render: (r) => r.eventId ?? '-' },
    { key: 'eventTypeCode', title: '事件类型', render: (r) => <code>{r.eventType}</code> },
    { key: 'nextAttemptAt', title: '下次重试时间', type: 'datetime' },
    { key: 'finishedAt', title: '结束时间', type: 'datetime' },
    { key: 'replayOf', title: '重放自记录', render: (r) => r.replayOf ?? '-' },
    { key: 'input', title: '脚本输入（密钥已隐藏）', detailSpan: 2, render: (r, t) => <JsonBlock value={r.input} testId="record-input" label={t('脚本输入（密钥已隐藏）')} /> },
    { key: 'output', title: '脚本输出', detailSpan: 2, render: (r, t) => <JsonBlock value={r.output} testId="record-output" label={t('脚本输出')} /> },
    {
      key: 'request', title: '请求', detailSpan: 2,
      render: (r, t) => (r.request ? <HttpMessage m={r.request} first={`${r.request.method} ${r.request.url}`} t={t} testId="record-request" /> : '-'),
    },
    {
      key: 'response', title: '响应', detailSpan: 2,
      render: (r, t) => (r.response ? <HttpMessage m={r.response} first={`HTTP ${r.response.status}`} t={t} testId="record-response" /> : '-'),
    },
  ],
  filters: [
    { key: 'hookId', title: '钩子', type: 'select', source: hookSource },
    { key: 'state', title: '状态', type: 'enum', options: RECORD_STATE_OPTIONS },
    { key: 'range', title: '开始时间', type: 'datetimeRange', toBody: isoRange },
    { key: 'eventType', title: '触发器', type: 'select', source: triggerSource },
    { key: 'origin', title: '来源', type: 'enum', options: ORIGIN_OPTIONS },
    { key: 'companyId', title: '所属公司', type: 'treeSelect', source: companyTreeSource },
  ],
  actionsWidth: 170,
  pageSize: 20,
});
