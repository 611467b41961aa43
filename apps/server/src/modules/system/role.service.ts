import { and, asc, count, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { PageRequest, RoleSortField } from '@ess/contract';
import { company, role, roleInterface, roleMenu, userRole } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { assertCompany, inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';
import { assertCallerHolds, assertGrantableInterfaces, assertMenusExist } from './grants.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../platform/db/errors.ts';

const columns = {
  id: role.id,
  companyId: role.companyId,
  companyName: company.name,
  name: role.name,
  code: role.code,
  remark: role.remark,
  buildIn: role.buildIn,
  userCount: sql<number>`(select count(*) from ${userRole} where ${userRole.roleId} = ${role.id})::int`,
  createdAt: role.createdAt,
  updatedAt: role.updatedAt,
};

interface RoleFilter {
  name?: string;
  companyId?: number;
}

function selectRoles(db: DbOrTx, where: SQL | undefined) {
  return db.select(columns).from(role).innerJoin(company, eq(company.id, role.companyId)).where(where).orderBy(asc(role.id));
}

const roles = defineListQuery({
  table: role,
  columns,
  joins: [{ table: company, on: eq(company.id, role.companyId) }],
  scope: (db, user) => inCompanyScope(role.companyId, db, user),
  filter: (f: RoleFilter) => [f.name ? likeEscaped(role.name, f.name) : undefined, f.companyId ? eq(role.companyId, f.companyId) : undefined],
  orderBy: [asc(role.id)],
  sortable: {
    name: role.name, code: role.code, companyName: company.name, userCount: columns.userCount, createdAt: role.createdAt,
  } satisfies Record<RoleSortField, unknown>,
});

export const roleList = (ctx: AppContext, user: AuthUser, f: RoleFilter) => roles.list(ctx.db, user, f);

export const rolePage = (ctx: AppContext, user: AuthUser, req: PageRequest & RoleFilter) => roles.page(ctx.db, user, req);

async function roleInScope(db: DbOrTx, user: AuthUser, id: number) {
  const [row] = await selectRoles(db, and(eq(role.id, id), inCompanyScope(role.companyId, db, user)));
  return found(row, '角色不存在');
}

async function permissionsOf(db: DbOrTx, roleId: number) {
  const menus = await db.select({ id: roleMenu.menuId }).from(roleMenu).where(eq(roleMenu.roleId, roleId)).orderBy(asc(roleMenu.menuId));
  const ifs = await db
    .select({ id: roleInterface.interfaceId })
    .from(roleInterface)
    .where(eq(roleInterface.roleId, roleId))
    .orderBy(asc(roleInterface.interfaceId));
  return { menuIds: menus.map((m) => m.id), interfaceIds: ifs.map((i) => i.id) };
}

export async function roleOne(ctx: AppContext, user: AuthUser, id: number) {
  const r = await roleInScope(ctx.db, user, id);
  return { ...r, ...(await permissionsOf(ctx.db, id)) };
}

interface RoleFields {
  name: string;
  code: string | null;
  remark: string | null;
  menuIds: number[];
  interfaceIds: number[];
}

async function assertUniqueName(db: DbOrTx, companyId: number, name: string, exceptId?: number) {
  const [dup] = await db
    .select({ id: role.id })
    .from(role)
    .where(and(eq(role.companyId, companyId), eq(role.name, name), exceptId ? ne(role.id, exceptId) : undefined));
  if (dup) throw new AppError('DUPLICATE', '该公司下已有同名角色');
}

async function writePermissions(db: DbOrTx, roleId: number, p: { menuIds: number[]; interfaceIds: number[] }) {
  await db.delete(roleMenu).where(eq(roleMenu.roleId, roleId));
  await db.delete(roleInterface).where(eq(roleInterface.roleId, roleId));
  if (p.menuIds.length) await db.insert(roleMenu).values(p.menuIds.map((menuId) => ({ roleId, menuId })));
  if (p.interfaceIds.length) await db.insert(roleInterface).values(p.interfaceIds.map((interfaceId) => ({ roleId, interfaceId })));
}

/** Concurrent saves of the same name meet the unique index; that is a duplicate too. */
async function duplicateSafe<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw new AppError('DUPLICATE', '该公司下已有同名角色');
    throw err;
  }
}

export function addRole(ctx: AppContext, user: AuthUser, body: RoleFields & { companyId?: number }) {
  const companyId = body.companyId ?? user.companyId;
  return duplicateSafe(() =>
    ctx.db.transaction(async (tx) => {
      await assertCompany(tx, user, companyId);
      await assertUniqueName(tx, companyId, body.name);
      await assertMenusExist(tx, body.menuIds);
      await assertGrantableInterfaces(tx, body.interfaceIds);
      await assertCallerHolds(tx, user, body);
      const [created] = await tx
        .insert(role)
        .values({ companyId, name: body.name, code: body.code, remark: body.remark })
        .returning({ id: role.id });
      await writePermissions(tx, created!.id, body);
      return { id: created!.id };
    }),
  );
}

/**
 * Built-in roles keep their names, and only the built-in administrator may change them at
 * all; other callers may grant only what they hold themselves.
 */
export function editRole(ctx: AppContext, user: AuthUser, body: RoleFields & { id: number }) {
  return duplicateSafe(() =>
    ctx.db.transaction(async (tx) => {
      const cur = await roleInScope(tx, user, body.id);
      if (cur.buildIn) {
        if (!user.buildIn) throw new AppError('RULE_VIOLATION', '内置角色只能由内置管理员修改');
        if (body.name !== cur.name) throw new AppError('RULE_VIOLATION', '内置角色不能修改名称');
      }
      await assertUniqueName(tx, cur.companyId, body.name, cur.id);
      await assertMenusExist(tx, body.menuIds);
      await assertGrantableInterfaces(tx, body.interfaceIds);
      await assertCallerHolds(tx, user, body, await permissionsOf(tx, cur.id));
      await tx
        .update(role)
        .set({ name: body.name, code: body.code, remark: body.remark, updatedAt: new Date() })
        .where(eq(role.id, cur.id));
      await writePermissions(tx, cur.id, body);
    }),
  );
}

export async function deleteRole(ctx: AppContext, user: AuthUser, id: number) {
  await ctx.db.transaction(async (tx) => {
    const cur = await roleInScope(tx, user, id);
    if (cur.buildIn) throw new AppError('RULE_VIOLATION', '内置角色不能删除');
    const [assigned] = await tx.select({ n: count() }).from(userRole).where(eq(userRole.roleId, id));
    if ((assigned?.n ?? 0) > 0) throw new AppError('RULE_VIOLATION', '该角色已分配给用户，不能删除');
    await tx.delete(role).where(eq(role.id, id));
  });
}
