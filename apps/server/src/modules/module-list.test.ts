import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoint } from '@ess/contract';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { route } from '../platform/http/route.ts';
import { defineModule, perApp } from '../platform/module.ts';
import { modules } from './index.ts';

/**
 * A domain is its folder and one line in the module list: this test adds a tiny module to the
 * list (as a new domain's index.ts would declare it) and shows every part of it wired with no
 * other change — its seed ran, its job handler and start ran, its route is served, permitted,
 * listed in the interface table and documented, and it stops with the server.
 */
const events: string[] = [];
const greeting = perApp<string>('example greeting');
const hello = endpoint({ method: 'GET', path: '/example/hello', response: z.object({ greeting: z.string(), seeded: z.number() }) });
const exampleModule = defineModule({
  name: 'example',
  routes: [
    route(hello, {
      access: 'user', name: '示例', scope: { global: 'an example route touching no data' },
      handler: async ({ ctx }) => {
        const { rows } = await ctx.database.sql.query<{ n: number }>('select count(*)::int as n from example_seed');
        return { greeting: greeting.require(ctx), seeded: rows[0]!.n };
      },
    }),
  ],
  seeds: [
    async ({ database }) => {
      await database.sql.exec('create table if not exists example_seed (id int primary key); insert into example_seed values (1) on conflict do nothing');
      events.push('seed');
    },
  ],
  jobs: (ctx) => ctx.jobs.handle('example.job', () => Promise.resolve()),
  start: (ctx) => {
    greeting.set(ctx, 'hello');
    events.push('start');
    return Promise.resolve();
  },
  stop: () => {
    events.push('stop');
    return Promise.resolve();
  },
});

describe('the module list', () => {
  let t: TestApp | undefined;
  const app = () => t!;
  beforeAll(async () => {
    t = await startTestApp('pglite', {}, undefined, [...modules, exampleModule]);
  });
  afterAll(async () => t?.stop());

  it('runs a new module: seed, start, a served route with its interface row and OpenAPI entry', async () => {
    expect(events).toEqual(['seed', 'start']);
    const res = await app().api.get<{ greeting: string; seeded: number }>('/example/hello', app().adminToken);
    expect(res.body.data).toEqual({ greeting: 'hello', seeded: 1 });
    const { rows } = await app().ctx.database.sql.query<{ name: string }>("select name from api_interface where path = '/example/hello'");
    expect(rows.map((r) => r.name)).toEqual(['示例']);
    const doc = (await (await fetch(`${app().url}/api/manager/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toContain('/api/manager/example/hello');
  });

  it('stops it with the server, and the application list does not have it', async () => {
    await app().stop();
    t = undefined;
    expect(events).toEqual(['seed', 'start', 'stop']);
    expect(modules.map((m) => m.name)).not.toContain('example');
  });
});
