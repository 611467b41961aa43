import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { company } from './system.ts';

/**
 * Messaging (packages/contract/src/messaging.ts; issue 20; decision 0043): mail accounts and SMS
 * channels (secrets encrypted at rest by platform/secrets.ts, never answered), mail and SMS
 * templates, message rules, the mail and SMS logs, and the delivery table of the delivery engine
 * (one row per event, recipient, channel and escalation step: the deduplication key).
 */

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const audit = {
  /** Users are not referenced by key (deleting a user must not fail on records naming them). */
  createdBy: integer('created_by'),
  createdAt: tz('created_at').notNull().defaultNow(),
  updatedAt: tz('updated_at').notNull().defaultNow(),
};
const companyId = () => integer('company_id').notNull().references(() => company.id, { onDelete: 'cascade' });

/** An SMTP account a company sends mail through. */
export const mailAccount = pgTable(
  'mail_account',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    name: varchar('name', { length: 64 }).notNull(),
    host: varchar('host', { length: 253 }).notNull(),
    port: integer('port').notNull(),
    /** none, starttls, tls. */
    tlsMode: varchar('tls_mode', { length: 16 }).notNull(),
    verifyCertificate: boolean('verify_certificate').notNull().default(true),
    username: varchar('username', { length: 128 }),
    /** The password sealed by platform/secrets.ts (v1:…); null: none. */
    passwordEnc: text('password_enc'),
    fromName: varchar('from_name', { length: 64 }),
    fromAddress: varchar('from_address', { length: 254 }).notNull(),
    replyTo: varchar('reply_to', { length: 254 }),
    dailyLimit: integer('daily_limit').notNull().default(500),
    /** The UTC day of sent_today, and how many mails went through the account that day. */
    sentDay: varchar('sent_day', { length: 10 }),
    sentToday: integer('sent_today').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    isDefault: boolean('is_default').notNull().default(false),
    remark: varchar('remark', { length: 200 }),
    lastTestAt: tz('last_test_at'),
    lastTestOk: boolean('last_test_ok'),
    lastTestReason: varchar('last_test_reason', { length: 500 }),
    ...audit,
  },
  (t) => [
    uniqueIndex('mail_account_company_name_uq').on(t.companyId, t.name),
    uniqueIndex('mail_account_company_default_uq').on(t.companyId).where(sql`${t.isDefault}`),
  ],
);

/** An SMS provider account (Aliyun, Tencent Cloud, Twilio). */
export const smsChannel = pgTable(
  'sms_channel',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    name: varchar('name', { length: 64 }).notNull(),
    provider: varchar('provider', { length: 16 }).notNull(),
    accessKeyId: varchar('access_key_id', { length: 128 }).notNull(),
    /** The secret sealed by platform/secrets.ts; null: none yet. */
    secretEnc: text('secret_enc'),
    region: varchar('region', { length: 32 }),
    appId: varchar('app_id', { length: 64 }),
    sender: varchar('sender', { length: 64 }),
    signName: varchar('sign_name', { length: 64 }),
    endpoint: varchar('endpoint', { length: 256 }),
    dailyLimit: integer('daily_limit').notNull().default(1000),
    sentDay: varchar('sent_day', { length: 10 }),
    sentToday: integer('sent_today').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    isDefault: boolean('is_default').notNull().default(false),
    remark: varchar('remark', { length: 200 }),
    ...audit,
  },
  (t) => [
    uniqueIndex('sms_channel_company_name_uq').on(t.companyId, t.name),
    uniqueIndex('sms_channel_company_default_uq').on(t.companyId).where(sql`${t.isDefault}`),
  ],
);

/** A template's key (a code's variant in a language of a company) and its closing columns. */
const templateKey = () => ({
  id: serial('id').primaryKey(),
  companyId: companyId(),
  name: varchar('name', { length: 64 }).notNull(),
  code: varchar('code', { length: 64 }).notNull(),
  language: varchar('language', { length: 8 }).notNull(),
});
const templateEnd = () => ({ enabled: boolean('enabled').notNull().default(true), remark: varchar('remark', { length: 200 }), ...audit });

/** A mail template: one language variant of a code (code + language unique per company). */
export const mailTemplate = pgTable(
  'mail_template',
  {
    ...templateKey(),
    subject: varchar('subject', { length: 200 }).notNull(),
    html: text('html').notNull(),
    text: text('text'),
    ...templateEnd(),
  },
  (t) => [uniqueIndex('mail_template_company_code_lang_uq').on(t.companyId, t.code, t.language)],
);

/** An SMS template: one language variant of a code, with the provider's template code and sign. */
export const smsTemplate = pgTable(
  'sms_template',
  {
    ...templateKey(),
    content: varchar('content', { length: 1000 }).notNull(),
    providerTemplateCode: varchar('provider_template_code', { length: 64 }),
    signName: varchar('sign_name', { length: 64 }),
    ...templateEnd(),
  },
  (t) => [uniqueIndex('sms_template_company_code_lang_uq').on(t.companyId, t.code, t.language)],
);

/** A message configuration rule: which event goes by which channels to whom. */
export const messageRule = pgTable(
  'message_rule',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    name: varchar('name', { length: 64 }).notNull(),
    /** alarmOpened, alarmUnacknowledged, deviceOffline, … (contract MESSAGE_EVENTS). */
    event: varchar('event', { length: 32 }).notNull(),
    maxLevel: smallint('max_level'),
    minutes: integer('minutes'),
    /** Empty: every station of the company. */
    siteIds: integer('site_ids').array().notNull().default(sql`'{}'::integer[]`),
    channels: varchar('channels', { length: 8 }).array().notNull(),
    mailTemplateCode: varchar('mail_template_code', { length: 64 }),
    smsTemplateCode: varchar('sms_template_code', { length: 64 }),
    mailAccountId: integer('mail_account_id').references(() => mailAccount.id, { onDelete: 'set null' }),
    smsChannelId: integer('sms_channel_id').references(() => smsChannel.id, { onDelete: 'set null' }),
    /** { userIds, roleIds, siteContacts, assignee }. */
    recipients: jsonb('recipients').notNull(),
    /** { start, end, overrideLevel, timeZone } or null. */
    quietHours: jsonb('quiet_hours'),
    /** { intervalMinutes, levels: [{ userIds, roleIds }], maxRepeats } or null. */
    escalation: jsonb('escalation'),
    enabled: boolean('enabled').notNull().default(true),
    remark: varchar('remark', { length: 200 }),
    ...audit,
  },
  (t) => [index('message_rule_company_event_idx').on(t.companyId, t.event)],
);

const logColumns = () => ({
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  companyId: companyId(),
  recipient: varchar('recipient', { length: 254 }).notNull(),
  userId: integer('user_id'),
  templateId: integer('template_id'),
  templateName: varchar('template_name', { length: 64 }),
  templateCode: varchar('template_code', { length: 64 }),
  language: varchar('language', { length: 8 }),
  /** rule, test. */
  origin: varchar('origin', { length: 8 }).notNull(),
  eventId: bigint('event_id', { mode: 'number' }),
  eventType: varchar('event_type', { length: 64 }),
  ruleId: integer('rule_id'),
  /** queued, sent, retrying, failed, cancelled. */
  state: varchar('state', { length: 16 }).notNull().default('queued'),
  providerMessageId: varchar('provider_message_id', { length: 256 }),
  error: varchar('error', { length: 1000 }),
  attempts: integer('attempts').notNull().default(0),
  createdAt: tz('created_at').notNull().defaultNow(),
  lastAttemptAt: tz('last_attempt_at'),
  nextAttemptAt: tz('next_attempt_at'),
  sentAt: tz('sent_at'),
});

/** One mail: recipient, template, rendered subject and bodies, state, attempts, provider id, error. */
export const mailLog = pgTable(
  'mail_log',
  {
    ...logColumns(),
    accountId: integer('account_id').references(() => mailAccount.id, { onDelete: 'set null' }),
    accountName: varchar('account_name', { length: 64 }),
    /** Files sent with the mail (a scheduled report's export): name, MIME type, path under the data directory. */
    attachments: jsonb('attachments').$type<{ fileName: string; contentType: string; path: string }[]>(),
    subject: varchar('subject', { length: 1000 }).notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
  },
  (t) => [
    index('mail_log_company_created_idx').on(t.companyId, t.createdAt),
    index('mail_log_created_idx').on(t.createdAt),
    index('mail_log_due_idx').on(t.nextAttemptAt).where(sql`${t.state} in ('queued', 'retrying')`),
  ],
);

/** One SMS: recipient (E.164), template, rendered content and parameters, state, attempts, provider id, error. */
export const smsLog = pgTable(
  'sms_log',
  {
    ...logColumns(),
    channelId: integer('channel_id').references(() => smsChannel.id, { onDelete: 'set null' }),
    channelName: varchar('channel_name', { length: 64 }),
    provider: varchar('provider', { length: 16 }),
    content: varchar('content', { length: 2000 }).notNull(),
    params: jsonb('params'),
    providerTemplateCode: varchar('provider_template_code', { length: 64 }),
    signName: varchar('sign_name', { length: 64 }),
    segments: smallint('segments').notNull().default(1),
  },
  (t) => [
    index('sms_log_company_created_idx').on(t.companyId, t.createdAt),
    index('sms_log_created_idx').on(t.createdAt),
    index('sms_log_due_idx').on(t.nextAttemptAt).where(sql`${t.state} in ('queued', 'retrying')`),
  ],
);

/**
 * The delivery engine's ledger: one row per (domain event, recipient, channel, escalation step).
 * The unique key deduplicates: the same event reaches the same recipient on a channel once per
 * step, however many rules match and however often the event is redelivered. `due_at` holds a
 * message back (delayed events, quiet hours, escalation steps); `state` follows the log's.
 */
export const messageDelivery = pgTable(
  'message_delivery',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: companyId(),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    eventType: varchar('event_type', { length: 64 }).notNull(),
    ruleId: integer('rule_id').references(() => messageRule.id, { onDelete: 'set null' }),
    /** console, mail, sms. */
    channel: varchar('channel', { length: 8 }).notNull(),
    /** `user:12`, `mail:ops@example.com`, `sms:+8613800138000`: who, normalised. */
    recipientKey: varchar('recipient_key', { length: 280 }).notNull(),
    userId: integer('user_id'),
    /** 0: the first message; n: the n-th escalation. */
    step: smallint('step').notNull().default(0),
    /** The alarm (or other subject) it is about, so acknowledging it cancels pending steps. */
    subjectType: varchar('subject_type', { length: 32 }),
    subjectId: bigint('subject_id', { mode: 'number' }),
    /** queued, sent, retrying, failed, cancelled. */
    state: varchar('state', { length: 16 }).notNull().default('queued'),
    dueAt: tz('due_at').notNull().defaultNow(),
    /** Why it was held (quiet hours until …), for the log. */
    heldReason: varchar('held_reason', { length: 200 }),
    mailLogId: bigint('mail_log_id', { mode: 'number' }),
    smsLogId: bigint('sms_log_id', { mode: 'number' }),
    notificationId: bigint('notification_id', { mode: 'number' }),
    attempts: integer('attempts').notNull().default(0),
    error: varchar('error', { length: 1000 }),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('message_delivery_dedup_uq').on(t.eventId, t.channel, t.recipientKey, t.step),
    index('message_delivery_due_idx').on(t.dueAt).where(sql`${t.state} in ('queued', 'retrying')`),
    index('message_delivery_subject_idx').on(t.subjectType, t.subjectId),
  ],
);

/**
 * The per-minute send count of each mail account and SMS channel (`mail:3`, `sms:5`), shared by
 * every instance: one conditional upsert reserves a send in the current minute or says the
 * minute is full (delivery.send.ts).
 */
export const sendRate = pgTable('send_rate', {
  senderKey: varchar('sender_key', { length: 32 }).primaryKey(),
  minute: tz('minute').notNull(),
  sent: integer('sent').notNull(),
});
