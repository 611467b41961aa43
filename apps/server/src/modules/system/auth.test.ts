import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, startTestApp, type TestApp } from '../../../test/harness.ts';

describe.each(DB_TARGETS)('sign-in on %s', (target) => {
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
