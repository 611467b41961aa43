import { asc, eq, inArray } from 'drizzle-orm';
import { appUser, company, menu, role, roleMenu, userRole } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { revokeUserSessions } from './auth.service.ts';
import { hashPassword, verifyPassword } from '../../platform/password.ts';

/** What the console's navigation guard and user store need (product-spec §2, §3). */
export async function profileInfo(ctx: AppContext, user: AuthUser) {
  const { db } = ctx;
  const [row] = await db
    .select({
      id: appUser.id, username: appUser.username, name: appUser.name, phone: appUser.phone, email: appUser.email,
      companyId: appUser.companyId, companyName: company.name, buildIn: appUser.buildIn, lastLoginAt: appUser.lastLoginAt,
    })
    .from(appUser)
    .innerJoin(company, eq(company.id, appUser.companyId))
    .where(eq(appUser.id, user.id));
  const me = found(row);
  const roles = await db
    .select({ id: role.id, name: role.name })
    .from(userRole)
    .innerJoin(role, eq(role.id, userRole.roleId))
    .where(eq(userRole.userId, user.id));
  const granted = db
    .selectDistinct({ id: roleMenu.menuId })
    .from(roleMenu)
    .innerJoin(userRole, eq(userRole.roleId, roleMenu.roleId))
    .where(eq(userRole.userId, user.id));
  const menus = await db
    .select({ id: menu.id, path: menu.path, parentPath: menu.parentPath, name: menu.name, icon: menu.icon, sort: menu.sort, hidden: menu.hidden })
    .from(menu)
    .where(inArray(menu.id, granted))
    .orderBy(asc(menu.sort), asc(menu.id));
  // A granted page brings its directory with it, so the menu tree is always whole.
  const paths = new Set(menus.map((m) => m.path));
  const missingParents = [...new Set(menus.map((m) => m.parentPath).filter((p): p is string => !!p && !paths.has(p)))];
  const parents = missingParents.length
    ? await db
        .select({ id: menu.id, path: menu.path, parentPath: menu.parentPath, name: menu.name, icon: menu.icon, sort: menu.sort, hidden: menu.hidden })
        .from(menu)
        .where(inArray(menu.path, missingParents))
    : [];
  const menuProfiles = [...parents, ...menus].sort((a, b) => a.sort - b.sort || a.id - b.id);
  return { ...me, roles, menuProfiles };
}

export async function changePassword(ctx: AppContext, user: AuthUser, oldPassword: string, newPassword: string) {
  const [row] = await ctx.db.select({ hash: appUser.passwordHash }).from(appUser).where(eq(appUser.id, user.id));
  if (!row || !(await verifyPassword(row.hash, oldPassword))) throw new AppError('RULE_VIOLATION', '原密码不正确');
  if (oldPassword === newPassword) throw new AppError('RULE_VIOLATION', '新密码不能与原密码相同');
  await ctx.db
    .update(appUser)
    .set({ passwordHash: await hashPassword(newPassword), passwordChangedAt: new Date(), updatedAt: new Date() })
    .where(eq(appUser.id, user.id));
  // Other sessions of this user end; the one that changed the password stays.
  await revokeUserSessions(ctx, [user.id], user.sessionId);
}

export async function changeInfo(ctx: AppContext, user: AuthUser, info: { name: string; phone: string | null; email: string | null }) {
  await ctx.db
    .update(appUser)
    .set({ ...info, updatedAt: new Date() })
    .where(eq(appUser.id, user.id));
}
