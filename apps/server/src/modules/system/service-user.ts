import { and, eq, isNull } from 'drizzle-orm';
import { appUser, company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';

/**
 * A user as the services see them outside a request (a schedule's recipient, the demo acting as
 * the administrator): their company path (their scope) and flags, or null when gone or disabled.
 */
export async function serviceUser(ctx: Pick<AppContext, 'db'>, by: { id: number } | { username: string }): Promise<AuthUser | null> {
  const [u] = await ctx.db
    .select({ id: appUser.id, username: appUser.username, name: appUser.name, companyId: appUser.companyId, companyPath: company.path, buildIn: appUser.buildIn, allSites: appUser.allSites })
    .from(appUser)
    .innerJoin(company, eq(company.id, appUser.companyId))
    .where(and('id' in by ? eq(appUser.id, by.id) : eq(appUser.username, by.username), eq(appUser.status, 1), isNull(appUser.deletedAt)));
  return u ? { ...u, sessionId: 0 } : null;
}
