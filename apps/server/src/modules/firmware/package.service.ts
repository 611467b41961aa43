import { createReadStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  FIRMWARE_ERRORS, FIRMWARE_ROLLOUT_STATE_LABELS, type FirmwareKeyAlgorithm, type FirmwarePackageFilter, type firmwarePackageEdit, type firmwarePackagePage,
  type FirmwarePackageRecord, type FirmwarePackageRef, type FirmwarePackageState, type FirmwareRolloutState,
} from '@ess/contract/firmware';
import type { DeviceType } from '@ess/contract';
import { product } from '../../db/schema/device.ts';
import { firmwareKey, firmwarePackage, firmwareRollout, firmwareTask } from '../../db/schema/firmware.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';
import { sendFile } from '../../platform/xlsx/xlsx.ts';
import { verifyDeviceToken } from './device-token.ts';
import { checkDescription } from './package.upload.ts';
import { firmwareDir } from './setting.service.ts';

/**
 * Packages (decision 0047): the page, list, one record, edit (release notes and the "may upgrade
 * from" range), withdraw / release, delete (refused while a rollout uses it), the console's
 * download, and the device's download by token with HTTP Range.
 */
const PACKAGE_NOT_FOUND = '升级包不存在';
/** Rollouts that block deleting their package: not yet ended. */
const LIVE_ROLLOUT_STATES: FirmwareRolloutState[] = ['pendingApproval', 'ready', 'running', 'paused'];

const rolloutCount = sql<number>`(select count(*) from firmware_rollout r where r.package_id = "firmware_package"."id")`.mapWith(Number);
const activeRolloutCount = sql<number>`(select count(*) from firmware_rollout r where r.package_id = "firmware_package"."id" and r.state in ('running', 'paused'))`.mapWith(Number);
const deviceCount = sql<number>`(select count(*) from device d where d.type = "firmware_package"."device_type"
  and ("firmware_package"."product_id" is null or d.product_id = "firmware_package"."product_id")
  and d.firmware_name = "firmware_package"."name" and d.firmware_version = "firmware_package"."version"
  and d.site_id in (select s.id from site s where s.company_id in (select c.id from company c where c.path like (select pc.path from company pc where pc.id = "firmware_package"."company_id") || '%')))`.mapWith(Number);

const packages = defineListQuery({
  table: firmwarePackage,
  columns: {
    id: firmwarePackage.id, companyId: firmwarePackage.companyId, companyName: company.name, deviceType: firmwarePackage.deviceType,
    productId: firmwarePackage.productId, productName: product.name, name: firmwarePackage.name, version: firmwarePackage.version,
    upgradeFrom: firmwarePackage.upgradeFrom, releaseNotes: firmwarePackage.releaseNotes, fileName: firmwarePackage.fileName, size: firmwarePackage.size,
    sha256: firmwarePackage.sha256, signatureAlgorithm: firmwarePackage.signatureAlgorithm, keyId: firmwarePackage.keyId, keyName: firmwareKey.name,
    state: firmwarePackage.state, rolloutCount, activeRolloutCount, deviceCount, createdAt: firmwarePackage.createdAt, updatedAt: firmwarePackage.updatedAt,
    createdByName: appUser.name, signature: firmwarePackage.signature,
  },
  joins: [
    { table: company, on: eq(company.id, firmwarePackage.companyId) },
    { table: product, on: eq(product.id, firmwarePackage.productId), left: true },
    { table: firmwareKey, on: eq(firmwareKey.id, firmwarePackage.keyId), left: true },
    { table: appUser, on: eq(appUser.id, firmwarePackage.createdBy), left: true },
  ],
  scope: (db, user) => inCompanyScope(firmwarePackage.companyId, db, user),
  filter: (f: FirmwarePackageFilter) => [
    f.companyId ? eq(firmwarePackage.companyId, f.companyId) : undefined,
    f.name ? likeEscaped(firmwarePackage.name, f.name) : undefined,
    f.version ? likeEscaped(firmwarePackage.version, f.version) : undefined,
    f.deviceType ? eq(firmwarePackage.deviceType, f.deviceType) : undefined,
    f.productId ? eq(firmwarePackage.productId, f.productId) : undefined,
    f.state ? eq(firmwarePackage.state, f.state) : undefined,
    f.signed === undefined ? undefined : f.signed ? sql`${firmwarePackage.signature} is not null` : sql`${firmwarePackage.signature} is null`,
  ],
  orderBy: [desc(firmwarePackage.createdAt), desc(firmwarePackage.id)],
  sortable: { name: firmwarePackage.name, version: firmwarePackage.version, deviceType: firmwarePackage.deviceType, size: firmwarePackage.size, createdAt: firmwarePackage.createdAt },
  toRecord: ({ signature, ...r }): FirmwarePackageRecord => ({
    ...r,
    deviceType: r.deviceType as DeviceType,
    state: r.state as FirmwarePackageState,
    signatureAlgorithm: r.signatureAlgorithm as FirmwareKeyAlgorithm | null,
    signed: signature !== null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }),
});

export const packagePage = (ctx: AppContext, user: AuthUser, req: z.output<typeof firmwarePackagePage>) => packages.page(ctx.db, user, req);

export async function packageList(ctx: AppContext, user: AuthUser, f: FirmwarePackageFilter): Promise<FirmwarePackageRef[]> {
  const rows = await packages.list(ctx.db, user, f, 1000);
  return rows.map((r) => ({ id: r.id, companyId: r.companyId, deviceType: r.deviceType, productId: r.productId, name: r.name, version: r.version, upgradeFrom: r.upgradeFrom, state: r.state }));
}

export async function packageOne(ctx: AppContext, user: AuthUser, id: number): Promise<FirmwarePackageRecord> {
  const [r] = await packages.rows(ctx.db, and(eq(firmwarePackage.id, id), inCompanyScope(firmwarePackage.companyId, ctx.db, user)), 1);
  return found(r, PACKAGE_NOT_FOUND);
}

/** The package row, if the caller's companies hold it (404 otherwise). */
export async function storedPackage(db: DbOrTx, user: AuthUser, id: number) {
  const [r] = await db.select().from(firmwarePackage).where(and(eq(firmwarePackage.id, id), inCompanyScope(firmwarePackage.companyId, db, user)));
  return found(r, PACKAGE_NOT_FOUND);
}

export async function packageEdit(ctx: AppContext, user: AuthUser, body: z.output<typeof firmwarePackageEdit>): Promise<boolean> {
  const p = await storedPackage(ctx.db, user, body.id);
  if (body.upgradeFrom !== p.upgradeFrom) {
    // The range is checked as at upload (its own version is not a duplicate of itself).
    await checkDescription(ctx.db, p.companyId, { deviceType: p.deviceType, productId: p.productId, name: p.name, version: `${p.version}`, upgradeFrom: body.upgradeFrom }).catch((err: AppError) => {
      if (err.code !== 'A0409') throw err;
    });
  }
  await ctx.db.update(firmwarePackage).set({ upgradeFrom: body.upgradeFrom, releaseNotes: body.releaseNotes, updatedAt: new Date() }).where(eq(firmwarePackage.id, p.id));
  return true;
}

export async function packageState(ctx: AppContext, user: AuthUser, id: number, state: FirmwarePackageState): Promise<boolean> {
  const p = await storedPackage(ctx.db, user, id);
  if (p.state !== state) await ctx.db.update(firmwarePackage).set({ state, updatedAt: new Date() }).where(eq(firmwarePackage.id, p.id));
  return true;
}

/**
 * Deletes a package and its file. Refused (406, naming the rollout) while a rollout that is not
 * over uses it; a package with ended rollouts keeps their history: withdraw it instead.
 */
export async function packageDelete(ctx: AppContext, user: AuthUser, id: number): Promise<boolean> {
  const p = await storedPackage(ctx.db, user, id);
  const uses = await ctx.db
    .select({ name: firmwareRollout.name, state: firmwareRollout.state })
    .from(firmwareRollout)
    .where(eq(firmwareRollout.packageId, p.id))
    .orderBy(asc(firmwareRollout.id));
  const live = uses.find((r) => LIVE_ROLLOUT_STATES.includes(r.state as FirmwareRolloutState));
  if (live) throw new AppError('RULE_VIOLATION', `${FIRMWARE_ERRORS.packageInUse(live.name)}（${FIRMWARE_ROLLOUT_STATE_LABELS[live.state as FirmwareRolloutState]}）`);
  if (uses.length) throw new AppError('RULE_VIOLATION', `升级包有${uses.length}个升级任务的记录（如「${uses[0]!.name}」），不能删除，可撤回`);
  await ctx.db.delete(firmwarePackage).where(eq(firmwarePackage.id, p.id));
  await unlink(join(firmwareDir(ctx), p.storageKey)).catch(() => undefined);
  return true;
}

/** The console's download of a package file (its company in the caller's scope). */
export async function packageDownload(ctx: AppContext, user: AuthUser, id: number, reply: FastifyReply) {
  const p = await storedPackage(ctx.db, user, id);
  const path = join(firmwareDir(ctx), p.storageKey);
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw new AppError('NOT_FOUND', '升级包文件不存在');
  reply.header('content-length', String(info.size)).header('x-firmware-sha256', p.sha256).header('x-content-type-options', 'nosniff');
  return sendFile(reply, p.fileName, 'application/octet-stream', createReadStream(path));
}

/** A Range header's one byte range within `size` (RFC 9110 §14.1.2), null when absent, 'bad' when unsatisfiable. */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | null | 'bad' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'bad';
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'bad';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'bad';
  return { start, end };
}

/**
 * A device's download (GET /firmware/device/package?token=…; no session): the token must verify
 * and still name a live task of that device whose rollout ships that package. Answers the file,
 * or the one byte range asked for (206) so a device resumes a broken download.
 */
export async function deviceDownload(ctx: AppContext, token: string, req: FastifyRequest, reply: FastifyReply) {
  const claims = verifyDeviceToken(ctx.config.secretKey, token, 'package');
  if (!claims) throw new AppError('FORBIDDEN', FIRMWARE_ERRORS.tokenInvalid);
  const [row] = await ctx.db
    .select({ p: firmwarePackage, taskState: firmwareTask.state })
    .from(firmwareTask)
    .innerJoin(firmwareRollout, eq(firmwareRollout.id, firmwareTask.rolloutId))
    .innerJoin(firmwarePackage, eq(firmwarePackage.id, firmwareRollout.packageId))
    .where(and(eq(firmwareTask.id, claims.taskId), eq(firmwareTask.deviceId, claims.deviceId), eq(firmwarePackage.id, claims.packageId), inArray(firmwareRollout.state, ['running', 'paused'])));
  if (!row || row.taskState === 'cancelled') throw new AppError('FORBIDDEN', FIRMWARE_ERRORS.tokenInvalid);
  const p = row.p;
  const path = join(firmwareDir(ctx), p.storageKey);
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw new AppError('NOT_FOUND', '升级包文件不存在');
  const range = byteRange(req.headers.range, info.size);
  reply
    .header('accept-ranges', 'bytes')
    .header('etag', `"${p.sha256}"`)
    .header('x-firmware-sha256', p.sha256)
    .header('cache-control', 'no-store')
    .header('content-type', 'application/octet-stream')
    .header('content-disposition', `attachment; filename="${p.name.replace(/[^\w.-]/g, '_')}-${p.version}.bin"`);
  if (range === 'bad') {
    return reply.code(416).header('content-range', `bytes */${info.size}`).send();
  }
  // A conditional range (If-Range) for another file answers the whole file.
  const ifRange = req.headers['if-range'];
  if (range && (!ifRange || ifRange === `"${p.sha256}"`)) {
    return reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
      .header('content-length', String(range.end - range.start + 1))
      .send(createReadStream(path, { start: range.start, end: range.end }));
  }
  return reply.header('content-length', String(info.size)).send(createReadStream(path));
}
