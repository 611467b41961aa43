import { mailAccountAdd, mailAccountEdit, mailAccountEndpoints, MAIL_TLS_MODE_LABELS, type MailAccountRecord, type MailTlsMode } from '@ess/contract/messaging';
import { defineResource, type FieldDef, type FormMode } from '../../components/crud/index.ts';
import { companyAndName } from '../../components/CompanyField.tsx';
import { SecretField, secretBody } from './form.parts.tsx';
import { FormTests } from './FormTests.tsx';
import { messagingKeys } from './messaging.keys.ts';
import { companyListFilters, ENABLED_OPTIONS, TLS_MODE_OPTIONS, YES_NO } from './messaging.options.ts';
import { secretCell } from './parts.tsx';

export interface MailAccountForm {
  /** The record being edited (for the tests of the unsaved values). */
  id?: number;
  companyId: number;
  name: string;
  host: string;
  port: number;
  tlsMode: MailTlsMode;
  verifyCertificate: boolean;
  username?: string | null;
  /** Empty on edit: the stored password stays (the form never holds the stored one); null: cleared on save. */
  password?: string | null;
  /** Whether a password is stored (the record's flag: offers "clear"). */
  passwordSet?: boolean;
  fromName?: string | null;
  fromAddress: string;
  replyTo?: string | null;
  dailyLimit: number;
  enabled: boolean;
  isDefault: boolean;
  remark?: string | null;
  /** The tests' buttons (no value). */
  tests?: never;
}

/** The port usually meant by a protection mode (465 for TLS from the first byte, 587 for STARTTLS). */
export const DEFAULT_PORTS: Record<MailTlsMode, number> = { none: 25, starttls: 587, tls: 465 };

/** A record's form values: every field but the password, which the server never sends and the form starts empty. */
export const mailAccountValues = (r: MailAccountRecord): MailAccountForm => ({
  id: r.id,
  companyId: r.companyId,
  name: r.name,
  host: r.host,
  port: r.port,
  tlsMode: r.tlsMode,
  verifyCertificate: r.verifyCertificate,
  username: r.username,
  passwordSet: r.passwordSet,
  fromName: r.fromName,
  fromAddress: r.fromAddress,
  replyTo: r.replyTo,
  dailyLimit: r.dailyLimit,
  enabled: r.enabled,
  isDefault: r.isDefault,
  remark: r.remark,
});

/**
 * The add/edit body: a password typed is sent; an empty one is left out, which on edit keeps the
 * stored password (the contract: absent keeps, null clears) and on add means none; the password
 * cleared with its button (null) is sent as null.
 */
export function mailAccountBody(v: MailAccountForm, mode: FormMode, id?: number): Record<string, unknown> {
  const body: Record<string, unknown> = {
    companyId: v.companyId,
    name: v.name,
    host: v.host,
    port: v.port,
    tlsMode: v.tlsMode,
    verifyCertificate: v.verifyCertificate,
    username: v.username || null,
    fromName: v.fromName || null,
    fromAddress: v.fromAddress,
    replyTo: v.replyTo || null,
    dailyLimit: v.dailyLimit,
    enabled: v.enabled,
    isDefault: v.isDefault,
    remark: v.remark || null,
    ...secretBody('password', v.password),
  };
  return mode === 'edit' ? { id, ...body } : body;
}

const fields: FieldDef<MailAccountForm>[] = [
  ...companyAndName<MailAccountForm>('账号名称'),
  { name: 'host', label: 'SMTP服务器', required: true, placeholder: 'smtp.example.com' },
  { name: 'port', label: '端口', type: 'number', required: true, help: '1-65535；SSL/TLS 通常为 465，STARTTLS 通常为 587' },
  { name: 'tlsMode', label: '加密方式', type: 'enum', options: TLS_MODE_OPTIONS, required: true },
  { name: 'verifyCertificate', label: '校验证书', type: 'switch', help: '仅对已知的自签名服务器关闭' },
  { name: 'username', label: '用户名', maxLength: 128 },
  {
    name: 'password', label: '密码', type: 'custom',
    help: (mode) => (mode === 'edit' ? '留空则保持原密码不变' : '不需要认证的服务器可不填'),
    render: (p) => <SecretField {...p} setField="passwordSet" kind="password" />,
  },
  { name: 'fromAddress', label: '发件地址', required: true, placeholder: 'noreply@example.com' },
  { name: 'fromName', label: '发件人名称', maxLength: 64 },
  { name: 'replyTo', label: '回复地址' },
  { name: 'dailyLimit', label: '每日上限', type: 'number', required: true, help: '每天（UTC）最多发送的邮件数，超出后次日再发' },
  { name: 'enabled', label: '启用', type: 'switch' },
  { name: 'isDefault', label: '默认账号', type: 'switch', help: '消息规则未指定账号时使用公司的默认账号' },
  { name: 'remark', label: '备注', type: 'textarea', maxLength: 200, wide: true },
  {
    name: 'tests', label: '连接测试', type: 'custom', wide: true, help: '用表单中的设置测试，无需先保存',
    render: ({ form }) => (
      <FormTests
        kind="mail"
        form={form}
        schema={mailAccountAdd}
        labels={Object.fromEntries(fields.map((f) => [f.name, f.label]))}
        toSettings={(v) => mailAccountBody(v, 'add')}
      />
    ),
  },
];

/** /mail/mail-account: SMTP accounts a company's messages go out through. */
export const mailAccountResource = defineResource<MailAccountRecord, MailAccountForm>({
  key: messagingKeys.mailAccounts,
  name: '邮件账号',
  endpoints: {
    page: mailAccountEndpoints.page,
    one: mailAccountEndpoints.one,
    add: mailAccountEndpoints.add,
    edit: mailAccountEndpoints.edit,
    delete: mailAccountEndpoints.delete,
  },
  columns: [
    { key: 'name', title: '账号名称', width: 150, ellipsis: true },
    { key: 'server', title: '服务器', width: 200, ellipsis: true, render: (r) => `${r.host}:${r.port}` },
    { key: 'tlsMode', title: '加密方式', width: 110, render: (r, t) => (r.tlsMode === 'none' ? t(MAIL_TLS_MODE_LABELS.none) : MAIL_TLS_MODE_LABELS[r.tlsMode]) },
    { key: 'fromAddress', title: '发件人', width: 220, ellipsis: true, render: (r) => (r.fromName ? `${r.fromName} <${r.fromAddress}>` : r.fromAddress) },
    { key: 'username', title: '用户名', inTable: false },
    { key: 'passwordSet', title: '密码', width: 90, render: (r, t) => secretCell(r.passwordSet, t) },
    { key: 'enabled', title: '状态', type: 'boolean', options: ENABLED_OPTIONS, width: 90 },
    { key: 'isDefault', title: '默认账号', type: 'boolean', options: YES_NO, width: 100 },
    { key: 'usage', title: '今日发送/上限', width: 130, render: (r) => `${r.sentToday} / ${r.dailyLimit}` },
    { key: 'companyName', title: '所属公司', width: 140, ellipsis: true },
    { key: 'verifyCertificate', title: '校验证书', type: 'boolean', options: YES_NO, inTable: false },
    { key: 'replyTo', title: '回复地址', inTable: false },
    {
      key: 'lastTest', title: '最近测试', width: 170, inTable: false,
      render: (r, t) => (r.lastTestAt === null ? '-' : `${t(r.lastTestOk ? '连接成功' : '连接失败')}${r.lastTestReason ? `：${r.lastTestReason}` : ''}`),
    },
    { key: 'remark', title: '备注', inTable: false },
    { key: 'updatedAt', title: '更新时间', type: 'datetime', width: 170 },
  ],
  filters: companyListFilters('账号名称'),
  form: {
    container: 'drawer',
    width: 720,
    columns: 2,
    fields,
    schemas: { add: mailAccountAdd, edit: mailAccountEdit },
    initialValues: { port: 465, tlsMode: 'tls', verifyCertificate: true, dailyLimit: 500, enabled: true, isDefault: false },
    toValues: mailAccountValues,
    toBody: mailAccountBody,
  },
  actionsWidth: 420,
  pageSize: 20,
});
