import { and, asc, eq } from 'drizzle-orm';
import type { PageRequest } from '@ess/contract';
import type { MailPreview, MailTemplateRecord, TemplateFilter, mailTemplateAdd, mailTemplateEdit, mailTemplatePreview, mailTemplateSort } from '@ess/contract/messaging';
import type { z } from 'zod';
import { mailTemplate } from '../../db/schema/messaging.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';
import { htmlToText, renderTemplate, variablesOf, type TemplateValues } from './message.template.ts';
import { assertCompanyOf, pickVariant, previewData, uniquely } from './message.context.ts';
import { assertSameCompany, MAIL_TEMPLATE_COMPANY_FIXED } from './message.scope.ts';

/**
 * Mail templates (decision 0043): one language variant of a code per row; subject and bodies with
 * `${var}` placeholders validated by the contract; rendered by the one engine (HTML escaped in the
 * HTML body); preview with a real station's data.
 */
export const TEMPLATE_TAKEN = '该公司下已有相同编码和语言的模板';

type SortField = NonNullable<z.output<typeof mailTemplateSort>['sortField']>;

const columns = {
  id: mailTemplate.id, companyId: mailTemplate.companyId, companyName: company.name, name: mailTemplate.name, code: mailTemplate.code,
  language: mailTemplate.language, subject: mailTemplate.subject, html: mailTemplate.html, text: mailTemplate.text, enabled: mailTemplate.enabled,
  remark: mailTemplate.remark, createdAt: mailTemplate.createdAt, updatedAt: mailTemplate.updatedAt, createdByName: appUser.name,
};

const templates = defineListQuery({
  table: mailTemplate,
  columns,
  joins: [
    { table: company, on: eq(company.id, mailTemplate.companyId) },
    { table: appUser, on: eq(appUser.id, mailTemplate.createdBy), left: true },
  ],
  scope: (db, user) => inCompanyScope(mailTemplate.companyId, db, user),
  filter: (f: TemplateFilter) => [
    f.name ? likeEscaped(mailTemplate.name, f.name) : undefined,
    f.code ? likeEscaped(mailTemplate.code, f.code) : undefined,
    f.language ? eq(mailTemplate.language, f.language) : undefined,
    f.companyId ? eq(mailTemplate.companyId, Number(f.companyId)) : undefined,
    f.enabled === undefined ? undefined : eq(mailTemplate.enabled, f.enabled),
  ],
  orderBy: [asc(mailTemplate.code), asc(mailTemplate.language), asc(mailTemplate.id)],
  sortable: {
    name: mailTemplate.name, code: mailTemplate.code, language: mailTemplate.language, enabled: mailTemplate.enabled,
    createdAt: mailTemplate.createdAt, updatedAt: mailTemplate.updatedAt,
  } satisfies Record<SortField, unknown>,
  toRecord: (r): MailTemplateRecord => ({
    ...r,
    variables: variablesOf(r.subject, r.html, r.text),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }),
});

export const templatePage = (ctx: AppContext, user: AuthUser, req: TemplateFilter & PageRequest) => templates.page(ctx.db, user, req);

export async function templateList(ctx: AppContext, user: AuthUser, f: TemplateFilter) {
  const rows = await templates.list(ctx.db, user, f, 1000);
  return rows.map((r) => ({ id: r.id, name: r.name, code: r.code, language: r.language, companyId: r.companyId, enabled: r.enabled }));
}

export async function templateOne(ctx: AppContext, user: AuthUser, id: number): Promise<MailTemplateRecord> {
  const [r] = await templates.rows(ctx.db, and(eq(mailTemplate.id, id), inCompanyScope(mailTemplate.companyId, ctx.db, user)), 1);
  return found(r, '邮件模板不存在');
}

export async function templateAdd(ctx: AppContext, user: AuthUser, b: z.output<typeof mailTemplateAdd>): Promise<{ id: number }> {
  await assertCompanyOf(ctx.db, user, b.companyId);
  return uniquely(async () => {
    const [r] = await ctx.db.insert(mailTemplate).values({ ...b, createdBy: user.id }).returning({ id: mailTemplate.id });
    return { id: r!.id };
  }, TEMPLATE_TAKEN);
}

export async function templateEdit(ctx: AppContext, user: AuthUser, b: z.output<typeof mailTemplateEdit>): Promise<void> {
  assertSameCompany(await templateOne(ctx, user, b.id), b, MAIL_TEMPLATE_COMPANY_FIXED);
  const { id, ...rest } = b;
  await uniquely(() => ctx.db.update(mailTemplate).set({ ...rest, updatedAt: new Date() }).where(eq(mailTemplate.id, id)), TEMPLATE_TAKEN);
}

export async function templateDelete(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  await templateOne(ctx, user, id);
  await ctx.db.delete(mailTemplate).where(eq(mailTemplate.id, id));
}

/** Subject and text plain, HTML escaped; the text body from the HTML when the template has none. */
export function renderMail(t: { subject: string; html: string; text: string | null }, values: TemplateValues) {
  const html = renderTemplate(t.html, values, 'html');
  return {
    // A subject is one header line.
    subject: renderTemplate(t.subject, values, 'text').replace(/[\r\n]+/g, ' '),
    html,
    text: t.text ? renderTemplate(t.text, values, 'text') : htmlToText(html),
  };
}

/**
 * The variant of a company's template code for a recipient's language (the language's, else the
 * default language's, else the first): enabled variants only; undefined when the code has none.
 */
export async function mailVariantFor(ctx: AppContext, companyId: number, code: string, language: string | null | undefined) {
  const variants = await ctx.db
    .select()
    .from(mailTemplate)
    .where(and(eq(mailTemplate.companyId, companyId), eq(mailTemplate.code, code), eq(mailTemplate.enabled, true)));
  return pickVariant(variants, language);
}

export async function templatePreview(ctx: AppContext, user: AuthUser, b: z.output<typeof mailTemplatePreview>): Promise<MailPreview> {
  let t: { companyId: number; subject: string; html: string; text: string | null };
  if ('id' in b) {
    const saved = await templateOne(ctx, user, b.id);
    t = (b.language && b.language !== saved.language ? await mailVariantFor(ctx, saved.companyId, saved.code, b.language) : undefined) ?? saved;
  } else {
    await assertCompanyOf(ctx.db, user, b.companyId);
    t = b;
  }
  const data = await previewData(ctx, user, b.siteId, t.companyId);
  return { ...renderMail(t, data.values), variables: variablesOf(t.subject, t.html, t.text), values: data.values, siteId: data.siteId, siteName: data.siteName };
}
