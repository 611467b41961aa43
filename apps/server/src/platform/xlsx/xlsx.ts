import ExcelJS from 'exceljs';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

export interface XlsxColumn<T> {
  /** Source-text header. */
  header: string;
  width?: number;
  value(row: T): string | number | boolean | Date | null | undefined;
}

/** The one export path: rows → an xlsx workbook → a download named in content-disposition. */
export async function sendXlsx<T>(reply: FastifyReply, fileName: string, sheet: string, columns: XlsxColumn<T>[], rows: T[]) {
  const wb = new ExcelJS.Workbook();
  wb.created = new Date();
  const ws = wb.addWorksheet(sheet);
  ws.columns = columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width ?? 18 }));
  ws.getRow(1).font = { bold: true };
  for (const r of rows) ws.addRow(columns.map((c) => c.value(r) ?? null));
  const buf = Buffer.from(await wb.xlsx.writeBuffer());
  return sendFile(reply, `${fileName}.xlsx`, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buf);
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

/** Reads the first sheet of an uploaded workbook as header-keyed rows. */
export async function readXlsx(buf: Buffer): Promise<Record<string, unknown>[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  if (!ws) return [];
  const headers: string[] = [];
  ws.getRow(1).eachCell((cell, col) => {
    headers[col] = cell.text.trim();
  });
  const out: Record<string, unknown>[] = [];
  ws.eachRow((row, n) => {
    if (n === 1) return;
    const rec: Record<string, unknown> = {};
    row.eachCell((cell, col) => {
      const h = headers[col];
      if (h) rec[h] = cell.value;
    });
    out.push(rec);
  });
  return out;
}
