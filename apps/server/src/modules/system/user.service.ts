import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { USER_STATUS, USER_STATUS_LABELS, type PageRequest, type UserSortField, type UserStatus } from '@ess/contract';
import { appUser, company, role, userRole } from '../../db/schema/system.ts';
import { site, userSite } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { pageOf, sortedBy, type SortRequest } from '../../platform/http/paging.ts';
import { sendXlsx, type ExportLanguage, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';
import { assertCompany, assertSites, inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';
import { revokeUserSessions } from './auth.service.ts';
import { hashPassword } from '../../platform/password.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../platform/db/errors.ts';

/**
 * Stations a user may see: those granted to them, or for a built-in user and a user given all
 * stations every station of their companies (the same rule as the data scope).
 */
const siteCount = sql<number>`(case when ${appUser.buildIn} or ${appUser.allSites}
  then (select count(*) from site s join company sc on sc.id = s.company_id where sc.path like ${company.path} || '%')
  else (select count(*) from user_site us where us.user_id = ${appUser.id}) end)::int`;

/** Never the password hash. */
const columns = {
  id: appUser.id,
  username: appUser.username,
  name: appUser.name,
  phone: appUser.phone,
  email: appUser.email,
  companyId: appUser.companyId,
  companyName: company.name,
  status: appUser.status,
  buildIn: appUser.buildIn,
  allSites: appUser.allSites,
  timeZone: appUser.timeZone,
  siteCount,
  lastLoginAt: appUser.lastLoginAt,
  createdAt: appUser.createdAt,
  updatedAt: appUser.updatedAt,
};

/** The status column holds only USER_STATUS values (every write goes through the contract's userStatus). */
const typedStatus = <T extends { status: number }>(r: T) => ({ ...r, status: r.status as UserStatus });

interface UserFilter {
  username?: string;
  name?: string;
  companyId?: number;
  roleId?: number;
  status?: 0 | 1;
}

function selectUsers(db: DbOrTx, where: SQL | undefined) {
  return db.select(columns).from(appUser).innerJoin(company, eq(company.id, appUser.companyId)).where(where).orderBy(asc(appUser.id));
}

/** A deleted user kept anonymised for the journals naming them is no user any more (decision 0033). */
const live = isNull(appUser.deletedAt);

const filterOf = (db: DbOrTx, user: AuthUser, f: UserFilter) =>
  and(
    live,
    inCompanyScope(appUser.companyId, db, user),
    f.username ? likeEscaped(appUser.username, f.username) : undefined,
    f.name ? likeEscaped(appUser.name, f.name) : undefined,
    f.companyId ? eq(appUser.companyId, f.companyId) : undefined,
    f.roleId ? inArray(appUser.id, db.select({ id: userRole.userId }).from(userRole).where(eq(userRole.roleId, f.roleId))) : undefined,
    f.status !== undefined ? eq(appUser.status, f.status) : undefined,
  );

async function rolesOf(db: DbOrTx, userIds: number[]) {
  const byUser = new Map<number, { id: number; name: string }[]>();
  if (!userIds.length) return byUser;
  const rows = await db
    .select({ userId: userRole.userId, id: role.id, name: role.name })
    .from(userRole)
    .innerJoin(role, eq(role.id, userRole.roleId))
    .where(inArray(userRole.userId, userIds))
    .orderBy(asc(role.id));
  for (const r of rows) byUser.set(r.userId, [...(byUser.get(r.userId) ?? []), { id: r.id, name: r.name }]);
  return byUser;
}

/** Each user's roles in the page's own statement (one round trip less than asking after the page). */
const rolesColumn = sql<{ id: number; name: string }[]>`coalesce((select json_agg(json_build_object('id', ${role.id}, 'name', ${role.name}) order by ${role.id})
  from ${userRole} join ${role} on ${role.id} = ${userRole.roleId} where ${userRole.userId} = ${appUser.id}), '[]')`;

/** What each sortable field of the user list (the contract's userSort) sorts by. */
const USER_SORT: Record<UserSortField, PgColumn | SQL> = {
  username: appUser.username,
  name: appUser.name,
  companyName: company.name,
  status: appUser.status,
  siteCount,
  lastLoginAt: appUser.lastLoginAt,
  createdAt: appUser.createdAt,
};

const selectWithRoles = (db: DbOrTx, where: SQL | undefined, sort: SortRequest) =>
  db
    .select({ ...columns, roles: rolesColumn })
    .from(appUser)
    .innerJoin(company, eq(company.id, appUser.companyId))
    .where(where)
    .orderBy(...sortedBy(sort, USER_SORT, [asc(appUser.id)]));

export async function userPage(ctx: AppContext, user: AuthUser, req: PageRequest & UserFilter & SortRequest) {
  const where = filterOf(ctx.db, user, req);
  const page = await pageOf(ctx.db, appUser, where, req, (limit, offset) => selectWithRoles(ctx.db, where, req).limit(limit).offset(offset));
  return { ...page, records: page.records.map(typedStatus) };
}

/** At most this many users in one sheet. */
const USER_EXPORT_MAX = 20_000;

/** The user list of a filter, in its order, as xlsx in the caller's language (built-in role names translated). */
export async function userExport(ctx: AppContext, user: AuthUser, f: UserFilter & SortRequest, lang: ExportLanguage, reply: FastifyReply) {
  const rows = await selectWithRoles(ctx.db, filterOf(ctx.db, user, f), f).limit(USER_EXPORT_MAX);
  type Row = (typeof rows)[number];
  const columns: XlsxColumn<Row>[] = [
    { header: '用户名', width: 18, value: (r) => r.username },
    { header: '姓名', width: 16, value: (r) => r.name },
    { header: '手机号', width: 16, value: (r) => r.phone },
    { header: '邮箱', width: 24, value: (r) => r.email },
    { header: '所属公司', width: 20, kind: 'name', value: (r) => r.companyName },
    { header: '角色', width: 24, value: (r) => r.roles.map((x) => lang.name(x.name)).join(', ') },
    { header: '账号状态', width: 10, kind: 'label', value: (r) => USER_STATUS_LABELS[r.status as UserStatus] },
    { header: '站点权限', width: 10, numFmt: '#,##0', value: (r) => r.siteCount },
    { header: '内置', width: 8, kind: 'label', value: (r) => (r.buildIn ? '是' : '否') },
    { header: '最后登录', width: 22, kind: 'instant', value: (r) => r.lastLoginAt },
    { header: '创建时间', width: 22, kind: 'instant', value: (r) => r.createdAt },
  ];
  return sendXlsx(reply, { fileName: '用户列表', columns }, rows, lang);
}

/** The picker list (work orders, notifications): the users of the caller's companies. */
export function userList(ctx: AppContext, user: AuthUser, f: UserFilter) {
  return ctx.db
    .select({
      id: appUser.id, username: appUser.username, name: appUser.name, phone: appUser.phone, email: appUser.email,
      companyId: appUser.companyId, companyName: company.name, status: appUser.status,
    })
    .from(appUser)
    .innerJoin(company, eq(company.id, appUser.companyId))
    .where(filterOf(ctx.db, user, f))
    .orderBy(asc(appUser.id))
    .then((rows) => rows.map(typedStatus));
}

async function userInScope(db: DbOrTx, user: AuthUser, id: number) {
  const [row] = await selectUsers(db, and(eq(appUser.id, id), live, inCompanyScope(appUser.companyId, db, user)));
  return found(row, '用户不存在');
}

async function siteIdsOf(db: DbOrTx, userId: number) {
  const rows = await db.select({ id: userSite.siteId }).from(userSite).where(eq(userSite.userId, userId)).orderBy(asc(userSite.siteId));
  return rows.map((r) => r.id);
}

export async function userOne(ctx: AppContext, user: AuthUser, id: number) {
  const u = await userInScope(ctx.db, user, id);
  const roles = (await rolesOf(ctx.db, [id])).get(id) ?? [];
  return { ...typedStatus(u), roles, roleIds: roles.map((r) => r.id), siteIds: await siteIdsOf(ctx.db, id) };
}

const companyPathOf = async (db: DbOrTx, companyId: number) => {
  const [row] = await db.select({ path: company.path }).from(company).where(eq(company.id, companyId));
  return found(row, '公司不存在').path;
};

/**
 * Roles must exist; newly assigned ones must lie in the caller's scope; every role must belong
 * to the user's company or one above it.
 */
async function assertRoles(db: DbOrTx, user: AuthUser, userCompanyPath: string, roleIds: number[], existing: number[] = []) {
  const rows = await db
    .select({ id: role.id, path: company.path })
    .from(role)
    .innerJoin(company, eq(company.id, role.companyId))
    .where(inArray(role.id, roleIds));
  if (rows.length !== roleIds.length) throw new AppError('RULE_VIOLATION', '包含不存在的角色');
  const had = new Set(existing);
  if (rows.some((r) => !had.has(r.id) && !r.path.startsWith(user.companyPath))) throw new AppError('OUT_OF_SCOPE', '包含无权访问的角色');
  if (rows.some((r) => !userCompanyPath.startsWith(r.path))) throw new AppError('RULE_VIOLATION', '角色不属于该用户所在公司或其上级公司');
}

/** Newly granted stations must lie in the caller's station scope; all in the user's companies. */
async function assertUserSites(db: DbOrTx, user: AuthUser, userCompanyPath: string, siteIds: number[], existing: number[] = []) {
  if (!siteIds.length) return;
  const had = new Set(existing);
  await assertSites(db, user, siteIds.filter((id) => !had.has(id)));
  const rows = await db
    .select({ id: site.id, path: company.path })
    .from(site)
    .innerJoin(company, eq(company.id, site.companyId))
    .where(inArray(site.id, siteIds));
  if (rows.length !== siteIds.length) throw new AppError('RULE_VIOLATION', '包含不存在的站点');
  if (rows.some((r) => !r.path.startsWith(userCompanyPath))) throw new AppError('RULE_VIOLATION', '站点不属于该用户所在公司');
}

async function writeLinks(db: DbOrTx, userId: number, roleIds: number[], siteIds: number[]) {
  await db.delete(userRole).where(eq(userRole.userId, userId));
  await db.delete(userSite).where(eq(userSite.userId, userId));
  if (roleIds.length) await db.insert(userRole).values(roleIds.map((roleId) => ({ userId, roleId })));
  if (siteIds.length) await db.insert(userSite).values(siteIds.map((siteId) => ({ userId, siteId })));
}

async function duplicateSafe<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw new AppError('DUPLICATE', '用户名已存在');
    throw err;
  }
}

interface UserFields {
  name: string;
  phone: string | null;
  email: string | null;
  companyId: number;
  roleIds: number[];
  status: 0 | 1;
  siteIds: number[];
  allSites: boolean;
  /** Undefined: none on add, unchanged on edit; null clears (the contract checked the IANA name). */
  timeZone?: string | null | undefined;
}

/**
 * "All stations of the company" is handed on only by a caller who sees every station of their own
 * companies (built in, or given all stations themselves): otherwise a caller granted two stations
 * could give a user the whole company. A user who has it keeps it through edits by anyone.
 */
function assertAllSites(user: AuthUser, allSites: boolean, had = false) {
  if (allSites && !had && !user.buildIn && !user.allSites) throw new AppError('OUT_OF_SCOPE', '不能授予自己没有的全部站点权限');
}

export async function addUser(ctx: AppContext, user: AuthUser, body: UserFields & { username: string; password: string }) {
  const passwordHash = await hashPassword(body.password);
  return duplicateSafe(() =>
    ctx.db.transaction(async (tx) => {
      await assertCompany(tx, user, body.companyId);
      const [taken] = await tx.select({ id: appUser.id }).from(appUser).where(sql`lower(${appUser.username}) = lower(${body.username})`);
      if (taken) throw new AppError('DUPLICATE', '用户名已存在');
      const path = await companyPathOf(tx, body.companyId);
      await assertRoles(tx, user, path, body.roleIds);
      assertAllSites(user, body.allSites);
      const siteIds = body.allSites ? [] : body.siteIds;
      await assertUserSites(tx, user, path, siteIds);
      const [created] = await tx
        .insert(appUser)
        .values({
          username: body.username, name: body.name, phone: body.phone, email: body.email, companyId: body.companyId,
          status: body.status, allSites: body.allSites, timeZone: body.timeZone ?? null, passwordHash, passwordChangedAt: new Date(),
        })
        .returning({ id: appUser.id });
      await writeLinks(tx, created!.id, body.roleIds, siteIds);
      return { id: created!.id };
    }),
  );
}

/**
 * Rules chosen here: nobody disables themselves; a built-in user is edited only by that user,
 * who keeps their company; other users cannot change their own roles. Disabling a user or
 * resetting the password ends the user's sessions (a reset of one's own keeps the current one).
 */
export async function editUser(ctx: AppContext, user: AuthUser, body: UserFields & { id: number; password?: string }) {
  const passwordHash = body.password ? await hashPassword(body.password) : null;
  const before = await ctx.db.transaction(async (tx) => {
    const cur = await userInScope(tx, user, body.id);
    const self = cur.id === user.id;
    const curRoles = ((await rolesOf(tx, [cur.id])).get(cur.id) ?? []).map((r) => r.id);
    const rolesChanged = curRoles.length !== body.roleIds.length || body.roleIds.some((id) => !curRoles.includes(id));
    if (cur.buildIn && !self) throw new AppError('RULE_VIOLATION', '内置管理员只能由本人修改');
    if (self && body.status === 0) throw new AppError('RULE_VIOLATION', '不能停用自己');
    if (self && rolesChanged && !user.buildIn) throw new AppError('RULE_VIOLATION', '不能修改自己的角色');
    if (cur.buildIn && body.companyId !== cur.companyId) throw new AppError('RULE_VIOLATION', '内置管理员不能更换公司');
    if (body.companyId !== cur.companyId) await assertCompany(tx, user, body.companyId);
    const path = await companyPathOf(tx, body.companyId);
    await assertRoles(tx, user, path, body.roleIds, curRoles);
    assertAllSites(user, body.allSites, cur.allSites && body.companyId === cur.companyId);
    const siteIds = body.allSites ? [] : body.siteIds;
    await assertUserSites(tx, user, path, siteIds, await siteIdsOf(tx, cur.id));
    await tx
      .update(appUser)
      .set({
        name: body.name, phone: body.phone, email: body.email, companyId: body.companyId, status: body.status, allSites: body.allSites,
        ...(body.timeZone === undefined ? {} : { timeZone: body.timeZone }),
        updatedAt: new Date(),
        ...(passwordHash ? { passwordHash, passwordChangedAt: new Date(), failedCount: 0, failedSince: null, lockedUntil: null } : {}),
      })
      .where(eq(appUser.id, cur.id));
    await writeLinks(tx, cur.id, body.roleIds, siteIds);
    return { self };
  });
  if (body.status === 0) await revokeUserSessions(ctx, [body.id]);
  else if (passwordHash) await revokeUserSessions(ctx, [body.id], before.self ? user.sessionId : undefined);
}

/**
 * Journals that name a user by id (what they did to stations, devices and alarms, and the files
 * they uploaded): a user named in one is anonymised instead of removed, so the journal keeps
 * pointing at a row (decision 0033). Sign-in and access logs keep their own copy of the name and
 * are not counted: a user who only signed in is removed.
 */
const namedInJournals = (id: number) => sql<boolean>`(
     exists (select 1 from device_operation where user_id = ${id})
  or exists (select 1 from site_handle where user_id = ${id})
  or exists (select 1 from site_maintenance where user_id = ${id})
  or exists (select 1 from device_change where user_id = ${id})
  or exists (select 1 from device_import where user_id = ${id})
  or exists (select 1 from callback_exec where user_id = ${id})
  or exists (select 1 from alarm_shield where created_by = ${id} or cancelled_by = ${id})
  or exists (select 1 from stored_file where uploaded_by = ${id}))`;

/**
 * Deletes a user of the caller's scope. Refused for the built-in administrator and for oneself. A
 * user no journal names is removed (sessions, roles, station grants and inbox go with the row); a
 * user some journal names is anonymised: disabled, personal fields cleared, the user name freed,
 * the password unusable, roles and stations revoked, hidden from every list; the row stays so the
 * journals' user ids still resolve (decision 0033). Either way the user's sessions end.
 */
export async function deleteUser(ctx: AppContext, user: AuthUser, id: number): Promise<{ anonymised: boolean }> {
  const result = await ctx.db.transaction(async (tx) => {
    const cur = await userInScope(tx, user, id);
    if (cur.buildIn) throw new AppError('RULE_VIOLATION', '内置管理员不能删除');
    if (cur.id === user.id) throw new AppError('RULE_VIOLATION', '不能删除自己');
    // Locks the row: an edit or a second delete waits for this one, then finds no user.
    const [locked] = await tx.select({ id: appUser.id }).from(appUser).where(and(eq(appUser.id, cur.id), live)).for('update');
    found(locked, '用户不存在');
    const { rows } = await tx.execute<{ used: boolean }>(sql`select ${namedInJournals(cur.id)} as used`);
    if (rows[0]?.used !== true) {
      await tx.delete(appUser).where(eq(appUser.id, cur.id));
      return { anonymised: false };
    }
    await writeLinks(tx, cur.id, [], []);
    await tx
      .update(appUser)
      .set({
        // '#' is outside the user-name pattern, so no one can take this name; the real one is free again.
        username: `#deleted-${cur.id}`, name: '已删除用户', phone: null, email: null, status: USER_STATUS.disabled, allSites: false,
        passwordHash: `deleted:${randomBytes(24).toString('base64url')}`, deletedAt: new Date(), updatedAt: new Date(),
      })
      .where(eq(appUser.id, cur.id));
    return { anonymised: true };
  });
  await revokeUserSessions(ctx, [id]);
  return result;
}
