import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE, IMAGE_MAX_BYTES, IMAGE_MAX_FILES, OSS_UPLOAD_TYPES } from '@ess/contract';
import { and, asc, count, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import { storedFile } from '../../db/schema/files.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Db, DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { companyInScope } from '../../platform/http/scope.ts';
import { sendFile } from '../../platform/xlsx/xlsx.ts';

/** Accepted upload types: extension → stored MIME type and the content check. */
export const FILE_TYPES = {
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', check: isZip },
  svg: { mime: 'image/svg+xml', check: isSvg },
  jpg: { mime: 'image/jpeg', check: isJpeg },
  jpeg: { mime: 'image/jpeg', check: isJpeg },
  png: { mime: 'image/png', check: isPng },
  pdf: { mime: 'application/pdf', check: isPdf },
  zip: { mime: 'application/zip', check: isZip },
} as const satisfies Record<string, { mime: string; check: (head: Buffer) => boolean }>;

export type FileExt = keyof typeof FILE_TYPES;
export const ALL_FILE_EXTS = Object.keys(FILE_TYPES) as FileExt[];
/** The generic upload call's types (contract OSS_UPLOAD_TYPES). */
export const OSS_FILE_EXTS: readonly FileExt[] = OSS_UPLOAD_TYPES;

/** Bytes kept from the start of the upload for the content check. */
const HEAD_BYTES = 64 * 1024;

function isPng(b: Buffer) {
  return b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
}
function isJpeg(b: Buffer) {
  return b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
}
function isPdf(b: Buffer) {
  return b.subarray(0, 5).toString('latin1') === '%PDF-';
}
/** Local file header, or the end record of an empty archive. xlsx is a zip. */
function isZip(b: Buffer) {
  const sig = b.subarray(0, 4).toString('latin1');
  return sig === 'PK\x03\x04' || sig === 'PK\x05\x06';
}
/**
 * SVG is text: after an optional BOM, XML declaration, comments and a DOCTYPE (without an
 * internal subset, so no entity tricks), the first element must be <svg.
 */
export function isSvg(b: Buffer): boolean {
  let s = b.toString('utf8');
  if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
  for (;;) {
    s = s.trimStart();
    const skipTo = (end: string) => {
      const i = s.indexOf(end);
      if (i < 0) return false;
      s = s.slice(i + end.length);
      return true;
    };
    if (s.startsWith('<?xml')) {
      if (!skipTo('?>')) return false;
    } else if (s.startsWith('<!--')) {
      if (!skipTo('-->')) return false;
    } else if (/^<!DOCTYPE/i.test(s)) {
      const end = s.indexOf('>');
      if (end < 0 || s.slice(0, end).includes('[')) return false;
      s = s.slice(end + 1);
    } else {
      return /^<svg[\s>/]/.test(s);
    }
  }
}

export const filesDir = (ctx: AppContext) => join(ctx.config.dataDir, 'files');
export const downloadUrl = (suffix: string) => `${API_BASE}/basic/oss/download/suffix?suffix=${encodeURIComponent(suffix)}`;

/** The original name as shown and offered on download: no directories, no control characters. */
function cleanName(raw: string | undefined): string {
  const name = basename((raw ?? '').replace(/\\/g, '/'))
    .replace(/\p{Cc}/gu, '')
    .trim();
  return name.slice(-200) || 'file';
}

export interface StoredUpload {
  suffix: string;
  name: string;
  size: number;
  url: string;
}

/**
 * Reads the multipart field `file` of the request onto disk under <dataDir>/files/<suffix>,
 * checking extension, content signature, size and the upload quotas (the uploader's last 24
 * hours, all stored files), and records it for the uploader's company. Other modules call this
 * with the `allowed` list their call needs; a file no record references (addFileReferences) is
 * removed after UPLOAD_ORPHAN_GRACE_HOURS.
 */
export async function storeUpload(
  ctx: AppContext,
  user: AuthUser,
  req: FastifyRequest,
  allowed: readonly FileExt[] = OSS_FILE_EXTS,
): Promise<StoredUpload> {
  let part;
  try {
    part = await req.file();
  } catch (err) {
    throw uploadError(err, ctx);
  }
  if (!part || part.fieldname !== 'file') {
    part?.file.resume();
    throw new AppError('INVALID_PARAM', 'file不能为空');
  }
  const name = cleanName(part.filename);
  const dot = name.lastIndexOf('.');
  const ext = (dot > 0 ? name.slice(dot + 1).toLowerCase() : '') as FileExt;
  const allowedText = allowed.join('、');
  if (!allowed.includes(ext) || !(ext in FILE_TYPES)) {
    part.file.resume();
    throw new AppError('FILE_TYPE', `文件类型不支持，允许的类型：${allowedText}`);
  }
  try {
    // Refused before reading the body when the quota is already used up.
    await checkQuota(ctx, ctx.db, user.id, 1);
  } catch (err) {
    part.file.resume();
    throw err;
  }

  const dir = filesDir(ctx);
  await mkdir(dir, { recursive: true });
  const suffix = `${randomBytes(16).toString('base64url')}.${ext}`;
  const tmp = join(dir, `.upload-${randomBytes(8).toString('hex')}`);
  const hash = createHash('sha256');
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      if (headLength < HEAD_BYTES) {
        headChunks.push(chunk);
        headLength += chunk.length;
      }
      done(null, chunk);
    },
  });
  try {
    try {
      await pipeline(part.file, tap, createWriteStream(tmp, { flags: 'wx' }));
    } catch (err) {
      throw uploadError(err, ctx);
    }
    if (part.file.truncated) throw uploadError(null, ctx);
    if (size === 0) throw new AppError('INVALID_PARAM', '文件内容不能为空');
    const type = FILE_TYPES[ext];
    if (!type.check(Buffer.concat(headChunks).subarray(0, HEAD_BYTES))) {
      throw new AppError('FILE_TYPE', `文件内容与扩展名 .${ext} 不符`);
    }
    await rename(tmp, join(dir, suffix));
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  try {
    // One upload at a time is counted against the quotas, so parallel uploads cannot all pass.
    await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('ess.stored_file'))`);
      await checkQuota(ctx, tx, user.id, size);
      await tx.insert(storedFile).values({
        suffix, originalName: name, mime: FILE_TYPES[ext].mime, size, sha256: hash.digest('hex'), companyId: user.companyId, uploadedBy: user.id,
      });
    });
  } catch (err) {
    await unlink(join(dir, suffix)).catch(() => undefined);
    throw err;
  }
  return { suffix, name, size, url: downloadUrl(suffix) };
}

const DAY_MS = 86_400_000;
const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/**
 * Refuses an upload of `bytes` that would take the user past UPLOAD_USER_DAILY_FILES or
 * UPLOAD_USER_DAILY_MB within 24 hours (429), or all stored files past UPLOAD_TOTAL_GB (503).
 */
async function checkQuota(ctx: AppContext, db: Pick<Db, 'select'>, userId: number, bytes: number): Promise<void> {
  const { uploadUserDailyFiles, uploadUserDailyBytes, uploadTotalBytes } = ctx.config;
  const [mine] = await db
    .select({ files: count(), bytes: sql<string>`coalesce(sum(${storedFile.size}), 0)` })
    .from(storedFile)
    .where(and(eq(storedFile.uploadedBy, userId), gte(storedFile.createdAt, new Date(Date.now() - DAY_MS))));
  if (mine!.files + 1 > uploadUserDailyFiles) {
    throw new AppError('TOO_MANY_REQUESTS', `24 小时内最多上传 ${uploadUserDailyFiles} 个文件，请稍后再试`);
  }
  if (Number(mine!.bytes) + bytes > uploadUserDailyBytes) {
    throw new AppError('TOO_MANY_REQUESTS', `24 小时内最多上传 ${mb(uploadUserDailyBytes)}，请稍后再试`);
  }
  const [all] = await db.select({ bytes: sql<string>`coalesce(sum(${storedFile.size}), 0)` }).from(storedFile);
  if (Number(all!.bytes) + bytes > uploadTotalBytes) {
    throw new AppError('UNAVAILABLE', '文件存储空间已满，请联系管理员');
  }
}

/**
 * Where records keep stored files: given stored suffixes, the ones some record of the module
 * still uses (as the suffix or inside the download URL). A module that saves an upload's suffix
 * or URL registers its columns here (before the jobs start), or the hourly sweep removes the
 * file once UPLOAD_ORPHAN_GRACE_HOURS have passed.
 */
export interface FileReferences {
  name: string;
  referenced: (ctx: AppContext, suffixes: string[]) => Promise<Iterable<string>>;
}

const referenceSources = new WeakMap<AppContext, FileReferences[]>();

export function addFileReferences(ctx: AppContext, refs: FileReferences): void {
  referenceSources.set(ctx, [...(referenceSources.get(ctx) ?? []), refs]);
}

const SWEEP_BATCH = 500;
/** A partly written upload older than this belongs to no running request. */
const TEMP_MAX_AGE_MS = 3_600_000;

/**
 * Removes stored files that no registered record references once they are older than the grace
 * period (rows and files), files on disk without a row after the same period, and partly written
 * uploads left by a crash.
 */
export async function sweepUnreferencedFiles(ctx: AppContext, now = new Date()): Promise<{ removed: number; bytes: number; strays: number }> {
  const cutoff = new Date(now.getTime() - ctx.config.uploadOrphanGraceMs);
  const sources = referenceSources.get(ctx) ?? [];
  const dir = filesDir(ctx);
  let removed = 0;
  let bytes = 0;
  let lastId = 0;
  for (;;) {
    const batch = await ctx.db
      .select({ id: storedFile.id, suffix: storedFile.suffix, size: storedFile.size })
      .from(storedFile)
      .where(and(lt(storedFile.createdAt, cutoff), gt(storedFile.id, lastId)))
      .orderBy(asc(storedFile.id))
      .limit(SWEEP_BATCH);
    if (batch.length === 0) break;
    lastId = batch[batch.length - 1]!.id;
    const suffixes = batch.map((r) => r.suffix);
    const used = new Set<string>();
    for (const src of sources) for (const s of await src.referenced(ctx, suffixes)) used.add(s);
    const orphans = batch.filter((r) => !used.has(r.suffix));
    if (orphans.length === 0) continue;
    const gone = await ctx.db
      .delete(storedFile)
      .where(and(inArray(storedFile.id, orphans.map((r) => r.id)), lt(storedFile.createdAt, cutoff)))
      .returning({ suffix: storedFile.suffix, size: storedFile.size });
    for (const r of gone) {
      await unlink(join(dir, r.suffix)).catch(() => undefined);
      removed += 1;
      bytes += r.size;
    }
  }
  let strays = 0;
  const names = await readdir(dir).catch(() => [] as string[]);
  const onDisk = names.filter((n) => !n.startsWith('.'));
  const known = new Set<string>();
  for (let i = 0; i < onDisk.length; i += SWEEP_BATCH) {
    const chunk = onDisk.slice(i, i + SWEEP_BATCH);
    const rows = await ctx.db.select({ suffix: storedFile.suffix }).from(storedFile).where(inArray(storedFile.suffix, chunk));
    for (const r of rows) known.add(r.suffix);
  }
  for (const n of names) {
    const temp = n.startsWith('.upload-');
    if (!temp && (n.startsWith('.') || known.has(n))) continue;
    const info = await stat(join(dir, n)).catch(() => null);
    if (!info?.isFile()) continue;
    const maxAge = temp ? TEMP_MAX_AGE_MS : ctx.config.uploadOrphanGraceMs;
    if (now.getTime() - info.mtimeMs < maxAge) continue;
    await unlink(join(dir, n)).catch(() => undefined);
    strays += 1;
  }
  return { removed, bytes, strays };
}

/** What a record keeps of a photo it references. */
export interface StoredImage {
  suffix: string;
  name: string;
  size: number;
  url: string;
}

/**
 * Checks the photos a record is about to reference (product-spec §5: jpg, jpeg or png, at most
 * IMAGE_MAX_BYTES each, at most IMAGE_MAX_FILES): each an upload of the caller's data scope whose
 * content was checked as a JPEG or PNG when it was stored (by its bytes, not its name), within the
 * size limit. Answers them in the order given, or refuses (nothing is written by the caller then).
 */
export async function checkedImages(db: DbOrTx, user: AuthUser, suffixes: readonly string[], field = 'photos'): Promise<StoredImage[]> {
  if (suffixes.length > IMAGE_MAX_FILES) throw new AppError('INVALID_PARAM', `${field}: 最多${IMAGE_MAX_FILES}张图片`);
  if (new Set(suffixes).size !== suffixes.length) throw new AppError('INVALID_PARAM', `${field}: 图片重复`);
  if (suffixes.length === 0) return [];
  const rows = await db.select().from(storedFile).where(inArray(storedFile.suffix, [...suffixes]));
  const bySuffix = new Map(rows.map((r) => [r.suffix, r]));
  const out: StoredImage[] = [];
  for (const suffix of suffixes) {
    const r = bySuffix.get(suffix);
    if (!r || !(await companyInScope(db, user, r.companyId))) throw new AppError('NOT_FOUND', `${field}: 图片不存在`);
    if (r.mime !== 'image/jpeg' && r.mime !== 'image/png') throw new AppError('FILE_TYPE', `${field}: 只能上传jpg、jpeg、png格式的图片`);
    if (r.size > IMAGE_MAX_BYTES) throw new AppError('FILE_TOO_LARGE', `${field}: 图片不能超过${IMAGE_MAX_BYTES / 1024 / 1024}MB`);
    out.push({ suffix: r.suffix, name: r.originalName, size: r.size, url: downloadUrl(r.suffix) });
  }
  return out;
}

/** Size-limit faults of the multipart reader become FILE_TOO_LARGE; anything else passes on. */
function uploadError(err: unknown, ctx: AppContext): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (err === null || code === 'FST_REQ_FILE_TOO_LARGE') {
    return new AppError('FILE_TOO_LARGE', `文件不能超过 ${Math.round((ctx.config.uploadMaxBytes / 1024 / 1024) * 10) / 10} MB`);
  }
  return err;
}

/** Streams a stored file to a caller whose data scope includes the uploader's company. */
export async function sendStoredFile(ctx: AppContext, user: AuthUser, suffix: string, reply: FastifyReply) {
  const [row] = await ctx.db.select().from(storedFile).where(eq(storedFile.suffix, suffix));
  if (!row) throw new AppError('NOT_FOUND', '文件不存在');
  if (!(await companyInScope(ctx.db, user, row.companyId))) throw new AppError('OUT_OF_SCOPE');
  const dir = resolve(filesDir(ctx));
  const path = resolve(dir, row.suffix);
  if (!path.startsWith(dir + sep)) throw new AppError('NOT_FOUND', '文件不存在');
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw new AppError('NOT_FOUND', '文件不存在');
  reply
    .header('content-length', String(info.size))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox");
  return sendFile(reply, row.originalName, row.mime, createReadStream(path));
}

/** The route-table probe names its fixture file by id, so the probe can ask for it. */
export const probeSuffix = (id: number) => `scopeprobe${String(id).padStart(8, '0')}.bin`;
