import {
  ALARM_MESSAGE_EVENTS, ASSIGNEE_MESSAGE_EVENTS, DELAYED_MESSAGE_EVENTS, MESSAGE_CHANNEL_LABELS, MESSAGE_EVENT_LABELS, messageRuleAdd, messageRuleEdit, messageRuleEndpoints,
  type Escalation, type MessageChannel, type MessageEvent, type MessageRecipients, type MessageRuleRecord, type QuietHours,
} from '@ess/contract/messaging';
import { Form, Space, Tag, type FormInstance } from 'antd';
import { defineResource, type FieldDef, type FormMode } from '../../components/crud/index.ts';
import { siteSource } from '../../components/options/sites.ts';
import { companyAndName } from '../../components/CompanyField.tsx';
import { messagingKeys } from './messaging.keys.ts';
import {
  CHANNEL_OPTIONS, ENABLED_OPTIONS, EVENT_OPTIONS, LEVEL_OPTIONS, mailAccountSource, mailTemplateCodeSource, smsChannelSource,
  smsTemplateCodeSource,
} from './messaging.options.ts';
import { EMPTY_RECIPIENTS, EscalationField, QuietHoursField, RecipientsField } from './RuleFields.tsx';

export interface RuleForm {
  companyId: number;
  name: string;
  event: MessageEvent;
  maxLevel?: number | null;
  minutes?: number | null;
  siteIds?: number[];
  channels: MessageChannel[];
  mailTemplateCode?: string | null;
  mailAccountId?: number | null;
  smsTemplateCode?: string | null;
  smsChannelId?: number | null;
  recipients: MessageRecipients;
  quietHours?: QuietHours | null;
  escalation?: Escalation | null;
  enabled: boolean;
  remark?: string | null;
}

/** Which of the rule form's dependent fields apply to its current values (the contract's refinements). */
export const ruleApplies = {
  /** Alarm events: the most severe level … maxLevel, and escalation. */
  alarm: (v: Partial<RuleForm>) => !!v.event && ALARM_MESSAGE_EVENTS.includes(v.event),
  /** Events that wait a number of minutes. */
  delayed: (v: Partial<RuleForm>) => !!v.event && DELAYED_MESSAGE_EVENTS.includes(v.event),
  assignee: (v: Partial<RuleForm>) => !!v.event && ASSIGNEE_MESSAGE_EVENTS.includes(v.event),
  mail: (v: Partial<RuleForm>) => !!v.channels?.includes('mail'),
  sms: (v: Partial<RuleForm>) => !!v.channels?.includes('sms'),
  /** Quiet hours hold mail and SMS only (console notifications are never held). */
  quiet: (v: Partial<RuleForm>) => !!v.channels?.some((c) => c !== 'console'),
};

/** The request body: fields that do not apply to the event and channels are sent empty, as the contract wants them. */
export function ruleBody(v: RuleForm, mode: FormMode, id?: number): Record<string, unknown> {
  const alarm = ruleApplies.alarm(v);
  const mail = ruleApplies.mail(v);
  const sms = ruleApplies.sms(v);
  const r = { ...EMPTY_RECIPIENTS, ...v.recipients };
  const quiet = ruleApplies.quiet(v) && v.quietHours ? v.quietHours : null;
  const body = {
    companyId: v.companyId,
    name: v.name,
    event: v.event,
    maxLevel: alarm ? (v.maxLevel ?? null) : null,
    minutes: ruleApplies.delayed(v) ? (v.minutes ?? null) : null,
    siteIds: v.siteIds ?? [],
    channels: v.channels ?? [],
    mailTemplateCode: mail ? (v.mailTemplateCode ?? null) : null,
    mailAccountId: mail ? (v.mailAccountId ?? null) : null,
    smsTemplateCode: sms ? (v.smsTemplateCode ?? null) : null,
    smsChannelId: sms ? (v.smsChannelId ?? null) : null,
    recipients: { ...r, assignee: ruleApplies.assignee(v) && r.assignee },
    quietHours: quiet && { ...quiet, overrideLevel: alarm ? quiet.overrideLevel : null },
    escalation: alarm ? (v.escalation ?? null) : null,
    enabled: v.enabled ?? true,
    remark: v.remark || null,
  };
  return mode === 'edit' ? { id, ...body } : body;
}

export const ruleValues = (r: MessageRuleRecord): RuleForm => ({
  companyId: r.companyId,
  name: r.name,
  event: r.event,
  maxLevel: r.maxLevel,
  minutes: r.minutes,
  siteIds: r.siteIds,
  channels: r.channels,
  mailTemplateCode: r.mailTemplateCode,
  mailAccountId: r.mailAccountId,
  smsTemplateCode: r.smsTemplateCode,
  smsChannelId: r.smsChannelId,
  recipients: r.recipients,
  quietHours: r.quietHours,
  escalation: r.escalation,
  enabled: r.enabled,
  remark: r.remark,
});

/** A custom field that sees the rule's event (recipients: the assignee; quiet hours: the override level). */
function WithEvent({ form, children }: { form: FormInstance<RuleForm>; children: (v: Partial<RuleForm>) => React.ReactNode }) {
  const event = Form.useWatch('event', form);
  return <>{children({ event })}</>;
}

const recipientsField: FieldDef<RuleForm> = {
  name: 'recipients', label: '接收人', type: 'custom', required: true, wide: true,
  render: ({ id, value, onChange, form }) => <WithEvent form={form}>{(v) => <RecipientsField id={id} value={value} onChange={onChange} event={v.event} />}</WithEvent>,
};

const recipientsText = (r: MessageRuleRecord, t: (s: string) => string) => {
  const parts = [...r.userNames, ...r.roleNames.map((n) => `${t('角色')}: ${n}`)];
  if (r.recipients.siteContacts) parts.push(t('站点联系人'));
  if (r.recipients.assignee) parts.push(r.event === 'statementToConfirm' ? t('结算单双方') : t('工单处理人'));
  return parts.length ? parts.join('，') : '-';
};

/** /message/message-config: which events go by which channels to whom, with quiet hours and escalation. */
export const ruleResource = defineResource<MessageRuleRecord, RuleForm>({
  key: messagingKeys.rules,
  name: '消息规则',
  endpoints: {
    page: messageRuleEndpoints.page,
    one: messageRuleEndpoints.one,
    add: messageRuleEndpoints.add,
    edit: messageRuleEndpoints.edit,
    delete: messageRuleEndpoints.delete,
  },
  columns: [
    { key: 'name', title: '规则名称', width: 160, ellipsis: true },
    {
      key: 'event', title: '事件', width: 200,
      render: (r, t) => {
        const extra = [r.maxLevel !== null ? t('$1级及以上', r.maxLevel) : null, r.minutes !== null ? t('$1分钟', r.minutes) : null].filter(Boolean);
        return `${t(MESSAGE_EVENT_LABELS[r.event])}${extra.length ? `（${extra.join('，')}）` : ''}`;
      },
    },
    {
      key: 'channels', title: '发送方式', width: 180,
      render: (r, t) => (
        <Space size={[2, 2]} wrap>
          {r.channels.map((c) => (
            <Tag key={c}>{t(MESSAGE_CHANNEL_LABELS[c])}</Tag>
          ))}
        </Space>
      ),
    },
    { key: 'siteNames', title: '站点', width: 160, ellipsis: true, render: (r, t) => (r.siteNames.length ? r.siteNames.join('，') : t('全部站点')) },
    { key: 'recipients', title: '接收人', width: 220, ellipsis: true, render: recipientsText },
    { key: 'quietHours', title: '免打扰时段', width: 130, render: (r) => (r.quietHours ? `${r.quietHours.start}–${r.quietHours.end}` : '-') },
    {
      key: 'escalation', title: '告警升级', width: 140,
      render: (r, t) => (r.escalation ? t('每$1分钟，$2级', r.escalation.intervalMinutes, r.escalation.levels.length) : '-'),
    },
    { key: 'enabled', title: '状态', type: 'boolean', options: ENABLED_OPTIONS, width: 90 },
    { key: 'mailTemplateCode', title: '邮件模板', type: 'code', inTable: false },
    { key: 'smsTemplateCode', title: '短信模板', type: 'code', inTable: false },
    { key: 'companyName', title: '所属公司', width: 140, ellipsis: true },
    { key: 'remark', title: '备注', inTable: false },
    { key: 'updatedAt', title: '更新时间', type: 'datetime', width: 170 },
  ],
  filters: [
    { key: 'name', title: '规则名称' },
    { key: 'event', title: '事件', type: 'enum', options: EVENT_OPTIONS },
    { key: 'channel', title: '发送方式', type: 'enum', options: CHANNEL_OPTIONS },
    { key: 'enabled', title: '状态', type: 'enum', options: ENABLED_OPTIONS },
  ],
  form: {
    container: 'drawer',
    width: 820,
    columns: 2,
    fields: [
      ...companyAndName<RuleForm>('规则名称'),
      { name: 'event', label: '事件', type: 'select', options: EVENT_OPTIONS, required: true },
      { name: 'maxLevel', label: '告警等级', type: 'select', options: LEVEL_OPTIONS, visible: ruleApplies.alarm, help: '该等级及更严重的告警（1级最严重）；不选则全部等级' },
      { name: 'minutes', label: '持续分钟数', type: 'number', visible: ruleApplies.delayed, required: true, help: '未转维修、离线或超期达到该分钟数后发送' },
      { name: 'siteIds', label: '站点', type: 'multiSelect', source: siteSource, wide: true, help: '不选则为公司全部站点' },
      { name: 'channels', label: '发送方式', type: 'multiSelect', options: CHANNEL_OPTIONS, required: true, wide: true },
      { name: 'mailTemplateCode', label: '邮件模板', type: 'select', source: mailTemplateCodeSource, visible: ruleApplies.mail, required: true },
      { name: 'mailAccountId', label: '邮件账号', type: 'select', source: mailAccountSource, visible: ruleApplies.mail, help: '不选则使用公司的默认账号' },
      { name: 'smsTemplateCode', label: '短信模板', type: 'select', source: smsTemplateCodeSource, visible: ruleApplies.sms, required: true },
      { name: 'smsChannelId', label: '短信渠道', type: 'select', source: smsChannelSource, visible: ruleApplies.sms, help: '不选则使用公司的默认渠道' },
      recipientsField,
      {
        name: 'quietHours', label: '免打扰时段', type: 'custom', wide: true, visible: ruleApplies.quiet,
        render: ({ id, value, onChange, form }) => <WithEvent form={form}>{(v) => <QuietHoursField id={id} value={value} onChange={onChange} alarm={ruleApplies.alarm(v)} />}</WithEvent>,
      },
      {
        name: 'escalation', label: '告警升级', type: 'custom', wide: true, visible: ruleApplies.alarm,
        render: ({ id, value, onChange }) => <EscalationField id={id} value={value} onChange={onChange} />,
      },
      { name: 'enabled', label: '启用', type: 'switch' },
      { name: 'remark', label: '备注', type: 'textarea', maxLength: 200, wide: true },
    ],
    schemas: { add: messageRuleAdd, edit: messageRuleEdit },
    initialValues: { channels: ['console'], recipients: EMPTY_RECIPIENTS, siteIds: [], enabled: true, quietHours: null, escalation: null },
    toValues: ruleValues,
    toBody: ruleBody,
  },
  actionsWidth: 300,
  pageSize: 20,
});
