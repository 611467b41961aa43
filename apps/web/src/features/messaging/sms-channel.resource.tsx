import { SMS_PROVIDER_LABELS, smsChannelAdd, smsChannelEdit, smsChannelEndpoints, type SmsChannelRecord, type SmsProvider } from '@ess/contract/messaging';
import { defineResource, type FieldDef, type FormMode } from '../../components/crud/index.ts';
import { companyAndName } from '../../components/CompanyField.tsx';
import { SecretField, secretBody } from './form.parts.tsx';
import { FormTests } from './FormTests.tsx';
import { messagingKeys } from './messaging.keys.ts';
import { companyListFilters, ENABLED_OPTIONS, PROVIDER_OPTIONS, YES_NO } from './messaging.options.ts';
import { secretCell } from './parts.tsx';

export interface SmsChannelForm {
  /** The record being edited (for the test of the unsaved values). */
  id?: number;
  companyId: number;
  name: string;
  provider: SmsProvider;
  accessKeyId: string;
  /** Empty on edit: the stored secret stays; null: cleared on save. */
  secret?: string | null;
  /** Whether a secret is stored (the record's flag: offers "clear"). */
  secretSet?: boolean;
  region?: string | null;
  appId?: string | null;
  sender?: string | null;
  signName?: string | null;
  endpoint?: string | null;
  dailyLimit: number;
  enabled: boolean;
  isDefault: boolean;
  remark?: string | null;
  /** The test's button (no value). */
  tests?: never;
}

export const smsChannelValues = (r: SmsChannelRecord): SmsChannelForm => ({
  id: r.id,
  companyId: r.companyId,
  name: r.name,
  provider: r.provider,
  accessKeyId: r.accessKeyId,
  secretSet: r.secretSet,
  region: r.region,
  appId: r.appId,
  sender: r.sender,
  signName: r.signName,
  endpoint: r.endpoint,
  dailyLimit: r.dailyLimit,
  enabled: r.enabled,
  isDefault: r.isDefault,
  remark: r.remark,
});

/**
 * The add/edit body: a secret typed is sent, an empty one left out (on edit the stored one stays),
 * one cleared with its button sent as null; fields of another provider are not sent.
 */
export function smsChannelBody(v: SmsChannelForm, mode: FormMode, id?: number): Record<string, unknown> {
  const body: Record<string, unknown> = {
    companyId: v.companyId,
    name: v.name,
    provider: v.provider,
    accessKeyId: v.accessKeyId,
    region: v.provider === 'twilio' ? null : v.region || null,
    appId: v.provider === 'tencent' ? v.appId || null : null,
    sender: v.provider === 'twilio' ? v.sender || null : null,
    signName: v.provider === 'twilio' ? null : v.signName || null,
    endpoint: v.endpoint || null,
    dailyLimit: v.dailyLimit,
    enabled: v.enabled,
    isDefault: v.isDefault,
    remark: v.remark || null,
    ...secretBody('secret', v.secret),
  };
  return mode === 'edit' ? { id, ...body } : body;
}

const notTwilio = (v: Partial<SmsChannelForm>) => v.provider !== 'twilio';

/** The test send with the form's values (labels of the fields for the issues of its check). */
const testField: FieldDef<SmsChannelForm> = {
  name: 'tests', label: '测试发送', type: 'custom', wide: true, help: '用表单中的设置测试，无需先保存',
  render: ({ form }) => (
    <FormTests
      kind="sms"
      form={form}
      schema={smsChannelAdd}
      labels={Object.fromEntries((smsChannelResource.form?.fields ?? []).map((f) => [f.name, f.label]))}
      toSettings={(v) => smsChannelBody(v, 'add')}
    />
  ),
};

/** /sms/sms-channel: SMS providers' accounts (Aliyun, Tencent Cloud, Twilio) a company's messages go out through. */
export const smsChannelResource = defineResource<SmsChannelRecord, SmsChannelForm>({
  key: messagingKeys.smsChannels,
  name: '短信渠道',
  endpoints: {
    page: smsChannelEndpoints.page,
    one: smsChannelEndpoints.one,
    add: smsChannelEndpoints.add,
    edit: smsChannelEndpoints.edit,
    delete: smsChannelEndpoints.delete,
  },
  columns: [
    { key: 'name', title: '渠道名称', width: 150, ellipsis: true },
    { key: 'provider', title: '服务商', width: 120, render: (r, t) => t(SMS_PROVIDER_LABELS[r.provider]) },
    { key: 'accessKeyId', title: '访问密钥ID', width: 170, ellipsis: true },
    { key: 'secretSet', title: '访问密钥', width: 100, render: (r, t) => secretCell(r.secretSet, t) },
    { key: 'sender', title: '签名/发送号码', width: 160, ellipsis: true, render: (r) => r.sender ?? r.signName ?? '-' },
    { key: 'enabled', title: '状态', type: 'boolean', options: ENABLED_OPTIONS, width: 90 },
    { key: 'isDefault', title: '默认渠道', type: 'boolean', options: YES_NO, width: 100 },
    { key: 'usage', title: '今日发送/上限', width: 130, render: (r) => `${r.sentToday} / ${r.dailyLimit}` },
    { key: 'companyName', title: '所属公司', width: 140, ellipsis: true },
    { key: 'region', title: '区域', inTable: false },
    { key: 'appId', title: 'SdkAppId', inTable: false },
    { key: 'endpoint', title: '接口地址', inTable: false },
    { key: 'remark', title: '备注', inTable: false },
    { key: 'updatedAt', title: '更新时间', type: 'datetime', width: 170 },
  ],
  filters: [...companyListFilters('渠道名称'), { key: 'provider', title: '服务商', type: 'enum', options: PROVIDER_OPTIONS }],
  form: {
    container: 'drawer',
    width: 720,
    columns: 2,
    fields: [
      ...companyAndName<SmsChannelForm>('渠道名称'),
      { name: 'provider', label: '服务商', type: 'enum', options: PROVIDER_OPTIONS, required: true, wide: true },
      { name: 'accessKeyId', label: '访问密钥ID', required: true, maxLength: 128, help: 'AccessKeyId / SecretId / Account SID' },
      {
        name: 'secret', label: '访问密钥', type: 'custom',
        help: (mode) => (mode === 'edit' ? '留空则保持原密钥不变' : 'AccessKeySecret / SecretKey / Auth Token'),
        render: (p) => <SecretField {...p} setField="secretSet" kind="secret" />,
      },
      { name: 'region', label: '区域', visible: notTwilio, placeholder: 'cn-hangzhou' },
      { name: 'appId', label: 'SdkAppId', visible: (v) => v.provider === 'tencent', required: true },
      { name: 'signName', label: '默认签名', visible: notTwilio, maxLength: 64 },
      { name: 'sender', label: '发送号码', visible: (v) => v.provider === 'twilio', required: true, help: 'E.164 号码或 Messaging Service SID (MG…)' },
      { name: 'endpoint', label: '接口地址', help: '不填则使用服务商的公共接口' },
      { name: 'dailyLimit', label: '每日上限', type: 'number', required: true, help: '每天（UTC）最多发送的短信数，超出后次日再发' },
      { name: 'enabled', label: '启用', type: 'switch' },
      { name: 'isDefault', label: '默认渠道', type: 'switch', help: '消息规则未指定渠道时使用公司的默认渠道' },
      { name: 'remark', label: '备注', type: 'textarea', maxLength: 200, wide: true },
      testField,
    ],
    schemas: { add: smsChannelAdd, edit: smsChannelEdit },
    initialValues: { provider: 'aliyun', dailyLimit: 1000, enabled: true, isDefault: false },
    toValues: smsChannelValues,
    toBody: smsChannelBody,
  },
  actionsWidth: 360,
  pageSize: 20,
});
