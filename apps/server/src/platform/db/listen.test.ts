import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, startTestApp, type TestApp } from '../../../test/harness.ts';
import { eventually, newUser, seededCompanies } from '../../../test/factory.ts';
import { LISTEN_APPLICATION_NAME } from './database.ts';

describe.runIf(DB_TARGETS.includes('postgres'))('the change listener on PostgreSQL', () => {
  let t: TestApp;
  let admin: pg.Client;
  const listeners = async () =>
    (await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1 and datname = current_database()', [LISTEN_APPLICATION_NAME])).rows.map((r) => r.pid);

  beforeAll(async () => {
    t = await startTestApp('postgres');
    admin = new pg.Client({ connectionString: t.ctx.config.databaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await t?.stop();
  });

  it('comes back by itself when its connection is cut, and hears changes again', async () => {
    const { east } = await seededCompanies(t);
    const u = await newUser(t, east.id, { menus: ['/system/user'] });
    const page = () => t.api.post('/system/user/query/page', u.token, { current: 1, pageSize: 5 });
    expect((await page()).status).toBe(200);
    const [before] = await eventually(async () => ((await listeners()).length === 1 ? listeners() : undefined));
    await admin.query('select pg_terminate_backend($1)', [before]);
    const after = await eventually(async () => {
      const pids = await listeners();
      return pids.length === 1 && pids[0] !== before ? pids[0] : undefined;
    });
    expect(after).not.toBe(before);
    expect((await page()).status).toBe(200);
    await admin.query('update session set revoked_at = now() where user_id = $1', [u.id]);
    await eventually(async () => ((await page()).status === 401 ? true : undefined));
  });
});
