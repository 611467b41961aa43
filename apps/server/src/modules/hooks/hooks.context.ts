import { eq } from 'drizzle-orm';
import { company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../platform/db/errors.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { secretBox, type SecretBox } from '../../platform/secrets.ts';

/**
 * What the hooks module's parts share (decision 0041): the secret box of this instance (a secret
 * parameter's value and a hook's signing secret are sealed at rest), the purposes they are sealed
 * for, and the checks of company-scoped writes.
 */

/** Purposes bound into the sealed values (a value sealed for one does not open as the other). */
export const HOOK_PARAM_SECRET = 'hook.param';
export const HOOK_SIGNING_SECRET = 'hook.secret';

/** The box of SECRET_KEY (the documented demo key when unset). */
export const hookSecrets = (ctx: AppContext): SecretBox => secretBox(ctx.config.secretKey);

/** Runs a write; a unique-index violation becomes DUPLICATE with this tip. */
export async function onceNamed<T>(tip: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (pgErrorCode(err) !== UNIQUE_VIOLATION) throw err;
    throw new AppError('DUPLICATE', tip);
  }
}

export const SETTINGS_ADMIN_ONLY = '仅系统管理员（顶级公司用户）可修改钩子设置';

/**
 * Whether the caller administers the installation: the built-in administrator, or a user of the
 * top company (whose scope is every company).
 */
export async function isInstallationAdmin(db: DbOrTx, user: AuthUser): Promise<boolean> {
  if (user.buildIn) return true;
  const [c] = await db.select({ parentId: company.parentId }).from(company).where(eq(company.id, user.companyId));
  return !!c && c.parentId === null;
}
