import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@ess/contract';
import { role, roleMenu, userRole } from '../../db/schema/system.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { interfaceIdOf, menuIdsOf, newUser, okData, roleIdByName, seededCompanies } from '../../../test/factory.ts';

interface RoleRecord {
  id: number;
  companyId: number;
  companyName: string;
  name: string;
  buildIn: boolean;
  userCount: number;
  menuIds: number[];
  interfaceIds: number[];
}

describe.each(dbTargets(import.meta.url))('role administration on %s', (target) => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof seededCompanies>>;
  let east: { token: string; id: number; roleId: number };
  let groupOperator: { token: string; id: number };
  let roleMenuId: number;
  let homeMenuId: number;
  let companyMenuId: number;

  const add = (token: string, body: Record<string, unknown>) => t.api.post<{ id: number }>('/system/role/add', token, body);
  const one = (token: string, id: number) => t.api.post<RoleRecord>('/system/role/query/one', token, { id });
  const addOk = async (token: string, body: Record<string, unknown>) => (await okData(add(token, body))).id;

  beforeAll(async () => {
    t = await startTestApp(target);
    c = await seededCompanies(t);
    roleMenuId = (await menuIdsOf(t, ['/system/role']))[0]!;
    homeMenuId = (await menuIdsOf(t, ['/home/index']))[0]!;
    companyMenuId = (await menuIdsOf(t, ['/system/company']))[0]!;
    // An EAST role administrator holding the role and home pages only.
    east = await newUser(t, c.east.id, { menus: ['/system/role', '/home/index'] });
    groupOperator = await newUser(t, c.group.id, { menus: 'all' });
  });
  afterAll(async () => t?.stop());

  it('adds a role in the caller company by default and returns it with its permissions', async () => {
    const ifId = await interfaceIdOf(t, '/system/company/query/list');
    const id = await addOk(t.adminToken, { name: '值班员', menuIds: [homeMenuId], interfaceIds: [ifId], remark: '夜班' });
    const r = await one(t.adminToken, id);
    expect(r.body.data).toMatchObject({ id, companyId: c.group.id, companyName: '储能集团', name: '值班员', buildIn: false, userCount: 0 });
    expect(r.body.data.menuIds).toEqual([homeMenuId]);
    expect(r.body.data.interfaceIds).toEqual([ifId]);

    const inEast = await addOk(t.adminToken, { name: '值班员', companyId: c.east.id, menuIds: [homeMenuId] });
    const list = await t.api.post<RoleRecord[]>('/system/role/query/list', t.adminToken, { name: '值班' });
    expect(list.body.data.map((x) => x.id).sort((a, b) => a - b)).toEqual([id, inEast].sort((a, b) => a - b));
    const page = await t.api.post<Page<RoleRecord>>('/system/role/query/page', t.adminToken, { name: '值班', companyId: c.east.id });
    expect(page.body.data.total).toBe(1);
    expect(page.body.data.records[0]!.id).toBe(inEast);
  });

  it('refuses empty or duplicate permissions and bad input with a 400', async () => {
    const empty = await add(t.adminToken, { name: '空权限' });
    expect(empty.status).toBe(400);
    expect(empty.body.tipMsg).toContain('权限配置不能为空');
    const ifId = await interfaceIdOf(t, '/system/company/query/list');
    const dup = await add(t.adminToken, { name: '重复接口', interfaceIds: [ifId, ifId] });
    expect(dup.status).toBe(400);
    expect(dup.body.tipMsg).toContain('接口不能重复');
    const noName = await add(t.adminToken, { menuIds: [homeMenuId] });
    expect(noName.status).toBe(400);
    expect(noName.body.tipMsg).toContain('name');
    expect((await t.api.get('/system/role/delete', t.adminToken, { id: 'abc' })).status).toBe(400);
  });

  it('refuses unknown menus and interfaces, and interfaces that need no grant', async () => {
    const unknownMenu = await add(t.adminToken, { name: '坏菜单', menuIds: [999_999] });
    expect(unknownMenu.status).toBe(406);
    expect(unknownMenu.body.tipMsg).toBe('包含不存在的菜单');
    const unknownIf = await add(t.adminToken, { name: '坏接口', interfaceIds: [999_999] });
    expect(unknownIf.body.tipMsg).toBe('包含不存在的接口');
    const profile = await interfaceIdOf(t, '/system/user/profile/info');
    expect((await add(t.adminToken, { name: '坏接口2', interfaceIds: [profile] })).body.errorCode).toBe('A0406');
    const names = (await t.ctx.db.select({ name: role.name }).from(role)).map((r) => r.name);
    expect(names).not.toEqual(expect.arrayContaining(['坏菜单']));
    expect(names).not.toContain('坏接口');
  });

  it('refuses a duplicate name within a company', async () => {
    await addOk(t.adminToken, { name: '重名角色', menuIds: [homeMenuId] });
    const dup = await add(t.adminToken, { name: '重名角色', menuIds: [homeMenuId] });
    expect(dup.status).toBe(406);
    expect(dup.body.errorCode).toBe('A0409');
    const other = await addOk(t.adminToken, { name: '另一个', menuIds: [homeMenuId] });
    const rename = await t.api.post('/system/role/edit', t.adminToken, { id: other, name: '重名角色', menuIds: [homeMenuId] });
    expect(rename.body.errorCode).toBe('A0409');
  });

  it('lets a non-built-in caller grant only menus and interfaces they hold', async () => {
    const refused = await add(east.token, { name: '越级', menuIds: [homeMenuId, companyMenuId] });
    expect(refused.status).toBe(406);
    expect(refused.body.tipMsg).toBe('不能授予自己没有的菜单权限');
    const del = await interfaceIdOf(t, '/system/company/delete');
    expect((await add(east.token, { name: '越级2', interfaceIds: [del] })).body.tipMsg).toBe('不能授予自己没有的接口权限');
    // An interface reached through a held menu can be granted directly.
    const tree = await interfaceIdOf(t, '/system/company/query/tree');
    const id = await addOk(east.token, { name: '华东角色', menuIds: [homeMenuId, roleMenuId], interfaceIds: [tree] });
    expect((await one(east.token, id)).body.data.companyId).toBe(c.east.id);

    // Ids present before an edit may stay even if the caller lacks them.
    const wide = await addOk(t.adminToken, { name: '宽角色', companyId: c.east.id, menuIds: [homeMenuId, companyMenuId] });
    const keep = await t.api.post('/system/role/edit', east.token, { id: wide, name: '宽角色2', menuIds: [homeMenuId, companyMenuId] });
    expect(keep.body.errorCode).toBe('00000');
    const widen = await t.api.post('/system/role/edit', east.token, { id: id, name: '华东角色', menuIds: [homeMenuId, companyMenuId] });
    expect(widen.body.tipMsg).toBe('不能授予自己没有的菜单权限');
  });

  it('protects built-in roles', async () => {
    const operatorRole = await roleIdByName(t, '运营人员', c.group.id);
    const before = await one(t.adminToken, operatorRole);
    const rename = await t.api.post('/system/role/edit', t.adminToken, { id: operatorRole, name: '改名', menuIds: before.body.data.menuIds });
    expect(rename.status).toBe(406);
    expect(rename.body.tipMsg).toBe('内置角色不能修改名称');
    const byOther = await t.api.post('/system/role/edit', groupOperator.token, { id: operatorRole, name: '运营人员', menuIds: [homeMenuId] });
    expect(byOther.body.tipMsg).toBe('内置角色只能由内置管理员修改');
    const perms = await t.api.post('/system/role/edit', t.adminToken, { id: operatorRole, name: '运营人员', menuIds: [homeMenuId] });
    expect(perms.body.errorCode).toBe('00000');
    expect((await one(t.adminToken, operatorRole)).body.data.menuIds).toEqual([homeMenuId]);
    const del = await t.api.get('/system/role/delete', t.adminToken, { id: operatorRole });
    expect(del.body.tipMsg).toBe('内置角色不能删除');
  });

  it('refuses deleting a role still assigned to users, deletes an unassigned one', async () => {
    const id = await addOk(t.adminToken, { name: '待删', menuIds: [homeMenuId] });
    await t.ctx.db.insert(userRole).values({ userId: groupOperator.id, roleId: id });
    const refused = await t.api.get('/system/role/delete', t.adminToken, { id });
    expect(refused.status).toBe(406);
    expect(refused.body.tipMsg).toBe('该角色已分配给用户，不能删除');
    expect((await one(t.adminToken, id)).body.data.userCount).toBe(1);
    await t.ctx.db.delete(userRole).where(eq(userRole.roleId, id));
    expect((await t.api.get('/system/role/delete', t.adminToken, { id })).body.errorCode).toBe('00000');
    expect((await one(t.adminToken, id)).status).toBe(404);
    expect(await t.ctx.db.select().from(roleMenu).where(eq(roleMenu.roleId, id))).toHaveLength(0);
  });

  it('takes effect at once: a granted menu opens its calls', async () => {
    const u = await newUser(t, c.east.id, { menus: ['/home/index'] });
    expect((await t.api.post('/system/company/query/list', u.token, {})).status).toBe(403);
    const r = await t.api.post('/system/role/edit', t.adminToken, { id: u.roleId, name: `role-${u.username}`, menuIds: [homeMenuId, companyMenuId] });
    expect(r.body.errorCode).toBe('00000');
    expect((await t.api.post('/system/company/query/list', u.token, {})).status).toBe(200);
  });

  it("keeps an EAST user away from other companies' roles", async () => {
    const southRole = await addOk(t.adminToken, { name: '华南角色', companyId: c.south.id, menuIds: [homeMenuId] });
    const list = await t.api.post<RoleRecord[]>('/system/role/query/list', east.token, {});
    expect(list.body.data.length).toBeGreaterThan(0);
    expect(list.body.data.every((r) => r.companyId === c.east.id)).toBe(true);
    const page = await t.api.post<Page<RoleRecord>>('/system/role/query/page', east.token, { companyId: c.south.id });
    expect(page.body.data.total).toBe(0);
    expect((await one(east.token, southRole)).status).toBe(404);
    expect((await t.api.post('/system/role/edit', east.token, { id: southRole, name: 'x', menuIds: [homeMenuId] })).status).toBe(404);
    expect((await t.api.get('/system/role/delete', east.token, { id: southRole })).status).toBe(404);
    const addSouth = await add(east.token, { name: '越权', companyId: c.south.id, menuIds: [homeMenuId] });
    expect(addSouth.status).toBe(403);
    expect((await one(t.adminToken, southRole)).body.data.name).toBe('华南角色');
  });
});
