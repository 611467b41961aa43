import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Replyable } from '@ess/contract';
import { FIRMWARE_ERRORS, FIRMWARE_SETTING_DEFAULTS, type FirmwareSettingEdit, type FirmwareSettingRecord } from '@ess/contract/firmware';
import { firmwareSetting } from '../../db/schema/firmware.ts';
import { company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';

/** Where package files and upload sessions live: beside the files module's folder. */
export const firmwareDir = (ctx: AppContext) => join(ctx.config.dataDir, 'firmware');
/** Where uploaded device logs live. */
export const firmwareLogDir = (ctx: AppContext) => join(ctx.config.dataDir, 'firmware-logs');

export type FirmwareSettings = Omit<FirmwareSettingRecord, 'editable' | 'updatedAt'>;

/** The installation's firmware settings (the migration writes the row; the defaults stand in if it is gone). */
export async function firmwareSettings(db: DbOrTx): Promise<FirmwareSettings> {
  const [row] = await db.select().from(firmwareSetting).where(eq(firmwareSetting.id, 1));
  if (!row) return { ...FIRMWARE_SETTING_DEFAULTS };
  const { id: _id, updatedBy: _by, updatedAt: _at, ...s } = row;
  return s;
}

/**
 * Whether the caller administers the installation (edits its firmware settings): the built-in
 * administrator, or a user of the top company (whose scope is every company).
 */
async function isAdministrator(db: DbOrTx, user: AuthUser): Promise<boolean> {
  if (user.buildIn) return true;
  const [c] = await db.select({ parentId: company.parentId }).from(company).where(eq(company.id, user.companyId));
  return !!c && c.parentId === null;
}

export async function settingOne(ctx: AppContext, user: AuthUser): Promise<Replyable<FirmwareSettingRecord>> {
  const [row] = await ctx.db.select({ updatedAt: firmwareSetting.updatedAt }).from(firmwareSetting).where(eq(firmwareSetting.id, 1));
  const s = await firmwareSettings(ctx.db);
  return { ...s, updatedAt: row?.updatedAt ?? new Date(0), editable: await isAdministrator(ctx.db, user) };
}

export async function settingEdit(ctx: AppContext, user: AuthUser, body: FirmwareSettingEdit): Promise<boolean> {
  if (!(await isAdministrator(ctx.db, user))) throw new AppError('FORBIDDEN', FIRMWARE_ERRORS.settingsAdminOnly);
  const values = { ...body, updatedBy: user.id, updatedAt: new Date() };
  await ctx.db.insert(firmwareSetting).values({ id: 1, ...values }).onConflictDoUpdate({ target: firmwareSetting.id, set: values });
  return true;
}
