import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, freshPostgres } from '../../../test/harness.ts';
import { PREPARE_AFTER_USES, PREPARED_PER_CONNECTION, PreparingClient } from './prepared.ts';

describe.runIf(DB_TARGETS.includes('postgres'))('statements prepared on a pool connection', () => {
  let fresh: Awaited<ReturnType<typeof freshPostgres>>;
  let client: PreparingClient;
  const prepared = async () =>
    (await client.query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map((r) => r.statement);

  beforeAll(async () => {
    fresh = await freshPostgres();
    client = new PreparingClient({ connectionString: fresh.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await fresh?.drop();
  });

  it('prepares a statement sent again, not one sent once, and answers the same', async () => {
    const again = 'select $1::int + 1 as n';
    for (let i = 0; i < PREPARE_AFTER_USES + 2; i++) expect((await client.query<{ n: number }>(again, [i])).rows[0]!.n).toBe(i + 1);
    await client.query('select $1::text as once', ['x']);
    const config = { text: 'select $1::int * 2 as n', values: [21], rowMode: 'array' as const };
    for (let i = 0; i < PREPARE_AFTER_USES; i++) expect((await client.query(config)).rows[0]).toEqual([42]);
    const names = await prepared();
    expect(names).toContain(again);
    expect(names).toContain(config.text);
    expect(names).not.toContain('select $1::text as once');
  });

  it('leaves named statements, statements without parameters and commands as they are', async () => {
    await client.query({ name: 'mine', text: 'select $1::int as n', values: [1] });
    for (let i = 0; i < 3; i++) await client.query('select 1 as plain');
    for (let i = 0; i < 3; i++) await client.query("set application_name = 'ess'");
    const rows = (await client.query<{ name: string; statement: string }>('select name, statement from pg_prepared_statements')).rows;
    expect(rows.find((r) => r.name === 'mine')).toBeDefined();
    expect(rows.map((r) => r.statement)).not.toContain('select 1 as plain');
  });

  it('prepares at most its share per connection', async () => {
    for (let i = 0; i < PREPARED_PER_CONNECTION + 20; i++) {
      for (let k = 0; k < PREPARE_AFTER_USES; k++) await client.query(`select $1::int + ${i} as n`, [k]);
    }
    const ours = (await prepared()).filter((s) => s.startsWith('select $1::int + '));
    expect(ours.length).toBeLessThanOrEqual(PREPARED_PER_CONNECTION);
    expect(ours.length).toBeGreaterThan(PREPARED_PER_CONNECTION - 10);
  });
});
