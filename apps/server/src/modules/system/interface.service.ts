import { and, asc, eq, or } from 'drizzle-orm';
import { apiInterface } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import { likeEscaped } from '../../platform/http/scope.ts';

/** Every registered interface; only those with access "menu" can be granted to roles. */
export async function interfaceList(ctx: AppContext, f: { keyword?: string; area?: string }) {
  const rows = await ctx.db
    .select({
      id: apiInterface.id, method: apiInterface.method, path: apiInterface.path, name: apiInterface.name,
      area: apiInterface.area, kind: apiInterface.kind, access: apiInterface.access,
    })
    .from(apiInterface)
    .where(
      and(
        f.keyword ? or(likeEscaped(apiInterface.path, f.keyword), likeEscaped(apiInterface.name, f.keyword)) : undefined,
        f.area ? eq(apiInterface.area, f.area) : undefined,
      ),
    )
    .orderBy(asc(apiInterface.path));
  return rows.map((r) => ({ ...r, selectable: r.access === 'menu' }));
}
