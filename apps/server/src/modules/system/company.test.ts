import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@ess/contract';
import { appUser, company, role } from '../../db/schema/system.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { newSite, newUser, seededCompanies } from '../../../test/factory.ts';

interface CompanyNode {
  id: number;
  name: string;
  path: string;
  parentId: number | null;
  children: CompanyNode[];
}
interface CompanyRecord {
  id: number;
  name: string;
  path: string;
  parentId: number | null;
  parentName: string | null;
}

describe.each(dbTargets(import.meta.url))('company administration on %s', (target) => {
  let t: TestApp;
  let group: { id: number; path: string };
  let east: { id: number; path: string };
  let south: { id: number; path: string };
  let eastToken: string;

  const add = (token: string, body: Record<string, unknown>) => t.api.post<{ id: number }>('/system/company/add', token, body);
  const one = (token: string, id: number) => t.api.post<CompanyRecord>('/system/company/query/one', token, { id });
  const del = (token: string, id: number) => t.api.get('/system/company/delete', token, { id });
  const addOk = async (parentId: number, name: string) => {
    const r = await add(t.adminToken, { parentId, name });
    expect(r.body.errorCode).toBe('00000');
    return r.body.data.id;
  };

  beforeAll(async () => {
    t = await startTestApp(target);
    ({ group, east, south } = await seededCompanies(t));
    eastToken = (await newUser(t, east.id, { menus: 'all' })).token;
  });
  afterAll(async () => t?.stop());

  it('returns the tree rooted at the caller company, limited to its scope', async () => {
    const all = await t.api.post<CompanyNode[]>('/system/company/query/tree', t.adminToken, {});
    expect(all.body.errorCode).toBe('00000');
    expect(all.body.data).toHaveLength(1);
    expect(all.body.data[0]!.id).toBe(group.id);
    expect(all.body.data[0]!.children.map((c) => c.id)).toEqual(expect.arrayContaining([east.id, south.id]));

    const mine = await t.api.post<CompanyNode[]>('/system/company/query/tree', eastToken, {});
    expect(mine.body.data.map((c) => c.id)).toEqual([east.id]);
    const flat = (nodes: CompanyNode[]): number[] => nodes.flatMap((n) => [n.id, ...flat(n.children)]);
    expect(flat(mine.body.data)).not.toContain(south.id);
    expect(flat(mine.body.data)).not.toContain(group.id);
  });

  it('adds a company with its materialised path and finds it by list, page and one', async () => {
    const id = await addOk(east.id, '华东一分公司');
    const got = await one(t.adminToken, id);
    expect(got.body.data).toMatchObject({ id, parentId: east.id, path: `${east.path}${id}/`, parentName: '华东储能有限公司' });

    const list = await t.api.post<CompanyRecord[]>('/system/company/query/list', t.adminToken, { parentId: east.id });
    expect(list.body.data.map((c) => c.id)).toContain(id);
    expect(list.body.data.every((c) => c.parentId === east.id)).toBe(true);

    const page = await t.api.post<Page<CompanyRecord>>('/system/company/query/page', t.adminToken, { name: '华东一分', current: 1, pageSize: 5 });
    expect(page.body.data.total).toBe(1);
    expect(page.body.data.records[0]!.id).toBe(id);
    expect(page.body.data).toMatchObject({ current: 1, pageSize: 5 });
  });

  it('refuses a duplicate name under the same parent and a duplicate code', async () => {
    await addOk(south.id, '同名公司');
    const dup = await add(t.adminToken, { parentId: south.id, name: '同名公司' });
    expect(dup.status).toBe(406);
    expect(dup.body.errorCode).toBe('A0409');
    expect((await add(t.adminToken, { parentId: east.id, name: '同名公司' })).body.errorCode).toBe('00000');
    const code = await add(t.adminToken, { parentId: east.id, name: '编码重复', code: 'east' });
    expect(code.body.errorCode).toBe('A0409');
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const noParent = await add(t.adminToken, { name: '无上级' });
    expect(noParent.status).toBe(400);
    expect(noParent.body.errorCode).toBe('A0400');
    expect(noParent.body.tipMsg).toContain('parentId');
    const badEmail = await add(t.adminToken, { parentId: east.id, name: 'x', email: 'nope' });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.tipMsg).toContain('email');
    const noId = await t.api.get('/system/company/delete', t.adminToken);
    expect(noId.status).toBe(400);
    expect(noId.body.tipMsg).toContain('id');
    const badPage = await t.api.post('/system/company/query/page', t.adminToken, { pageSize: 'many' });
    expect(badPage.status).toBe(400);
    expect(badPage.body.tipMsg).toContain('pageSize');
  });

  it('moves a subtree under a new parent and rewrites every path under it', async () => {
    const a = await addOk(east.id, '移动A');
    const b = await addOk(a, '移动B');
    const c = await addOk(b, '移动C');
    const moved = await t.api.post('/system/company/edit', t.adminToken, { id: a, parentId: south.id, name: '移动A' });
    expect(moved.body.errorCode).toBe('00000');
    expect((await one(t.adminToken, a)).body.data).toMatchObject({ parentId: south.id, path: `${south.path}${a}/` });
    expect((await one(t.adminToken, b)).body.data.path).toBe(`${south.path}${a}/${b}/`);
    expect((await one(t.adminToken, c)).body.data.path).toBe(`${south.path}${a}/${b}/${c}/`);
    // The EAST user no longer sees the moved subtree.
    expect((await one(eastToken, c)).status).toBe(404);
  });

  it('refuses moving a company under itself or its descendant, and moving the caller company', async () => {
    const a = await addOk(east.id, '环A');
    const b = await addOk(a, '环B');
    const under = await t.api.post('/system/company/edit', t.adminToken, { id: a, parentId: b, name: '环A' });
    expect(under.status).toBe(406);
    expect(under.body.errorCode).toBe('A0406');
    expect(under.body.tipMsg).toContain('下级公司');
    const self = await t.api.post('/system/company/edit', t.adminToken, { id: a, parentId: a, name: '环A' });
    expect(self.body.errorCode).toBe('A0406');
    expect((await one(t.adminToken, a)).body.data.parentId).toBe(east.id);

    const own = await t.api.post('/system/company/edit', eastToken, { id: east.id, parentId: south.id, name: '华东储能有限公司' });
    expect(own.body.errorCode).toBe('A0406');
    expect(own.body.tipMsg).toBe('不能移动本人所在的公司');
    // Editing the own company's fields is fine.
    const fields = await t.api.post('/system/company/edit', eastToken, { id: east.id, name: '华东储能有限公司', contact: '张三' });
    expect(fields.body.errorCode).toBe('00000');
  });

  it('refuses deleting a company that still has child companies, users, roles or stations', async () => {
    const parentWithChild = await addOk(east.id, '有下级');
    await addOk(parentWithChild, '下级');
    const r1 = await del(t.adminToken, parentWithChild);
    expect(r1.status).toBe(406);
    expect(r1.body.tipMsg).toBe('该公司下还有下级公司，不能删除');

    const withUser = await addOk(east.id, '有用户');
    await t.ctx.db.insert(appUser).values({ username: `del-${withUser}`, name: 'x', companyId: withUser, passwordHash: 'x' });
    expect((await del(t.adminToken, withUser)).body.tipMsg).toBe('该公司下还有用户，不能删除');

    const withRole = await addOk(east.id, '有角色');
    await t.ctx.db.insert(role).values({ name: 'r', companyId: withRole });
    expect((await del(t.adminToken, withRole)).body.tipMsg).toBe('该公司下还有角色，不能删除');

    const withSite = await addOk(east.id, '有站点');
    await newSite(t, withSite);
    expect((await del(t.adminToken, withSite)).body.tipMsg).toBe('该公司下还有站点，不能删除');

    const own = await del(eastToken, east.id);
    expect(own.body.tipMsg).toBe('不能删除本人所在的公司');

    const empty = await addOk(east.id, '空公司');
    const ok = await del(t.adminToken, empty);
    expect(ok.body.errorCode).toBe('00000');
    expect((await one(t.adminToken, empty)).status).toBe(404);
    expect(await t.ctx.db.select().from(company).where(eq(company.id, empty))).toHaveLength(0);
  });

  it("keeps an EAST user away from SOUTH's companies", async () => {
    const southChild = await addOk(south.id, '华南子公司');
    const list = await t.api.post<CompanyRecord[]>('/system/company/query/list', eastToken, {});
    expect(list.body.data.length).toBeGreaterThan(0);
    expect(list.body.data.every((c) => c.path.startsWith(east.path))).toBe(true);
    const page = await t.api.post<Page<CompanyRecord>>('/system/company/query/page', eastToken, { pageSize: 100 });
    expect(page.body.data.records.map((c) => c.id)).not.toContain(southChild);
    expect(page.body.data.total).toBe(list.body.data.length);

    expect((await one(eastToken, south.id)).status).toBe(404);
    expect((await t.api.post('/system/company/edit', eastToken, { id: southChild, name: '改' })).status).toBe(404);
    expect((await del(eastToken, southChild)).status).toBe(404);
    const addUnder = await add(eastToken, { parentId: south.id, name: '越权新增' });
    expect(addUnder.status).toBe(403);
    expect(addUnder.body.errorCode).toBe('A0301');
    const moveOut = await t.api.post('/system/company/edit', eastToken, { id: await addOk(east.id, '想迁出'), parentId: south.id, name: '想迁出' });
    expect(moveOut.status).toBe(403);
    expect((await one(t.adminToken, southChild)).body.data.name).toBe('华南子公司');
  });
});
