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

/** One refusal of an imported sheet: its row (1 = the header row, 0 = the whole file) and column. */
export interface SheetError {
  row: number;
  column: string;
  message: string;
}

/**
 * The header checks of every import: no repeated or unknown column, every required one present,
 * at least one data row and at most `maxRows`.
 */
export function sheetHeaderErrors(sheet: XlsxSheet, o: { required: readonly string[]; known: (header: string) => boolean; maxRows: number }): SheetError[] {
  const errors: SheetError[] = [];
  const seen = new Set<string>();
  sheet.headers.forEach((h) => {
    if (!h) return;
    if (seen.has(h)) errors.push({ row: 1, column: h, message: '列名重复' });
    seen.add(h);
    if (!o.known(h)) errors.push({ row: 1, column: h, message: '不是可导入的列' });
  });
  for (const h of o.required) if (!seen.has(h)) errors.push({ row: 1, column: h, message: '缺少此列' });
  if (errors.length === 0 && sheet.rows.length === 0) errors.push({ row: 0, column: '', message: '文件中没有数据行' });
  if (sheet.rows.length > o.maxRows) errors.push({ row: 0, column: '', message: `一次最多导入${o.maxRows}行` });
  return errors;
}

