import { asc, eq, like, sql } from 'drizzle-orm';
import { integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import type { AuthUser } from './auth.ts';
import { defineListQuery } from './paging.ts';

const probe = pgTable('list_probe', { id: serial('id').primaryKey(), companyId: integer('company_id').notNull(), name: text('name').notNull() });
const owner = pgTable('list_probe_owner', { companyId: integer('company_id').primaryKey(), label: text('label').notNull() });

/** defineListQuery on a real database (PGlite): scope, filter, order, paging, joins, toRecord. */
describe('defineListQuery', () => {
  let t: TestApp;
  const userOf = (companyId: number) => ({ id: 1, companyId }) as AuthUser;
  const probes = defineListQuery({
    table: probe,
    columns: { id: probe.id, name: probe.name, label: owner.label },
    joins: [{ table: owner, on: eq(owner.companyId, probe.companyId) }],
    scope: (_db, user) => eq(probe.companyId, user.companyId),
    filter: (f: { name?: string }) => [f.name ? like(probe.name, `%${f.name}%`) : undefined],
    orderBy: [asc(probe.name)],
    toRecord: (r) => `${r.label}:${r.name}`,
  });

  beforeAll(async () => {
    t = await startTestApp('pglite');
    await t.ctx.db.execute(sql`create table list_probe (id serial primary key, company_id int not null, name text not null)`);
    await t.ctx.db.execute(sql`create table list_probe_owner (company_id int primary key, label text not null)`);
    await t.ctx.db.insert(owner).values([{ companyId: 1, label: 'one' }, { companyId: 2, label: 'two' }]);
    await t.ctx.db.insert(probe).values([
      ...['e', 'c', 'a', 'd', 'b', 'ab'].map((name) => ({ companyId: 1, name })),
      { companyId: 2, name: 'a-other' },
    ]);
  });
  afterAll(async () => t?.stop());

  it('lists only the rows of the scope, filtered, in order, as records', async () => {
    expect(await probes.list(t.ctx.db, userOf(1), {})).toEqual(['one:a', 'one:ab', 'one:b', 'one:c', 'one:d', 'one:e']);
    expect(await probes.list(t.ctx.db, userOf(1), { name: 'a' })).toEqual(['one:a', 'one:ab']);
    expect(await probes.list(t.ctx.db, userOf(2), { name: 'a' })).toEqual(['two:a-other']);
    expect(await probes.list(t.ctx.db, userOf(1), {}, 2)).toEqual(['one:a', 'one:ab']);
  });

  it('pages: the total of the scope and filter, one page of records', async () => {
    expect(await probes.page(t.ctx.db, userOf(1), { current: 2, pageSize: 4 })).toEqual({ records: ['one:d', 'one:e'], total: 6, current: 2, pageSize: 4 });
    expect(await probes.page(t.ctx.db, userOf(1), { name: 'b', current: 1, pageSize: 1 })).toEqual({ records: ['one:ab'], total: 2, current: 1, pageSize: 1 });
    expect(await probes.page(t.ctx.db, userOf(3), { current: 1, pageSize: 10 })).toEqual({ records: [], total: 0, current: 1, pageSize: 10 });
  });

  it('counts over the joins, so a filter may name a joined column; left joins keep unmatched rows', async () => {
    const labelled = defineListQuery({
      table: probe,
      columns: { name: probe.name, label: owner.label },
      joins: [{ table: owner, on: eq(owner.companyId, probe.companyId) }],
      scope: null,
      filter: (f: { label?: string }) => [f.label ? eq(owner.label, f.label) : undefined],
      orderBy: [asc(probe.name)],
    });
    expect(await labelled.page(t.ctx.db, null, { label: 'two', current: 1, pageSize: 10 })).toEqual({ records: [{ name: 'a-other', label: 'two' }], total: 1, current: 1, pageSize: 10 });
    await t.ctx.db.insert(probe).values({ companyId: 9, name: 'orphan' });
    const left = defineListQuery({
      table: probe,
      columns: { name: probe.name, label: owner.label },
      joins: [{ table: owner, on: eq(owner.companyId, probe.companyId), left: true }],
      scope: null,
      filter: (f: { name?: string }) => [f.name ? eq(probe.name, f.name) : undefined],
      orderBy: [asc(probe.name)],
    });
    expect(await left.page(t.ctx.db, null, { name: 'orphan', current: 1, pageSize: 10 })).toMatchObject({ records: [{ name: 'orphan', label: null }], total: 1 });
    expect((await labelled.page(t.ctx.db, null, { current: 1, pageSize: 10 })).total).toBe(7);
    expect(await probes.rows(t.ctx.db, eq(probe.name, 'b'))).toEqual(['one:b']);
  });

  it('refuses a scoped list without a caller', async () => {
    await expect(probes.list(t.ctx.db, null, {})).rejects.toThrow(/needs the caller/);
  });
});
