import { and, asc, eq, ne, or, sql } from 'drizzle-orm';
import type { CabinetRecord, CabinetSortField, Page, PageRequest } from '@ess/contract';
import { cabinet, device } from '../../db/schema/device.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { assertCompany, assertSites, inSiteScope, likeEscaped } from '../../platform/http/scope.ts';
import { UNIQUE_VIOLATION, pgErrorCode } from '../../platform/db/errors.ts';
import { siteInScope } from './site.service.ts';

/** Energy cabinets: a station's enclosures that clusters, packs and air conditioners stand in. */
interface CabinetFilter {
  companyId?: number;
  siteId?: number;
  keyword?: string;
}

const columns = {
  id: cabinet.id,
  siteId: cabinet.siteId,
  siteName: site.name,
  siteCode: site.code,
  code: cabinet.code,
  name: cabinet.name,
  deviceCount: sql<number>`(select count(*) from ${device} where ${device.cabinetId} = ${cabinet.id})::int`,
  createdAt: cabinet.createdAt,
  updatedAt: cabinet.updatedAt,
};

const cabinets = defineListQuery({
  table: cabinet,
  columns,
  joins: [{ table: site, on: eq(site.id, cabinet.siteId) }],
  scope: (db, user) => inSiteScope(cabinet.siteId, db, user),
  filter: (f: CabinetFilter) => [
    f.siteId ? eq(cabinet.siteId, f.siteId) : undefined,
    f.companyId ? sql`${site.companyId} in (select c.id from company c where c.path like (select p.path from company p where p.id = ${f.companyId}) || '%')` : undefined,
    f.keyword ? or(likeEscaped(cabinet.code, f.keyword), likeEscaped(cabinet.name, f.keyword)) : undefined,
  ],
  orderBy: [asc(cabinet.siteId), asc(cabinet.code), asc(cabinet.id)],
  sortable: {
    name: cabinet.name, code: cabinet.code, siteName: site.name, deviceCount: columns.deviceCount, createdAt: cabinet.createdAt,
  } satisfies Record<CabinetSortField, unknown>,
  toRecord: (r): CabinetRecord => ({ ...r, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString() }),
});

async function assertFilter(db: DbOrTx, user: AuthUser, f: CabinetFilter) {
  if (f.companyId) await assertCompany(db, user, f.companyId);
  if (f.siteId) await assertSites(db, user, [f.siteId]);
}

export async function cabinetList(ctx: AppContext, user: AuthUser, f: CabinetFilter): Promise<CabinetRecord[]> {
  await assertFilter(ctx.db, user, f);
  return cabinets.list(ctx.db, user, f, 5000);
}

export async function cabinetPage(ctx: AppContext, user: AuthUser, req: PageRequest & CabinetFilter): Promise<Page<CabinetRecord>> {
  await assertFilter(ctx.db, user, req);
  return cabinets.page(ctx.db, user, req);
}

async function cabinetInScope(db: DbOrTx, user: AuthUser, id: number): Promise<CabinetRecord> {
  const [row] = await cabinets.rows(db, and(eq(cabinet.id, id), inSiteScope(cabinet.siteId, db, user)));
  return found(row, '储能柜不存在');
}

export const cabinetOne = (ctx: AppContext, user: AuthUser, id: number) => cabinetInScope(ctx.db, user, id);

async function assertUniqueCode(db: DbOrTx, code: string, exceptId?: number) {
  const [dup] = await db.select({ id: cabinet.id }).from(cabinet).where(and(eq(cabinet.code, code), exceptId ? ne(cabinet.id, exceptId) : undefined));
  if (dup) throw new AppError('DUPLICATE', '储能柜编码已存在');
}

const onUnique = (err: unknown): never => {
  if (pgErrorCode(err) === UNIQUE_VIOLATION) throw new AppError('DUPLICATE', '储能柜编码已存在');
  throw err;
};

export async function addCabinet(ctx: AppContext, user: AuthUser, body: { siteId: number; code: string; name: string }): Promise<{ id: number }> {
  return ctx.db
    .transaction(async (tx) => {
      await siteInScope(tx, user, body.siteId);
      await assertUniqueCode(tx, body.code);
      const [row] = await tx.insert(cabinet).values(body).returning({ id: cabinet.id });
      return { id: row!.id };
    })
    .catch(onUnique);
}

/** A cabinet with devices stays on its station: moving it would split devices from their station. */
export async function editCabinet(ctx: AppContext, user: AuthUser, body: { id: number; siteId: number; code: string; name: string }): Promise<void> {
  await ctx.db
    .transaction(async (tx) => {
      const cur = await cabinetInScope(tx, user, body.id);
      if (body.siteId !== cur.siteId) {
        await siteInScope(tx, user, body.siteId);
        if (cur.deviceCount > 0) throw new AppError('RULE_VIOLATION', '储能柜下已有设备，不能移到其他站点');
      }
      if (body.code !== cur.code) await assertUniqueCode(tx, body.code, cur.id);
      await tx.update(cabinet).set({ siteId: body.siteId, code: body.code, name: body.name, updatedAt: new Date() }).where(eq(cabinet.id, cur.id));
    })
    .catch(onUnique);
}

/** Deletes an empty cabinet; one that devices stand in is refused. */
export async function deleteCabinet(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const cur = await cabinetInScope(tx, user, id);
    if (cur.deviceCount > 0) throw new AppError('RULE_VIOLATION', `储能柜下还有${cur.deviceCount}台设备，不能删除`);
    await tx.delete(cabinet).where(eq(cabinet.id, cur.id));
  });
}
