import { and, asc, desc, eq, ne } from 'drizzle-orm';
import type { PageRequest } from '@ess/contract';
import {
  CONNECTION_FAILED, CONNECTION_SUCCEEDED, SEND_FAILED, SEND_SUCCEEDED, type ConnectionTestResult, type MailAccountFilter, type MailAccountRecord,
  type MailTlsMode, type SendTestResult, mailAccountAdd, mailAccountEdit, mailAccountTest, mailTestSend, mailAccountSort,
} from '@ess/contract/messaging';
import type { z } from 'zod';
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
import { smtpFailure, smtpTransport } from './mail.transport.ts';
import { assertCompanyOf, MAIL_PASSWORD, previewData, secretsOf, uniquely, utcDay } from './message.context.ts';

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
  await assertCompanyOf(ctx.db, user, b.companyId);
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

/**
 * Connection test: connect, EHLO, STARTTLS or TLS as set, AUTH (nodemailer's verify). A saved
 * account's outcome is kept on it (lastTestAt/Ok/Reason).
 */
export async function accountTestConnection(ctx: AppContext, user: AuthUser, b: z.output<typeof mailAccountTest>): Promise<ConnectionTestResult> {
  const old = b.id ? await stored(ctx.db, user, b.id) : null;
  const form = 'host' in b ? b : null;
  if (form) await assertCompanyOf(ctx.db, user, form.companyId);
  const s = form ?? old!;
  const password =
    form && form.password !== undefined ? form.password || null : old?.passwordEnc ? secretsOf(ctx).open(old.passwordEnc, MAIL_PASSWORD) : null;
  const transport = smtpTransport({
    host: s.host, port: s.port, tlsMode: s.tlsMode as MailTlsMode, verifyCertificate: s.verifyCertificate, username: s.username,
    password, timeoutMs: ctx.config.mailTimeoutMs,
  });
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

/** A test mail through a saved account (a template rendered with a station's data, or a fixed text); logged with origin `test`. */
export async function accountTestSend(ctx: AppContext, user: AuthUser, b: z.output<typeof mailTestSend>): Promise<SendTestResult> {
  const acc = await stored(ctx.db, user, b.id);
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
    content = { subject: TEST_MAIL_SUBJECT, html: `<p>${TEST_MAIL_TEXT}</p>`, text: TEST_MAIL_TEXT };
  }
  if (!acc.enabled) throw new AppError('RULE_VIOLATION', '邮件账号已停用');
  const logId = await insertMail(ctx, { companyId: acc.companyId, accountId: acc.id, recipient: b.to, ...content, origin: 'test', userId: user.id, template });
  const r = await attemptMail(ctx, logId, { retry: false });
  return { ok: r.ok, message: r.ok ? SEND_SUCCEEDED : SEND_FAILED, reason: r.reason, providerMessageId: r.providerMessageId, logId };
}
