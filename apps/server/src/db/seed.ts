import { randomBytes } from 'node:crypto';
import { count, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { MENUS, menuCovers } from '@ess/contract';
import type { Database, DbOrTx } from '../platform/db/database.ts';
import type { AnyRoute } from '../platform/http/route.ts';
import { hashPassword } from '../platform/password.ts';
import { apiInterface, appUser, company, menu, menuInterface, role, roleMenu, userRole } from './schema/system.ts';

/** Writes the registered routes into the interface table; returns path → id. */
export async function syncInterfaces(db: DbOrTx, routes: AnyRoute[]): Promise<Map<string, number>> {
  for (const r of routes) {
    const values = { method: r.method, path: r.path, area: r.area ?? areaOf(r.path), kind: r.kind ?? '', access: r.access, name: r.name };
    await db.insert(apiInterface).values(values).onConflictDoUpdate({ target: apiInterface.path, set: values });
  }
  const rows = await db.select({ id: apiInterface.id, path: apiInterface.path }).from(apiInterface);
  const registered = new Set(routes.map((r) => r.path));
  const stale = rows.filter((r) => !registered.has(r.path)).map((r) => r.id);
  if (stale.length) await db.delete(apiInterface).where(inArray(apiInterface.id, stale));
  return new Map(rows.filter((r) => registered.has(r.path)).map((r) => [r.path, r.id]));
}

function areaOf(path: string): string {
  const seg = path.split('/')[1] ?? '';
  return seg;
}

/**
 * Brings the menu table in line with the contract's route/menu table: adds new entries,
 * updates the ones an administrator has not edited, and maps each menu to the interfaces its
 * patterns cover. Used at start and by POST /system/menu/refresh.
 */
export async function syncMenus(db: DbOrTx): Promise<void> {
  const interfaces = await db.select({ id: apiInterface.id, path: apiInterface.path, access: apiInterface.access }).from(apiInterface);
  const menuInterfaces = interfaces.filter((i) => i.access === 'menu');
  let sort = 0;
  for (const m of MENUS) {
    sort += 10;
    const [existing] = await db.select().from(menu).where(eq(menu.path, m.path));
    let id: number;
    if (!existing) {
      const [row] = await db
        .insert(menu)
        .values({ path: m.path, parentPath: m.parentPath ?? null, name: m.name, icon: m.icon ?? null, sort, hidden: m.hidden ?? false })
        .returning({ id: menu.id });
      id = row!.id;
      // A page new to an installation whose roles exist: the holders of the page it follows get it.
      if (m.grantedWith) {
        await db.execute(sql`insert into role_menu (role_id, menu_id)
          select rm.role_id, ${id} from role_menu rm join menu f on f.id = rm.menu_id where f.path = ${m.grantedWith}
          on conflict do nothing`);
      }
    } else {
      id = existing.id;
      if (existing.edited) continue;
      await db
        .update(menu)
        .set({ parentPath: m.parentPath ?? null, name: m.name, icon: m.icon ?? null, sort, hidden: m.hidden ?? false })
        .where(eq(menu.id, id));
    }
    const covered = menuInterfaces.filter((i) => menuCovers(m.interfaces, i.path)).map((i) => i.id);
    await db.delete(menuInterface).where(eq(menuInterface.menuId, id));
    if (covered.length) await db.insert(menuInterface).values(covered.map((interfaceId) => ({ menuId: id, interfaceId })));
  }
  const known = MENUS.map((m) => m.path);
  await db.delete(menu).where(notInArray(menu.path, known));
}

const ROLE_MENUS: Record<string, (path: string) => boolean> = {
  系统管理员: () => true,
  运营人员: (p) => !p.startsWith('/system') && !p.startsWith('/log') && !p.startsWith('/globalization'),
  运维人员: (p) =>
    ['/home', '/monitor', '/analysis', '/alarm', '/repair', '/patrol', '/overview', '/config/lockers'].some((x) => p === x || p.startsWith(`${x}/`)),
  投资人: (p) => ['/home', '/synthesis', '/operation', '/overview/station'].some((x) => p === x || p.startsWith(`${x}/`)),
};

export interface SeedResult {
  adminPassword: string | null;
}

/**
 * First start only: a group with two subsidiaries, the four standard roles and the built-in
 * administrator, whose password comes from ADMIN_PASSWORD or is generated and returned once.
 */
export async function seedOnce(database: Database, adminPassword: string | undefined): Promise<SeedResult> {
  const { db } = database;
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(company);
  if (n > 0) return { adminPassword: null };
  const password = adminPassword ?? generatedPassword();
  const hash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const [group] = await tx.insert(company).values({ name: '储能集团', code: 'GROUP' }).returning();
    await tx.update(company).set({ path: `/${group!.id}/` }).where(eq(company.id, group!.id));
    for (const [name, code] of [['华东储能有限公司', 'EAST'], ['华南储能有限公司', 'SOUTH']] as const) {
      const [c] = await tx.insert(company).values({ name, code, parentId: group!.id }).returning();
      await tx.update(company).set({ path: `/${group!.id}/${c!.id}/` }).where(eq(company.id, c!.id));
    }
    const menus = await tx.select({ id: menu.id, path: menu.path }).from(menu);
    let adminRoleId = 0;
    for (const [name, pick] of Object.entries(ROLE_MENUS)) {
      const [r] = await tx.insert(role).values({ name, companyId: group!.id, buildIn: true }).returning();
      if (name === '系统管理员') adminRoleId = r!.id;
      const ids = menus.filter((m) => pick(m.path)).map((m) => m.id);
      if (ids.length) await tx.insert(roleMenu).values(ids.map((menuId) => ({ roleId: r!.id, menuId })));
    }
    const [admin] = await tx
      .insert(appUser)
      .values({ companyId: group!.id, username: 'admin', name: '系统管理员', passwordHash: hash, buildIn: true, status: 1 })
      .returning();
    await tx.insert(userRole).values({ userId: admin!.id, roleId: adminRoleId });
  });
  return { adminPassword: adminPassword ? null : password };
}

/** 16 characters from upper, lower and digits, so it meets the password rule. */
function generatedPassword(): string {
  const sets = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789'];
  const bytes = randomBytes(16);
  return [...bytes].map((b, i) => {
    const set = sets[i % 3]!;
    return set[b % set.length]!;
  }).join('');
}
