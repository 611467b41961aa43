import { and, asc, count, eq, like, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { CompanySortField, PageRequest } from '@ess/contract';
import { appUser, company, role } from '../../db/schema/system.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { pageOf, sortedBy, type SortRequest } from '../../platform/http/paging.ts';
import { assertCompany, likeEscaped } from '../../platform/http/scope.ts';
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from '../../platform/db/errors.ts';

export interface CompanyFields {
  name: string;
  code: string | null;
  contact: string | null;
  phone: string | null;
  email: string | null;
  regionCode: string | null;
  address: string | null;
  remark: string | null;
}

const parent = alias(company, 'parent');

const columns = {
  id: company.id,
  parentId: company.parentId,
  parentName: parent.name,
  path: company.path,
  name: company.name,
  code: company.code,
  contact: company.contact,
  phone: company.phone,
  email: company.email,
  regionCode: company.regionCode,
  address: company.address,
  remark: company.remark,
  createdAt: company.createdAt,
  updatedAt: company.updatedAt,
};

export type CompanyRow = Awaited<ReturnType<typeof selectCompanies>>[number];

/** Paths hold only digits and slashes, so a prefix match needs no escaping. */
const inScope = (user: AuthUser) => like(company.path, `${user.companyPath}%`);

const sortable = {
  name: company.name, code: company.code, contact: company.contact, phone: company.phone, regionCode: company.regionCode, address: company.address,
  createdAt: company.createdAt,
} satisfies Record<CompanySortField, unknown>;

/** In the list's order (parents before their companies) unless the request sorts, then by path among equals. */
function selectCompanies(db: DbOrTx, where: SQL | undefined, sort: SortRequest = {}, fallback = [asc(company.path), asc(company.id)]) {
  return db.select(columns).from(company).leftJoin(parent, eq(parent.id, company.parentId)).where(where).orderBy(...sortedBy(sort, sortable, fallback));
}

type CompanyFilter = { name?: string; parentId?: number } & SortRequest;

function filterOf(user: AuthUser, f: CompanyFilter): SQL | undefined {
  return and(inScope(user), f.name ? likeEscaped(company.name, f.name) : undefined, f.parentId ? eq(company.parentId, f.parentId) : undefined);
}

export interface CompanyNode extends CompanyRow {
  children: CompanyNode[];
}

/**
 * The caller's company with every company under it, nested. One query reads them in the
 * requested order (by id without one), and each company's children keep that order: siblings
 * sort by the chosen column within each level.
 */
export async function companyTree(ctx: AppContext, user: AuthUser, sort: SortRequest = {}): Promise<CompanyNode[]> {
  const rows = await selectCompanies(ctx.db, inScope(user), sort, [asc(company.id)]);
  const nodes = new Map<number, CompanyNode>(rows.map((r) => [r.id, { ...r, children: [] }]));
  for (const node of nodes.values()) {
    if (node.id === user.companyId || node.parentId === null) continue;
    nodes.get(node.parentId)?.children.push(node);
  }
  const root = nodes.get(user.companyId);
  return root ? [root] : [];
}

export function companyList(ctx: AppContext, user: AuthUser, f: CompanyFilter) {
  return selectCompanies(ctx.db, filterOf(user, f), f);
}

export function companyPage(ctx: AppContext, user: AuthUser, req: PageRequest & CompanyFilter) {
  const where = filterOf(user, req);
  return pageOf(ctx.db, company, where, req, (limit, offset) => selectCompanies(ctx.db, where, req).limit(limit).offset(offset));
}

/** One company of the caller's scope; another company's is reported as not found. */
async function companyInScope(db: DbOrTx, user: AuthUser, id: number) {
  const [row] = await selectCompanies(db, and(eq(company.id, id), inScope(user)));
  return found(row, '公司不存在');
}

export const companyOne = (ctx: AppContext, user: AuthUser, id: number) => companyInScope(ctx.db, user, id);

async function assertUniqueName(db: DbOrTx, parentId: number, name: string, exceptId?: number) {
  const [dup] = await db
    .select({ id: company.id })
    .from(company)
    .where(and(eq(company.parentId, parentId), eq(company.name, name), exceptId ? ne(company.id, exceptId) : undefined));
  if (dup) throw new AppError('DUPLICATE', '同一上级公司下已有同名公司');
}

/** Company codes identify a company across the whole installation. */
async function assertUniqueCode(db: DbOrTx, code: string | null, exceptId?: number) {
  if (!code) return;
  const [dup] = await db
    .select({ id: company.id })
    .from(company)
    .where(and(sql`lower(${company.code}) = lower(${code})`, exceptId ? ne(company.id, exceptId) : undefined));
  if (dup) throw new AppError('DUPLICATE', '公司编码已存在');
}

export async function addCompany(ctx: AppContext, user: AuthUser, body: CompanyFields & { parentId: number }) {
  return ctx.db.transaction(async (tx) => {
    await assertCompany(tx, user, body.parentId);
    const [parentRow] = await tx.select({ path: company.path }).from(company).where(eq(company.id, body.parentId)).for('update');
    await assertUniqueName(tx, body.parentId, body.name);
    await assertUniqueCode(tx, body.code);
    const [created] = await tx.insert(company).values({ ...body, path: '' }).returning({ id: company.id });
    const id = created!.id;
    await tx.update(company).set({ path: `${parentRow!.path}${id}/` }).where(eq(company.id, id));
    return { id };
  });
}

/**
 * Edits a company; a new parent moves the whole subtree, rewriting every materialised path
 * under it in the same transaction.
 */
export async function editCompany(ctx: AppContext, user: AuthUser, body: CompanyFields & { id: number; parentId?: number }) {
  await ctx.db.transaction(async (tx) => {
    const cur = await companyInScope(tx, user, body.id);
    let parentId = cur.parentId;
    if (body.parentId !== undefined && body.parentId !== cur.parentId) {
      if (cur.id === user.companyId) throw new AppError('RULE_VIOLATION', '不能移动本人所在的公司');
      await assertCompany(tx, user, body.parentId);
      const [target] = await tx.select({ path: company.path }).from(company).where(eq(company.id, body.parentId)).for('update');
      if (target!.path.startsWith(cur.path)) throw new AppError('RULE_VIOLATION', '不能将公司移动到其自身或其下级公司之下');
      const newPath = `${target!.path}${cur.id}/`;
      await tx
        .update(company)
        .set({ path: sql`${newPath} || substr(${company.path}, ${cur.path.length + 1})` })
        .where(like(company.path, `${cur.path}%`));
      parentId = body.parentId;
    }
    if (parentId !== null) await assertUniqueName(tx, parentId, body.name, cur.id);
    await assertUniqueCode(tx, body.code, cur.id);
    const { id: _id, parentId: _p, ...fields } = body;
    await tx.update(company).set({ ...fields, parentId, updatedAt: new Date() }).where(eq(company.id, cur.id));
  });
}

const countIn = async (db: DbOrTx, table: typeof appUser | typeof role | typeof site, companyId: number) => {
  const [row] = await db.select({ n: count() }).from(table).where(eq(table.companyId, companyId));
  return row?.n ?? 0;
};

/** Deletes an empty company: no child companies, users, roles or stations. */
export async function deleteCompany(ctx: AppContext, user: AuthUser, id: number) {
  try {
    await ctx.db.transaction(async (tx) => {
      const cur = await companyInScope(tx, user, id);
      if (cur.id === user.companyId) throw new AppError('RULE_VIOLATION', '不能删除本人所在的公司');
      const [children] = await tx.select({ n: count() }).from(company).where(eq(company.parentId, cur.id));
      if ((children?.n ?? 0) > 0) throw new AppError('RULE_VIOLATION', '该公司下还有下级公司，不能删除');
      if ((await countIn(tx, appUser, cur.id)) > 0) throw new AppError('RULE_VIOLATION', '该公司下还有用户，不能删除');
      if ((await countIn(tx, role, cur.id)) > 0) throw new AppError('RULE_VIOLATION', '该公司下还有角色，不能删除');
      if ((await countIn(tx, site, cur.id)) > 0) throw new AppError('RULE_VIOLATION', '该公司下还有站点，不能删除');
      await tx.delete(company).where(eq(company.id, cur.id));
    });
  } catch (err) {
    // Other domains' rows may still name the company (settings, templates): refuse, don't fail.
    if (pgErrorCode(err) === FOREIGN_KEY_VIOLATION) throw new AppError('RULE_VIOLATION', '该公司仍有关联数据，不能删除');
    throw err;
  }
}
