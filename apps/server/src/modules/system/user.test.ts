import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIME_ZONE_INVALID, type Page } from '@ess/contract';
import { appUser, session } from '../../db/schema/system.ts';
import { site } from '../../db/schema/site.ts';
import { ADMIN_PASSWORD, dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { menuIdsOf, newSite, newUser, okData, roleIdByName, seededCompanies } from '../../../test/factory.ts';

interface UserRecord {
  id: number;
  username: string;
  name: string;
  companyId: number;
  companyName: string;
  status: number;
  buildIn: boolean;
  roles: { id: number; name: string }[];
  siteCount: number;
  roleIds: number[];
  siteIds: number[];
}

describe.each(dbTargets(import.meta.url))('user administration on %s', (target) => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof seededCompanies>>;
  let operatorRole: number;
  let eastSites: number[];
  let southSite: number;
  let eastAdmin: { token: string; id: number; roleId: number };
  let adminId: number;

  const add = (token: string, body: Record<string, unknown>) => t.api.post<{ id: number }>('/system/user/add', token, body);
  const edit = (token: string, body: Record<string, unknown>) => t.api.post('/system/user/edit', token, body);
  const one = (token: string, id: number) => t.api.post<UserRecord>('/system/user/query/one', token, { id });
  const addOk = async (token: string, body: Record<string, unknown>) => (await okData(add(token, body))).id;
  /** The edit body that keeps everything of a user as it is. */
  const asIs = async (id: number) => {
    const u = (await one(t.adminToken, id)).body.data;
    return { id, name: u.name, companyId: u.companyId, roleIds: u.roleIds, siteIds: u.siteIds, status: u.status };
  };

  beforeAll(async () => {
    t = await startTestApp(target);
    c = await seededCompanies(t);
    operatorRole = await roleIdByName(t, '运营人员', c.group.id);
    eastSites = [(await newSite(t, c.east.id)).id, (await newSite(t, c.east.id)).id];
    southSite = (await newSite(t, c.south.id)).id;
    // A non-built-in EAST administrator with every menu, granted the first EAST station only.
    eastAdmin = await newUser(t, c.east.id, { menus: 'all', siteIds: [eastSites[0]!] });
    adminId = (await t.ctx.db.select().from(appUser).where(eq(appUser.username, 'admin')))[0]!.id;
  });
  afterAll(async () => t?.stop());

  it('adds a user who can sign in; the page shows roles, company and station count, never the hash', async () => {
    const id = await addOk(t.adminToken, {
      username: 'Zhang.San', password: 'Abcdefg123', name: '张三', companyId: c.east.id, roleIds: [operatorRole], siteIds: eastSites,
    });
    const page = await t.api.post<Page<UserRecord>>('/system/user/query/page', t.adminToken, { username: 'zhang.san' });
    expect(page.body.data.total).toBe(1);
    const rec = page.body.data.records[0]!;
    expect(rec).toMatchObject({ id, username: 'Zhang.San', companyName: '华东储能有限公司', status: 1, siteCount: 2, roles: [{ id: operatorRole, name: '运营人员' }] });
    expect(Object.keys(rec).some((k) => /password/i.test(k))).toBe(false);
    expect(page.raw.toString()).not.toContain('argon2');

    const detail = await one(t.adminToken, id);
    expect(detail.body.data).toMatchObject({ roleIds: [operatorRole], siteIds: [...eastSites].sort((a, b) => a - b), siteCount: 2 });
    expect(detail.raw.toString()).not.toContain('argon2');
    expect(await t.api.login('zhang.san', 'Abcdefg123')).toBeTruthy();
  });

  it('counts every station of their companies for a built-in user', async () => {
    const all = await t.ctx.db.select().from(site);
    const admin = await one(t.adminToken, adminId);
    expect(admin.body.data.buildIn).toBe(true);
    expect(admin.body.data.siteCount).toBe(all.length);
  });

  it('refuses a username taken in any letter case', async () => {
    await addOk(t.adminToken, { username: 'lisi', password: 'Abcdefg123', name: '李四', companyId: c.east.id, roleIds: [operatorRole] });
    const dup = await add(t.adminToken, { username: 'LiSi', password: 'Abcdefg123', name: '李四', companyId: c.east.id, roleIds: [operatorRole] });
    expect(dup.status).toBe(406);
    expect(dup.body.errorCode).toBe('A0409');
    expect(dup.body.tipMsg).toBe('用户名已存在');
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const base = { username: 'wangwu', password: 'Abcdefg123', name: '王五', companyId: c.east.id, roleIds: [operatorRole] };
    const weak = await add(t.adminToken, { ...base, password: 'abcdefgh' });
    expect(weak.status).toBe(400);
    expect(weak.body.tipMsg).toContain('password');
    const noRole = await add(t.adminToken, { ...base, roleIds: [] });
    expect(noRole.status).toBe(400);
    expect(noRole.body.tipMsg).toContain('角色不能为空');
    const badName = await add(t.adminToken, { ...base, username: 'a b' });
    expect(badName.status).toBe(400);
    expect(badName.body.tipMsg).toContain('username');
    const badStatus = await add(t.adminToken, { ...base, status: 2 });
    expect(badStatus.status).toBe(400);
    const badPhone = await add(t.adminToken, { ...base, phone: 'call me' });
    expect(badPhone.body.tipMsg).toContain('phone');
    expect((await t.api.post('/system/user/query/page', t.adminToken, { current: 0 })).status).toBe(400);
    expect(await t.ctx.db.select().from(appUser).where(eq(appUser.username, 'wangwu'))).toHaveLength(0);
  });

  it('refuses roles and stations outside the caller scope or the user company', async () => {
    const base = { password: 'Abcdefg123', name: '赵六', companyId: c.east.id };
    const [homeMenu] = await menuIdsOf(t, ['/home/index']);
    const southRole = (await t.api.post<{ id: number }>('/system/role/add', t.adminToken, { name: '华南运维', companyId: c.south.id, menuIds: [homeMenu] })).body.data.id;
    const eastRole = (await t.api.post<{ id: number }>('/system/role/add', t.adminToken, { name: '华东运维', companyId: c.east.id, menuIds: [homeMenu] })).body.data.id;

    const wrongCompany = await add(t.adminToken, { ...base, username: 'zl1', roleIds: [southRole] });
    expect(wrongCompany.status).toBe(406);
    expect(wrongCompany.body.tipMsg).toBe('角色不属于该用户所在公司或其上级公司');
    const unknownRole = await add(t.adminToken, { ...base, username: 'zl2', roleIds: [999_999] });
    expect(unknownRole.body.tipMsg).toBe('包含不存在的角色');
    const outOfScope = await add(eastAdmin.token, { ...base, username: 'zl3', roleIds: [operatorRole] });
    expect(outOfScope.status).toBe(403);
    expect(outOfScope.body.tipMsg).toBe('包含无权访问的角色');

    const southStation = await add(t.adminToken, { ...base, username: 'zl4', roleIds: [eastRole], siteIds: [southSite] });
    expect(southStation.status).toBe(406);
    expect(southStation.body.tipMsg).toBe('站点不属于该用户所在公司');
    // The EAST administrator was granted only the first EAST station.
    const notMine = await add(eastAdmin.token, { ...base, username: 'zl5', roleIds: [eastRole], siteIds: [eastSites[1]!] });
    expect(notMine.status).toBe(403);
    const companyOut = await add(eastAdmin.token, { ...base, username: 'zl6', companyId: c.south.id, roleIds: [eastRole] });
    expect(companyOut.status).toBe(403);
    const id = await addOk(eastAdmin.token, { ...base, username: 'zl7', roleIds: [eastRole], siteIds: [eastSites[0]!] });
    expect((await one(eastAdmin.token, id)).body.data.siteCount).toBe(1);
  });

  it('edits roles, status and stations (replaced) and resets a password, ending the old sessions', async () => {
    const id = await addOk(t.adminToken, { username: 'qianqi', password: 'Abcdefg123', name: '钱七', companyId: c.east.id, roleIds: [operatorRole], siteIds: eastSites });
    const token = await t.api.login('qianqi', 'Abcdefg123');
    const investor = await roleIdByName(t, '投资人', c.group.id);
    const r = await edit(t.adminToken, { ...(await asIs(id)), name: '钱七七', roleIds: [investor], siteIds: [eastSites[1]!], password: 'Newpass123' });
    expect(r.body.errorCode, r.body.tipMsg).toBe('00000');
    const after = await one(t.adminToken, id);
    expect(after.body.data).toMatchObject({ name: '钱七七', roleIds: [investor], siteIds: [eastSites[1]], siteCount: 1 });
    expect((await t.api.get('/system/user/profile/info', token)).status).toBe(401);
    await expect(t.api.login('qianqi', 'Abcdefg123')).rejects.toThrow();
    expect(await t.api.login('qianqi', 'Newpass123')).toBeTruthy();
  });

  it('disabling a user ends their sessions at once, for good', async () => {
    const id = await addOk(t.adminToken, { username: 'sunba', password: 'Abcdefg123', name: '孙八', companyId: c.east.id, roleIds: [operatorRole] });
    const token = await t.api.login('sunba', 'Abcdefg123');
    expect((await t.api.get('/system/user/profile/info', token)).status).toBe(200);
    const off = await edit(t.adminToken, { ...(await asIs(id)), status: 0 });
    expect(off.body.errorCode).toBe('00000');
    const r = await t.api.get('/system/user/profile/info', token);
    expect(r.status).toBe(401);
    expect(r.body.errorCode).toBe('A0100');
    const sessions = await t.ctx.db.select().from(session).where(eq(session.userId, id));
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((s) => s.revokedAt !== null)).toBe(true);
    const login = await t.api.post('/basic/user/login', null, { username: 'sunba', password: 'Abcdefg123' });
    expect(login.body.errorCode).toBe('A0103');

    expect((await edit(t.adminToken, { ...(await asIs(id)), status: 1 })).body.errorCode).toBe('00000');
    expect((await t.api.get('/system/user/profile/info', token)).status).toBe(401);
    expect(await t.api.login('sunba', 'Abcdefg123')).toBeTruthy();
  });

  it('guards self-service and the built-in administrator', async () => {
    const disableSelf = await edit(eastAdmin.token, { ...(await asIs(eastAdmin.id)), status: 0 });
    expect(disableSelf.status).toBe(406);
    expect(disableSelf.body.tipMsg).toBe('不能停用自己');
    const ownRoles = await edit(eastAdmin.token, { ...(await asIs(eastAdmin.id)), roleIds: [eastAdmin.roleId, operatorRole] });
    expect(ownRoles.body.tipMsg).toBe('不能修改自己的角色');
    const ownName = await edit(eastAdmin.token, { ...(await asIs(eastAdmin.id)), name: '华东管理员' });
    expect(ownName.body.errorCode).toBe('00000');
    expect((await t.api.get('/system/user/profile/info', eastAdmin.token)).status).toBe(200);

    const groupAdmin = await newUser(t, c.group.id, { menus: 'all' });
    const touchAdmin = await edit(groupAdmin.token, { ...(await asIs(adminId)), status: 0 });
    expect(touchAdmin.status).toBe(406);
    expect(touchAdmin.body.tipMsg).toBe('内置管理员只能由本人修改');
    const adminSelf = await edit(t.adminToken, { ...(await asIs(adminId)), status: 0 });
    expect(adminSelf.body.tipMsg).toBe('不能停用自己');
    const adminMove = await edit(t.adminToken, { ...(await asIs(adminId)), companyId: c.east.id });
    expect(adminMove.body.tipMsg).toBe('内置管理员不能更换公司');
    expect((await t.api.get('/system/user/profile/info', t.adminToken)).status).toBe(200);
    expect(await t.api.login('admin', ADMIN_PASSWORD)).toBeTruthy();
  });

  it('filters the page by username, name, company, role and status', async () => {
    const [homeMenu] = await menuIdsOf(t, ['/home/index']);
    const filterRole = (await t.api.post<{ id: number }>('/system/role/add', t.adminToken, { name: '筛选角色', companyId: c.south.id, menuIds: [homeMenu] })).body.data.id;
    const a = await addOk(t.adminToken, { username: 'filter_a', password: 'Abcdefg123', name: '筛选甲', companyId: c.south.id, roleIds: [filterRole] });
    const b = await addOk(t.adminToken, { username: 'filter_b', password: 'Abcdefg123', name: '筛选乙', companyId: c.south.id, roleIds: [filterRole], status: 0 });
    const ids = async (q: Record<string, unknown>) =>
      (await t.api.post<Page<UserRecord>>('/system/user/query/page', t.adminToken, { pageSize: 100, ...q })).body.data.records.map((r) => r.id);
    expect(await ids({ username: 'filter_' })).toEqual([a, b]);
    expect(await ids({ name: '筛选乙' })).toEqual([b]);
    expect(await ids({ roleId: filterRole })).toEqual([a, b]);
    expect(await ids({ roleId: filterRole, status: 0 })).toEqual([b]);
    expect(await ids({ companyId: c.south.id, status: 1 })).toEqual([a]);
    expect(await ids({ username: '_' })).toEqual([a, b]);
    const paged = await t.api.post<Page<UserRecord>>('/system/user/query/page', t.adminToken, { username: 'filter_', pageSize: 1, current: 2 });
    expect(paged.body.data).toMatchObject({ total: 2, current: 2, pageSize: 1 });
    expect(paged.body.data.records.map((r) => r.id)).toEqual([b]);
  });

  it("sets the user's own time zone on add and edit: an IANA name checked, '' or null clears, left out keeps it", async () => {
    const zoneOf = async (id: number) => (await t.ctx.db.select({ tz: appUser.timeZone }).from(appUser).where(eq(appUser.id, id)))[0]!.tz;
    const base = { password: 'Abcdefg123', name: '时区用户', companyId: c.east.id, roleIds: [operatorRole] };
    const id = await addOk(t.adminToken, { ...base, username: 'zoned_user', timeZone: 'America/Los_Angeles' });
    expect(await zoneOf(id)).toBe('America/Los_Angeles');
    expect((await one(t.adminToken, id)).body.data).toMatchObject({ timeZone: 'America/Los_Angeles' });
    // Unknown zones: 400 with the field's tip, nothing written.
    const badAdd = await add(t.adminToken, { ...base, username: 'zoned_bad', timeZone: 'Mars/Olympus_Mons' });
    expect([badAdd.status, badAdd.body.errorCode]).toEqual([400, 'A0400']);
    expect(badAdd.body.tipMsg).toContain(TIME_ZONE_INVALID);
    expect(await t.ctx.db.select().from(appUser).where(eq(appUser.username, 'zoned_bad'))).toEqual([]);
    const badEdit = await edit(t.adminToken, { ...(await asIs(id)), timeZone: 'Europe/Atlantis' });
    expect([badEdit.status, badEdit.body.errorCode]).toEqual([400, 'A0400']);
    expect(badEdit.body.tipMsg).toContain(TIME_ZONE_INVALID);
    expect(await zoneOf(id)).toBe('America/Los_Angeles');
    // Edit: replaced, kept when left out, cleared by '' or null.
    expect((await edit(t.adminToken, { ...(await asIs(id)), timeZone: 'Europe/Berlin' })).body.errorCode).toBe('00000');
    expect(await zoneOf(id)).toBe('Europe/Berlin');
    expect((await edit(t.adminToken, { ...(await asIs(id)), name: '改名' })).body.errorCode).toBe('00000');
    expect(await zoneOf(id)).toBe('Europe/Berlin');
    expect((await edit(t.adminToken, { ...(await asIs(id)), timeZone: '' })).body.errorCode).toBe('00000');
    expect(await zoneOf(id)).toBeNull();
    expect((await edit(eastAdmin.token, { ...(await asIs(id)), timeZone: 'Asia/Tokyo' })).body.errorCode).toBe('00000');
    expect((await edit(eastAdmin.token, { ...(await asIs(id)), timeZone: null })).body.errorCode).toBe('00000');
    expect(await zoneOf(id)).toBeNull();
    // Without a zone on add: none (messages follow the station's).
    expect(await zoneOf(await addOk(t.adminToken, { ...base, username: 'unzoned_user' }))).toBeNull();
    // Another company's user stays out of reach, zone and all.
    const south = await addOk(t.adminToken, { ...base, username: 'south_zoned', companyId: c.south.id, timeZone: 'Asia/Shanghai' });
    const refused = await edit(eastAdmin.token, { id: south, name: 'x', companyId: c.east.id, roleIds: [eastAdmin.roleId], status: 1, timeZone: 'Europe/Berlin' });
    expect(refused.status).toBe(404);
    expect(await zoneOf(south)).toBe('Asia/Shanghai');
  });

  it("keeps an EAST user away from other companies' users", async () => {
    const southUser = await addOk(t.adminToken, { username: 'south_user', password: 'Abcdefg123', name: '华南用户', companyId: c.south.id, roleIds: [operatorRole] });
    const page = await t.api.post<Page<UserRecord>>('/system/user/query/page', eastAdmin.token, { pageSize: 100 });
    expect(page.body.data.total).toBeGreaterThan(0);
    expect(page.body.data.records.every((u) => u.companyId === c.east.id)).toBe(true);
    const list = await t.api.post<UserRecord[]>('/system/user/query/list', eastAdmin.token, {});
    expect(list.body.data.map((u) => u.id)).not.toContain(southUser);
    expect(list.body.data.map((u) => u.id)).not.toContain(adminId);
    expect(list.body.data.every((u) => u.companyId === c.east.id)).toBe(true);
    expect((await one(eastAdmin.token, southUser)).status).toBe(404);
    const editSouth = await edit(eastAdmin.token, { id: southUser, name: 'x', companyId: c.east.id, roleIds: [eastAdmin.roleId], status: 0 });
    expect(editSouth.status).toBe(404);
    expect((await one(t.adminToken, southUser)).body.data).toMatchObject({ name: '华南用户', status: 1 });
  });
});
