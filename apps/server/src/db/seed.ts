import { randomBytes } from 'node:crypto';
import { count, eq, inArray, sql } from 'drizzle-orm';
import { MENUS, menuCovers } from '@ess/contract';
import type { Database, DbOrTx } from '../platform/db/database.ts';
import type { AnyRoute } from '../platform/http/route.ts';
import { hashPassword } from '../platform/password.ts';
import { apiInterface, appUser, company, menu, menuInterface, role, roleMenu, userRole } from './schema/system.ts';

/**
 * Writes the registered routes into the interface table in one statement (a route whose row is
 * already as registered is not rewritten) and drops the rows of routes no longer registered;
 * returns path → id.
 */
export async function syncInterfaces(db: DbOrTx, routes: AnyRoute[]): Promise<Map<string, number>> {
  const values = [...new Map(routes.map((r) => [r.path, { method: r.method, path: r.path, area: r.area ?? areaOf(r.path), kind: r.kind ?? '', access: r.access, name: r.name }])).values()];
  if (values.length) {
    await db.insert(apiInterface).values(values).onConflictDoUpdate({
      target: apiInterface.path,
      set: { method: sql`excluded.method`, area: sql`excluded.area`, kind: sql`excluded.kind`, access: sql`excluded.access`, name: sql`excluded.name` },
      setWhere: sql`(${apiInterface.method}, ${apiInterface.area}, ${apiInterface.kind}, ${apiInterface.access}, ${apiInterface.name})
        is distinct from (excluded.method, excluded.area, excluded.kind, excluded.access, excluded.name)`,
    });
  }
  const rows = await db.select({ id: apiInterface.id, path: apiInterface.path }).from(apiInterface);
  const registered = new Set(values.map((r) => r.path));
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
 * patterns cover. Used at start and by POST /system/menu/refresh. Reads the tables once and
 * writes only what differs (a start on an unchanged installation writes nothing).
 */
export async function syncMenus(db: DbOrTx): Promise<void> {
  const interfaces = await db.select({ id: apiInterface.id, path: apiInterface.path, access: apiInterface.access }).from(apiInterface);
  const menuInterfaces = interfaces.filter((i) => i.access === 'menu');
  const existing = new Map((await db.select().from(menu)).map((m) => [m.path, m]));
  const links = await db.select().from(menuInterface);
  const linked = new Map<number, Set<number>>();
  for (const l of links) linked.set(l.menuId, (linked.get(l.menuId) ?? new Set()).add(l.interfaceId));
  const wanted = MENUS.map((m, i) => ({ m, values: { path: m.path, parentPath: m.parentPath ?? null, name: m.name, icon: m.icon ?? null, sort: (i + 1) * 10, hidden: m.hidden ?? false } }));

  const added = wanted.filter((w) => !existing.has(w.m.path));
  const ids = new Map([...existing].map(([path, row]) => [path, row.id]));
  if (added.length) {
    for (const row of await db.insert(menu).values(added.map((w) => w.values)).returning({ id: menu.id, path: menu.path })) ids.set(row.path, row.id);
    // A page new to an installation whose roles exist: the holders of the page it follows get it.
    for (const { m } of added.filter((w) => w.m.grantedWith)) {
      await db.execute(sql`insert into role_menu (role_id, menu_id)
        select rm.role_id, ${ids.get(m.path)!} from role_menu rm join menu f on f.id = rm.menu_id where f.path = ${m.grantedWith}
        on conflict do nothing`);
    }
  }
  const unlink: { menuId: number; interfaceId: number }[] = [];
  const link: { menuId: number; interfaceId: number }[] = [];
  for (const { m, values } of wanted) {
    const old = existing.get(m.path);
    if (old?.edited) continue;
    if (old && (Object.keys(values) as (keyof typeof values)[]).some((k) => old[k] !== values[k])) {
      await db.update(menu).set(values).where(eq(menu.id, old.id));
    }
    const menuId = ids.get(m.path)!;
    const covered = new Set(menuInterfaces.filter((i) => menuCovers(m.interfaces, i.path)).map((i) => i.id));
    const have = linked.get(menuId) ?? new Set<number>();
    for (const interfaceId of have) if (!covered.has(interfaceId)) unlink.push({ menuId, interfaceId });
    for (const interfaceId of covered) if (!have.has(interfaceId)) link.push({ menuId, interfaceId });
  }
  if (unlink.length) {
    await db.delete(menuInterface).where(sql`(${menuInterface.menuId}, ${menuInterface.interfaceId}) in (${sql.join(unlink.map((l) => sql`(${l.menuId}::int, ${l.interfaceId}::int)`), sql`, `)})`);
  }
  if (link.length) await db.insert(menuInterface).values(link);
  const known = new Set(MENUS.map((m) => m.path));
  const gone = [...existing.values()].filter((m) => !known.has(m.path)).map((m) => m.id);
  if (gone.length) await db.delete(menu).where(inArray(menu.id, gone));
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
