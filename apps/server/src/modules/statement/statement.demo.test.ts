import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteStatementSetting, statement, statementLog } from '../../db/schema/statement.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { newSite, seededCompanies } from '../../../test/factory.ts';
import { seedStatementDemo } from './statement.demo.ts';

/** The statements demo on a fresh start: settings per station, its two ended months, every state among the stations; written once. */
describe('statements demo', () => {
  let t: TestApp;
  const now = new Date('2026-11-27T06:00:00Z');

  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLES: 'api' });
    const { east, south } = await seededCompanies(t);
    await newSite(t, east.id);
    await newSite(t, south.id);
    await newSite(t, east.id);
  });
  afterAll(async () => t?.stop());

  it('gives every station settings and September–October, the older further along, every state among three stations, once', async () => {
    expect(await seedStatementDemo(t.ctx, now)).toBe(true);
    expect(await t.ctx.db.select().from(siteStatementSetting)).toHaveLength(3);
    const rows = await t.ctx.db.select({ siteId: statement.siteId, month: statement.month, state: statement.state, storageRevenue: statement.storageRevenue }).from(statement).orderBy(asc(statement.siteId), asc(statement.month));
    expect(rows.map((r) => [r.month, r.state])).toEqual([
      ['2026-09', 'locked'], ['2026-10', 'power_user_confirmed'],
      ['2026-09', 'power_user_confirmed'], ['2026-10', 'investor_confirmed'],
      ['2026-09', 'investor_confirmed'], ['2026-10', 'draft'],
    ]);
    const [first] = rows;
    expect(first!.storageRevenue).toMatch(/^-?\d+\.\d{2}$/);
    const journal = await t.ctx.db.select().from(statementLog).where(eq(statementLog.statementId, (await t.ctx.db.select({ id: statement.id }).from(statement).orderBy(asc(statement.id)).limit(1))[0]!.id)).orderBy(asc(statementLog.id));
    expect(journal.map((j) => j.action)).toEqual(['generate', 'confirmInvestor', 'confirmPowerUser', 'lock']);
    expect(await seedStatementDemo(t.ctx, now)).toBe(false);
  });
});
