import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@ess/contract';
import { cabinet } from '../../db/schema/device.ts';
import { priceTemplate } from '../../db/schema/pricing.ts';
import { DB_TARGETS, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newRole, newSite, newUser, seededCompanies } from '../../../test/factory.ts';

/**
 * The resource lists sort server-side through the shared list query by the fields their contract
 * declares (issue 16 §3): roles, login and access logs, cabinets, price templates and products,
 * beside users, stations and devices (i18n/tables.test.ts). Each sorts both ways by a text field
 * and a number or time, and refuses a field it does not declare with the error envelope.
 */

const tag = () => randomBytes(3).toString('hex');
type Row = Record<string, unknown>;

describe.each(DB_TARGETS)('sorting the resource lists on %s', (target) => {
  let t: TestApp;
  const page = async (path: string, body: object) => {
    const r = await t.api.call<Page<Row>>('POST', path, { token: t.adminToken, body: { current: 1, pageSize: 100, ...body } });
    expect(r.body.errorCode, JSON.stringify(r.body)).toBe('00000');
    return r.body.data;
  };
  /** Every row of a list of at most one page, sorted both ways: the one order is the other reversed, and not all equal. */
  const bothWays = async (path: string, filter: object, field: string) => {
    const asc = await page(path, { ...filter, sortField: field, sortOrder: 'asc' });
    const desc = await page(path, { ...filter, sortField: field, sortOrder: 'desc' });
    expect(asc.total).toBeLessThanOrEqual(100);
    const values = (p: Page<Row>) => p.records.map((r) => r[field]);
    expect(new Set(values(asc)).size, `${path} needs different ${field}s`).toBeGreaterThan(1);
    expect(values(desc)).toEqual(values(asc).reverse());
    return values(asc);
  };
  /** The first page sorted each way by a number or an ISO time: in order, and the ends differ. */
  const ordered = async (path: string, field: string) => {
    const key = (v: unknown) => (typeof v === 'number' ? v : Date.parse(String(v)));
    const asc = (await page(path, { sortField: field, sortOrder: 'asc' })).records.map((r) => key(r[field]));
    const desc = (await page(path, { sortField: field, sortOrder: 'desc' })).records.map((r) => key(r[field]));
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    expect(desc[0]).toBeGreaterThan(asc[0]!);
  };
  const refuses = async (path: string) => {
    const r = await t.api.call('POST', path, { token: t.adminToken, body: { current: 1, pageSize: 10, sortField: 'passwordHash' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ errorCode: 'A0400' });
    expect((r.body as { tipMsg: string }).tipMsg).toContain('passwordHash');
  };

  let x: string;
  beforeAll(async () => {
    t = await startTestApp(target);
    const { east } = await seededCompanies(t);
    x = tag();
    const s = await newSite(t, east.id, { code: `Q${x}` });
    // Roles named out of order, one with users; sign-ins for the login log; calls for the access log.
    const busy = await newRole(t, east.id, [], `r${x}-b`);
    await newRole(t, east.id, [], `r${x}-c`);
    await newRole(t, east.id, [], `r${x}-a`);
    for (const n of ['m', 'k', 'o']) await newUser(t, east.id, { username: `${n}${x}`, roleId: busy });
    await t.ctx.db.insert(cabinet).values([
      { siteId: s.id, code: `CB${x}2`, name: `Z cabinet ${x}` },
      { siteId: s.id, code: `CB${x}1`, name: `A cabinet ${x}` },
      { siteId: s.id, code: `CB${x}3`, name: `M cabinet ${x}` },
    ]);
    await t.ctx.db.insert(priceTemplate).values(['Tb', 'Ta', 'Tc'].map((n, i) => ({
      companyId: east.id, name: `${n}${x}`, type: i ? 'residential' : 'largeIndustrial', billingSystem: 'singlePart', voltageLevel: '10kV', currency: 'CNY',
    })));
  });
  afterAll(async () => t?.stop());

  it('roles by name and by user count', async () => {
    expect(await bothWays('/system/role/query/page', { name: `r${x}` }, 'name')).toEqual([`r${x}-a`, `r${x}-b`, `r${x}-c`]);
    expect(await bothWays('/system/role/query/page', { name: `r${x}` }, 'userCount')).toEqual([0, 0, 3]);
    await refuses('/system/role/query/page');
  });

  it('login and access logs by user name and by time or duration', async () => {
    expect(await bothWays('/system/loginLog/query/page', { username: x }, 'username')).toEqual([`k${x}`, `m${x}`, `o${x}`]);
    await ordered('/system/loginLog/query/page', 'createdAt');
    await ordered('/system/access/log/query/page', 'durationMs');
    await refuses('/system/loginLog/query/page');
    await refuses('/system/access/log/query/page');
  });

  it('cabinets, price templates and products by name and code', async () => {
    expect(await bothWays('/configure/cabinet/query/page', { keyword: `CB${x}` }, 'name')).toEqual([`A cabinet ${x}`, `M cabinet ${x}`, `Z cabinet ${x}`]);
    expect(await bothWays('/configure/cabinet/query/page', { keyword: `CB${x}` }, 'code')).toEqual([`CB${x}1`, `CB${x}2`, `CB${x}3`]);
    expect(await bothWays('/operation/price/template/query/page', { keyword: x }, 'name')).toEqual([`Ta${x}`, `Tb${x}`, `Tc${x}`]);
    expect(await bothWays('/operation/price/template/query/page', { keyword: x }, 'type')).toEqual(['largeIndustrial', 'residential', 'residential']);
    await bothWays('/configure/product/query/page', {}, 'code');
    await bothWays('/configure/product/query/page', {}, 'propertyCount');
    await refuses('/configure/cabinet/query/page');
    await refuses('/operation/price/template/query/page');
    await refuses('/configure/product/query/page');
  });
});
