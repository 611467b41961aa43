import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { readXlsxSheet, type XlsxSheet } from './xlsx.ts';

/**
 * Reads the multipart field `file` of an import and parses it as xlsx (product-spec §5: upload
 * file must be xlsx): by name and by content. Refusals name the problem; nothing is stored.
 */
export async function readUploadedSheet(ctx: AppContext, req: FastifyRequest): Promise<{ fileName: string; sheet: XlsxSheet }> {
  let part;
  try {
    part = await req.file();
  } catch (err) {
    throw tooLarge(err, ctx);
  }
  if (!part || part.fieldname !== 'file') {
    part?.file.resume();
    throw new AppError('INVALID_PARAM', 'file不能为空');
  }
  const fileName = part.filename.replace(/[\\/]/g, '_').slice(-200) || 'upload.xlsx';
  if (!/\.xlsx$/i.test(fileName)) {
    part.file.resume();
    throw new AppError('FILE_TYPE', '上传文件必须是xlsx格式');
  }
  let buf: Buffer;
  try {
    buf = await part.toBuffer();
  } catch (err) {
    throw tooLarge(err, ctx);
  }
  if (buf.length === 0) throw new AppError('INVALID_PARAM', '文件内容不能为空');
  const sheet = await readXlsxSheet(buf);
  if (!sheet) throw new AppError('FILE_TYPE', '上传文件必须是xlsx格式（文件内容无法读取）');
  return { fileName, sheet };
}

function tooLarge(err: unknown, ctx: AppContext): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return new AppError('FILE_TOO_LARGE', `文件不能超过 ${Math.round((ctx.config.uploadMaxBytes / 1024 / 1024) * 10) / 10} MB`);
  }
  return err;
}
