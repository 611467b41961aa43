import { and, asc, desc, eq, ne } from 'drizzle-orm';
import type { PageRequest } from '@ess/contract';
import {
  CONNECTION_FAILED, CONNECTION_SUCCEEDED, SEND_FAILED, SEND_SUCCEEDED, STORED_SECRET_MOVED, type ConnectionTestResult, type MailAccountFilter, type MailAccountRecord,
  type MailTlsMode, type SendTestResult, mailAccountAdd, mailAccountEdit, mailAccountTest, mailTestSend, mailAccountSort,
} from '@ess/contract/messaging';
import type { z } from 'zod';
import { DEFAULT_LOCALE, type Locale } from '@ess/contract/constants';
import { translatorOf } from '../i18n/index.ts';
import { mailAccount, mailTemplate } from '../../db/schema/messaging.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';
import { attemptMail, insertMail } from './mail.send.ts';
import { renderMail } from './mail.template.service.ts';
import { escapeHtml } from './message.template.ts';
import { smtpFailure, smtpTransport } from './mail.transport.ts';
import { assertCompanyOf, MAIL_PASSWORD, previewData, secretsOf, uniquely, utcDay } from './message.context.ts';
import { ACCOUNT_COMPANY_FIXED, assertSameCompany } from './message.scope.ts';

/**
 * Mail accounts (decision 0043): company-scoped SMTP accounts. The password is sealed at rest and
 * never answered (`passwordSet`), never logged, never exported; a connection test and a test
 * mail speak real SMTP through nodemailer with the account's TLS mode.
 */
export const ACCOUNT_NAME_TAKEN = '该公司下已有同名邮件账号';
export const TEST_MAIL_SUBJECT = '测试邮件';
export const TEST_MAIL_TEXT = '这是一封测试邮件，收到即表示邮件账号配置正确。';

type Add = z.output<typeof mailAccountAdd>;
type Edit = z.output<typeof mailAccountEdit>;
type SortField = NonNullable<z.output<typeof mailAccountSort>['sortField']>;

const columns = {
  id: mailAccount.id, companyId: mailAccount.companyId, companyName: company.name, name: mailAccount.name, host: mailAccount.host,
  port: mailAccount.port, tlsMode: mailAccount.tlsMode, verifyCertificate: mailAccount.verifyCertificate, username: mailAccount.username,
  passwordEnc: mailAccount.passwordEnc, fromName: mailAccount.fromName, fromAddress: mailAccount.fromAddress, replyTo: mailAccount.replyTo,
  dailyLimit: mailAccount.dailyLimit, sentDay: mailAccount.sentDay, sentToday: mailAccount.sentToday, enabled: mailAccount.enabled,
  isDefault: mailAccount.isDefault, remark: mailAccount.remark, lastTestAt: mailAccount.lastTestAt, lastTestOk: mailAccount.lastTestOk,
  lastTestReason: mailAccount.lastTestReason, createdAt: mailAccount.createdAt, updatedAt: mailAccount.updatedAt, createdByName: appUser.name,
};

const accounts = defineListQuery({
  table: mailAccount,
  columns,
  joins: [
    { table: company, on: eq(company.id, mailAccount.companyId) },
    { table: appUser, on: eq(appUser.id, mailAccount.createdBy), left: true },
  ],
  scope: (db, user) => inCompanyScope(mailAccount.companyId, db, user),
  filter: (f: MailAccountFilter) => [
    f.name ? likeEscaped(mailAccount.name, f.name) : undefined,
    f.companyId ? eq(mailAccount.companyId, Number(f.companyId)) : undefined,
    f.enabled === undefined ? undefined : eq(mailAccount.enabled, f.enabled),
  ],
  orderBy: [desc(mailAccount.isDefault), asc(mailAccount.name), asc(mailAccount.id)],
  sortable: {
    name: mailAccount.name, host: mailAccount.host, fromAddress: mailAccount.fromAddress, enabled: mailAccount.enabled,
    createdAt: mailAccount.createdAt, updatedAt: mailAccount.updatedAt,
  } satisfies Record<SortField, unknown>,
  // The sealed password leaves here as a flag only.
  toRecord: ({ passwordEnc, sentDay, sentToday, ...r }): MailAccountRecord => ({
    ...r,
    tlsMode: r.tlsMode as MailTlsMode,
    passwordSet: passwordEnc !== null,
    sentToday: sentDay === utcDay() ? sentToday : 0,
    lastTestAt: r.lastTestAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }),
});

export const accountPage = (ctx: AppContext, user: AuthUser, req: MailAccountFilter & PageRequest) => accounts.page(ctx.db, user, req);

export async function accountList(ctx: AppContext, user: AuthUser, f: MailAccountFilter) {
  const rows = await accounts.list(ctx.db, user, f, 500);
  return rows.map((r) => ({ id: r.id, name: r.name, companyId: r.companyId, fromAddress: r.fromAddress, enabled: r.enabled }));
}

/** An account the caller may see (404 otherwise: another company's is not named). */
export async function accountOne(ctx: AppContext, user: AuthUser, id: number): Promise<MailAccountRecord> {
  const [r] = await accounts.rows(ctx.db, and(eq(mailAccount.id, id), inCompanyScope(mailAccount.companyId, ctx.db, user)), 1);
  return found(r, '邮件账号不存在');
}

async function stored(db: DbOrTx, user: AuthUser, id: number) {
  const [r] = await db.select().from(mailAccount).where(and(eq(mailAccount.id, id), inCompanyScope(mailAccount.companyId, db, user)));
  return found(r, '邮件账号不存在');
}

function values(ctx: AppContext, b: Add) {
  const { password: _password, ...rest } = b;
  return rest;
}

/** A new default account takes the flag from the company's previous one. */
async function clearDefault(db: DbOrTx, companyId: number, except: number | null) {
  await db
    .update(mailAccount)
    .set({ isDefault: false })
    .where(and(eq(mailAccount.companyId, companyId), eq(mailAccount.isDefault, true), except === null ? undefined : ne(mailAccount.id, except)));
}

export async function accountAdd(ctx: AppContext, user: AuthUser, b: Add): Promise<{ id: number }> {
  await assertCompanyOf(ctx.db, user, b.companyId);
  const passwordEnc = b.password ? secretsOf(ctx).seal(b.password, MAIL_PASSWORD) : null;
  return uniquely(
    () =>
      ctx.db.transaction(async (tx) => {
        if (b.isDefault) await clearDefault(tx, b.companyId, null);
        const [r] = await tx.insert(mailAccount).values({ ...values(ctx, b), passwordEnc, createdBy: user.id }).returning({ id: mailAccount.id });
        return { id: r!.id };
      }),
    ACCOUNT_NAME_TAKEN,
  );
}

export async function accountEdit(ctx: AppContext, user: AuthUser, b: Edit): Promise<void> {
  const old = await stored(ctx.db, user, b.id);
  assertSameCompany(old, b, ACCOUNT_COMPANY_FIXED);
  // Absent: keep; null or '': clear; text: replace.
  const passwordEnc = b.password === undefined ? old.passwordEnc : b.password ? secretsOf(ctx).seal(b.password, MAIL_PASSWORD) : null;
  const { id, ...rest } = b;
  await uniquely(
    () =>
      ctx.db.transaction(async (tx) => {
        if (b.isDefault) await clearDefault(tx, b.companyId, id);
        await tx.update(mailAccount).set({ ...values(ctx, rest), passwordEnc, updatedAt: new Date() }).where(eq(mailAccount.id, id));
      }),
    ACCOUNT_NAME_TAKEN,
  );
}

export async function accountDelete(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  await stored(ctx.db, user, id);
  await ctx.db.delete(mailAccount).where(eq(mailAccount.id, id));
}

type AccountFields = z.output<typeof mailAccountAdd>;

/**
 * What a test talks to: a saved account (`id` alone), or the form's values (`form`, with `id`
 * when editing). The form's password: typed is used, null is none, absent is the stored one,
 * and that only while the server and user are the stored ones (a stored password never goes to
 * another peer: STORED_SECRET_MOVED). Both the account and the form's company must be the caller's.
 */
async function testTarget(ctx: AppContext, user: AuthUser, id: number | undefined, form: AccountFields | null) {
  const old = id ? await stored(ctx.db, user, id) : null;
  if (form) await assertCompanyOf(ctx.db, user, form.companyId);
  const open = (enc: string | null) => (enc ? secretsOf(ctx).open(enc, MAIL_PASSWORD) : null);
  if (!form) {
    const acc = old!;
    return { old, form, companyId: acc.companyId, enabled: acc.enabled, sender: { ...acc, tlsMode: acc.tlsMode as MailTlsMode, password: open(acc.passwordEnc) } };
  }
  let password: string | null = null;
  if (form.password !== undefined) password = form.password || null;
  else if (old?.passwordEnc && form.username) {
    if (old.host.toLowerCase() !== form.host.toLowerCase() || old.username !== form.username) throw new AppError('INVALID_PARAM', STORED_SECRET_MOVED);
    password = open(old.passwordEnc);
  }
  return { old, form, companyId: form.companyId, enabled: true, sender: { ...form, password } };
}

/**
 * Connection test: connect, EHLO, STARTTLS or TLS as set, AUTH (nodemailer's verify), of a saved
 * account or of the form's values before saving. A saved account's outcome is kept on it
 * (lastTestAt/Ok/Reason); a test of the form's values changes nothing stored.
 */
export async function accountTestConnection(ctx: AppContext, user: AuthUser, b: z.output<typeof mailAccountTest>): Promise<ConnectionTestResult> {
  const form = 'host' in b ? b : null;
  const { old, sender } = await testTarget(ctx, user, b.id, form);
  const password = sender.password;
  const transport = smtpTransport({ ...sender, timeoutMs: ctx.config.mailTimeoutMs });
  const started = performance.now();
  let result: ConnectionTestResult;
  try {
    await transport.verify();
    result = { ok: true, message: CONNECTION_SUCCEEDED, reason: null, latencyMs: Math.round(performance.now() - started) };
  } catch (err) {
    result = { ok: false, message: CONNECTION_FAILED, reason: smtpFailure(err, password).reason, latencyMs: Math.round(performance.now() - started) };
  } finally {
    transport.close();
  }
  // Only a test of the stored settings says something about the stored account.
  if (old && !form) {
    await ctx.db
      .update(mailAccount)
      .set({ lastTestAt: new Date(), lastTestOk: result.ok, lastTestReason: result.reason?.slice(0, 500) ?? null })
      .where(eq(mailAccount.id, old.id));
  }
  return result;
}

/**
 * A test mail (a template rendered with a station's data, or a fixed text in the caller's language) through a saved
 * account, or through the form's values before saving (`account`: sent with those settings, the
 * stored account's daily count untouched); logged with origin `test`.
 */
export async function accountTestSend(ctx: AppContext, user: AuthUser, b: z.output<typeof mailTestSend>, locale: Locale = DEFAULT_LOCALE): Promise<SendTestResult> {
  const target = await testTarget(ctx, user, b.id, b.account ?? null);
  let content: { subject: string; html: string; text: string };
  let template: { id: number; name: string; code: string; language: string } | null = null;
  if (b.templateId) {
    const [tpl] = await ctx.db
      .select()
      .from(mailTemplate)
      .where(and(eq(mailTemplate.id, b.templateId), inCompanyScope(mailTemplate.companyId, ctx.db, user)));
    const t = found(tpl, '邮件模板不存在');
    const data = await previewData(ctx, user, b.siteId, t.companyId);
    content = renderMail(t, data.values);
    template = { id: t.id, name: t.name, code: t.code, language: t.language };
  } else {
    // The fixed test mail in the caller's language (the console's Client-Language).
    const { t } = await translatorOf(locale);
    content = { subject: t(TEST_MAIL_SUBJECT), html: `<p>${escapeHtml(t(TEST_MAIL_TEXT))}</p>`, text: t(TEST_MAIL_TEXT) };
  }
  if (!target.enabled) throw new AppError('RULE_VIOLATION', '邮件账号已停用');
  const logId = await insertMail(ctx, {
    companyId: target.companyId, accountId: target.old?.id ?? null, accountName: target.form?.name, recipient: b.to, ...content, origin: 'test',
    userId: user.id, template,
  });
  const r = await attemptMail(ctx, logId, { retry: false, ...(target.form ? { sender: target.sender } : {}) });
  return { ok: r.ok, message: r.ok ? SEND_SUCCEEDED : SEND_FAILED, reason: r.reason, providerMessageId: r.providerMessageId, logId };
}
