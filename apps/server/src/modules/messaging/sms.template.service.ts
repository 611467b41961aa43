import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { SmsPreview, smsTemplateAdd, smsTemplateEdit, smsTemplateFilter, smsTemplatePage, smsTemplatePreview, SmsTemplateRecord, TemplateRef } from '@ess/contract/messaging';
import { smsTemplate } from '../../db/schema/messaging.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../platform/db/errors.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { assertCompany, inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';
import { assertSameCompany, filtered, SMS_TEMPLATE_COMPANY_FIXED } from './message.scope.ts';
import { previewData } from './message.context.ts';
import { renderTemplate, smsSegments, variablesOf } from './message.template.ts';

/**
 * SMS templates (decision 0043): one language variant of a code per company, the content with
 * `${var}` variables (checked against MESSAGE_VARIABLES by the contract), the provider's template
 * code and sign name. Aliyun and Tencent send the provider's registered template with the
 * variables' values; Twilio sends the content rendered.
 */

export const SMS_TEMPLATE_NOT_FOUND = '短信模板不存在';
export const SMS_TEMPLATE_DUPLICATE = '同一公司已有该编码和语言的短信模板';

const templates = defineListQuery({
  table: smsTemplate,
  columns: { t: smsTemplate, companyName: company.name, createdByName: appUser.name },
  joins: [
    { table: company, on: eq(company.id, smsTemplate.companyId) },
    { table: appUser, on: eq(appUser.id, smsTemplate.createdBy), left: true },
  ],
  scope: (db, user) => inCompanyScope(smsTemplate.companyId, db, user),
  filter: (f: z.output<typeof smsTemplateFilter>) => [
    f.name ? likeEscaped(smsTemplate.name, f.name) : undefined,
    f.code ? likeEscaped(smsTemplate.code, f.code) : undefined,
    f.language ? eq(smsTemplate.language, f.language) : undefined,
    f.companyId ? eq(smsTemplate.companyId, f.companyId) : undefined,
    f.enabled === undefined ? undefined : eq(smsTemplate.enabled, f.enabled),
  ],
  orderBy: [asc(smsTemplate.companyId), asc(smsTemplate.code), asc(smsTemplate.language), asc(smsTemplate.id)],
  sortable: { name: smsTemplate.name, code: smsTemplate.code, language: smsTemplate.language, enabled: smsTemplate.enabled, createdAt: smsTemplate.createdAt, updatedAt: smsTemplate.updatedAt },
  toRecord: ({ t, companyName, createdByName }): SmsTemplateRecord => ({
    id: t.id,
    companyId: t.companyId,
    companyName,
    name: t.name,
    code: t.code,
    language: t.language,
    content: t.content,
    providerTemplateCode: t.providerTemplateCode,
    signName: t.signName,
    variables: variablesOf(t.content),
    enabled: t.enabled,
    remark: t.remark,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    createdByName: createdByName ?? null,
  }),
});

export const templatePage = async (ctx: AppContext, user: AuthUser, req: z.output<typeof smsTemplatePage>) => filtered(ctx, user, req.companyId, () => templates.page(ctx.db, user, req));

export async function templateList(ctx: AppContext, user: AuthUser, f: z.output<typeof smsTemplateFilter>): Promise<TemplateRef[]> {
  const rows = await filtered(ctx, user, f.companyId, () => templates.list(ctx.db, user, f, 1000));
  return rows.map((r) => ({ id: r.id, name: r.name, code: r.code, language: r.language, companyId: r.companyId, enabled: r.enabled }));
}

/** A template the caller may see, or 404. */
export async function smsTemplateRow(db: DbOrTx, user: AuthUser, id: number): Promise<SmsTemplateRecord> {
  const [row] = await templates.rows(db, and(eq(smsTemplate.id, id), inCompanyScope(smsTemplate.companyId, db, user)), 1);
  return found(row, SMS_TEMPLATE_NOT_FOUND);
}

type TemplateInput = z.output<typeof smsTemplateAdd>;
const columnsOf = (v: TemplateInput) => ({
  companyId: v.companyId, name: v.name, code: v.code, language: v.language, content: v.content,
  providerTemplateCode: v.providerTemplateCode, signName: v.signName, enabled: v.enabled, remark: v.remark,
});

async function unique<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (e) {
    if (pgErrorCode(e) === UNIQUE_VIOLATION) throw new AppError('DUPLICATE', SMS_TEMPLATE_DUPLICATE);
    throw e;
  }
}

export async function addTemplate(ctx: AppContext, user: AuthUser, v: TemplateInput): Promise<{ id: number }> {
  await assertCompany(ctx.db, user, v.companyId);
  const [row] = await unique(ctx.db.insert(smsTemplate).values({ ...columnsOf(v), createdBy: user.id }).returning({ id: smsTemplate.id }));
  return { id: row!.id };
}

export async function editTemplate(ctx: AppContext, user: AuthUser, v: z.output<typeof smsTemplateEdit>): Promise<void> {
  const current = await smsTemplateRow(ctx.db, user, v.id);
  assertSameCompany(current, v, SMS_TEMPLATE_COMPANY_FIXED);
  await unique(ctx.db.update(smsTemplate).set({ ...columnsOf(v), updatedAt: sql`now()` }).where(eq(smsTemplate.id, v.id)));
}

export async function deleteTemplate(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  await smsTemplateRow(ctx.db, user, id);
  await ctx.db.delete(smsTemplate).where(eq(smsTemplate.id, id));
}

/** Renders a saved template or the form's unsaved content with a real station's data. */
export async function previewTemplate(ctx: AppContext, user: AuthUser, v: z.output<typeof smsTemplatePreview>): Promise<SmsPreview> {
  let content: string;
  let companyId: number;
  if ('id' in v) {
    const tpl = await smsTemplateRow(ctx.db, user, v.id);
    content = tpl.content;
    companyId = tpl.companyId;
  } else {
    await assertCompany(ctx.db, user, v.companyId);
    content = v.content;
    companyId = v.companyId;
  }
  const station = await previewData(ctx, user, v.siteId, companyId);
  const rendered = renderTemplate(content, station.values, 'text');
  return { content: rendered, ...smsSegments(rendered), variables: variablesOf(content), values: pick(station.values, variablesOf(content)), siteId: station.siteId, siteName: station.siteName };
}

const pick = (values: Record<string, string>, names: string[]) => Object.fromEntries(names.map((n) => [n, values[n] ?? '']));
