import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { assertCompany } from '../../platform/http/scope.ts';

/** A list whose filter names a company: refused (403/404) unless the company is in the caller's scope. */
export async function filtered<T>(ctx: AppContext, user: AuthUser, companyId: number | undefined, list: () => Promise<T>): Promise<T> {
  if (companyId !== undefined) await assertCompany(ctx.db, user, companyId);
  return list();
}
