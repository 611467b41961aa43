import {
  MESSAGE_EVENT_LABELS, MESSAGE_ORIGIN_LABELS, mailLogEndpoints, smsLogEndpoints, SMS_PROVIDER_LABELS,
  type MailLogDetail, type MailLogRecord, type MessageEvent, type SmsLogDetail, type SmsLogRecord,
} from '@ess/contract/messaging';
import { defineResource, type ColumnDef, type FilterDef } from '../../components/crud/index.ts';
import { companyTreeSource } from '../../components/options/companies.ts';
import { messagingKeys } from './messaging.keys.ts';
import { mailAccountSource, mailTemplateSource, ORIGIN_OPTIONS, smsChannelSource, smsTemplateSource, STATE_OPTIONS } from './messaging.options.ts';
import { isoRange, StateTag } from './parts.tsx';

type LogRow = MailLogRecord | SmsLogRecord;

const eventLabel = (e: string | null) => (e && e in MESSAGE_EVENT_LABELS ? MESSAGE_EVENT_LABELS[e as MessageEvent] : e);

/** Columns both logs have, around the kind's own (subject / content, account / channel). */
function logColumns<R extends LogRow>(own: ColumnDef<R>[], sender: ColumnDef<R>): ColumnDef<R>[] {
  return [
    { key: 'createdAt', title: '创建时间', type: 'datetime', width: 170 },
    { key: 'recipient', title: '接收人', width: 200, ellipsis: true, render: (r) => (r.userName ? `${r.userName} · ${r.recipient}` : r.recipient) },
    { key: 'state', title: '状态', width: 100, render: (r) => <StateTag state={r.state} /> },
    ...own,
    { key: 'attempts', title: '尝试次数', width: 110 },
    { key: 'templateName', title: '模板', width: 150, ellipsis: true, render: (r) => r.templateName ?? '-' },
    sender,
    { key: 'origin', title: '来源', width: 100, render: (r, t) => t(MESSAGE_ORIGIN_LABELS[r.origin]) },
    { key: 'sentAt', title: '发送时间', type: 'datetime', width: 170 },
  ];
}

/** Lines of a log row's detail both kinds have (after the row's columns). */
function detailLines<R extends LogRow>(): ColumnDef<R>[] {
  return [
    { key: 'eventType', title: '事件', render: (r, t) => (r.eventType ? t(eventLabel(r.eventType) ?? '') : '-') },
    { key: 'ruleName', title: '消息规则', render: (r) => r.ruleName ?? '-' },
    { key: 'providerMessageId', title: '服务商消息编号', type: 'code' },
    { key: 'lastAttemptAt', title: '最近尝试时间', type: 'datetime' },
    { key: 'nextAttemptAt', title: '下次重试时间', type: 'datetime' },
    { key: 'error', title: '失败原因', type: 'longText', detailSpan: 2 },
  ];
}

function logFilters(template: FilterDef, sender: FilterDef): FilterDef[] {
  return [
    { key: 'state', title: '状态', type: 'enum', options: STATE_OPTIONS },
    { key: 'recipient', title: '接收人' },
    { key: 'range', title: '创建时间', type: 'datetimeRange', toBody: isoRange },
    template,
    sender,
    { key: 'origin', title: '来源', type: 'enum', options: ORIGIN_OPTIONS },
    { key: 'companyId', title: '所属公司', type: 'treeSelect', source: companyTreeSource },
  ];
}

const mailColumns = logColumns<MailLogRecord>(
  [{ key: 'subject', title: '邮件主题', width: 240, ellipsis: true }],
  { key: 'accountName', title: '邮件账号', width: 140, ellipsis: true, render: (r) => r.accountName ?? '-' },
);

/** /mail/mail-log: every mail sent or to be sent, with its state, attempts and the provider's answer. */
export const mailLogResource = defineResource<MailLogRecord, never, MailLogDetail>({
  key: messagingKeys.mailLogs,
  name: '邮件日志',
  endpoints: { page: mailLogEndpoints.page, one: mailLogEndpoints.one, export: mailLogEndpoints.export },
  columns: mailColumns,
  detailColumns: [
    ...(mailColumns as ColumnDef<MailLogDetail>[]),
    ...detailLines<MailLogDetail>(),
    {
      key: 'html', title: 'HTML正文', detailSpan: 2,
      render: (r, t) => <iframe className="ess-mail-frame" sandbox="" srcDoc={r.html} title={t('HTML正文')} data-testid="log-html" />,
    },
    { key: 'text', title: '纯文本正文', detailSpan: 2, render: (r) => <pre className="ess-mail-text">{r.text}</pre> },
  ],
  filters: logFilters(
    { key: 'templateId', title: '模板', type: 'select', source: mailTemplateSource },
    { key: 'accountId', title: '邮件账号', type: 'select', source: mailAccountSource },
  ),
  actionsWidth: 90,
  pageSize: 20,
  exportName: '邮件日志',
});

const smsColumns = logColumns<SmsLogRecord>(
  [
    { key: 'content', title: '短信内容', width: 260, ellipsis: true },
    { key: 'segments', title: '条数', width: 70 },
  ],
  { key: 'channelName', title: '短信渠道', width: 140, ellipsis: true, render: (r, t) => (r.channelName ? `${r.channelName}${r.provider ? ` · ${t(SMS_PROVIDER_LABELS[r.provider])}` : ''}` : '-') },
);

/** /sms/sms-log: every SMS sent or to be sent. */
export const smsLogResource = defineResource<SmsLogRecord, never, SmsLogDetail>({
  key: messagingKeys.smsLogs,
  name: '短信日志',
  endpoints: { page: smsLogEndpoints.page, one: smsLogEndpoints.one, export: smsLogEndpoints.export },
  columns: smsColumns,
  detailColumns: [
    ...(smsColumns as ColumnDef<SmsLogDetail>[]),
    ...detailLines<SmsLogDetail>(),
    { key: 'providerTemplateCode', title: '服务商模板编号', type: 'code' },
    { key: 'signName', title: '签名' },
    {
      key: 'params', title: '模板参数', detailSpan: 2,
      render: (r) => (r.params ? <pre className="ess-mail-text">{JSON.stringify(r.params, null, 2)}</pre> : '-'),
    },
  ],
  filters: logFilters(
    { key: 'templateId', title: '模板', type: 'select', source: smsTemplateSource },
    { key: 'channelId', title: '短信渠道', type: 'select', source: smsChannelSource },
  ),
  actionsWidth: 90,
  pageSize: 20,
  exportName: '短信日志',
});
