import { asc, eq } from 'drizzle-orm';
import type { MenuSortField } from '@ess/contract';
import { apiInterface, menu, menuInterface } from '../../db/schema/system.ts';
import { syncMenus } from '../../db/seed.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { found } from '../../platform/http/errors.ts';
import { sortedBy, type SortRequest } from '../../platform/http/paging.ts';
import { assertCallerHolds, assertGrantableInterfaces } from './grants.ts';

const columns = {
  id: menu.id, path: menu.path, parentPath: menu.parentPath, name: menu.name, icon: menu.icon,
  sort: menu.sort, hidden: menu.hidden, edited: menu.edited, updatedAt: menu.updatedAt,
};

/** Re-applies the contract's route/menu table; entries edited by an administrator are kept. */
export async function refreshMenus(ctx: AppContext) {
  await ctx.db.transaction((tx) => syncMenus(tx));
}

const selectMenus = (db: DbOrTx) => db.select(columns).from(menu);
type MenuRow = Awaited<ReturnType<typeof selectMenus>>[number] & { interfaceIds: number[] };
export interface MenuNode extends MenuRow {
  children: MenuNode[];
}

const sortable = {
  sort: menu.sort, path: menu.path, hidden: menu.hidden, edited: menu.edited, updatedAt: menu.updatedAt,
} satisfies Record<MenuSortField, unknown>;

/**
 * Every menu entry nested by parentPath, each with the interfaces it maps to. One query reads
 * the entries in the requested order (by their sort value without one), and each entry's
 * children keep that order: siblings sort by the chosen column within each level.
 */
export async function menuTree(ctx: AppContext, sort: SortRequest = {}): Promise<MenuNode[]> {
  const rows = await selectMenus(ctx.db).orderBy(...sortedBy(sort, sortable, [asc(menu.sort), asc(menu.id)]));
  const links = await ctx.db.select().from(menuInterface);
  const byMenu = new Map<number, number[]>();
  for (const l of links) byMenu.set(l.menuId, [...(byMenu.get(l.menuId) ?? []), l.interfaceId]);
  const nodes = new Map<string, MenuNode>(
    rows.map((r) => [r.path, { ...r, interfaceIds: (byMenu.get(r.id) ?? []).sort((a, b) => a - b), children: [] }]),
  );
  const roots: MenuNode[] = [];
  for (const node of nodes.values()) {
    const parentNode = node.parentPath ? nodes.get(node.parentPath) : undefined;
    if (parentNode) parentNode.children.push(node);
    else roots.push(node);
  }
  return roots;
}

async function interfacesOfMenu(ctx: AppContext, menuId: number) {
  return ctx.db
    .select({ id: apiInterface.id, method: apiInterface.method, path: apiInterface.path, name: apiInterface.name, area: apiInterface.area, access: apiInterface.access })
    .from(menuInterface)
    .innerJoin(apiInterface, eq(apiInterface.id, menuInterface.interfaceId))
    .where(eq(menuInterface.menuId, menuId))
    .orderBy(asc(apiInterface.path));
}

export async function menuOne(ctx: AppContext, id: number) {
  const [row] = await ctx.db.select(columns).from(menu).where(eq(menu.id, id));
  const m = found(row, '菜单不存在');
  const interfaces = await interfacesOfMenu(ctx, id);
  return { ...m, interfaces, interfaceIds: interfaces.map((i) => i.id) };
}

interface MenuEdit {
  id: number;
  name: string;
  icon: string | null;
  sort?: number;
  hidden?: boolean;
  interfaceIds?: number[];
}

/**
 * Edits a menu entry and marks it edited, so a refresh keeps it. A caller other than the
 * built-in administrator can map to a menu only interfaces they may call themselves.
 */
export async function editMenu(ctx: AppContext, user: AuthUser, body: MenuEdit) {
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select({ id: menu.id }).from(menu).where(eq(menu.id, body.id)).for('update');
    found(row, '菜单不存在');
    await tx
      .update(menu)
      .set({
        name: body.name,
        icon: body.icon,
        ...(body.sort !== undefined ? { sort: body.sort } : {}),
        ...(body.hidden !== undefined ? { hidden: body.hidden } : {}),
        edited: true,
        updatedAt: new Date(),
      })
      .where(eq(menu.id, body.id));
    if (body.interfaceIds) {
      const ids = [...new Set(body.interfaceIds)];
      await assertGrantableInterfaces(tx, ids);
      const existing = await tx.select({ id: menuInterface.interfaceId }).from(menuInterface).where(eq(menuInterface.menuId, body.id));
      await assertCallerHolds(tx, user, { interfaceIds: ids }, { interfaceIds: existing.map((e) => e.id) });
      await tx.delete(menuInterface).where(eq(menuInterface.menuId, body.id));
      if (ids.length) await tx.insert(menuInterface).values(ids.map((interfaceId) => ({ menuId: body.id, interfaceId })));
    }
  });
}
