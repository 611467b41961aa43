import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { menu, menuInterface, roleMenu } from '../../db/schema/system.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { interfaceIdOf, newUser, seededCompanies } from '../../../test/factory.ts';

interface MenuNode {
  id: number;
  path: string;
  parentPath: string | null;
  name: string;
  hidden: boolean;
  edited: boolean;
  interfaceIds: number[];
  children: MenuNode[];
}
interface InterfaceRow {
  id: number;
  path: string;
  area: string;
  access: string;
  selectable: boolean;
}

describe.each(dbTargets(import.meta.url))('menus and interfaces on %s', (target) => {
  let t: TestApp;
  let menuAdminToken: string;

  const menuByPath = async (path: string) => (await t.ctx.db.select().from(menu).where(eq(menu.path, path)))[0]!;

  beforeAll(async () => {
    t = await startTestApp(target);
    const { east } = await seededCompanies(t);
    // Holds menu management and the home page only, so it may not hand out company calls.
    menuAdminToken = (await newUser(t, east.id, { menus: ['/system/menu', '/home/index'] })).token;
  });
  afterAll(async () => t?.stop());

  it('lists interfaces with their access, filtered by keyword and area', async () => {
    const r = await t.api.post<InterfaceRow[]>('/system/interface/query/list', t.adminToken, { keyword: '/system/company' });
    expect(r.body.errorCode).toBe('00000');
    expect(r.body.data.map((i) => i.path)).toEqual(expect.arrayContaining(['/system/company/add', '/system/company/delete']));
    expect(r.body.data.every((i) => i.path.includes('/system/company'))).toBe(true);
    expect(r.body.data.every((i) => i.access === 'menu' && i.selectable)).toBe(true);

    const byArea = await t.api.post<InterfaceRow[]>('/system/interface/query/list', t.adminToken, { area: 'System administration' });
    expect(byArea.body.data.length).toBeGreaterThan(10);
    expect(byArea.body.data.every((i) => i.area === 'System administration')).toBe(true);
    const profile = await t.api.post<InterfaceRow[]>('/system/interface/query/list', t.adminToken, { keyword: 'profile/info' });
    expect(profile.body.data).toHaveLength(1);
    expect(profile.body.data[0]).toMatchObject({ path: '/system/user/profile/info', access: 'user', selectable: false });

    const escaped = await t.api.post<InterfaceRow[]>('/system/interface/query/list', t.adminToken, { keyword: '%' });
    expect(escaped.body.data).toEqual([]);
  });

  it('returns the menu tree nested by parentPath with each menu’s interfaces', async () => {
    const r = await t.api.post<MenuNode[]>('/system/menu/query/tree', t.adminToken, {});
    expect(r.body.errorCode).toBe('00000');
    const system = r.body.data.find((m) => m.path === '/system')!;
    expect(system.parentPath).toBeNull();
    const user = system.children.find((m) => m.path === '/system/user')!;
    expect(user.parentPath).toBe('/system');
    expect(user.interfaceIds).toContain(await interfaceIdOf(t, '/system/user/add'));
    expect(r.body.data.every((m) => m.parentPath === null)).toBe(true);
  });

  it('returns one menu with its interfaces and 404 for an unknown id', async () => {
    const m = await menuByPath('/system/company');
    const r = await t.api.post<{ id: number; interfaces: { path: string }[]; interfaceIds: number[] }>('/system/menu/query/one', t.adminToken, { id: m.id });
    expect(r.body.data.interfaces.map((i) => i.path)).toContain('/system/company/delete');
    expect(r.body.data.interfaceIds).toHaveLength(r.body.data.interfaces.length);
    expect((await t.api.post('/system/menu/query/one', t.adminToken, { id: 999_999 })).status).toBe(404);
    expect((await t.api.post('/system/menu/query/one', t.adminToken, { id: 'x' })).status).toBe(400);
  });

  it('edits a menu, marks it edited, and a refresh keeps the edit but restores unedited menus', async () => {
    const m = await menuByPath('/system/company');
    const tree = await interfaceIdOf(t, '/system/company/query/tree');
    const r = await t.api.post('/system/menu/edit', t.adminToken, { id: m.id, name: '公司管理(改)', sort: 5, hidden: true, interfaceIds: [tree] });
    expect(r.body.errorCode).toBe('00000');
    const one = await t.api.post<{ name: string; hidden: boolean; edited: boolean; sort: number; interfaceIds: number[] }>(
      '/system/menu/query/one', t.adminToken, { id: m.id },
    );
    expect(one.body.data).toMatchObject({ name: '公司管理(改)', hidden: true, edited: true, sort: 5, interfaceIds: [tree] });

    const other = await menuByPath('/system/role');
    await t.ctx.db.update(menu).set({ name: '被篡改' }).where(eq(menu.id, other.id));
    const refreshed = await t.api.post('/system/menu/refresh', t.adminToken, {});
    expect(refreshed.body.errorCode).toBe('00000');
    expect((await menuByPath('/system/company')).name).toBe('公司管理(改)');
    expect((await menuByPath('/system/role')).name).toBe('角色管理');
  });

  it('a refresh writes only what differs: nothing on an unchanged table, a lost or stray link mended, a lost page back with the roles of the page it follows', async () => {
    const links = async () => (await t.ctx.db.select().from(menuInterface)).map((l) => `${l.menuId}:${l.interfaceId}`).sort();
    // A row's xmin is the transaction that wrote its current version: unchanged when nothing rewrote it.
    const stamps = async () => (await t.ctx.database.sql.query<{ v: string }>(
      "select 'menu ' || path || '@' || xmin::text as v from menu union all select 'api ' || path || '@' || xmin::text from api_interface",
    )).rows.map((r) => r.v).sort();
    await t.api.post('/system/menu/refresh', t.adminToken, {});
    const [before, beforeStamps] = [await links(), await stamps()];
    expect((await t.api.post('/system/menu/refresh', t.adminToken, {})).body.errorCode).toBe('00000');
    expect(await links()).toEqual(before);
    expect(await stamps()).toEqual(beforeStamps);

    // A link lost and a stray one added (an unedited page): the refresh puts the contract's back.
    const device = await menuByPath('/monitor/device');
    const [lost] = await t.ctx.db.select().from(menuInterface).where(eq(menuInterface.menuId, device.id));
    await t.ctx.db.delete(menuInterface).where(and(eq(menuInterface.menuId, device.id), eq(menuInterface.interfaceId, lost!.interfaceId)));
    const stray = await interfaceIdOf(t, '/system/company/query/tree');
    await t.ctx.db.insert(menuInterface).values({ menuId: device.id, interfaceId: stray });
    await t.api.post('/system/menu/refresh', t.adminToken, {});
    expect(await links()).toEqual(before);

    // The device detail page gone (an older installation): it comes back, held by whoever holds the device list.
    const detail = await menuByPath('/monitor/deviceDetail');
    await t.ctx.db.delete(menu).where(eq(menu.id, detail.id));
    const holders = (await t.ctx.db.select({ roleId: roleMenu.roleId }).from(roleMenu).where(eq(roleMenu.menuId, device.id))).map((r) => r.roleId).sort();
    expect(holders.length).toBeGreaterThan(0);
    await t.api.post('/system/menu/refresh', t.adminToken, {});
    const back = await menuByPath('/monitor/deviceDetail');
    expect(back.id).not.toBe(detail.id);
    expect((await t.ctx.db.select({ roleId: roleMenu.roleId }).from(roleMenu).where(eq(roleMenu.menuId, back.id))).map((r) => r.roleId).sort()).toEqual(holders);
    expect((await t.ctx.db.select().from(menuInterface).where(eq(menuInterface.menuId, back.id))).length).toBeGreaterThan(0);
  });

  it('refuses unknown interfaces, interfaces that need no grant, and bad input', async () => {
    const m = await menuByPath('/system/menu');
    const unknown = await t.api.post('/system/menu/edit', t.adminToken, { id: m.id, name: '菜单管理', interfaceIds: [999_999] });
    expect(unknown.status).toBe(406);
    expect(unknown.body.tipMsg).toBe('包含不存在的接口');
    const userLevel = await interfaceIdOf(t, '/system/user/profile/info');
    const notGrantable = await t.api.post('/system/menu/edit', t.adminToken, { id: m.id, name: '菜单管理', interfaceIds: [userLevel] });
    expect(notGrantable.status).toBe(406);
    const noName = await t.api.post('/system/menu/edit', t.adminToken, { id: m.id });
    expect(noName.status).toBe(400);
    expect(noName.body.tipMsg).toContain('name');
    expect((await t.api.post('/system/menu/edit', t.adminToken, { id: 999_999, name: 'x' })).status).toBe(404);
    // Nothing of the refused edits was written.
    expect((await menuByPath('/system/menu')).edited).toBe(false);
  });

  it('lets a non-built-in caller map only interfaces they can call themselves', async () => {
    const home = await menuByPath('/home/index');
    const current = (await t.api.post<{ interfaceIds: number[] }>('/system/menu/query/one', menuAdminToken, { id: home.id })).body.data.interfaceIds;
    const del = await interfaceIdOf(t, '/system/company/delete');
    const refused = await t.api.post('/system/menu/edit', menuAdminToken, { id: home.id, name: '首页概览', interfaceIds: [...current, del] });
    expect(refused.status).toBe(406);
    expect(refused.body.tipMsg).toBe('不能授予自己没有的接口权限');
    // Still cannot call it.
    expect((await t.api.get('/system/company/delete', menuAdminToken, { id: 1 })).status).toBe(403);
    const own = await interfaceIdOf(t, '/system/menu/query/tree');
    const allowed = await t.api.post('/system/menu/edit', menuAdminToken, { id: home.id, name: '首页概览', interfaceIds: [...current, own] });
    expect(allowed.body.errorCode).toBe('00000');
  });
});
