import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, stat, truncate, unlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { and, eq, lt, sql } from 'drizzle-orm';
import semver from 'semver';
import type { z } from 'zod';
import {
  FIRMWARE_CHUNK_BYTES, FIRMWARE_ERRORS, FIRMWARE_MAX_CHUNK_BYTES, FIRMWARE_UPLOAD_TTL_HOURS, UPGRADE_FROM_INVALID,
  type FirmwareUploadState, type FirmwareUploadStatus, type firmwareUploadStart,
} from '@ess/contract/firmware';
import type { Replyable } from '@ess/contract';
import { product } from '../../db/schema/device.ts';
import { firmwarePackage, firmwareUpload, type FirmwareUploadMeta } from '../../db/schema/firmware.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { emit } from '../../platform/events/outbox.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { assertCompany, inCompanyScope } from '../../platform/http/scope.ts';
import { candidateKeys } from './key.service.ts';
import { firmwareDir, firmwareSettings } from './setting.service.ts';
import { decodeSignature, verifyFileSignature } from './signature.ts';

/**
 * The chunked, resumable package upload (decision 0047):
 *
 * 1. `start` checks the description (semver, "may upgrade from" range, the product's device type,
 *    a version not yet uploaded, the declared size against the settings' limit, the unsigned
 *    policy) and opens a session with an empty file <dataDir>/firmware/.upload-<id>;
 * 2. `chunk` appends the bytes of one multipart part at `offset`: the server's file size is what
 *    it holds (bytes of a broken request that arrived are kept), a chunk that starts before it is
 *    taken from there on (a re-send), one that starts after it is refused naming where to resume;
 *    the SHA-256 is computed as the bytes stream in (kept per process; recomputed from the file at
 *    finish when this process did not see every byte, e.g. after a restart);
 * 3. `finish` compares the SHA-256 with the declared one and verifies the signature against the
 *    company's enabled keys; any refusal removes the bytes and the session (nothing is kept);
 *    success moves the file to <dataDir>/firmware/<key> and adds the package.
 */

type Start = z.output<typeof firmwareUploadStart>;

const MB = 1024 * 1024;
const HOUR = 3_600_000;

/** The running SHA-256 of each session this process has seen every byte of, with the byte count it covers. */
const hashes = new Map<string, { hash: Hash; bytes: number }>();
/** One chunk or finish of a session at a time in this process (queued in arrival order). */
const locks = new Map<string, Promise<unknown>>();

/**
 * One chunk, finish or abort of a session at a time, in this process and across the instances that
 * share DATA_DIR: the in-process queue first, then the session's lock file (below). Two chunks of
 * one upload sent at once are written one after the other: the second is cut to what the first
 * left (a re-send of the same bytes adds nothing), never interleaved in the file.
 */
async function locked<T>(ctx: AppContext, id: string, work: () => Promise<T>): Promise<T> {
  const before = locks.get(id) ?? Promise.resolve();
  const run = before.then(() => withLockFile(lockPath(ctx, id), work), () => withLockFile(lockPath(ctx, id), work));
  const tail = run.catch(() => undefined);
  locks.set(id, tail);
  try {
    return await run;
  } finally {
    if (locks.get(id) === tail) locks.delete(id);
  }
}

/** How long a chunk waits for another instance's write of the same session before a 406 "busy". */
export const UPLOAD_LOCK_WAIT_MS = 30_000;
/** A lock file not refreshed for this long belongs to an instance that died: it is taken over. */
const LOCK_STALE_MS = 30_000;
const LOCK_REFRESH_MS = 5_000;
const LOCK_POLL_MS = 50;

const lockPath = (ctx: AppContext, id: string) => join(firmwareDir(ctx), `.lock-${id}`);

/**
 * The lock across instances: a file created exclusively (O_EXCL, atomic on local and NFS v3+
 * file systems), its modification time refreshed while held; one left stale by a dead instance is
 * renamed away (only one taker's rename succeeds) and the lock taken again.
 */
export async function withLockFile<T>(path: string, work: () => Promise<T>, waitMs = UPLOAD_LOCK_WAIT_MS): Promise<T> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      await (await open(path, 'wx')).close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const held = await stat(path).catch(() => null);
    if (held && Date.now() - held.mtimeMs > LOCK_STALE_MS) {
      const away = `${path}.stale-${randomBytes(4).toString('hex')}`;
      if (await rename(path, away).then(() => true, () => false)) await unlink(away).catch(() => undefined);
      continue;
    }
    if (Date.now() > until) throw new AppError('TASK_BUSY', FIRMWARE_ERRORS.uploadBusy);
    await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
  }
  const refresh = setInterval(() => {
    const now = new Date();
    void utimes(path, now, now).catch(() => undefined);
  }, LOCK_REFRESH_MS);
  try {
    return await work();
  } finally {
    clearInterval(refresh);
    await unlink(path).catch(() => undefined);
  }
}

const uploadPath = (ctx: AppContext, id: string) => join(firmwareDir(ctx), `.upload-${id}`);

/** Refuses a description that cannot become a package; answers the product's device type check and the settings. */
export async function checkDescription(db: DbOrTx, companyId: number, m: Pick<FirmwareUploadMeta, 'deviceType' | 'productId' | 'name' | 'version' | 'upgradeFrom'>): Promise<void> {
  if (!semver.valid(m.version)) throw new AppError('INVALID_PARAM', '版本号须为语义化版本（如 1.2.3、2.0.0-rc.1）');
  if (m.upgradeFrom !== null) {
    const range = semver.validRange(m.upgradeFrom);
    if (!range) throw new AppError('INVALID_PARAM', UPGRADE_FROM_INVALID);
    const min = semver.minVersion(range);
    if (min && !semver.gt(m.version, min)) throw new AppError('INVALID_PARAM', FIRMWARE_ERRORS.versionNotNewer);
  }
  if (m.productId !== null) {
    const [p] = await db.select({ type: product.type }).from(product).where(eq(product.id, m.productId));
    if (!p) throw new AppError('NOT_FOUND', '产品不存在');
    if (p.type !== m.deviceType) throw new AppError('RULE_VIOLATION', FIRMWARE_ERRORS.productTypeMismatch);
  }
  const [dup] = await db
    .select({ id: firmwarePackage.id })
    .from(firmwarePackage)
    .where(
      and(
        eq(firmwarePackage.companyId, companyId),
        eq(firmwarePackage.deviceType, m.deviceType),
        sql`coalesce(${firmwarePackage.productId}, 0) = ${m.productId ?? 0}`,
        eq(firmwarePackage.name, m.name),
        eq(firmwarePackage.version, m.version),
      ),
    );
  if (dup) throw new AppError('DUPLICATE', FIRMWARE_ERRORS.duplicateVersion);
}

function statusOf(row: typeof firmwareUpload.$inferSelect): Replyable<FirmwareUploadStatus> {
  return {
    uploadId: row.id, state: row.state as FirmwareUploadState, size: row.size, received: row.received, chunkSize: FIRMWARE_CHUNK_BYTES,
    expiresAt: row.expiresAt, packageId: row.packageId,
  };
}

export async function uploadStart(ctx: AppContext, user: AuthUser, body: Start): Promise<Replyable<FirmwareUploadStatus>> {
  await assertCompany(ctx.db, user, body.companyId);
  const settings = await firmwareSettings(ctx.db);
  if (body.size > settings.maxPackageMb * MB) throw new AppError('FILE_TOO_LARGE', FIRMWARE_ERRORS.tooLarge(settings.maxPackageMb));
  if (!body.signature && !settings.allowUnsigned) throw new AppError('RULE_VIOLATION', FIRMWARE_ERRORS.unsignedRefused);
  if (body.signature) decodeSignature(body.signature);
  const meta: FirmwareUploadMeta = {
    deviceType: body.deviceType, productId: body.productId, name: body.name, version: body.version, upgradeFrom: body.upgradeFrom,
    releaseNotes: body.releaseNotes, fileName: body.fileName, sha256: body.sha256, signature: body.signature,
  };
  await checkDescription(ctx.db, body.companyId, meta);
  const id = randomBytes(18).toString('base64url');
  await mkdir(firmwareDir(ctx), { recursive: true });
  await (await open(uploadPath(ctx, id), 'wx')).close();
  hashes.set(id, { hash: createHash('sha256'), bytes: 0 });
  const [row] = await ctx.db
    .insert(firmwareUpload)
    .values({ id, companyId: body.companyId, userId: user.id, meta, size: body.size, expiresAt: new Date(Date.now() + FIRMWARE_UPLOAD_TTL_HOURS * HOUR) })
    .returning();
  return statusOf(row!);
}

/** The caller's session (its company in their scope), still uploading unless `any`. */
async function session(ctx: AppContext, user: AuthUser, id: string, any = false) {
  const [row] = await ctx.db.select().from(firmwareUpload).where(and(eq(firmwareUpload.id, id), inCompanyScope(firmwareUpload.companyId, ctx.db, user)));
  if (!row || (!any && (row.state !== 'uploading' || row.expiresAt.getTime() < Date.now()))) throw new AppError('NOT_FOUND', FIRMWARE_ERRORS.uploadGone);
  return row;
}

export async function uploadStatus(ctx: AppContext, user: AuthUser, id: string): Promise<Replyable<FirmwareUploadStatus>> {
  const row = await session(ctx, user, id, true);
  if (row.state !== 'uploading') return statusOf(row);
  const held = await heldBytes(ctx, id);
  return statusOf({ ...row, received: held });
}

const heldBytes = async (ctx: AppContext, id: string) => (await stat(uploadPath(ctx, id)).catch(() => null))?.size ?? 0;

export async function uploadChunk(ctx: AppContext, user: AuthUser, req: FastifyRequest, q: { uploadId: string; offset: number }): Promise<Replyable<FirmwareUploadStatus>> {
  const row = await session(ctx, user, q.uploadId);
  return locked(ctx, row.id, async () => {
    const path = uploadPath(ctx, row.id);
    const before = await heldBytes(ctx, row.id);
    let part;
    try {
      part = await req.file({ limits: { fileSize: FIRMWARE_MAX_CHUNK_BYTES, files: 1 } });
    } catch {
      throw new AppError('INVALID_PARAM', '分片须以 multipart 字段 file 上传');
    }
    if (!part || part.fieldname !== 'file') {
      part?.file.resume();
      throw new AppError('INVALID_PARAM', 'file不能为空');
    }
    if (q.offset > before) {
      part.file.resume();
      throw new AppError('RULE_VIOLATION', FIRMWARE_ERRORS.uploadOffset(before));
    }
    const running = hashes.get(row.id);
    const hash = running && running.bytes === before ? running : null;
    if (!hash) hashes.delete(row.id);
    let skip = before - q.offset;
    let written = before;
    let beyond = false;
    const cut = new Transform({
      transform(chunk: Buffer, _enc, done) {
        let c = chunk;
        if (skip > 0) {
          const n = Math.min(skip, c.length);
          skip -= n;
          c = c.subarray(n);
        }
        if (c.length === 0) return done();
        if (written + c.length > row.size) {
          beyond = true;
          return done(new AppError('RULE_VIOLATION', FIRMWARE_ERRORS.uploadBeyondSize));
        }
        written += c.length;
        hash?.hash.update(c);
        done(null, c);
      },
    });
    let failure: unknown = null;
    try {
      await pipeline(part.file, cut, createWriteStream(path, { flags: 'a' }));
    } catch (err) {
      failure = err;
    }
    const tooLarge = part.file.truncated || (failure as { code?: string } | null)?.code === 'FST_REQ_FILE_TOO_LARGE';
    // A chunk past the declared size or the chunk limit is undone whole; a broken connection keeps
    // what arrived (the client asks for the progress and resumes from there).
    if (beyond || tooLarge) await truncate(path, before);
    const held = await heldBytes(ctx, row.id);
    // The running hash stays valid only when it saw exactly the bytes now on disk.
    if (hash && !beyond && !tooLarge && held === written) hashes.set(row.id, { hash: hash.hash, bytes: held });
    else hashes.delete(row.id);
    await ctx.db
      .update(firmwareUpload)
      .set({ received: held, updatedAt: new Date(), expiresAt: new Date(Date.now() + FIRMWARE_UPLOAD_TTL_HOURS * HOUR) })
      .where(eq(firmwareUpload.id, row.id));
    if (tooLarge) throw new AppError('PAYLOAD_TOO_LARGE', `分片不能超过 ${FIRMWARE_MAX_CHUNK_BYTES / MB} MB`);
    if (failure) throw failure instanceof AppError ? failure : new AppError('INVALID_PARAM', '分片上传中断，请查询进度后续传');
    return statusOf({ ...row, received: held });
  });
}

async function fileSha256(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** Drops a session and its bytes (a refused finish, an abort, an expired upload). */
async function dropSession(ctx: AppContext, id: string, state: FirmwareUploadState = 'aborted') {
  hashes.delete(id);
  await unlink(uploadPath(ctx, id)).catch(() => undefined);
  await ctx.db.update(firmwareUpload).set({ state, updatedAt: new Date() }).where(eq(firmwareUpload.id, id));
}

export async function uploadAbort(ctx: AppContext, user: AuthUser, id: string): Promise<boolean> {
  const row = await session(ctx, user, id);
  await locked(ctx, row.id, () => dropSession(ctx, row.id));
  return true;
}

export async function uploadFinish(ctx: AppContext, user: AuthUser, id: string): Promise<{ id: number }> {
  const row = await session(ctx, user, id);
  return locked(ctx, row.id, async () => {
    const path = uploadPath(ctx, row.id);
    const held = await heldBytes(ctx, row.id);
    if (held !== row.size) throw new AppError('RULE_VIOLATION', FIRMWARE_ERRORS.uploadIncomplete(held, row.size));
    const m = row.meta;
    const refuse = async (err: AppError): Promise<never> => {
      await dropSession(ctx, row.id);
      throw err;
    };
    const running = hashes.get(row.id);
    const sha256 = running && running.bytes === held ? running.hash.digest('hex') : await fileSha256(path);
    hashes.delete(row.id);
    if (m.sha256 && m.sha256 !== sha256) await refuse(new AppError('RULE_VIOLATION', FIRMWARE_ERRORS.sha256Mismatch));
    const settings = await firmwareSettings(ctx.db);
    if (row.size > settings.maxPackageMb * MB) await refuse(new AppError('FILE_TOO_LARGE', FIRMWARE_ERRORS.tooLarge(settings.maxPackageMb)));
    let keyId: number | null = null;
    let algorithm: string | null = null;
    if (m.signature) {
      const key = await verifyFileSignature(path, decodeSignature(m.signature), await candidateKeys(ctx.db, row.companyId));
      if (!key) await refuse(new AppError('RULE_VIOLATION', FIRMWARE_ERRORS.signatureInvalid));
      keyId = key!.id;
      algorithm = key!.algorithm;
    } else if (!settings.allowUnsigned) {
      await refuse(new AppError('RULE_VIOLATION', FIRMWARE_ERRORS.unsignedRefused));
    }
    try {
      await checkDescription(ctx.db, row.companyId, m);
    } catch (err) {
      await refuse(err as AppError);
    }
    const storageKey = `${randomBytes(16).toString('base64url')}.bin`;
    await rename(path, join(firmwareDir(ctx), storageKey));
    try {
      return await ctx.db.transaction(async (tx) => {
        const [p] = await tx
          .insert(firmwarePackage)
          .values({
            companyId: row.companyId, deviceType: m.deviceType, productId: m.productId, name: m.name, version: m.version, upgradeFrom: m.upgradeFrom,
            releaseNotes: m.releaseNotes, fileName: m.fileName, storageKey, size: row.size, sha256, signature: m.signature, signatureAlgorithm: algorithm,
            keyId, createdBy: user.id,
          })
          .returning({ id: firmwarePackage.id });
        await tx.update(firmwareUpload).set({ state: 'finished', received: held, packageId: p!.id, updatedAt: new Date() }).where(eq(firmwareUpload.id, row.id));
        await emit(tx, 'firmware.packageAdded', [
          { packageId: p!.id, companyId: row.companyId, deviceType: m.deviceType, productId: m.productId, name: m.name, version: m.version, sha256, signed: keyId !== null, userId: user.id },
        ]);
        return { id: p!.id };
      });
    } catch (err) {
      await unlink(join(firmwareDir(ctx), storageKey)).catch(() => undefined);
      await dropSession(ctx, row.id);
      throw err;
    }
  });
}

/** Sessions untouched past their expiry: their bytes removed, the session marked aborted (hourly). */
export async function sweepUploads(ctx: AppContext): Promise<number> {
  const stale = await ctx.db.select({ id: firmwareUpload.id }).from(firmwareUpload).where(and(eq(firmwareUpload.state, 'uploading'), lt(firmwareUpload.expiresAt, new Date())));
  for (const s of stale) await dropSession(ctx, s.id);
  return stale.length;
}
