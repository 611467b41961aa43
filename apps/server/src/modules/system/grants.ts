import { eq, inArray } from 'drizzle-orm';
import { apiInterface, menu, menuInterface, roleInterface, roleMenu, userRole } from '../../db/schema/system.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';

/** Menus granted to the user through their roles. */
export async function menusOf(db: DbOrTx, userId: number): Promise<Set<number>> {
  const rows = await db
    .selectDistinct({ id: roleMenu.menuId })
    .from(roleMenu)
    .innerJoin(userRole, eq(userRole.roleId, roleMenu.roleId))
    .where(eq(userRole.userId, userId));
  return new Set(rows.map((r) => r.id));
}

/** Interfaces the user may call: through a granted menu or granted to a role directly. */
export async function interfacesOf(db: DbOrTx, userId: number): Promise<Set<number>> {
  const viaMenu = await db
    .selectDistinct({ id: menuInterface.interfaceId })
    .from(menuInterface)
    .innerJoin(roleMenu, eq(roleMenu.menuId, menuInterface.menuId))
    .innerJoin(userRole, eq(userRole.roleId, roleMenu.roleId))
    .where(eq(userRole.userId, userId));
  const direct = await db
    .selectDistinct({ id: roleInterface.interfaceId })
    .from(roleInterface)
    .innerJoin(userRole, eq(userRole.roleId, roleInterface.roleId))
    .where(eq(userRole.userId, userId));
  return new Set([...viaMenu, ...direct].map((r) => r.id));
}

/** Refuses unknown menu ids. */
export async function assertMenusExist(db: DbOrTx, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const rows = await db.select({ id: menu.id }).from(menu).where(inArray(menu.id, ids));
  if (rows.length !== new Set(ids).size) throw new AppError('RULE_VIOLATION', '包含不存在的菜单');
}

/** Refuses unknown interface ids and interfaces that are not granted through permissions. */
export async function assertGrantableInterfaces(db: DbOrTx, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const rows = await db.select({ id: apiInterface.id, access: apiInterface.access }).from(apiInterface).where(inArray(apiInterface.id, ids));
  if (rows.length !== new Set(ids).size) throw new AppError('RULE_VIOLATION', '包含不存在的接口');
  if (rows.some((r) => r.access !== 'menu')) throw new AppError('RULE_VIOLATION', '包含无需授权的接口，不能分配');
}

/**
 * A caller hands on only what they hold themselves (the built-in administrator excepted);
 * ids already present before the edit are left alone.
 */
export async function assertCallerHolds(
  db: DbOrTx,
  user: AuthUser,
  grant: { menuIds?: number[]; interfaceIds?: number[] },
  existing: { menuIds?: number[]; interfaceIds?: number[] } = {},
): Promise<void> {
  if (user.buildIn) return;
  const had = (list: number[] | undefined) => new Set(list ?? []);
  const newMenus = (grant.menuIds ?? []).filter((id) => !had(existing.menuIds).has(id));
  if (newMenus.length) {
    const mine = await menusOf(db, user.id);
    if (newMenus.some((id) => !mine.has(id))) throw new AppError('RULE_VIOLATION', '不能授予自己没有的菜单权限');
  }
  const newInterfaces = (grant.interfaceIds ?? []).filter((id) => !had(existing.interfaceIds).has(id));
  if (newInterfaces.length) {
    const mine = await interfacesOf(db, user.id);
    if (newInterfaces.some((id) => !mine.has(id))) throw new AppError('RULE_VIOLATION', '不能授予自己没有的接口权限');
  }
}
