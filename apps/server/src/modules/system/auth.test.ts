import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newUser, seededCompanies } from '../../../test/factory.ts';

describe.each(dbTargets(import.meta.url))('sign-in on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(async () => t?.stop());

  it('signs in the built-in administrator and returns the profile with menus', async () => {
    const r = await t.api.get<{ buildIn: boolean; menuProfiles: { path: string }[] }>('/system/user/profile/info', t.adminToken);
    expect(r.status).toBe(200);
    expect(r.body.errorCode).toBe('00000');
    expect(r.body.data.buildIn).toBe(true);
    expect(r.body.data.menuProfiles.map((m) => m.path)).toContain('/system/user');
  });

  it('sends the granted pages with their directories in menu order, only the fields the console reads', async () => {
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id, { menus: ['/system/user', '/operatecfg/pricedetail'], name: '菜单用户' });
    const r = await t.api.get<Record<string, unknown> & { menuProfiles: unknown[] }>('/system/user/profile/info', u.token);
    expect(r.body.data).toMatchObject({ id: u.id, username: u.username, name: '菜单用户', companyId: east.id, buildIn: false, lastLoginAt: expect.any(String) as unknown });
    expect(r.body.data.roles).toEqual([{ id: u.roleId, name: expect.any(String) as unknown }]);
    // The directories come with their pages; parentPath only below the top, hidden only when true.
    expect(r.body.data.menuProfiles).toEqual([
      { path: '/operatecfg', name: '运营配置', icon: 'setting' },
      { path: '/operatecfg/pricedetail', parentPath: '/operatecfg', name: '电价详情', hidden: true },
      { path: '/system', name: '系统管理', icon: 'setting' },
      { path: '/system/user', parentPath: '/system', name: '用户管理' },
    ]);
  });

  it('refuses a wrong password with the envelope and a 4xx', async () => {
    const r = await t.api.post('/basic/user/login', null, { username: 'admin', password: 'nope' });
    expect(r.status).toBe(406);
    expect(r.body.errorCode).toBe('A0101');
    expect(r.body.tipMsg).toBeTruthy();
  });

  it('answers 401 without a token and after logout', async () => {
    expect((await t.api.get('/system/user/profile/info', null)).status).toBe(401);
    const token = await t.api.login('admin', 'Admin12345');
    expect((await t.api.get('/basic/user/logout', token)).body.errorCode).toBe('00000');
    const r = await t.api.get('/system/user/profile/info', token);
    expect(r.status).toBe(401);
    expect(r.body.errorCode).toBe('A0100');
  });
});
