import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statement, statementLog } from '../../db/schema/statement.ts';
import { notification } from '../../db/schema/system.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { eventually, newSite, newUser, okData, roleIdByName, seededCompanies, type FactoryUser } from '../../../test/factory.ts';
import { STATEMENT_NOTICE_TITLE } from './statement.notify.ts';
import { generateDue, lastEndedMonth } from './statement.jobs.ts';

/**
 * Issue 18 item 10: the job makes each station's draft of its last ended period once its billing
 * day has come (billing day 5 here: on 4 November the last ended period is September's, on the 5th
 * October's), once whatever runs at the same time, and tells the investor and the power user.
 */
describe.each(dbTargets(import.meta.url))('statement drafts by the job on %s', (target) => {
  let t: TestApp;
  let siteId: number;
  let investor: FactoryUser;
  let powerUser: FactoryUser;

  beforeAll(async () => {
    t = await startTestApp(target);
    const { east, group } = await seededCompanies(t);
    siteId = (await newSite(t, east.id, { code: 'JD01', name: '出单测试站' })).id;
    const role = await roleIdByName(t, '投资人', group.id);
    investor = await newUser(t, east.id, { roleId: role, siteIds: [siteId], name: '钱投资', signIn: false });
    powerUser = await newUser(t, east.id, { roleId: role, siteIds: [siteId], name: '孙用电', signIn: false });
    await okData(t.api.post('/configure/site/statement/add', t.adminToken, {
      siteId, investorName: '投资方', investorUserId: investor.id, powerUserName: '业主', powerUserUserId: powerUser.id, investorShareRatio: 60, billingDay: 5,
    }));
  });
  afterAll(async () => t?.stop());

  it('knows the last ended period by the billing day', () => {
    expect([lastEndedMonth('2026-11-04', 5), lastEndedMonth('2026-11-05', 5), lastEndedMonth('2026-01-01', 1)]).toEqual(['2026-09', '2026-10', '2025-12']);
  });

  it('makes the draft after the billing day, once, and tells both parties', async () => {
    const mine = () => t.ctx.db.select({ id: statement.id, month: statement.month, state: statement.state }).from(statement).where(eq(statement.siteId, siteId)).orderBy(asc(statement.month));
    // 4 November 10:00 in Shanghai: September's period (5 Sep – 4 Oct) has ended; two runs at once make it once.
    const nov4 = new Date('2026-11-04T02:00:00Z');
    const made = await Promise.all([generateDue(t.ctx, nov4), generateDue(t.ctx, nov4)]);
    expect(made[0] + made[1]).toBe(1);
    expect((await mine()).map((r) => [r.month, r.state])).toEqual([['2026-09', 'draft']]);
    expect(await generateDue(t.ctx, nov4)).toBe(0);
    expect(await generateDue(t.ctx, new Date('2026-11-05T02:00:00Z'))).toBe(1);
    const rows = await mine();
    expect(rows.map((r) => [r.month, r.state])).toEqual([['2026-09', 'draft'], ['2026-10', 'draft']]);
    const journal = await t.ctx.db.select().from(statementLog).where(eq(statementLog.statementId, rows[1]!.id));
    expect(journal.map((j) => [j.action, j.toState])).toEqual([['generate', 'draft']]);
    for (const u of [investor, powerUser]) {
      const notes = await eventually(async () => {
        const n = await t.ctx.db.select().from(notification).where(and(eq(notification.userId, u.id), eq(notification.title, STATEMENT_NOTICE_TITLE)));
        return n.length >= 2 ? n : undefined;
      });
      expect(notes.map((n) => n.content).sort()).toEqual([
        `结算单 #${rows[0]!.id}（2026-09）当前状态：草稿`, `结算单 #${rows[1]!.id}（2026-10）当前状态：草稿`,
      ]);
    }
  });
});
