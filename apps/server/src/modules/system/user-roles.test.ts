import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, ProfileInfo } from '@ess/contract';
import { appUser, session, userRole } from '../../db/schema/system.ts';
import { userSite } from '../../db/schema/site.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { FACTORY_PASSWORD, newCompany, newRole, newSite, newUser, okData, roleIdByName, seededCompanies } from '../../../test/factory.ts';

/**
 * Issue 16 §6: deleting users (refusals, removed or anonymised), "all stations of the company"
 * following new stations within the company scope, and the profile's permission list that the
 * console shows actions by (the route guard's own rule).
 */
describe.each(dbTargets(import.meta.url))('users: delete, all stations, permissions on %s', (target) => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof seededCompanies>>;
  let operatorRole: number;
  let adminId: number;

  const del = (token: string, id: number) => t.api.get<{ anonymised: boolean }>('/system/user/delete', token, { id });
  const rowOf = async (id: number) => (await t.ctx.db.select().from(appUser).where(eq(appUser.id, id)))[0];
  const past = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const siteBody = (companyId: number, code: string) => ({
    companyId, name: `站 ${code}`, code, timeZone: 'Asia/Shanghai', commissioningDate: past(30), serviceEndDate: future(3650),
    currency: 'CNY', siteType: 'storage', investorShareRatio: 50,
  });
  const visibleSites = async (token: string) =>
    (await okData(t.api.post<{ id: number }[]>('/configure/site/query/list', token, {}))).map((s) => s.id).sort((a, b) => a - b);

  beforeAll(async () => {
    t = await startTestApp(target);
    c = await seededCompanies(t);
    operatorRole = await roleIdByName(t, '运营人员', c.group.id);
    adminId = (await t.ctx.db.select().from(appUser).where(eq(appUser.username, 'admin')))[0]!.id;
  });
  afterAll(async () => t?.stop());

  describe('delete', () => {
    it('removes a user no journal names: row, roles, station grants and sessions go; the name is free again', async () => {
      const s = await newSite(t, c.east.id);
      const u = await newUser(t, c.east.id, { menus: ['/home/index'], siteIds: [s.id] });
      expect(await okData(del(t.adminToken, u.id))).toEqual({ anonymised: false });
      expect(await rowOf(u.id)).toBeUndefined();
      expect(await t.ctx.db.select().from(userRole).where(eq(userRole.userId, u.id))).toEqual([]);
      expect(await t.ctx.db.select().from(userSite).where(eq(userSite.userId, u.id))).toEqual([]);
      expect(await t.ctx.db.select().from(session).where(eq(session.userId, u.id))).toEqual([]);
      // Its token no longer works.
      expect((await t.api.get('/system/user/profile/info', u.token)).status).toBe(401);
      // The user name can be given again.
      await okData(
        t.api.post('/system/user/add', t.adminToken, { username: u.username, password: 'Abcdefg123', name: '新人', companyId: c.east.id, roleIds: [operatorRole] }),
      );
      // A second delete finds nobody.
      expect((await del(t.adminToken, u.id)).status).toBe(404);
    });

    it('anonymises a user a journal names: disabled, personal data cleared, hidden, the journal still points at the row', async () => {
      const s = await newSite(t, c.east.id);
      const u = await newUser(t, c.east.id, { menus: ['/overview/station', '/overview/kanban'], siteIds: [s.id], username: `handler-${target}` });
      await t.ctx.db.update(appUser).set({ phone: '13800138000', email: 'h@example.com' }).where(eq(appUser.id, u.id));
      // The user acknowledges a station: the handling journal names them.
      await okData(t.api.post('/comprehensive/site/handle', u.token, { siteId: s.id, action: 'acknowledge' }));

      expect(await okData(del(t.adminToken, u.id))).toEqual({ anonymised: true });
      const row = await rowOf(u.id);
      expect(row).toMatchObject({ status: 0, phone: null, email: null, name: '已删除用户', username: `#deleted-${u.id}`, allSites: false });
      expect(row!.deletedAt).toBeInstanceOf(Date);
      expect(await t.ctx.db.select().from(userRole).where(eq(userRole.userId, u.id))).toEqual([]);
      expect(await t.ctx.db.select().from(userSite).where(eq(userSite.userId, u.id))).toEqual([]);
      // The journal keeps who did it.
      const { rows } = await t.ctx.database.sql.query<{ user_id: number; username: string }>('select user_id, username from site_handle where site_id = $1', [s.id]);
      expect(rows).toEqual([{ user_id: u.id, username: `handler-${target}` }]);
      // Signed out, cannot sign in again, gone from the lists and from one/edit/delete.
      expect((await t.api.get('/system/user/profile/info', u.token)).status).toBe(401);
      await expect(t.api.login(`handler-${target}`, FACTORY_PASSWORD)).rejects.toThrow();
      const page = await okData(t.api.post<Page<{ id: number }>>('/system/user/query/page', t.adminToken, { current: 1, pageSize: 500 }));
      expect(page.records.map((r) => r.id)).not.toContain(u.id);
      const list = await okData(t.api.post<{ id: number }[]>('/system/user/query/list', t.adminToken, {}));
      expect(list.map((r) => r.id)).not.toContain(u.id);
      expect((await t.api.post('/system/user/query/one', t.adminToken, { id: u.id })).status).toBe(404);
      expect((await t.api.post('/system/user/edit', t.adminToken, { id: u.id, name: 'x', companyId: c.east.id, roleIds: [operatorRole] })).status).toBe(404);
      expect((await del(t.adminToken, u.id)).status).toBe(404);
      // The user name is free for someone new.
      await okData(
        t.api.post('/system/user/add', t.adminToken, { username: `handler-${target}`, password: 'Abcdefg123', name: '接班', companyId: c.east.id, roleIds: [operatorRole] }),
      );
    });

    it('refuses the built-in administrator and oneself, and changes nothing', async () => {
      const boss = await newUser(t, c.group.id, { menus: 'all' });
      const r1 = await del(boss.token, adminId);
      expect(r1.status).toBe(406);
      expect(r1.body.tipMsg).toBe('内置管理员不能删除');
      // Not even the built-in administrator deletes themselves.
      const r2 = await del(t.adminToken, adminId);
      expect(r2.status).toBe(406);
      const r3 = await del(boss.token, boss.id);
      expect(r3.status).toBe(406);
      expect(r3.body.tipMsg).toBe('不能删除自己');
      expect((await rowOf(adminId))?.status).toBe(1);
      expect((await rowOf(boss.id))?.deletedAt).toBeNull();
    });

    it('refuses a caller without the permission (403) and a user of a company outside the caller’s scope (404)', async () => {
      const victim = await newUser(t, c.south.id, { signIn: false });
      const viewer = await newUser(t, c.south.id, { menus: ['/system/role'] });
      const r1 = await del(viewer.token, victim.id);
      expect(r1.status).toBe(403);
      expect(r1.body.errorCode).toBe('A0300');
      const eastAdmin = await newUser(t, c.east.id, { menus: 'all' });
      const r2 = await del(eastAdmin.token, victim.id);
      expect(r2.status).toBe(404);
      expect(await rowOf(victim.id)).toMatchObject({ status: 1, deletedAt: null });
      // The same caller may delete within their own company.
      const mine = await newUser(t, c.east.id, { signIn: false });
      expect(await okData(del(eastAdmin.token, mine.id))).toEqual({ anonymised: false });
    });
  });

  describe('all stations of the company', () => {
    it('a new user sees no station by default', async () => {
      const id = (await okData(
        t.api.post<{ id: number }>('/system/user/add', t.adminToken, { username: `fresh-${target}`, password: 'Abcdefg123', name: '新', companyId: c.east.id, roleIds: [operatorRole] }),
      )).id;
      const one = await okData(t.api.post<{ siteIds: number[]; siteCount: number; allSites: boolean }>('/system/user/query/one', t.adminToken, { id }));
      expect(one).toMatchObject({ siteIds: [], siteCount: 0, allSites: false });
    });

    it('follows a station created later, and stays inside the user’s companies', async () => {
      const branch = await newCompany(t, c.east.id);
      const before = await newSite(t, branch.id);
      const sibling = await newSite(t, c.south.id);
      const id = (await okData(
        t.api.post<{ id: number }>('/system/user/add', t.adminToken, {
          username: `all-${target}`, password: 'Abcdefg123', name: '全站', companyId: branch.id, roleIds: [operatorRole],
          allSites: true, siteIds: [before.id],
        }),
      )).id;
      // siteIds is cleared: all stations replaces the list.
      const one = await okData(t.api.post<{ siteIds: number[]; siteCount: number; allSites: boolean }>('/system/user/query/one', t.adminToken, { id }));
      expect(one).toMatchObject({ siteIds: [], siteCount: 1, allSites: true });
      const token = await t.api.login(`all-${target}`, 'Abcdefg123');
      expect(await visibleSites(token)).toEqual([before.id]);

      // A station created afterwards through the API is visible without editing the user.
      const later = (await okData(t.api.post<{ id: number }>('/configure/site/add', t.adminToken, siteBody(branch.id, `LATER-${target}`)))).id;
      expect(await visibleSites(token)).toEqual([before.id, later].sort((a, b) => a - b));
      expect((await okData(t.api.post<{ siteCount: number }>('/system/user/query/one', t.adminToken, { id }))).siteCount).toBe(2);
      // Another company's station (created later too) is not.
      const foreign = (await okData(t.api.post<{ id: number }>('/configure/site/add', t.adminToken, siteBody(c.south.id, `FOREIGN-${target}`)))).id;
      const seen = await visibleSites(token);
      expect(seen).not.toContain(foreign);
      expect(seen).not.toContain(sibling.id);
      expect((await t.api.get('/comprehensive/site/info', token, { siteId: foreign })).status).not.toBe(200);

      // Turned off again, the user sees only what is granted (nothing).
      await okData(t.api.post('/system/user/edit', t.adminToken, { id, name: '全站', companyId: branch.id, roleIds: [operatorRole], allSites: false }));
      expect(await visibleSites(token)).toEqual([]);
    });

    it('is handed on only by a caller who sees every station themselves', async () => {
      const s = await newSite(t, c.east.id);
      const narrow = await newUser(t, c.east.id, { menus: 'all', siteIds: [s.id] });
      const eastRole = await newRole(t, c.east.id, ['/home/index']);
      const body = { username: `narrow-${target}`, password: 'Abcdefg123', name: '窄', companyId: c.east.id, roleIds: [eastRole], allSites: true };
      const r = await t.api.post('/system/user/add', narrow.token, body);
      expect(r.status).toBe(403);
      expect(r.body.tipMsg).toBe('不能授予自己没有的全部站点权限');
      // Without all stations the same caller adds the user.
      await okData(t.api.post('/system/user/add', narrow.token, { ...body, username: `narrow2-${target}`, allSites: false, siteIds: [s.id] }));
      expect((await t.ctx.db.select().from(appUser).where(eq(appUser.username, `narrow-${target}`))).length).toBe(0);
      // Once the caller has all stations, they may.
      await t.ctx.db.update(appUser).set({ allSites: true }).where(eq(appUser.id, narrow.id));
      await okData(t.api.post('/system/user/add', narrow.token, body));
    });
  });

  describe('permissions in the profile', () => {
    it('lists the interfaces the route guard lets the user call, and only those', async () => {
      const investorRole = await roleIdByName(t, '投资人', c.group.id);
      const s = await newSite(t, c.east.id);
      const investor = await newUser(t, c.east.id, { roleId: investorRole, siteIds: [s.id] });
      const profile = await okData(t.api.get<ProfileInfo>('/system/user/profile/info', investor.token));
      const can = new Set(profile.permissions);
      // Open to every signed-in user, and granted by the station page.
      expect(can.has('/system/user/profile/info')).toBe(true);
      expect(can.has('/comprehensive/site/info')).toBe(true);
      // Handling a station is an operations action: not the investor's.
      expect(can.has('/comprehensive/site/handle')).toBe(false);
      expect(can.has('/system/user/delete')).toBe(false);
      // The server agrees with the list, both ways.
      expect((await t.api.post('/comprehensive/site/handle', investor.token, { siteId: s.id, action: 'acknowledge' })).status).toBe(403);
      expect((await t.api.get('/comprehensive/site/info', investor.token, { siteId: s.id })).status).toBe(200);

      const admin = await okData(t.api.get<ProfileInfo>('/system/user/profile/info', t.adminToken));
      expect(admin.permissions).toContain('/comprehensive/site/handle');
      expect(admin.permissions).toContain('/system/user/delete');
    });
  });
});
