import { and, eq, inArray, like, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { company } from '../../db/schema/system.ts';
import { site, userSite } from '../../db/schema/site.ts';
import type { DbOrTx } from '../db/database.ts';
import type { AuthUser } from './auth.ts';
import { AppError } from './errors.ts';

/**
 * Data scope, in one place: a user sees the companies under their own (by materialised path)
 * and the stations granted to them; the built-in administrator, and a user given all stations,
 * sees every station of their companies.
 */
export function companyIdsInScope(db: DbOrTx, user: AuthUser) {
  return db.select({ id: company.id }).from(company).where(like(company.path, `${user.companyPath}%`));
}

/** A where-condition limiting a table's company column to the caller's scope. */
export function inCompanyScope(column: AnyColumn, db: DbOrTx, user: AuthUser): SQL {
  return inArray(column, companyIdsInScope(db, user));
}

export async function companyInScope(db: DbOrTx, user: AuthUser, companyId: number): Promise<boolean> {
  const [row] = await db.select({ path: company.path }).from(company).where(eq(company.id, companyId));
  return !!row && row.path.startsWith(user.companyPath);
}

/** Refuses unless the company exists (404) and lies in the caller's scope (403). */
export async function assertCompany(db: DbOrTx, user: AuthUser, companyId: number): Promise<void> {
  const [row] = await db.select({ path: company.path }).from(company).where(eq(company.id, companyId));
  if (!row) throw new AppError('NOT_FOUND', '公司不存在');
  if (!row.path.startsWith(user.companyPath)) throw new AppError('OUT_OF_SCOPE');
}

/**
 * Stations the caller may see: every station of their companies for the built-in user and a user
 * given all stations (so a station created later is in scope at once), else those granted.
 */
export function siteIdsInScope(db: DbOrTx, user: AuthUser) {
  if (user.buildIn || user.allSites) {
    return db.select({ id: site.id }).from(site).where(inCompanyScope(site.companyId, db, user));
  }
  return db
    .select({ id: userSite.siteId })
    .from(userSite)
    .innerJoin(site, eq(site.id, userSite.siteId))
    .where(and(eq(userSite.userId, user.id), inCompanyScope(site.companyId, db, user)));
}

export function inSiteScope(column: AnyColumn, db: DbOrTx, user: AuthUser): SQL {
  return inArray(column, siteIdsInScope(db, user));
}

export async function assertSites(db: DbOrTx, user: AuthUser, siteIds: number[]): Promise<void> {
  if (siteIds.length === 0) return;
  const rows = await db
    .select({ id: site.id })
    .from(site)
    .where(and(inArray(site.id, siteIds), inSiteScope(site.id, db, user)));
  if (rows.length !== new Set(siteIds).size) throw new AppError('OUT_OF_SCOPE', '包含无权访问的站点');
}

export const likeEscaped = (column: AnyColumn, text: string) =>
  sql`${column} ilike ${'%' + text.replace(/[\\%_]/g, (c) => '\\' + c) + '%'}`;
