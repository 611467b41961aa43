import { z } from 'zod';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { id, idBody, idQuery, pageRequest, sortRequest, TIME_ZONE_INVALID } from './common.ts';
import { LOCALES } from './constants.ts';
import { created, done, endpoint, FILE, isoTime, pageOf } from './endpoint.ts';

/**
 * Messaging (issue 20; decision 0043): mail accounts, mail templates and the mail log; SMS
 * channels, SMS templates and the SMS log; message configuration rules that send domain events
 * (alarms, offline devices, work orders, statements, …) by console notification, mail and SMS to
 * users, roles, a station's contacts or an order's assignee, with quiet hours and escalation.
 * Not in the catalogue (routes only): the calls follow its conventions (POST …/query/page,
 * /query/one, /query/list, /add, /edit; GET …/delete?id) under /mail/…, /sms/…, /message/….
 *
 * Scope: accounts, channels, templates, rules and logs belong to a company; a user sees those of
 * their companies (the company subtree under their own). Secrets (a mail password, an SMS
 * provider's secret) are write-only: answers carry `passwordSet` / `secretSet`, never the value;
 * on edit an absent secret keeps the stored one, null clears it.
 *
 * Templates use one syntax for subject, HTML body, text body and SMS content: `${name}` (spaces
 * inside the braces allowed), `$${` for a literal `${`. Every name used must be one of
 * MESSAGE_VARIABLES; the server's engine escapes HTML in HTML bodies and nothing elsewhere.
 */

// ── Shared pieces ─────────────────────────────────────────────────────────────────────

const ref = z.number({ error: '须为数字编号' }).int().positive().max(2 ** 31 - 1);
const name64 = (label: string) => z.string({ error: `${label}不能为空` }).trim().min(1, `${label}不能为空`).max(64, `${label}不能超过64个字符`);
const remark = z.string().trim().max(200, '备注不能超过200个字符').optional().nullable().transform((v) => (v ? v : null));

/** The variables a template may use, with their source-text labels (the console lists them). */
export const MESSAGE_VARIABLE_LABELS = {
  station: '站点名称',
  stationCode: '站点编码',
  company: '公司名称',
  device: '设备名称',
  deviceCode: '设备编码',
  level: '告警等级',
  alarmCode: '告警编码',
  alarmName: '告警名称',
  description: '描述',
  time: '时间',
  minutes: '持续分钟数',
  orderNo: '工单编号',
  orderTitle: '工单标题',
  assignee: '处理人',
  dueTime: '截止时间',
  month: '月份',
  statementNo: '结算单编号',
  firmware: '固件版本',
  recipient: '收件人',
  link: '链接',
  eventType: '事件类型',
} as const;
export type MessageVariable = keyof typeof MESSAGE_VARIABLE_LABELS;
export const MESSAGE_VARIABLES = Object.keys(MESSAGE_VARIABLE_LABELS) as MessageVariable[];

export const TEMPLATE_UNKNOWN_VARIABLE = '模板使用了未知变量';
export const TEMPLATE_BAD_PLACEHOLDER = '模板占位符格式不正确，应为 ${变量名}';

/**
 * A template's placeholders in order of first use. `${name}` (optional spaces inside), `$${` is
 * a literal `${`. A `${` that does not close as `${identifier}` is a bad placeholder.
 */
export function templateVariables(text: string): { names: string[]; bad: string[] } {
  const names: string[] = [];
  const bad: string[] = [];
  const re = /\$(\$)?\{([^}]*)(\})?/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[1]) continue; // $${…}: literal
    const inner = (m[2] ?? '').trim();
    if (!m[3] || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(inner)) bad.push(m[0].slice(0, 40));
    else if (!names.includes(inner)) names.push(inner);
  }
  return { names, bad };
}

/** The unknown names a template text uses (not in MESSAGE_VARIABLES). */
export function unknownVariables(text: string): string[] {
  return templateVariables(text).names.filter((n) => !(n in MESSAGE_VARIABLE_LABELS));
}

/** Template text: at most `max` characters, placeholders well formed and known. */
const templateText = (label: string, max: number) =>
  z
    .string({ error: `${label}不能为空` })
    .max(max, `${label}不能超过${max}个字符`)
    .superRefine((v, ctx) => {
      const { bad } = templateVariables(v);
      if (bad.length) ctx.addIssue({ code: 'custom', message: `${TEMPLATE_BAD_PLACEHOLDER}：${bad.join('、')}` });
      const unknown = unknownVariables(v);
      if (unknown.length) ctx.addIssue({ code: 'custom', message: `${TEMPLATE_UNKNOWN_VARIABLE}：${unknown.join('、')}` });
    });

/** A template's language: one of the 16 locales. Recipients in another language get the default language's variant (decision 0043). */
export const templateLanguage = z.enum(LOCALES, { error: '语言不支持' });

/** A template's code: the key rules name it by; its variants in several languages share it. */
export const TEMPLATE_CODE_FORMAT = '模板编码只能包含字母、数字、点、下划线和短横线，且以字母开头';
const templateCode = z.string({ error: '模板编码不能为空' }).trim().regex(/^[A-Za-z][A-Za-z0-9._-]{0,63}$/, TEMPLATE_CODE_FORMAT);

export const MAIL_ADDRESS_INVALID = '邮箱地址格式不正确';
/** An e-mail address (as nodemailer and SMTP take it: no display name, no spaces). */
export const mailAddress = z.string({ error: MAIL_ADDRESS_INVALID }).trim().max(254, MAIL_ADDRESS_INVALID).pipe(z.email(MAIL_ADDRESS_INVALID));

export const PHONE_INVALID = '手机号码不正确，请使用国际格式（如 +8613800138000）或选择国家/地区';
/** ISO 3166 two-letter region for numbers written without +country code. */
export const phoneRegion = z.string().trim().toUpperCase().regex(/^[A-Z]{2}$/, '国家/地区代码应为两位字母');

/** Parses a phone number (E.164, or national with a region) to E.164; null when it is not a valid number. */
export function toE164(phone: string, region?: string | null): string | null {
  const p = parsePhoneNumberFromString(phone.trim(), (region ?? undefined) as CountryCode | undefined);
  return p && p.isValid() ? p.number : null;
}

/** A phone number checked with libphonenumber-js (full metadata), answered in E.164. */
export const e164Phone = z
  .string({ error: PHONE_INVALID })
  .trim()
  .max(32, PHONE_INVALID)
  .transform((v, ctx) => {
    const n = toE164(v);
    if (!n) {
      ctx.addIssue({ code: 'custom', message: PHONE_INVALID });
      return z.NEVER;
    }
    return n;
  });

export const PORT_RANGE = '端口应为1-65535';
const port = z.number({ error: PORT_RANGE }).int(PORT_RANGE).min(1, PORT_RANGE).max(65535, PORT_RANGE);
export const HOST_INVALID = '主机地址格式不正确';
/** A host name or IPv4/IPv6 address. */
const host = z
  .string({ error: HOST_INVALID })
  .trim()
  .min(1, HOST_INVALID)
  .max(253, HOST_INVALID)
  .regex(/^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]*:[0-9a-fA-F:.]+|[A-Za-z0-9]([A-Za-z0-9-]{0,62})?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62})?)*\.?)$/, HOST_INVALID);
export const DAILY_LIMIT_RANGE = '每日上限应为1-1000000';
const dailyLimit = z.number({ error: DAILY_LIMIT_RANGE }).int(DAILY_LIMIT_RANGE).min(1, DAILY_LIMIT_RANGE).max(1_000_000, DAILY_LIMIT_RANGE);

/** A secret on add/edit: absent keeps the stored one (edit), null clears it, text sets it. Never answered. */
const secret = (label: string) => z.string().max(512, `${label}不能超过512个字符`).nullable().optional();

/** States of one message (mail or SMS) in its log. */
export const MESSAGE_STATES = ['queued', 'sent', 'retrying', 'failed', 'cancelled'] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];
export const MESSAGE_STATE_LABELS: Record<MessageState, string> = {
  queued: '排队中',
  sent: '已发送',
  retrying: '重试中',
  failed: '发送失败',
  cancelled: '已取消',
};

/** What caused a message: a rule's event, a user's test, or a manual send. */
export const MESSAGE_ORIGINS = ['rule', 'test', 'report'] as const;
export type MessageOrigin = (typeof MESSAGE_ORIGINS)[number];
export const MESSAGE_ORIGIN_LABELS: Record<MessageOrigin, string> = { rule: '消息规则', test: '测试发送', report: '计划报表' };

export const CONNECTION_SUCCEEDED = '连接成功';
export const CONNECTION_FAILED = '连接失败';
export const SEND_SUCCEEDED = '发送成功';
export const SEND_FAILED = '发送失败';

/**
 * A connection test's answer (200 either way: the test ran): `message` is the spec's
 * "Connection succeeded" / "Connection failed", `reason` the server's own words when it failed.
 */
export const connectionTestResult = z.object({
  ok: z.boolean(),
  message: z.enum([CONNECTION_SUCCEEDED, CONNECTION_FAILED]),
  /** The peer's reason (SMTP reply, TLS or network error), null on success. */
  reason: z.string().nullable(),
  latencyMs: z.number(),
});
export type ConnectionTestResult = z.infer<typeof connectionTestResult>;

/** A test send's answer: sent or not, the provider's message id and reason, the log row written. */
export const sendTestResult = z.object({
  ok: z.boolean(),
  message: z.enum([SEND_SUCCEEDED, SEND_FAILED]),
  reason: z.string().nullable(),
  providerMessageId: z.string().nullable(),
  logId: z.number(),
});
export type SendTestResult = z.infer<typeof sendTestResult>;

/** A template preview rendered with a station's data (its first device and latest alarm if any). */
export const previewSource = {
  /** The station whose data fills the variables; absent: the first station of the caller's scope (sample values without one). */
  siteId: ref.optional(),
  /** The variant's language (default: the template's). */
  language: templateLanguage.optional(),
};

/** The values a preview filled in, by variable. */
const previewValues = z.record(z.string(), z.string());

const companyRef = { companyId: ref };
const rowCompany = { id: z.number(), companyId: z.number(), companyName: z.string() };
const rowAudit = { createdAt: isoTime, updatedAt: isoTime, createdByName: z.string().nullable() };
const enabledFilter = z.boolean().optional();
const logRange = { start: z.iso.datetime({ offset: true, error: '时间格式不正确' }).optional(), end: z.iso.datetime({ offset: true, error: '时间格式不正确' }).optional() };

// ── Mail accounts (/mail/account) ──────────────────────────────────────────────────────

/** How the SMTP conversation is protected: plain, upgraded with STARTTLS (required), or TLS from the first byte (port 465). */
export const MAIL_TLS_MODES = ['none', 'starttls', 'tls'] as const;
export type MailTlsMode = (typeof MAIL_TLS_MODES)[number];
export const MAIL_TLS_MODE_LABELS: Record<MailTlsMode, string> = { none: '不加密', starttls: 'STARTTLS', tls: 'SSL/TLS' };

const mailAccountFields = {
  ...companyRef,
  name: name64('账号名称'),
  host,
  port,
  tlsMode: z.enum(MAIL_TLS_MODES, { error: '加密方式应为 none、starttls 或 tls' }),
  /** Refuse a server certificate that does not verify (off only for a known self-signed server). */
  verifyCertificate: z.boolean().default(true),
  /** SMTP AUTH user; absent/null: no authentication. */
  username: z.string().trim().max(128, '用户名不能超过128个字符').optional().nullable().transform((v) => (v ? v : null)),
  password: secret('密码'),
  fromName: z.string().trim().max(64, '发件人名称不能超过64个字符').optional().nullable().transform((v) => (v ? v : null)),
  fromAddress: mailAddress,
  replyTo: z.union([mailAddress, z.literal('')]).optional().nullable().transform((v) => (v ? v : null)),
  /** At most this many mails a day (the account's time zone: UTC); past it mails wait for the next day. */
  dailyLimit: dailyLimit.default(500),
  enabled: z.boolean().default(true),
  /** The company's default account (one per company): rules send through it. */
  isDefault: z.boolean().default(false),
  remark,
};
export const mailAccountAdd = z.object(mailAccountFields);
export type MailAccountAdd = z.input<typeof mailAccountAdd>;
export const mailAccountEdit = z.object({ id: ref, ...mailAccountFields });
export type MailAccountEdit = z.input<typeof mailAccountEdit>;

export const mailAccountSort = sortRequest(['name', 'host', 'fromAddress', 'enabled', 'createdAt', 'updatedAt']);
export const mailAccountFilter = z.object({
  name: z.string().trim().max(64).optional(),
  companyId: id.optional(),
  enabled: enabledFilter,
});
export type MailAccountFilter = z.infer<typeof mailAccountFilter>;
export const mailAccountPage = pageRequest.extend(mailAccountFilter.shape).extend(mailAccountSort.shape);
export type MailAccountPage = z.input<typeof mailAccountPage>;

export const mailAccountRecord = z.object({
  ...rowCompany,
  name: z.string(),
  host: z.string(),
  port: z.number(),
  tlsMode: z.enum(MAIL_TLS_MODES),
  verifyCertificate: z.boolean(),
  username: z.string().nullable(),
  /** Whether a password is stored (never the password). */
  passwordSet: z.boolean(),
  fromName: z.string().nullable(),
  fromAddress: z.string(),
  replyTo: z.string().nullable(),
  dailyLimit: z.number(),
  /** Mails sent through it today (UTC day). */
  sentToday: z.number(),
  enabled: z.boolean(),
  isDefault: z.boolean(),
  remark: z.string().nullable(),
  lastTestAt: isoTime.nullable(),
  lastTestOk: z.boolean().nullable(),
  lastTestReason: z.string().nullable(),
  ...rowAudit,
});
export type MailAccountRecord = z.infer<typeof mailAccountRecord>;
export const mailAccountRef = z.object({ id: z.number(), name: z.string(), companyId: z.number(), fromAddress: z.string(), enabled: z.boolean() });
export type MailAccountRef = z.infer<typeof mailAccountRef>;

/**
 * Test the connection (EHLO, STARTTLS/TLS as set, AUTH) of a saved account (`id` alone) or of
 * the form's values before saving (`id` too when editing: an absent password is the stored one).
 */
export const mailAccountTest = z.union([
  z.object({ id: ref }).strict(),
  z.object({ id: ref.optional(), ...mailAccountFields }),
]);
export type MailAccountTest = z.input<typeof mailAccountTest>;

export const TEST_TARGET_REQUIRED = '须指定已保存的账号或填写账号设置';
/**
 * When a test of the form's values may use the stored secret (the field left empty on an
 * existing account): only towards the same server and user. A changed host, user, provider,
 * key id or endpoint needs the secret typed again, so a stored secret never goes to another peer.
 */
export const STORED_SECRET_MOVED = '服务器、用户或接口已修改，请重新输入密码或密钥';
/** A test of an SMS channel's form values needs a secret: typed, or the stored one. */
export const TEST_SECRET_REQUIRED = '测试发送须填写访问密钥';

/**
 * Send a test mail, with a template (rendered with a station's data) or a fixed text, through a
 * saved account (`id`) or through the form's values before saving (`account`; with `id` when
 * editing: an absent password is the stored one, null none).
 */
export const mailTestSend = z
  .object({
    id: ref.optional(),
    account: z.object(mailAccountFields).optional(),
    to: mailAddress,
    templateId: ref.optional(),
    ...previewSource,
  })
  .refine((v) => v.id !== undefined || v.account !== undefined, { message: TEST_TARGET_REQUIRED, path: ['id'] });
export type MailTestSend = z.input<typeof mailTestSend>;

// ── Mail templates (/mail/template) ───────────────────────────────────────────────────

const mailTemplateFields = {
  ...companyRef,
  name: name64('模板名称'),
  code: templateCode,
  language: templateLanguage,
  subject: templateText('邮件主题', 200).refine((v) => v.trim().length > 0, '邮件主题不能为空'),
  /** The HTML body (variables HTML-escaped when rendered). */
  html: templateText('HTML正文', 100_000).refine((v) => v.trim().length > 0, 'HTML正文不能为空'),
  /** The plain-text body; absent/empty: made from the HTML. */
  text: templateText('纯文本正文', 20_000).optional().nullable().transform((v) => (v ? v : null)),
  enabled: z.boolean().default(true),
  remark,
};
export const mailTemplateAdd = z.object(mailTemplateFields);
export type MailTemplateAdd = z.input<typeof mailTemplateAdd>;
export const mailTemplateEdit = z.object({ id: ref, ...mailTemplateFields });
export type MailTemplateEdit = z.input<typeof mailTemplateEdit>;

const templateFilter = {
  name: z.string().trim().max(64).optional(),
  code: z.string().trim().max(64).optional(),
  language: templateLanguage.optional(),
  companyId: id.optional(),
  enabled: enabledFilter,
};
export const mailTemplateSort = sortRequest(['name', 'code', 'language', 'enabled', 'createdAt', 'updatedAt']);
export const mailTemplateFilter = z.object(templateFilter);
export type TemplateFilter = z.infer<typeof mailTemplateFilter>;
export const mailTemplatePage = pageRequest.extend(templateFilter).extend(mailTemplateSort.shape);
export type MailTemplatePage = z.input<typeof mailTemplatePage>;

export const mailTemplateRecord = z.object({
  ...rowCompany,
  name: z.string(),
  code: z.string(),
  language: z.string(),
  subject: z.string(),
  html: z.string(),
  text: z.string().nullable(),
  /** The variables the subject and bodies use, in order of first use. */
  variables: z.array(z.string()),
  enabled: z.boolean(),
  remark: z.string().nullable(),
  ...rowAudit,
});
export type MailTemplateRecord = z.infer<typeof mailTemplateRecord>;
export const templateRef = z.object({ id: z.number(), name: z.string(), code: z.string(), language: z.string(), companyId: z.number(), enabled: z.boolean() });
export type TemplateRef = z.infer<typeof templateRef>;

/** Preview a saved template (`id`) or the form's unsaved subject and bodies, with a station's data. */
export const mailTemplatePreview = z.union([
  z.object({ id: ref, ...previewSource }).strict(),
  z.object({
    companyId: ref,
    subject: mailTemplateFields.subject,
    html: mailTemplateFields.html,
    text: mailTemplateFields.text,
    ...previewSource,
  }),
]);
export type MailTemplatePreview = z.input<typeof mailTemplatePreview>;
export const mailPreview = z.object({
  subject: z.string(),
  html: z.string(),
  text: z.string(),
  variables: z.array(z.string()),
  values: previewValues,
  siteId: z.number().nullable(),
  siteName: z.string().nullable(),
});
export type MailPreview = z.infer<typeof mailPreview>;

// ── SMS channels (/sms/channel) ──────────────────────────────────────────────────────

/** SMS providers with an adapter (one module per provider behind one interface). */
export const SMS_PROVIDERS = ['aliyun', 'tencent', 'twilio'] as const;
export type SmsProvider = (typeof SMS_PROVIDERS)[number];
export const SMS_PROVIDER_LABELS: Record<SmsProvider, string> = { aliyun: '阿里云短信', tencent: '腾讯云短信', twilio: 'Twilio' };

export const SMS_APP_ID_REQUIRED = '腾讯云短信须填写 SdkAppId';
export const SMS_SENDER_REQUIRED = 'Twilio 须填写发送号码或 Messaging Service SID';
export const SMS_ENDPOINT_INVALID = '接口地址须为 http(s) 地址';

const smsChannelFields = {
  ...companyRef,
  name: name64('渠道名称'),
  provider: z.enum(SMS_PROVIDERS, { error: '短信服务商不支持' }),
  /** Aliyun AccessKeyId, Tencent SecretId, Twilio Account SID. */
  accessKeyId: z.string({ error: '访问密钥ID不能为空' }).trim().min(1, '访问密钥ID不能为空').max(128, '访问密钥ID不能超过128个字符'),
  /** Aliyun AccessKeySecret, Tencent SecretKey, Twilio Auth Token: write-only. */
  secret: secret('访问密钥'),
  /** Aliyun/Tencent region (cn-hangzhou, ap-guangzhou); absent: the provider's default. */
  region: z.string().trim().max(32).regex(/^[a-z0-9-]*$/, '区域格式不正确').optional().nullable().transform((v) => (v ? v : null)),
  /** Tencent SmsSdkAppId. */
  appId: z.string().trim().max(64).optional().nullable().transform((v) => (v ? v : null)),
  /** Twilio sender: an E.164 number, or a Messaging Service SID (MG…). */
  sender: z.string().trim().max(64).optional().nullable().transform((v) => (v ? v : null)),
  /** Default sign name (Aliyun SignName, Tencent SignName); a template may set its own. */
  signName: z.string().trim().max(64).optional().nullable().transform((v) => (v ? v : null)),
  /** The provider's API base URL; absent: the provider's public endpoint (set for a private endpoint or a test peer). */
  endpoint: z
    .string()
    .trim()
    .max(256)
    .optional()
    .nullable()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || /^https?:\/\/[^\s/]+(\/\S*)?$/.test(v), SMS_ENDPOINT_INVALID),
  dailyLimit: dailyLimit.default(1000),
  enabled: z.boolean().default(true),
  isDefault: z.boolean().default(false),
  remark,
};
const smsChannelRules = <T extends { provider: SmsProvider; appId: string | null; sender: string | null }>(v: T, ctx: z.RefinementCtx) => {
  if (v.provider === 'tencent' && !v.appId) ctx.addIssue({ code: 'custom', message: SMS_APP_ID_REQUIRED, path: ['appId'] });
  if (v.provider === 'twilio' && (!v.sender || !(/^MG[0-9a-fA-F]{32}$/.test(v.sender) || toE164(v.sender))))
    ctx.addIssue({ code: 'custom', message: SMS_SENDER_REQUIRED, path: ['sender'] });
};
export const smsChannelAdd = z.object(smsChannelFields).superRefine(smsChannelRules);
export type SmsChannelAdd = z.input<typeof smsChannelAdd>;
export const smsChannelEdit = z.object({ id: ref, ...smsChannelFields }).superRefine(smsChannelRules);
export type SmsChannelEdit = z.input<typeof smsChannelEdit>;

export const smsChannelSort = sortRequest(['name', 'provider', 'enabled', 'createdAt', 'updatedAt']);
export const smsChannelFilter = z.object({
  name: z.string().trim().max(64).optional(),
  provider: z.enum(SMS_PROVIDERS).optional(),
  companyId: id.optional(),
  enabled: enabledFilter,
});
export type SmsChannelFilter = z.infer<typeof smsChannelFilter>;
export const smsChannelPage = pageRequest.extend(smsChannelFilter.shape).extend(smsChannelSort.shape);
export type SmsChannelPage = z.input<typeof smsChannelPage>;

export const smsChannelRecord = z.object({
  ...rowCompany,
  name: z.string(),
  provider: z.enum(SMS_PROVIDERS),
  accessKeyId: z.string(),
  /** Whether a secret is stored (never the secret). */
  secretSet: z.boolean(),
  region: z.string().nullable(),
  appId: z.string().nullable(),
  sender: z.string().nullable(),
  signName: z.string().nullable(),
  endpoint: z.string().nullable(),
  dailyLimit: z.number(),
  sentToday: z.number(),
  enabled: z.boolean(),
  isDefault: z.boolean(),
  remark: z.string().nullable(),
  ...rowAudit,
});
export type SmsChannelRecord = z.infer<typeof smsChannelRecord>;
export const smsChannelRef = z.object({ id: z.number(), name: z.string(), companyId: z.number(), provider: z.enum(SMS_PROVIDERS), enabled: z.boolean() });
export type SmsChannelRef = z.infer<typeof smsChannelRef>;

/**
 * Send a test SMS with a template (rendered with a station's data) through a saved channel (`id`)
 * or through the form's values before saving (`channel`; with `id` when editing: an absent secret
 * is the stored one, only while provider, key id and endpoint are unchanged).
 */
export const smsTestSend = z
  .object({
    id: ref.optional(),
    channel: z.object(smsChannelFields).superRefine(smsChannelRules).optional(),
    templateId: ref,
    /** E.164 (+8613800138000), or a national number with `region`. */
    phone: z.string({ error: PHONE_INVALID }).trim().max(32, PHONE_INVALID),
    region: phoneRegion.optional(),
    ...previewSource,
  })
  .transform((v, ctx) => {
    if (v.id === undefined && v.channel === undefined) {
      ctx.addIssue({ code: 'custom', message: TEST_TARGET_REQUIRED, path: ['id'] });
      return z.NEVER;
    }
    const phone = toE164(v.phone, v.region);
    if (!phone) {
      ctx.addIssue({ code: 'custom', message: PHONE_INVALID, path: ['phone'] });
      return z.NEVER;
    }
    return { ...v, phone };
  });
export type SmsTestSend = z.input<typeof smsTestSend>;

// ── SMS templates (/sms/template) ────────────────────────────────────────────────────

const smsTemplateFields = {
  ...companyRef,
  name: name64('模板名称'),
  code: templateCode,
  language: templateLanguage,
  /**
   * The message text with variables. Twilio sends it rendered; Aliyun and Tencent send the
   * provider's registered template (providerTemplateCode) with the variables' values as its
   * parameters (Aliyun by name, Tencent in the order of first use here).
   */
  content: templateText('短信内容', 1000).refine((v) => v.trim().length > 0, '短信内容不能为空'),
  /** The provider's template id (Aliyun SMS_123456789, Tencent 1234567); required for those providers when sending. */
  providerTemplateCode: z.string().trim().max(64).optional().nullable().transform((v) => (v ? v : null)),
  /** Sign name for this template (else the channel's). */
  signName: z.string().trim().max(64).optional().nullable().transform((v) => (v ? v : null)),
  enabled: z.boolean().default(true),
  remark,
};
export const smsTemplateAdd = z.object(smsTemplateFields);
export type SmsTemplateAdd = z.input<typeof smsTemplateAdd>;
export const smsTemplateEdit = z.object({ id: ref, ...smsTemplateFields });
export type SmsTemplateEdit = z.input<typeof smsTemplateEdit>;

export const smsTemplateSort = sortRequest(['name', 'code', 'language', 'enabled', 'createdAt', 'updatedAt']);
export const smsTemplateFilter = z.object(templateFilter);
export const smsTemplatePage = pageRequest.extend(templateFilter).extend(smsTemplateSort.shape);
export type SmsTemplatePage = z.input<typeof smsTemplatePage>;

export const smsTemplateRecord = z.object({
  ...rowCompany,
  name: z.string(),
  code: z.string(),
  language: z.string(),
  content: z.string(),
  providerTemplateCode: z.string().nullable(),
  signName: z.string().nullable(),
  variables: z.array(z.string()),
  enabled: z.boolean(),
  remark: z.string().nullable(),
  ...rowAudit,
});
export type SmsTemplateRecord = z.infer<typeof smsTemplateRecord>;

export const smsTemplatePreview = z.union([
  z.object({ id: ref, ...previewSource }).strict(),
  z.object({ companyId: ref, content: smsTemplateFields.content, ...previewSource }),
]);
export type SmsTemplatePreview = z.input<typeof smsTemplatePreview>;
export const smsPreview = z.object({
  content: z.string(),
  /** Characters and the number of SMS segments it takes (GSM-7: 160/153, else UCS-2: 70/67). */
  length: z.number(),
  segments: z.number(),
  variables: z.array(z.string()),
  values: previewValues,
  siteId: z.number().nullable(),
  siteName: z.string().nullable(),
});
export type SmsPreview = z.infer<typeof smsPreview>;

// ── Logs (/mail/log, /sms/log) ───────────────────────────────────────────────────────

const logFilterFields = {
  companyId: id.optional(),
  state: z.enum(MESSAGE_STATES).optional(),
  /** Part of the recipient's address or number. */
  recipient: z.string().trim().max(254).optional(),
  templateId: id.optional(),
  origin: z.enum(MESSAGE_ORIGINS).optional(),
  ...logRange,
};
export const MAIL_LOG_SORT = ['createdAt', 'sentAt', 'state', 'recipient', 'attempts'] as const;
export const mailLogSort = sortRequest(MAIL_LOG_SORT);
export const mailLogFilter = z.object({ ...logFilterFields, accountId: id.optional() });
export type MailLogFilter = z.infer<typeof mailLogFilter>;
export const mailLogPage = pageRequest.extend(mailLogFilter.shape).extend(mailLogSort.shape);
export type MailLogPage = z.input<typeof mailLogPage>;

const logRowFields = {
  ...rowCompany,
  recipient: z.string(),
  /** The recipient user, when the message went to a user. */
  userId: z.number().nullable(),
  userName: z.string().nullable(),
  templateId: z.number().nullable(),
  templateName: z.string().nullable(),
  templateCode: z.string().nullable(),
  language: z.string().nullable(),
  origin: z.enum(MESSAGE_ORIGINS),
  /** The domain event and rule behind it (origin rule). */
  eventType: z.string().nullable(),
  ruleId: z.number().nullable(),
  ruleName: z.string().nullable(),
  state: z.enum(MESSAGE_STATES),
  providerMessageId: z.string().nullable(),
  /** The provider's or server's reason of the last failure. */
  error: z.string().nullable(),
  attempts: z.number(),
  createdAt: isoTime,
  lastAttemptAt: isoTime.nullable(),
  nextAttemptAt: isoTime.nullable(),
  sentAt: isoTime.nullable(),
};
export const mailLogRecord = z.object({
  ...logRowFields,
  accountId: z.number().nullable(),
  accountName: z.string().nullable(),
  subject: z.string(),
});
export type MailLogRecord = z.infer<typeof mailLogRecord>;
export const mailLogDetail = mailLogRecord.extend({ html: z.string(), text: z.string() });
export type MailLogDetail = z.infer<typeof mailLogDetail>;

export const SMS_LOG_SORT = MAIL_LOG_SORT;
export const smsLogSort = sortRequest(SMS_LOG_SORT);
export const smsLogFilter = z.object({ ...logFilterFields, channelId: id.optional() });
export type SmsLogFilter = z.infer<typeof smsLogFilter>;
export const smsLogPage = pageRequest.extend(smsLogFilter.shape).extend(smsLogSort.shape);
export type SmsLogPage = z.input<typeof smsLogPage>;
export const smsLogRecord = z.object({
  ...logRowFields,
  channelId: z.number().nullable(),
  channelName: z.string().nullable(),
  provider: z.enum(SMS_PROVIDERS).nullable(),
  content: z.string(),
  segments: z.number(),
});
export type SmsLogRecord = z.infer<typeof smsLogRecord>;
export const smsLogDetail = smsLogRecord.extend({
  /** The parameters sent with the provider's template (Aliyun/Tencent). */
  params: z.record(z.string(), z.string()).nullable(),
  providerTemplateCode: z.string().nullable(),
  signName: z.string().nullable(),
});
export type SmsLogDetail = z.infer<typeof smsLogDetail>;

/** Days a mail or SMS log row is kept (MESSAGE_LOG_RETENTION_DAYS overrides). */
export const MESSAGE_LOG_RETENTION_DAYS = 180;

// ── Message configuration (/message/config) ──────────────────────────────────────────

/** The events a rule can send (decision 0043 maps each to its domain events). */
export const MESSAGE_EVENTS = [
  'alarmOpened',
  'alarmUnacknowledged',
  'alarmEnded',
  'deviceOffline',
  'workOrderAssigned',
  'workOrderOverdue',
  'repairAssigned',
  'statementToConfirm',
  'firmwareRolloutPaused',
] as const;
export type MessageEvent = (typeof MESSAGE_EVENTS)[number];
export const MESSAGE_EVENT_LABELS: Record<MessageEvent, string> = {
  alarmOpened: '告警产生',
  alarmUnacknowledged: '告警超时未转维修',
  alarmEnded: '告警结束',
  deviceOffline: '设备离线超时',
  workOrderAssigned: '巡检工单派发',
  workOrderOverdue: '工单超期',
  repairAssigned: '维修工单派发',
  statementToConfirm: '结算单待确认',
  firmwareRolloutPaused: '固件升级暂停',
};
/** Events that carry an alarm level (a rule limits them with maxLevel) and can escalate. */
export const ALARM_MESSAGE_EVENTS: readonly MessageEvent[] = ['alarmOpened', 'alarmUnacknowledged', 'alarmEnded'];
/**
 * The events whose subject names its own people, so a rule may send to them (recipients.assignee):
 * a work or repair order's assignee, a statement's two parties (investor and power user). Other
 * events refuse `assignee` (RULE_ASSIGNEE_ORDER_ONLY).
 */
export const ASSIGNEE_MESSAGE_EVENTS: readonly MessageEvent[] = ['workOrderAssigned', 'workOrderOverdue', 'repairAssigned', 'statementToConfirm'];
/** Events that wait a number of minutes before they send (rule.minutes). */
export const DELAYED_MESSAGE_EVENTS: readonly MessageEvent[] = ['alarmUnacknowledged', 'deviceOffline', 'workOrderOverdue'];

export const MESSAGE_CHANNELS = ['console', 'mail', 'sms'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];
export const MESSAGE_CHANNEL_LABELS: Record<MessageChannel, string> = { console: '站内通知', mail: '邮件', sms: '短信' };

export const RULE_LEVEL_RANGE = '告警等级应为1-5';
export const RULE_MINUTES_RANGE = '分钟数应为1-10080';
export const RULE_MINUTES_REQUIRED = '该事件须填写分钟数';
export const RULE_NO_RECIPIENTS = '至少选择一类接收人';
export const RULE_NO_CHANNELS = '至少选择一种发送方式';
export const RULE_MAIL_TEMPLATE_REQUIRED = '选择邮件发送时须选择邮件模板';
export const RULE_SMS_TEMPLATE_REQUIRED = '选择短信发送时须选择短信模板';
export const RULE_ESCALATION_ALARM_ONLY = '只有告警事件可以升级';
export const RULE_ASSIGNEE_ORDER_ONLY = '只有工单和结算单事件可以发送给处理人';
export const QUIET_HOURS_FORMAT = '免打扰时间格式应为HH:mm';
export { TIME_ZONE_INVALID };

const level = z.number({ error: RULE_LEVEL_RANGE }).int(RULE_LEVEL_RANGE).min(1, RULE_LEVEL_RANGE).max(5, RULE_LEVEL_RANGE);
const minutes = z.number({ error: RULE_MINUTES_RANGE }).int(RULE_MINUTES_RANGE).min(1, RULE_MINUTES_RANGE).max(10_080, RULE_MINUTES_RANGE);
const hhmm = z.string({ error: QUIET_HOURS_FORMAT }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, QUIET_HOURS_FORMAT);
const ids = z.array(ref).max(200, '最多选择200项').default([]);

/** Who gets a rule's messages (at least one kind). */
export const messageRecipients = z.object({
  userIds: ids,
  roleIds: ids,
  /** The station's contact (its phone and e-mail on the station record). */
  siteContacts: z.boolean().default(false),
  /** The work order's assignee (work-order events). */
  assignee: z.boolean().default(false),
});
export type MessageRecipients = z.infer<typeof messageRecipients>;
const hasRecipients = (r: MessageRecipients) => r.userIds.length > 0 || r.roleIds.length > 0 || r.siteContacts || r.assignee;

/**
 * Quiet hours: between start and end (wrapping midnight when end < start) in the recipient's time
 * zone (else the station's, else `timeZone`) mail and SMS wait until the end; an alarm of
 * `overrideLevel` or more severe (1 most severe) goes through. Console notifications are never held.
 */
export const quietHours = z.object({
  start: hhmm,
  end: hhmm,
  overrideLevel: level.nullable().default(null),
  timeZone: z
    .string()
    .max(64)
    .refine((v) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: v });
        return true;
      } catch {
        return false;
      }
    }, TIME_ZONE_INVALID)
    .nullable()
    .default(null),
});
export type QuietHours = z.infer<typeof quietHours>;

/**
 * Escalation (alarm events): while the alarm is neither acknowledged nor ended, every
 * `intervalMinutes` the next level's recipients get it too (level 1 after one interval, …); after
 * the last level it repeats to the last level at most `maxRepeats` more times.
 */
export const escalation = z.object({
  intervalMinutes: minutes,
  levels: z
    .array(z.object({ userIds: ids, roleIds: ids }).refine((l) => l.userIds.length + l.roleIds.length > 0, RULE_NO_RECIPIENTS))
    .min(1, '至少设置一级升级接收人')
    .max(5, '最多设置5级升级'),
  maxRepeats: z.number().int().min(0).max(20).default(0),
});
export type Escalation = z.infer<typeof escalation>;

const messageRuleFields = {
  ...companyRef,
  name: name64('规则名称'),
  event: z.enum(MESSAGE_EVENTS, { error: '事件类型不支持' }),
  /** Alarm events: alarms of this level or more severe (1 most severe … 5). */
  maxLevel: level.nullable().default(null),
  /** Delayed events: minutes unacknowledged / offline / overdue before the message goes. */
  minutes: minutes.nullable().default(null),
  /** Stations the rule covers; empty: every station of the company. */
  siteIds: ids,
  channels: z.array(z.enum(MESSAGE_CHANNELS, { error: '发送方式不支持' })).min(1, RULE_NO_CHANNELS).max(3).transform((c) => [...new Set(c)]),
  /** Template codes (variants by language): required for the mail and SMS channels. */
  mailTemplateCode: templateCode.nullable().default(null),
  smsTemplateCode: templateCode.nullable().default(null),
  /** Mail account / SMS channel to send through; null: the company's default. */
  mailAccountId: ref.nullable().default(null),
  smsChannelId: ref.nullable().default(null),
  recipients: messageRecipients,
  quietHours: quietHours.nullable().default(null),
  escalation: escalation.nullable().default(null),
  enabled: z.boolean().default(true),
  remark,
};
type RuleShape = {
  event: MessageEvent;
  minutes: number | null;
  channels: MessageChannel[];
  mailTemplateCode: string | null;
  smsTemplateCode: string | null;
  recipients: MessageRecipients;
  escalation: Escalation | null;
};
const messageRuleRules = (v: RuleShape, ctx: z.RefinementCtx) => {
  if (DELAYED_MESSAGE_EVENTS.includes(v.event) && v.minutes === null) ctx.addIssue({ code: 'custom', message: RULE_MINUTES_REQUIRED, path: ['minutes'] });
  if (!hasRecipients(v.recipients)) ctx.addIssue({ code: 'custom', message: RULE_NO_RECIPIENTS, path: ['recipients'] });
  if (v.channels.includes('mail') && !v.mailTemplateCode) ctx.addIssue({ code: 'custom', message: RULE_MAIL_TEMPLATE_REQUIRED, path: ['mailTemplateCode'] });
  if (v.channels.includes('sms') && !v.smsTemplateCode) ctx.addIssue({ code: 'custom', message: RULE_SMS_TEMPLATE_REQUIRED, path: ['smsTemplateCode'] });
  if (v.escalation && !ALARM_MESSAGE_EVENTS.includes(v.event)) ctx.addIssue({ code: 'custom', message: RULE_ESCALATION_ALARM_ONLY, path: ['escalation'] });
  if (v.recipients.assignee && !ASSIGNEE_MESSAGE_EVENTS.includes(v.event)) ctx.addIssue({ code: 'custom', message: RULE_ASSIGNEE_ORDER_ONLY, path: ['recipients'] });
};
export const messageRuleAdd = z.object(messageRuleFields).superRefine(messageRuleRules);
export type MessageRuleAdd = z.input<typeof messageRuleAdd>;
export const messageRuleEdit = z.object({ id: ref, ...messageRuleFields }).superRefine(messageRuleRules);
export type MessageRuleEdit = z.input<typeof messageRuleEdit>;

export const messageRuleSort = sortRequest(['name', 'event', 'enabled', 'createdAt', 'updatedAt']);
export const messageRulePage = pageRequest
  .extend({
    name: z.string().trim().max(64).optional(),
    event: z.enum(MESSAGE_EVENTS).optional(),
    channel: z.enum(MESSAGE_CHANNELS).optional(),
    companyId: id.optional(),
    enabled: enabledFilter,
  })
  .extend(messageRuleSort.shape);
export type MessageRulePage = z.input<typeof messageRulePage>;

export const messageRuleRecord = z.object({
  ...rowCompany,
  name: z.string(),
  event: z.enum(MESSAGE_EVENTS),
  maxLevel: z.number().nullable(),
  minutes: z.number().nullable(),
  siteIds: z.array(z.number()),
  siteNames: z.array(z.string()),
  channels: z.array(z.enum(MESSAGE_CHANNELS)),
  mailTemplateCode: z.string().nullable(),
  smsTemplateCode: z.string().nullable(),
  mailAccountId: z.number().nullable(),
  smsChannelId: z.number().nullable(),
  recipients: z.object({ userIds: z.array(z.number()), roleIds: z.array(z.number()), siteContacts: z.boolean(), assignee: z.boolean() }),
  /** Names of the users and roles, for the list. */
  userNames: z.array(z.string()),
  roleNames: z.array(z.string()),
  quietHours: z.object({ start: z.string(), end: z.string(), overrideLevel: z.number().nullable(), timeZone: z.string().nullable() }).nullable(),
  escalation: z
    .object({ intervalMinutes: z.number(), levels: z.array(z.object({ userIds: z.array(z.number()), roleIds: z.array(z.number()) })), maxRepeats: z.number() })
    .nullable(),
  enabled: z.boolean(),
  remark: z.string().nullable(),
  ...rowAudit,
});
export type MessageRuleRecord = z.infer<typeof messageRuleRecord>;

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

export const mailAccountEndpoints = {
  page: endpoint({ method: 'POST', path: '/mail/account/query/page', body: mailAccountPage, response: pageOf(mailAccountRecord) }),
  list: endpoint({ method: 'POST', path: '/mail/account/query/list', body: mailAccountFilter, response: z.array(mailAccountRef) }),
  one: endpoint({ method: 'POST', path: '/mail/account/query/one', body: idBody, response: mailAccountRecord }),
  add: endpoint({ method: 'POST', path: '/mail/account/add', body: mailAccountAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/mail/account/edit', body: mailAccountEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/mail/account/delete', query: idQuery, response: done }),
  testConnection: endpoint({ method: 'POST', path: '/mail/account/test/connection', body: mailAccountTest, response: connectionTestResult }),
  testSend: endpoint({ method: 'POST', path: '/mail/account/test/send', body: mailTestSend, response: sendTestResult }),
};

export const mailTemplateEndpoints = {
  page: endpoint({ method: 'POST', path: '/mail/template/query/page', body: mailTemplatePage, response: pageOf(mailTemplateRecord) }),
  list: endpoint({ method: 'POST', path: '/mail/template/query/list', body: mailTemplateFilter, response: z.array(templateRef) }),
  one: endpoint({ method: 'POST', path: '/mail/template/query/one', body: idBody, response: mailTemplateRecord }),
  add: endpoint({ method: 'POST', path: '/mail/template/add', body: mailTemplateAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/mail/template/edit', body: mailTemplateEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/mail/template/delete', query: idQuery, response: done }),
  preview: endpoint({ method: 'POST', path: '/mail/template/preview', body: mailTemplatePreview, response: mailPreview }),
};

export const mailLogEndpoints = {
  page: endpoint({ method: 'POST', path: '/mail/log/query/page', body: mailLogPage, response: pageOf(mailLogRecord) }),
  one: endpoint({ method: 'POST', path: '/mail/log/query/one', body: idBody, response: mailLogDetail }),
  export: endpoint({ method: 'POST', path: '/mail/log/export', body: mailLogFilter, response: FILE }),
};

export const smsChannelEndpoints = {
  page: endpoint({ method: 'POST', path: '/sms/channel/query/page', body: smsChannelPage, response: pageOf(smsChannelRecord) }),
  list: endpoint({ method: 'POST', path: '/sms/channel/query/list', body: smsChannelFilter, response: z.array(smsChannelRef) }),
  one: endpoint({ method: 'POST', path: '/sms/channel/query/one', body: idBody, response: smsChannelRecord }),
  add: endpoint({ method: 'POST', path: '/sms/channel/add', body: smsChannelAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/sms/channel/edit', body: smsChannelEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/sms/channel/delete', query: idQuery, response: done }),
  testSend: endpoint({ method: 'POST', path: '/sms/channel/test/send', body: smsTestSend, response: sendTestResult }),
};

export const smsTemplateEndpoints = {
  page: endpoint({ method: 'POST', path: '/sms/template/query/page', body: smsTemplatePage, response: pageOf(smsTemplateRecord) }),
  list: endpoint({ method: 'POST', path: '/sms/template/query/list', body: smsTemplateFilter, response: z.array(templateRef) }),
  one: endpoint({ method: 'POST', path: '/sms/template/query/one', body: idBody, response: smsTemplateRecord }),
  add: endpoint({ method: 'POST', path: '/sms/template/add', body: smsTemplateAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/sms/template/edit', body: smsTemplateEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/sms/template/delete', query: idQuery, response: done }),
  preview: endpoint({ method: 'POST', path: '/sms/template/preview', body: smsTemplatePreview, response: smsPreview }),
};

export const smsLogEndpoints = {
  page: endpoint({ method: 'POST', path: '/sms/log/query/page', body: smsLogPage, response: pageOf(smsLogRecord) }),
  one: endpoint({ method: 'POST', path: '/sms/log/query/one', body: idBody, response: smsLogDetail }),
  export: endpoint({ method: 'POST', path: '/sms/log/export', body: smsLogFilter, response: FILE }),
};

export const messageRuleEndpoints = {
  page: endpoint({ method: 'POST', path: '/message/config/query/page', body: messageRulePage, response: pageOf(messageRuleRecord) }),
  one: endpoint({ method: 'POST', path: '/message/config/query/one', body: idBody, response: messageRuleRecord }),
  add: endpoint({ method: 'POST', path: '/message/config/add', body: messageRuleAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/message/config/edit', body: messageRuleEdit, response: done }),
  delete: endpoint({ method: 'GET', path: '/message/config/delete', query: idQuery, response: done }),
  enable: endpoint({ method: 'POST', path: '/message/config/enable', body: idBody, response: done }),
  disable: endpoint({ method: 'POST', path: '/message/config/disable', body: idBody, response: done }),
};

/** Every messaging call (the SMS and message-rule servers come in later branches). */
export const messagingEndpoints = {
  ...prefixed('mailAccount', mailAccountEndpoints),
  ...prefixed('mailTemplate', mailTemplateEndpoints),
  ...prefixed('mailLog', mailLogEndpoints),
  ...prefixed('smsChannel', smsChannelEndpoints),
  ...prefixed('smsTemplate', smsTemplateEndpoints),
  ...prefixed('smsLog', smsLogEndpoints),
  ...prefixed('messageRule', messageRuleEndpoints),
};

function prefixed<P extends string, T extends Record<string, unknown>>(prefix: P, o: T): { [K in keyof T & string as `${P}.${K}`]: T[K] } {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [`${prefix}.${k}`, v])) as { [K in keyof T & string as `${P}.${K}`]: T[K] };
}
