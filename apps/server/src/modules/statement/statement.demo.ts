import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { prevMonth, todayIn } from '@ess/contract';
import type { StatementEditAction } from '@ess/contract/statement';
import { site, userSite } from '../../db/schema/site.ts';
import { siteStatementSetting } from '../../db/schema/statement.ts';
import { appUser, role, userRole } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { hashPassword } from '../../platform/password.ts';
import { lastEndedMonth } from './statement.jobs.ts';
import { editStatement, generate } from './statement.service.ts';

/**
 * The statements demo, written once after the demo's history: each demo station gets settlement
 * settings (an investor and a power user per company, 投资人 role, no known password: an
 * administrator sets one to sign in as them) and the statements of its last two ended months (the
 * history covers both), taken through the lifecycle as the parties would, the older month further
 * along: the first station's months locked and confirmed by both, the second's confirmed by both and
 * by the investor, the third's confirmed by the investor and a draft — every state on a month with
 * energy on a fresh start; further stations' are drafts.
 */
const STEPS: StatementEditAction[][] = [['confirmInvestor', 'confirmPowerUser', 'lock'], ['confirmInvestor', 'confirmPowerUser'], ['confirmInvestor'], []];
const MONTHS = 2;

const asUser = (u: { id: number; name: string; username: string; companyId: number }): AuthUser => ({
  id: u.id, username: u.username, name: u.name, companyId: u.companyId, companyPath: '', buildIn: false, allSites: false, sessionId: 0,
});

export async function seedStatementDemo(ctx: AppContext, now = new Date()): Promise<boolean> {
  const { db } = ctx;
  if ((await db.select({ id: siteStatementSetting.id }).from(siteStatementSetting).limit(1)).length) return false;
  const stations = await db.select({ id: site.id, companyId: site.companyId, name: site.name, timeZone: site.timeZone }).from(site).orderBy(asc(site.id));
  if (!stations.length) return false;
  const [investorRole] = await db.select({ id: role.id }).from(role).where(eq(role.name, '投资人')).limit(1);
  const hash = await hashPassword(randomBytes(24).toString('base64url'));
  const parties = new Map<number, { investor: AuthUser; powerUser: AuthUser }>();
  for (const [c, companyId] of [...new Set(stations.map((s) => s.companyId))].entries()) {
    const made: AuthUser[] = [];
    for (const [name, login] of [['钱投资', 'investor'], ['孙用电', 'host']] as const) {
      const username = `demo-${login}-${c + 1}`;
      const [u] = await db
        .insert(appUser)
        .values({ companyId, username, name: `${name}${c + 1}`, passwordHash: hash, status: 1 })
        .onConflictDoNothing()
        .returning({ id: appUser.id, name: appUser.name, username: appUser.username, companyId: appUser.companyId });
      if (!u) continue;
      if (investorRole) await db.insert(userRole).values({ userId: u.id, roleId: investorRole.id });
      const mine = stations.filter((s) => s.companyId === companyId).map((s) => s.id);
      if (mine.length) await db.insert(userSite).values(mine.map((siteId) => ({ userId: u.id, siteId })));
      made.push(asUser(u));
    }
    if (made.length === 2) parties.set(companyId, { investor: made[0]!, powerUser: made[1]! });
  }
  for (const [n, st] of stations.entries()) {
    const p = parties.get(st.companyId);
    if (!p) continue;
    await db.insert(siteStatementSetting).values({
      siteId: st.id, investorName: `${st.name}投资方`, investorUserId: p.investor.id, powerUserName: `${st.name}业主`, powerUserUserId: p.powerUser.id,
      investorShareRatio: '70', billingDay: 1, reconciliationContact: '对账专员', reconciliationPhone: '021-60000000', includePv: true, includePiles: true,
    });
    let month = lastEndedMonth(todayIn(st.timeZone, now), 1);
    const months: string[] = [];
    for (let i = 0; i < MONTHS; i++, month = prevMonth(month)) months.unshift(month);
    for (const [i, m] of months.entries()) {
      try {
        const { id } = await generate(ctx, null, st.id, m, now);
        for (const action of STEPS[Math.min(n + i, STEPS.length - 1)]!) {
          // The power user, who confirms last, also locks.
          const by = action === 'confirmInvestor' ? p.investor : p.powerUser;
          await editStatement(ctx, by, { id, action, note: null });
        }
      } catch (err) {
        ctx.log.warn({ err, siteId: st.id, month: m }, 'demo statement not made');
      }
    }
  }
  return true;
}
