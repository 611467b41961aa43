import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE } from '@ess/contract';
import { eq } from 'drizzle-orm';
import { storedFile } from '../../db/schema/files.ts';
import type { AppContext } from '../../platform/context.ts';
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
  /** Firmware images have no common signature; only the extension is checked. */
  bin: { mime: 'application/octet-stream', check: () => true },
} as const satisfies Record<string, { mime: string; check: (head: Buffer) => boolean }>;

export type FileExt = keyof typeof FILE_TYPES;
export const ALL_FILE_EXTS = Object.keys(FILE_TYPES) as FileExt[];

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
 * checking extension, content signature and size, and records it for the uploader's company.
 * Other modules (firmware, distribution diagrams) call this with a narrower `allowed` list.
 */
export async function storeUpload(
  ctx: AppContext,
  user: AuthUser,
  req: FastifyRequest,
  allowed: readonly FileExt[] = ALL_FILE_EXTS,
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
    await ctx.db.insert(storedFile).values({
      suffix, originalName: name, mime: FILE_TYPES[ext].mime, size, sha256: hash.digest('hex'), companyId: user.companyId, uploadedBy: user.id,
    });
  } catch (err) {
    await unlink(join(dir, suffix)).catch(() => undefined);
    throw err;
  }
  return { suffix, name, size, url: downloadUrl(suffix) };
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
