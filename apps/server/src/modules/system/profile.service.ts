import { eq } from 'drizzle-orm';
import { appUser } from '../../db/schema/system.ts';
import type { ProfileInfo } from '@ess/contract';
import type { AppContext } from '../../platform/context.ts';
import { AUTH_CHANNEL } from '../../platform/db/change-cache.ts';
import { grantsInterface, type AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { revokeUserSessions } from './auth.service.ts';
import { hashPassword, verifyPassword } from '../../platform/password.ts';

/**
 * The profile in one statement: the user and company, the roles, the menu entries the roles
 * grant with every directory above them (a granted page brings its directory, so the tree is
 * whole), in menu order, and the paths of the interfaces the user may call (by the route guard's
 * own rule, grantsInterface: the console shows an action only when its call is among them). Menu entries carry only what the console reads, and leave out what is
 * empty: no parentPath at the top, no icon when none, `hidden` only when true.
 */
const PROFILE_SQL = `
with recursive shown(id, path, parent_path, name, icon, sort, hidden) as (
  select m.id, m.path, m.parent_path, m.name, m.icon, m.sort, m.hidden
    from menu m
   where m.id in (select rm.menu_id from role_menu rm join user_role ur on ur.role_id = rm.role_id where ur.user_id = $1)
  union
  select p.id, p.path, p.parent_path, p.name, p.icon, p.sort, p.hidden
    from menu p join shown s on p.path = s.parent_path
)
select u.id, u.username, u.name, u.phone, u.email, u.company_id as "companyId", c.name as "companyName",
       u.build_in as "buildIn", u.last_login_at as "lastLoginAt", u.time_zone as "timeZone",
       coalesce((select json_agg(json_build_object('id', r.id, 'name', r.name) order by r.id)
                   from user_role ur join role r on r.id = ur.role_id where ur.user_id = u.id), '[]') as roles,
       coalesce((select json_agg(json_strip_nulls(json_build_object(
                          'path', s.path, 'parentPath', s.parent_path, 'name', s.name, 'icon', s.icon,
                          'hidden', case when s.hidden then true end)) order by s.sort, s.id)
                   from shown s), '[]') as "menuProfiles",
       coalesce((select json_agg(i.path order by i.path) from api_interface i
                  where i.access <> 'menu' or ${grantsInterface('u.id', 'i.id')}), '[]') as permissions
  from app_user u join company c on c.id = u.company_id
 where u.id = $1`;

/** The profile as read (lastLoginAt a Date until it is sent). */
type ProfileRow = Omit<ProfileInfo, 'lastLoginAt'> & { lastLoginAt: Date | string | null };

/**
 * What the console's navigation guard and user store need (product-spec §2, §3); from this
 * instance's cache while nothing it shows has changed (AUTH_CHANNEL's triggers cover the user,
 * company, roles and menus).
 */
export async function profileInfo(ctx: AppContext, user: AuthUser): Promise<ProfileRow> {
  return ctx.changes.cache<number, ProfileRow>(AUTH_CHANNEL, 'profiles').through(user.id, async () => {
    const { rows } = await ctx.database.sql.query<ProfileRow>(PROFILE_SQL, [user.id], 'profile_info');
    return found(rows[0]);
  });
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

/** Name, phone, e-mail; the time zone only when given (undefined keeps it, null clears it). */
export async function changeInfo(
  ctx: AppContext, user: AuthUser, info: { name: string; phone: string | null; email: string | null; timeZone?: string | null | undefined },
) {
  const { timeZone, ...rest } = info;
  await ctx.db
    .update(appUser)
    .set({ ...rest, ...(timeZone === undefined ? {} : { timeZone }), updatedAt: new Date() })
    .where(eq(appUser.id, user.id));
}
