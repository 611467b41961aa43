import type ExcelJSModule from 'exceljs';
import { createRequire } from 'node:module';
import { PassThrough, type Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { fillText } from '@ess/contract/pack-text';

/** ExcelJS takes a second or more to load: loaded on the first workbook, not with the server. */
let excel: typeof ExcelJSModule | null = null;
const ExcelJS = (): typeof ExcelJSModule => (excel ??= createRequire(import.meta.url)('exceljs') as typeof ExcelJSModule);

export interface XlsxColumn<T> {
  /** Source-text header (translated into the caller's language). */
  header: string;
  width?: number;
  /**
   * `instant`: a Date shown as the caller's wall-clock time, the zone named in the header;
   * `label`: source text (an enumeration's label), translated; `name`: a name that may be built-in
   * data (translated when the pack knows it); default: the value as it is.
   */
  kind?: 'instant' | 'label' | 'name';
  /** Appended to the header in brackets (kWh, kW, %). */
  unit?: string;
  /** Excel number format of the column's cells ('#,##0.00'): separators as the reader's locale has them. */
  numFmt?: string;
  value(row: T): string | number | boolean | Date | null | undefined;
}

/**
 * The caller's language and zone for a file: source text → their language (`t`, the language
 * pack's model with `$1` placeholders), and instants in their zone (minutes east of UTC, the
 * UTC-Zone header). The i18n module builds it from the request (`exportLanguage`).
 */
export interface ExportLanguage {
  locale: string;
  t: (source: string, ...args: unknown[]) => string;
  /** Built-in data (role names, seeded models, the demo's device names) translated; other names as they are. */
  name: (name: string) => string;
  zone: number;
}

/** Source text as it is, instants in UTC: for callers with no request (tests, jobs). */
export const SOURCE_LANGUAGE: ExportLanguage = {
  locale: 'zh-CN',
  t: (source, ...args) => fillText(source, args, 'zh-CN'),
  name: (name) => name,
  zone: 0,
};

/** "UTC+01:00", "UTC-03:30", "UTC" for a zone of minutes east of UTC. */
export function zoneName(zone: number): string {
  if (zone === 0) return 'UTC';
  const a = Math.abs(zone);
  return `UTC${zone < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

/** A file or sheet name in the caller's language; a sheet name keeps Excel's rules (≤ 31 characters, none of []:*?/\). */
const sheetName = (text: string) => text.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1';

interface Laid<T> {
  columns: { header: string; key: string; width: number; style?: { numFmt: string } }[];
  cells: (row: T) => (string | number | boolean | Date | null)[];
}

/** Headers translated (instants with their zone, units in brackets), cells as the reader should see them. */
function layOut<T>(columns: XlsxColumn<T>[], lang: ExportLanguage): Laid<T> {
  const zone = zoneName(lang.zone);
  return {
    columns: columns.map((c, i) => {
      const head = lang.t(c.header);
      const header = c.kind === 'instant' ? `${head} (${zone})` : c.unit ? `${head} (${c.unit})` : head;
      const numFmt = c.kind === 'instant' ? DATE_TIME_FORMAT : c.numFmt;
      return { header, key: String(i), width: c.width ?? 18, ...(numFmt ? { style: { numFmt } } : {}) };
    }),
    cells: (row) =>
      columns.map((c) => {
        const v = c.value(row) ?? null;
        if (v instanceof Date) {
          // Excel has no zones: the cell holds the caller's wall-clock time, and the header names the zone.
          return Number.isNaN(v.getTime()) ? null : new Date(v.getTime() + lang.zone * 60_000);
        }
        if (c.kind === 'label' && typeof v === 'string' && v) return lang.t(v);
        if (c.kind === 'name' && typeof v === 'string' && v) return lang.name(v);
        return v;
      }),
  };
}

export interface XlsxFile<T> {
  /** Source text; the file is named in the caller's language, with `.xlsx`. */
  fileName: string;
  /** Arguments of the file name's placeholders ($1: a station, a day...). */
  fileArgs?: unknown[];
  /** Source text; default the file name. */
  sheet?: string;
  columns: XlsxColumn<T>[];
}

/** The one export path: rows → an xlsx workbook in the caller's language → a download named in content-disposition. */
export async function sendXlsx<T>(reply: FastifyReply, file: XlsxFile<T>, rows: T[], lang: ExportLanguage) {
  const buf = await xlsxBuffer(file, rows, lang);
  return sendFile(reply, `${lang.t(file.fileName, ...(file.fileArgs ?? []))}.xlsx`, XLSX_MIME, buf);
}

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The workbook of sendXlsx, as bytes. */
export async function xlsxBuffer<T>(file: XlsxFile<T>, rows: T[], lang: ExportLanguage): Promise<Buffer> {
  const wb = new (ExcelJS().Workbook)();
  wb.created = new Date();
  const ws = wb.addWorksheet(sheetName(lang.t(file.sheet ?? file.fileName, ...(file.sheet ? [] : (file.fileArgs ?? [])))));
  const laid = layOut(file.columns, lang);
  ws.columns = laid.columns;
  ws.getRow(1).font = { bold: true };
  for (const r of rows) ws.addRow(laid.cells(r));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** One sheet of a workbook of several (xlsxBook). */
export interface XlsxBookSheet<T> {
  /** Source text (translated); Excel's sheet-name rules applied. */
  sheet: string;
  columns: XlsxColumn<T>[];
  rows: T[];
  /**
   * A total row below the rows: the first column holds this source-text label, and each column
   * whose index is listed holds a SUM formula over its rows (with its value cached, so a reader
   * that does not recalculate shows it too).
   */
  total?: { label: string; columns: number[]; values: number[] };
}

const columnLetter = (i: number): string => (i < 26 ? String.fromCharCode(65 + i) : columnLetter(Math.floor(i / 26) - 1) + String.fromCharCode(65 + (i % 26)));

/**
 * A workbook of several sheets in the caller's language (reports): each sheet's header row is
 * frozen and bold, units in the headers, instants in the caller's zone, totals as formulas.
 */
export async function xlsxBook(sheets: XlsxBookSheet<any>[], lang: ExportLanguage): Promise<Buffer> { // eslint-disable-line @typescript-eslint/no-explicit-any -- sheets of different row types
  const wb = new (ExcelJS().Workbook)();
  wb.created = new Date();
  const used = new Set<string>();
  for (const s of sheets) {
    let name = sheetName(lang.t(s.sheet));
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${sheetName(lang.t(s.sheet)).slice(0, 27)} (${n})`;
    used.add(name.toLowerCase());
    const ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
    const laid = layOut(s.columns, lang);
    ws.columns = laid.columns;
    ws.getRow(1).font = { bold: true };
    for (const r of s.rows) ws.addRow(laid.cells(r));
    if (s.total) {
      const last = s.rows.length + 1;
      const cells: (string | { formula: string; result: number } | null)[] = s.columns.map(() => null);
      cells[0] = lang.t(s.total.label);
      s.total.columns.forEach((c, k) => {
        const col = columnLetter(c);
        cells[c] = { formula: s.rows.length ? `SUM(${col}2:${col}${last})` : '0', result: s.total!.values[k] ?? 0 };
      });
      ws.addRow(cells).font = { bold: true };
    }
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/**
 * Large exports: the workbook is written to the response while rows are produced (ExcelJS's
 * streaming writer), so neither the rows' cells nor the zipped file are held whole in memory.
 */
export function streamXlsx<T>(reply: FastifyReply, file: XlsxFile<T>, rows: Iterable<T> | AsyncIterable<T>, lang: ExportLanguage) {
  const out = new PassThrough();
  const wb = new (ExcelJS().stream.xlsx.WorkbookWriter)({ stream: out, useStyles: true });
  const ws = wb.addWorksheet(sheetName(lang.t(file.sheet ?? file.fileName, ...(file.sheet ? [] : (file.fileArgs ?? [])))));
  const laid = layOut(file.columns, lang);
  ws.columns = laid.columns;
  ws.getRow(1).font = { bold: true };
  void (async () => {
    try {
      for await (const r of rows) ws.addRow(laid.cells(r)).commit();
      ws.commit();
      await wb.commit();
    } catch (err) {
      out.destroy(err as Error);
    }
  })();
  return sendFile(reply, `${lang.t(file.fileName, ...(file.fileArgs ?? []))}.xlsx`, XLSX_MIME, out);
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
