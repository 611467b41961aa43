import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MENUS, menuCovers } from '@ess/contract';
import { allRoutes } from '../../modules/index.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newUser, seededCompanies } from '../../../test/factory.ts';
import { scopeFixtures } from '../../../test/scope-fixtures.ts';
import { isProbe, type AnyRoute, type ScopeProbe } from './route.ts';

/**
 * Walks every registered route and shows the three refusals: no token → 401; a role without
 * the route's menu → 403; another company's object → refused (403/404).
 */
describe.each(dbTargets(import.meta.url))('route table on %s', (target) => {
  let t: TestApp;
  let narrowToken: string;
  let scopedToken: string;
  let foreignCompanyId: number;

  beforeAll(async () => {
    t = await startTestApp(target);
    const { east, south } = await seededCompanies(t);
    foreignCompanyId = south.id;
    // Only the welcome-level home page: every menu route must refuse this user.
    narrowToken = (await newUser(t, east.id, { username: 'narrow', menus: ['/home/index'] })).token;
    scopedToken = (await newUser(t, east.id, { username: 'scoped', menus: 'all' })).token;
  });
  afterAll(async () => t?.stop());

  const label = (r: AnyRoute) => `${r.method} ${r.path}`;
  // GETs, and POSTs that take query parameters and no body, get the input as the query.
  const send = (r: AnyRoute, token: string | null, input: Record<string, unknown> = {}) =>
    r.method === 'GET' || (r.query && !r.body)
      ? t.api.call(r.method, r.path, { token, query: input as Record<string, string> })
      : t.api.call(r.method, r.path, { token, body: input });

  it('every route requires a token unless it is public', async () => {
    const failures: string[] = [];
    for (const r of allRoutes.filter((x) => x.access !== 'public')) {
      const res = await send(r, null);
      if (res.status !== 401 || res.body.errorCode !== 'A0100') failures.push(`${label(r)} → ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  it('every menu route refuses a role that lacks its menu', async () => {
    // The narrow user's only menu (home) legitimately maps to its own calls and the site pickers.
    const homeMenu = MENUS.find((m) => m.path === '/home/index')!;
    const homeOnly = new Set(allRoutes.filter((x) => menuCovers(homeMenu.interfaces, x.path)).map((x) => x.path));
    const failures: string[] = [];
    for (const r of allRoutes.filter((x) => x.access === 'menu' && !homeOnly.has(x.path))) {
      const res = await send(r, narrowToken);
      if (res.status !== 403 || res.body.errorCode !== 'A0300') failures.push(`${label(r)} → ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  it("every object route refuses another company's object", async () => {
    const probed = allRoutes.filter((x) => isProbe(x.scope));
    // one/edit/delete of companies, roles, users, notifications, logs, files at least
    expect(probed.length).toBeGreaterThanOrEqual(12);
    const failures: string[] = [];
    for (const r of probed) {
      const probe = r.scope as ScopeProbe;
      const fixture = scopeFixtures[probe.entity];
      if (!fixture) {
        failures.push(`${label(r)}: no fixture for ${probe.entity}`);
        continue;
      }
      const foreignId = await fixture(t, foreignCompanyId);
      const res = await send(r, scopedToken, probe.input ? probe.input(foreignId) : { id: foreignId });
      if (![403, 404].includes(res.status)) failures.push(`${label(r)} → ${res.status} ${res.body.tipMsg}`);
    }
    expect(failures).toEqual([]);
  });

  it('every route declares its scope: a probe, or global with a reason', () => {
    const missing = allRoutes.filter((r) => !r.scope || (!isProbe(r.scope) && r.scope.global.trim().length < 10));
    expect(missing.map(label)).toEqual([]);
  });

  it('the interface table lists every registered route', async () => {
    const rows = await t.ctx.database.sql.query<{ path: string }>('select path from api_interface');
    expect(new Set(rows.rows.map((r) => r.path))).toEqual(new Set(allRoutes.map((r) => r.path)));
  });
});
