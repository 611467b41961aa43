import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { readXlsxSheet, type XlsxSheet } from './xlsx.ts';

export interface UploadedSheet {
  fileName: string;
  sheet: XlsxSheet;
  /** The form's text fields (before or after the file); the import checks them with its endpoint's body schema. */
  fields: Record<string, string>;
}

/**
 * Reads the multipart field `file` of an import and parses it as xlsx (product-spec §5: upload
 * file must be xlsx): by name and by content. Refusals name the problem; nothing is stored.
 */
export async function readUploadedSheet(ctx: AppContext, req: FastifyRequest): Promise<UploadedSheet> {
  let file: { name: string; data: Buffer } | null = null;
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts()) {
      if (part.type !== 'file') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file' || file) {
        part.file.resume();
        continue;
      }
      const name = part.filename.replace(/[\\/]/g, '_').slice(-200) || 'upload.xlsx';
      if (!/\.xlsx$/i.test(name)) {
        part.file.resume();
        throw new AppError('FILE_TYPE', '上传文件必须是xlsx格式');
      }
      file = { name, data: await part.toBuffer() };
    }
  } catch (err) {
    throw tooLarge(err, ctx);
  }
  if (!file) throw new AppError('INVALID_PARAM', 'file不能为空');
  if (file.data.length === 0) throw new AppError('INVALID_PARAM', '文件内容不能为空');
  const sheet = await readXlsxSheet(file.data);
  if (!sheet) throw new AppError('FILE_TYPE', '上传文件必须是xlsx格式（文件内容无法读取）');
  return { fileName: file.name, sheet, fields };
}

function tooLarge(err: unknown, ctx: AppContext): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return new AppError('FILE_TOO_LARGE', `文件不能超过 ${Math.round((ctx.config.uploadMaxBytes / 1024 / 1024) * 10) / 10} MB`);
  }
  return err;
}
