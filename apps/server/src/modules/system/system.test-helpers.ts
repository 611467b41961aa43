import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { appUser, company, menu, role, roleMenu, userRole } from '../../db/schema/system.ts';
import { site, userSite } from '../../db/schema/site.ts';
import type { TestApp } from '../../../test/harness.ts';
import { hashPassword } from '../../platform/password.ts';

/** Test fixtures for the system-administration tests, written straight into the database. */
export const TEST_PASSWORD = 'Passw0rd1';

export async function seededCompanies(t: TestApp) {
  const rows = await t.ctx.db.select().from(company).where(inArray(company.code, ['GROUP', 'EAST', 'SOUTH']));
  const by = (code: string) => rows.find((r) => r.code === code)!;
  return { group: by('GROUP'), east: by('EAST'), south: by('SOUTH') };
}

let hashed: Promise<string> | null = null;

/** A user with a fresh role granting the given menus (by path), signed in. */
export async function makeUser(
  t: TestApp,
  companyId: number,
  menuPaths: string[] | 'all',
  opts: { siteIds?: number[] } = {},
): Promise<{ id: number; roleId: number; username: string; token: string }> {
  const { db } = t.ctx;
  const username = `u${randomBytes(4).toString('hex')}`;
  const menus = await db.select({ id: menu.id, path: menu.path }).from(menu);
  const picked = menuPaths === 'all' ? menus : menus.filter((m) => menuPaths.includes(m.path));
  const [r] = await db.insert(role).values({ name: `role-${username}`, companyId }).returning();
  if (picked.length) await db.insert(roleMenu).values(picked.map((m) => ({ roleId: r!.id, menuId: m.id })));
  hashed ??= hashPassword(TEST_PASSWORD);
  const [u] = await db.insert(appUser).values({ username, name: username, companyId, passwordHash: await hashed }).returning();
  await db.insert(userRole).values({ userId: u!.id, roleId: r!.id });
  if (opts.siteIds?.length) await db.insert(userSite).values(opts.siteIds.map((siteId) => ({ userId: u!.id, siteId })));
  return { id: u!.id, roleId: r!.id, username, token: await t.api.login(username, TEST_PASSWORD) };
}

export async function makeSite(t: TestApp, companyId: number): Promise<number> {
  const code = `S${randomBytes(4).toString('hex')}`;
  const [s] = await t.ctx.db.insert(site).values({ companyId, name: `站点${code}`, code }).returning({ id: site.id });
  return s!.id;
}

export async function menuIdsOf(t: TestApp, paths: string[]): Promise<number[]> {
  const rows = await t.ctx.db.select({ id: menu.id }).from(menu).where(inArray(menu.path, paths));
  return rows.map((r) => r.id);
}

export async function interfaceIdOf(t: TestApp, path: string): Promise<number> {
  const rows = await t.ctx.database.sql.query<{ id: number }>('select id from api_interface where path = $1', [path]);
  return rows.rows[0]!.id;
}

export async function roleIdByName(t: TestApp, name: string, companyId: number): Promise<number> {
  const rows = await t.ctx.db.select({ id: role.id, companyId: role.companyId }).from(role).where(eq(role.name, name));
  return rows.find((r) => r.companyId === companyId)!.id;
}
