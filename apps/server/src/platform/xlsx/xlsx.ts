import type ExcelJSModule from 'exceljs';
import { createRequire } from 'node:module';
import { PassThrough, type Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** ExcelJS takes a second or more to load: loaded on the first workbook, not with the server. */
let excel: typeof ExcelJSModule | null = null;
const ExcelJS = (): typeof ExcelJSModule => (excel ??= createRequire(import.meta.url)('exceljs') as typeof ExcelJSModule);

export interface XlsxColumn<T> {
  /** Source-text header. */
  header: string;
  width?: number;
  value(row: T): string | number | boolean | Date | null | undefined;
}

/** The one export path: rows → an xlsx workbook → a download named in content-disposition. */
export async function sendXlsx<T>(reply: FastifyReply, fileName: string, sheet: string, columns: XlsxColumn<T>[], rows: T[]) {
  const wb = new (ExcelJS().Workbook)();
  wb.created = new Date();
  const ws = wb.addWorksheet(sheet);
  ws.columns = columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width ?? 18 }));
  ws.getRow(1).font = { bold: true };
  for (const r of rows) ws.addRow(columns.map((c) => c.value(r) ?? null));
  const buf = Buffer.from(await wb.xlsx.writeBuffer());
  return sendFile(reply, `${fileName}.xlsx`, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buf);
}

/**
 * Large exports: the workbook is written to the response while rows are produced (ExcelJS's
 * streaming writer), so neither the rows' cells nor the zipped file are held whole in memory.
 */
export function streamXlsx<T>(reply: FastifyReply, fileName: string, sheet: string, columns: XlsxColumn<T>[], rows: Iterable<T> | AsyncIterable<T>) {
  const out = new PassThrough();
  const wb = new (ExcelJS().stream.xlsx.WorkbookWriter)({ stream: out, useStyles: true });
  const ws = wb.addWorksheet(sheet);
  ws.columns = columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width ?? 18 }));
  ws.getRow(1).font = { bold: true };
  void (async () => {
    try {
      for await (const r of rows) ws.addRow(columns.map((c) => c.value(r) ?? null)).commit();
      ws.commit();
      await wb.commit();
    } catch (err) {
      out.destroy(err as Error);
    }
  })();
  return sendFile(reply, `${fileName}.xlsx`, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', out);
}

export function sendFile(reply: FastifyReply, fileName: string, mime: string, body: Buffer | Readable) {
  return reply
    .header('content-type', mime)
    .header('content-disposition', `attachment; filename="${asciiName(fileName)}"; filename*=UTF-8''${rfc5987(fileName)}`)
    .header('access-control-expose-headers', 'content-disposition')
    .send(body);
}

const asciiName = (name: string) => name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
/** RFC 5987 value-chars: percent-encoded UTF-8, including the ' ( ) * that encodeURIComponent leaves. */
const rfc5987 = (name: string) => encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export interface XlsxSheet {
  /** Header texts of row 1, trimmed, in column order ('' for an empty header cell). */
  headers: string[];
  /** Every row after the header with a non-empty cell: its 1-based sheet row and header → text. */
  rows: { row: number; cells: Record<string, string> }[];
}

/** xlsx files are ZIP archives: "PK\x03\x04". */
export const looksLikeXlsx = (buf: Buffer) => buf.length > 4 && buf.readUInt32LE(0) === 0x04034b50;

/**
 * Reads the first sheet of an uploaded workbook as displayed text, keeping sheet row numbers so
 * imports can name the row and column of each error. Null when the file is not a readable xlsx.
 */
export async function readXlsxSheet(buf: Buffer): Promise<XlsxSheet | null> {
  if (!looksLikeXlsx(buf)) return null;
  const wb = new (ExcelJS().Workbook)();
  try {
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    return null;
  }
  const ws = wb.worksheets[0];
  if (!ws) return { headers: [], rows: [] };
  const headers: string[] = [];
  ws.getRow(1).eachCell({ includeEmpty: true }, (cell, col) => {
    headers[col - 1] = cell.text.trim();
  });
  for (let i = 0; i < headers.length; i++) headers[i] ??= '';
  while (headers.length && headers[headers.length - 1] === '') headers.pop();
  const rows: XlsxSheet['rows'] = [];
  ws.eachRow((row, n) => {
    if (n === 1) return;
    const cells: Record<string, string> = {};
    let any = false;
    row.eachCell((cell, col) => {
      const h = headers[col - 1];
      const text = cell.text.trim();
      if (text) any = true;
      if (h) cells[h] = text;
    });
    if (any) rows.push({ row: n, cells });
  });
  return { headers, rows };
}
