import type { z } from 'zod';
import type { ImportRowError, SheetColumn } from '@ess/contract';
import type { Db, Tx } from '../db/database.ts';
import { AppError } from '../http/errors.ts';
import type { ExportLanguage, XlsxSheet } from './xlsx.ts';

/**
 * The one xlsx import path (ARCHITECTURE §3): the header is checked against the sheet's columns,
 * every row is validated by the domain's row schema (the contract's), then `check` compares the
 * rows with the stored data and `write` stores them, both in one transaction. Any bad cell refuses
 * the whole file — RULE_VIOLATION, every error listed by row and column — and nothing is written.
 */

export interface SheetRow<T> {
  /** 1-based sheet row. */
  row: number;
  data: T;
  /** The row's cells by header (for columns outside the declared ones). */
  cells: Record<string, string>;
}

/** Reports a bad cell of the file (its row and column header). */
export type Refuse = (row: number, column: string, message: string) => void;

export interface ImportSheet<S extends z.ZodType, C, R> {
  sheet: XlsxSheet;
  columns: readonly SheetColumn[];
  /** Importable headers beyond `columns` (e.g. one per static property). */
  moreColumns?: (header: string) => boolean;
  maxRows: number;
  rowSchema: S;
  /** Column key of a schema field whose name differs from its column's key (productId → productCode). */
  fieldColumns?: Record<string, string>;
  /**
   * Compares the valid rows with the stored data, reporting bad cells; gets every row the schema
   * accepted even when others were refused, so the report is complete. Its answer goes to `write`.
   */
  check: (tx: Tx, rows: SheetRow<z.output<S>>[], refuse: Refuse) => Promise<C>;
  /** Stores a file that passed every check. */
  write: (tx: Tx, checked: C) => Promise<R>;
  /** Called with a refused file's errors (the first MAX_REPORTED_ERRORS, and their count) outside the rolled-back transaction (an import history); answers the refusal's extra fields. */
  onRefused?: (errors: ImportRowError[], count: number) => Promise<{ historyId?: number }>;
}

/** Errors kept in a refusal's report. */
export const MAX_REPORTED_ERRORS = 1000;

export class SheetRefused extends Error {
  constructor(readonly errors: ImportRowError[]) {
    super('import refused');
  }
}

export async function importSheet<S extends z.ZodType, C, R>(db: Db, o: ImportSheet<S, C, R>): Promise<R> {
  try {
    const headerErrors = sheetHeaderErrors(o.sheet, {
      required: o.columns.filter((c) => c.required).map((c) => c.header),
      known: (h) => o.columns.some((c) => c.header === h) || (o.moreColumns?.(h) ?? false),
      maxRows: o.maxRows,
    });
    if (headerErrors.length) throw new SheetRefused(headerErrors);
    const errors: ImportRowError[] = [];
    const refuse: Refuse = (row, column, message) => errors.push({ row, column, message });
    const rows = parseRows(o, refuse);
    return await db.transaction(async (tx) => {
      const checked = await o.check(tx, rows, refuse);
      if (errors.length) throw new SheetRefused(errors);
      return o.write(tx, checked);
    });
  } catch (err) {
    if (!(err instanceof SheetRefused)) throw err;
    const errors = err.errors.sort((a, b) => a.row - b.row).slice(0, MAX_REPORTED_ERRORS);
    const extra = (await o.onRefused?.(errors, err.errors.length)) ?? {};
    throw refusal(errors, err.errors.length, extra);
  }
}

function parseRows<S extends z.ZodType, C, R>(o: ImportSheet<S, C, R>, refuse: Refuse): SheetRow<z.output<S>>[] {
  const headerOf = new Map(o.columns.map((c) => [c.key, c.header]));
  const out: SheetRow<z.output<S>>[] = [];
  for (const { row, cells } of o.sheet.rows) {
    const input: Record<string, string> = {};
    for (const c of o.columns) {
      const v = cells[c.header];
      if (v) input[c.key] = v;
    }
    const r = o.rowSchema.safeParse(input);
    if (r.success) {
      out.push({ row, data: r.data, cells });
      continue;
    }
    for (const issue of r.error.issues) {
      const field = String(issue.path[0] ?? '');
      refuse(row, headerOf.get(o.fieldColumns?.[field] ?? field) ?? '', issue.message);
    }
  }
  return out;
}

/** The refusal: the first error as tipMsg, `{ historyId?, errors }` (ImportRefusal) as errorMsg. */
function refusal(errors: ImportRowError[], count: number, extra: { historyId?: number }): AppError {
  const first = errors[0]!;
  const where = first.row > 0 ? `第${first.row}行${first.column ? `「${first.column}」` : ''}` : first.column ? `「${first.column}」` : '';
  const more = count > 1 ? `（共${count}处错误）` : '';
  return new AppError('RULE_VIOLATION', `导入失败：${where}${first.message}${more}`, JSON.stringify({ ...extra, errors }));
}

/**
 * The header checks of every import: no repeated or unknown column, every required one present,
 * at least one data row and at most `maxRows`.
 */
export function sheetHeaderErrors(sheet: XlsxSheet, o: { required: readonly string[]; known: (header: string) => boolean; maxRows: number }): ImportRowError[] {
  const errors: ImportRowError[] = [];
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

/**
 * A sheet the server wrote in the caller's language (their export, edited) read back as source
 * text: each header that is the translation of a column's header becomes that header, and in the
 * columns of `labels` (by column key) each cell that is the translation of one of its labels
 * (是, 否, an enumeration's label) becomes the label. Source-text sheets pass unchanged.
 */
export function inSourceText(sheet: XlsxSheet, columns: readonly SheetColumn[], lang: ExportLanguage, labels: Record<string, readonly string[]> = {}): XlsxSheet {
  const headerOf = new Map(columns.map((c) => [lang.t(c.header), c.header]));
  const toSource = (h: string) => (columns.some((c) => c.header === h) ? h : (headerOf.get(h) ?? h));
  const cellMaps = new Map(
    columns.filter((c) => labels[c.key]).map((c) => [c.header, new Map(labels[c.key]!.map((l) => [lang.t(l), l]))]),
  );
  return {
    headers: sheet.headers.map(toSource),
    rows: sheet.rows.map((r) => ({
      row: r.row,
      cells: Object.fromEntries(
        Object.entries(r.cells).map(([h, v]) => {
          const source = toSource(h);
          return [source, cellMaps.get(source)?.get(v) ?? v];
        }),
      ),
    })),
  };
}
