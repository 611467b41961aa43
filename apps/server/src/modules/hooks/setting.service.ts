import { eq } from 'drizzle-orm';
import { HOOK_SETTINGS_DEFAULT, type HookSettings } from '@ess/contract/hooks';
import { hookSetting } from '../../db/schema/hooks.ts';
import { appUser } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { isInstallationAdmin, SETTINGS_ADMIN_ONLY } from './hooks.context.ts';

/**
 * The installation-wide hook settings (one row, id 1, written by the migration): whether targets
 * on private networks are allowed, how long and how many execution records are kept, and the
 * circuit breaker's threshold and cool-down. Read by every hook page; edited by an administrator.
 */

export async function hookSettingsOf(db: DbOrTx): Promise<HookSettings> {
  const [r] = await db.select().from(hookSetting).where(eq(hookSetting.id, 1));
  if (!r) return HOOK_SETTINGS_DEFAULT;
  return {
    allowPrivateTargets: r.allowPrivateTargets, recordMaxAgeDays: r.recordMaxAgeDays, recordMaxCount: r.recordMaxCount,
    circuitThreshold: r.circuitThreshold, circuitCooldownMinutes: r.circuitCooldownMinutes,
  };
}

export async function settingOne(ctx: AppContext) {
  const [r] = await ctx.db
    .select({ updatedAt: hookSetting.updatedAt, updatedByName: appUser.name })
    .from(hookSetting)
    .leftJoin(appUser, eq(appUser.id, hookSetting.updatedBy))
    .where(eq(hookSetting.id, 1));
  return { ...(await hookSettingsOf(ctx.db)), updatedAt: r?.updatedAt?.toISOString() ?? null, updatedByName: r?.updatedByName ?? null };
}

export async function settingEdit(ctx: AppContext, user: AuthUser, s: HookSettings): Promise<void> {
  if (!(await isInstallationAdmin(ctx.db, user))) throw new AppError('FORBIDDEN', SETTINGS_ADMIN_ONLY);
  const values = { ...s, updatedBy: user.id, updatedAt: new Date() };
  await ctx.db.insert(hookSetting).values({ id: 1, ...values }).onConflictDoUpdate({ target: hookSetting.id, set: values });
}
