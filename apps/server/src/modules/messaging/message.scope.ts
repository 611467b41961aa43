import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { assertCompany } from '../../platform/http/scope.ts';

/** A list whose filter names a company: refused (403/404) unless the company is in the caller's scope. */
/** What an edit naming another company than the record's is refused with (406). */
export const ACCOUNT_COMPANY_FIXED = '邮件账号不能改到其他公司';
export const MAIL_TEMPLATE_COMPANY_FIXED = '邮件模板不能改到其他公司';
export const CHANNEL_COMPANY_FIXED = '短信通道不能改到其他公司';
export const SMS_TEMPLATE_COMPANY_FIXED = '短信模板不能改到其他公司';
export const RULE_COMPANY_FIXED = '消息规则不能改到其他公司';

/**
 * A record stays in its company: the console shows the company read-only on edit, and an edit
 * naming another is refused (406 with `tip`), as maintenance plans and inspection items are
 * (decision 0043). Checked after the record's own scope (403/404), before anything is written.
 */
export function assertSameCompany(record: { companyId: number }, edit: { companyId: number }, tip: string): void {
  if (edit.companyId !== record.companyId) throw new AppError('RULE_VIOLATION', tip);
}

export async function filtered<T>(ctx: AppContext, user: AuthUser, companyId: number | undefined, list: () => Promise<T>): Promise<T> {
  if (companyId !== undefined) await assertCompany(ctx.db, user, companyId);
  return list();
}
