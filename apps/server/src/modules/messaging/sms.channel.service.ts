import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { SEND_FAILED, SEND_SUCCEEDED, STORED_SECRET_MOVED, TEST_SECRET_REQUIRED, type SendTestResult, type SmsChannelRecord, type SmsChannelRef, type SmsProvider, type smsTestSend } from '@ess/contract/messaging';
import type { z } from 'zod';
import type { smsChannelAdd, smsChannelEdit, smsChannelFilter, smsChannelPage } from '@ess/contract/messaging';
import { smsChannel } from '../../db/schema/messaging.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../platform/db/errors.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { assertCompany, inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';
import { assertSameCompany, CHANNEL_COMPANY_FIXED, filtered } from './message.scope.ts';
import { previewData, secretsOf, SMS_SECRET } from './message.context.ts';
import { attemptSms, queueSms, type SmsSender } from './sms.send.ts';
import { smsTemplateRow } from './sms.template.service.ts';
import { credentialsOf, smsProviders } from './sms-providers/registry.ts';

/**
 * SMS channels (decision 0043): a company's account at a provider (Aliyun, Tencent Cloud,
 * Twilio), its secret sealed at rest (purpose `sms.secret`) and never answered — records say
 * `secretSet`. A channel's fields are checked against its provider's credentials (a Twilio
 * Account SID, a Tencent SmsSdkAppId) before anything is written.
 */

export const CHANNEL_NOT_FOUND = '短信渠道不存在';
export const CHANNEL_DUPLICATE = '同一公司已有同名短信渠道';
export const CHANNEL_SECRET_REQUIRED = '新增短信渠道须填写访问密钥';

const channels = defineListQuery({
  table: smsChannel,
  columns: { c: smsChannel, companyName: company.name, createdByName: appUser.name },
  joins: [
    { table: company, on: eq(company.id, smsChannel.companyId) },
    { table: appUser, on: eq(appUser.id, smsChannel.createdBy), left: true },
  ],
  scope: (db, user) => inCompanyScope(smsChannel.companyId, db, user),
  filter: (f: z.output<typeof smsChannelFilter>) => [
    f.name ? likeEscaped(smsChannel.name, f.name) : undefined,
    f.provider ? eq(smsChannel.provider, f.provider) : undefined,
    f.companyId ? eq(smsChannel.companyId, f.companyId) : undefined,
    f.enabled === undefined ? undefined : eq(smsChannel.enabled, f.enabled),
  ],
  orderBy: [asc(smsChannel.companyId), asc(smsChannel.name), asc(smsChannel.id)],
  sortable: { name: smsChannel.name, provider: smsChannel.provider, enabled: smsChannel.enabled, createdAt: smsChannel.createdAt, updatedAt: smsChannel.updatedAt },
  toRecord: ({ c, companyName, createdByName }): SmsChannelRecord => ({
    id: c.id,
    companyId: c.companyId,
    companyName,
    name: c.name,
    provider: c.provider as SmsProvider,
    accessKeyId: c.accessKeyId,
    secretSet: c.secretEnc !== null,
    region: c.region,
    appId: c.appId,
    sender: c.sender,
    signName: c.signName,
    endpoint: c.endpoint,
    dailyLimit: c.dailyLimit,
    sentToday: c.sentDay === new Date().toISOString().slice(0, 10) ? c.sentToday : 0,
    enabled: c.enabled,
    isDefault: c.isDefault,
    remark: c.remark,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    createdByName: createdByName ?? null,
  }),
});

export const channelPage = async (ctx: AppContext, user: AuthUser, req: z.output<typeof smsChannelPage>) => filtered(ctx, user, req.companyId, () => channels.page(ctx.db, user, req));

export async function channelList(ctx: AppContext, user: AuthUser, f: z.output<typeof smsChannelFilter>): Promise<SmsChannelRef[]> {
  const rows = await filtered(ctx, user, f.companyId, () => channels.list(ctx.db, user, f, 1000));
  return rows.map((r) => ({ id: r.id, name: r.name, companyId: r.companyId, provider: r.provider, enabled: r.enabled }));
}

/** A channel the caller may see, or 404 (another company's channel is not found either). */
async function channelRow(db: DbOrTx, user: AuthUser, id: number) {
  const [row] = await channels.rows(db, and(eq(smsChannel.id, id), inCompanyScope(smsChannel.companyId, db, user)), 1);
  return found(row, CHANNEL_NOT_FOUND);
}

export const channelOne = (ctx: AppContext, user: AuthUser, id: number) => channelRow(ctx.db, user, id);

type ChannelInput = z.output<typeof smsChannelAdd>;

/** The fields' fit with the provider (a Twilio Account SID, a Tencent SmsSdkAppId…); the secret's presence is add's to check. */
function assertFitsProvider(v: ChannelInput) {
  const creds = credentialsOf({ ...v, secret: 'checked-elsewhere' });
  const parsed = smsProviders[v.provider].credentials.safeParse(creds);
  if (!parsed.success) throw new AppError('INVALID_PARAM', parsed.error.issues[0]?.message);
}

function columnsOf(v: ChannelInput) {
  return {
    companyId: v.companyId, name: v.name, provider: v.provider, accessKeyId: v.accessKeyId, region: v.region, appId: v.appId,
    sender: v.sender, signName: v.signName, endpoint: v.endpoint, dailyLimit: v.dailyLimit, enabled: v.enabled, isDefault: v.isDefault, remark: v.remark,
  };
}

/** Writes, turning the unique name into a 406 and keeping one default channel per company. */
async function writing<T>(ctx: AppContext, v: ChannelInput, exceptId: number | null, write: (tx: DbOrTx) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.transaction(async (tx) => {
      if (v.isDefault) {
        await tx.update(smsChannel).set({ isDefault: false })
          .where(and(eq(smsChannel.companyId, v.companyId), eq(smsChannel.isDefault, true), exceptId === null ? undefined : ne(smsChannel.id, exceptId)));
      }
      return write(tx);
    });
  } catch (e) {
    if (pgErrorCode(e) === UNIQUE_VIOLATION) throw new AppError('DUPLICATE', CHANNEL_DUPLICATE);
    throw e;
  }
}

export async function addChannel(ctx: AppContext, user: AuthUser, v: ChannelInput): Promise<{ id: number }> {
  await assertCompany(ctx.db, user, v.companyId);
  if (!v.secret) throw new AppError('INVALID_PARAM', CHANNEL_SECRET_REQUIRED);
  assertFitsProvider(v);
  const secretEnc = secretsOf(ctx).seal(v.secret, SMS_SECRET);
  return writing(ctx, v, null, async (tx) => {
    const [row] = await tx.insert(smsChannel).values({ ...columnsOf(v), secretEnc, createdBy: user.id }).returning({ id: smsChannel.id });
    return { id: row!.id };
  });
}

/** An absent secret keeps the stored one, null clears it, text replaces it. */
export async function editChannel(ctx: AppContext, user: AuthUser, v: z.output<typeof smsChannelEdit>): Promise<void> {
  const current = await channelRow(ctx.db, user, v.id);
  assertSameCompany(current, v, CHANNEL_COMPANY_FIXED);
  assertFitsProvider(v);
  const secretEnc = v.secret === undefined ? undefined : secretsOf(ctx).seal(v.secret || null, SMS_SECRET);
  await writing(ctx, v, v.id, (tx) =>
    tx.update(smsChannel).set({ ...columnsOf(v), ...(secretEnc === undefined ? {} : { secretEnc }), updatedAt: sql`now()` }).where(eq(smsChannel.id, v.id)),
  );
}

export async function deleteChannel(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  await channelRow(ctx.db, user, id);
  await ctx.db.delete(smsChannel).where(eq(smsChannel.id, id));
}

/**
 * The channel a test sends through: a saved one (`id` alone), or the form's values (`form`, with
 * `id` when editing). The form's secret: typed is used, null is none, absent is the stored one,
 * and that only while provider, key id and endpoint are the stored ones (a stored secret never
 * goes to another peer: STORED_SECRET_MOVED). The account and the form's company must be the caller's.
 */
async function testChannel(ctx: AppContext, user: AuthUser, id: number | undefined, form: ChannelInput | null) {
  const old = id === undefined ? null : await channelRow(ctx.db, user, id);
  if (!form) return { companyId: old!.companyId, id: old!.id, unsaved: null, sender: null };
  await assertCompany(ctx.db, user, form.companyId);
  assertFitsProvider(form);
  let secret: string | null = null;
  if (form.secret !== undefined) secret = form.secret || null;
  else if (old?.secretSet) {
    if (old.provider !== form.provider || old.accessKeyId !== form.accessKeyId || old.endpoint !== form.endpoint) throw new AppError('INVALID_PARAM', STORED_SECRET_MOVED);
    const [row] = await ctx.db.select({ enc: smsChannel.secretEnc }).from(smsChannel).where(eq(smsChannel.id, old.id));
    secret = row?.enc ? secretsOf(ctx).open(row.enc, SMS_SECRET) : null;
  }
  if (!secret) throw new AppError('INVALID_PARAM', TEST_SECRET_REQUIRED);
  const sender: SmsSender = { row: { id: old?.id ?? null, endpoint: form.endpoint }, provider: form.provider, credentials: credentialsOf({ ...form, secret }) };
  return { companyId: form.companyId, id: old?.id ?? null, unsaved: { name: form.name, provider: form.provider, signName: form.signName }, sender };
}

/**
 * A test SMS with a template rendered with a station's data, through a saved channel or the
 * form's values before saving: written to the log (origin `test`) and sent at once, one attempt;
 * the answer says sent or not and why.
 */
export async function testSend(ctx: AppContext, user: AuthUser, v: z.output<typeof smsTestSend>): Promise<SendTestResult> {
  const channel = await testChannel(ctx, user, v.id, v.channel ?? null);
  const tpl = await smsTemplateRow(ctx.db, user, v.templateId);
  const language = v.language ?? tpl.language;
  const station = await previewData(ctx, user, v.siteId, tpl.companyId);
  const logId = await queueSms(ctx, {
    companyId: channel.companyId, channelId: channel.id, ...(channel.unsaved ? { channel: channel.unsaved } : {}), phone: v.phone, values: station.values,
    origin: 'test', userId: user.id,
    template: { id: tpl.id, name: tpl.name, code: tpl.code, language, content: tpl.content, providerTemplateCode: tpl.providerTemplateCode, signName: tpl.signName },
  }, tpl.variables);
  const out = await attemptSms(ctx, logId, { maxAttempts: 1, ...(channel.sender ? { sender: channel.sender } : {}) });
  const result = out.result;
  if (result?.ok) return { ok: true, message: SEND_SUCCEEDED, reason: null, providerMessageId: result.providerMessageId, logId };
  return { ok: false, message: SEND_FAILED, reason: result ? `${result.providerCode}: ${result.reason}` : null, providerMessageId: null, logId };
}
