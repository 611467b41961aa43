import { eq } from 'drizzle-orm';
import { REPAIR_AUTO_DEFAULT, type RepairAutoRuleEdit, type RepairAutoRuleRecord } from '@ess/contract';
import { repairAutoRule } from '../../db/schema/maintenance.ts';
import { appUser } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { assertCompany } from '../../platform/http/scope.ts';

/**
 * The automatic-repair rule of a company (issue 17 rule 6, decision 0034): alarms of its stations
 * of level ≤ maxLevel that stay open more than openMinutes get one repair order each. A company
 * without a row of its own runs on REPAIR_AUTO_DEFAULT; createAutomaticRepairs reads the same row.
 */

/** The company's rule (a company in the caller's scope: another one is refused, an unknown one 404). */
export async function autoRuleOne(ctx: AppContext, user: AuthUser, companyId: number): Promise<RepairAutoRuleRecord> {
  await assertCompany(ctx.db, user, companyId);
  const [r] = await ctx.db
    .select({
      enabled: repairAutoRule.enabled, maxLevel: repairAutoRule.maxLevel, openMinutes: repairAutoRule.openMinutes,
      updatedAt: repairAutoRule.updatedAt, updatedByName: appUser.name, updatedByUsername: appUser.username,
    })
    .from(repairAutoRule)
    .leftJoin(appUser, eq(appUser.id, repairAutoRule.updatedBy))
    .where(eq(repairAutoRule.companyId, companyId));
  if (!r) return { companyId, ...REPAIR_AUTO_DEFAULT, custom: false, updatedByName: null, updatedAt: null };
  return {
    companyId, enabled: r.enabled, maxLevel: r.maxLevel, openMinutes: r.openMinutes, custom: true,
    updatedByName: r.updatedByName || r.updatedByUsername || null, updatedAt: r.updatedAt.toISOString(),
  };
}

/** Sets the company's rule (one statement: the row is written whole or not at all). */
export async function editAutoRule(ctx: AppContext, user: AuthUser, b: RepairAutoRuleEdit): Promise<void> {
  await assertCompany(ctx.db, user, b.companyId);
  const values = { enabled: b.enabled, maxLevel: b.maxLevel, openMinutes: b.openMinutes, updatedBy: user.id, updatedAt: new Date() };
  await ctx.db
    .insert(repairAutoRule)
    .values({ companyId: b.companyId, ...values })
    .onConflictDoUpdate({ target: repairAutoRule.companyId, set: values });
}
