import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginLog } from '../../db/schema/system.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';

/** Client addresses (rate limit, logs) come from X-Forwarded-For only when a proxy is trusted. */
describe.each([
  ['false', '127.0.0.1'],
  ['true', '198.51.100.9'],
] as const)('TRUST_PROXY=%s', (trust, expected) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { TRUST_PROXY: trust });
  });
  afterAll(async () => t?.stop());

  it(`records the sign-in address as ${expected}`, async () => {
    const r = await t.api.call('POST', '/basic/user/login', {
      body: { username: 'admin', password: ADMIN_PASSWORD },
      headers: { 'x-forwarded-for': '198.51.100.9' },
    });
    expect(r.body.errorCode).toBe('00000');
    const [last] = await t.ctx.db.select().from(loginLog).orderBy(desc(loginLog.id)).limit(1);
    expect(last!.ip?.replace('::ffff:', '')).toBe(expected);
  });
});
