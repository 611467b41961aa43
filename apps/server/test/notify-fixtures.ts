import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { appUser, company, menu, role, roleMenu, userRole } from '../src/db/schema/system.ts';
import { hashPassword } from '../src/platform/password.ts';
import type { TestApp } from './harness.ts';

/** Fixtures for the log, notification and live-event tests, written straight into the database. */
export const FIXTURE_PASSWORD = 'Passw0rd1';

let hashed: Promise<string> | null = null;

export async function companiesOf(t: TestApp) {
  const rows = await t.ctx.db.select().from(company).where(inArray(company.code, ['GROUP', 'EAST', 'SOUTH']));
  const by = (code: string) => rows.find((r) => r.code === code)!;
  return { group: by('GROUP'), east: by('EAST'), south: by('SOUTH') };
}

/** A role of the company granting the given menus (by path). */
export async function makeRole(t: TestApp, companyId: number, menuPaths: string[] = []): Promise<number> {
  const { db } = t.ctx;
  const [r] = await db.insert(role).values({ name: `role-${randomBytes(4).toString('hex')}`, companyId }).returning();
  if (menuPaths.length) {
    const menus = await db.select({ id: menu.id }).from(menu).where(inArray(menu.path, menuPaths));
    await db.insert(roleMenu).values(menus.map((m) => ({ roleId: r!.id, menuId: m.id })));
  }
  return r!.id;
}

export interface FixtureUser {
  id: number;
  username: string;
  name: string;
  roleId: number;
  /** Empty when `signIn: false`. */
  token: string;
}

/** A user of the company holding a role (a new one granting `menuPaths`, or `roleId`), signed in. */
export async function makeUser(
  t: TestApp,
  companyId: number,
  opts: { menuPaths?: string[]; roleId?: number; status?: 0 | 1; signIn?: boolean } = {},
): Promise<FixtureUser> {
  const { db } = t.ctx;
  const username = `u${randomBytes(4).toString('hex')}`;
  const roleId = opts.roleId ?? (await makeRole(t, companyId, opts.menuPaths ?? []));
  hashed ??= hashPassword(FIXTURE_PASSWORD);
  const [u] = await db
    .insert(appUser)
    .values({ username, name: `用户${username}`, companyId, passwordHash: await hashed, status: 1 })
    .returning();
  await db.insert(userRole).values({ userId: u!.id, roleId });
  const token = opts.signIn === false ? '' : await t.api.login(username, FIXTURE_PASSWORD);
  if (opts.status === 0) await db.update(appUser).set({ status: 0 }).where(eq(appUser.id, u!.id));
  return { id: u!.id, username, name: u!.name, roleId, token };
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000, stepMs = 50): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
