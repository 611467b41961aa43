import { z } from 'zod';
import { MAX_PAGE_SIZE, PASSWORD_MAX, PASSWORD_MIN } from './constants.ts';

/** Database ids are positive integers; query-string ids arrive as text and are coerced. */
export const id = z.coerce.number().int().positive().max(2 ** 31 - 1);
export const idQuery = z.object({ id });
export const idBody = z.object({ id });
export const emptyBody = z.object({}).strict().optional();

export const pageRequest = z.object({
  current: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
});
export type PageRequest = z.infer<typeof pageRequest>;

export interface Page<T> {
  records: T[];
  total: number;
  current: number;
  pageSize: number;
}

export const trimmed = (max: number) => z.string().trim().min(1).max(max);
export const optionalText = (max: number) =>
  z.string().trim().max(max).optional().nullable().transform((v) => (v ? v : null));

/** Phone numbers: optional leading +, digits with spaces or dashes, 6–20 characters. */
export const phone = z.string().trim().regex(/^\+?\d[\d -]{4,18}\d$/, '手机号格式不正确');
export const optionalPhone = z
  .union([phone, z.literal('')])
  .optional()
  .nullable()
  .transform((v) => (v ? v : null));
export const email = z.string().trim().max(128).email('邮箱格式不正确');
export const optionalEmail = z
  .union([email, z.literal('')])
  .optional()
  .nullable()
  .transform((v) => (v ? v : null));

/** product-spec §5: 8–20 characters with at least two of upper case, lower case and digits. */
/** A time zone the runtime knows (IANA name, e.g. Asia/Shanghai). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(zone);
  } catch {
    return false;
  }
}
export const TIME_ZONE_INVALID = '时区不正确';
/**
 * A user's own time zone: an IANA name, '' or null to clear it (then the station's zone
 * applies), left out to keep what is stored.
 */
export const optionalTimeZone = z
  .union([z.string().trim().max(64).refine(isTimeZone, TIME_ZONE_INVALID), z.literal('')])
  .nullable()
  .optional()
  .transform((v) => (v === undefined ? undefined : v ? v : null));

export const password = z
  .string()
  .min(PASSWORD_MIN, `密码长度为${PASSWORD_MIN}-${PASSWORD_MAX}位`)
  .max(PASSWORD_MAX, `密码长度为${PASSWORD_MIN}-${PASSWORD_MAX}位`)
  .refine(
    (v) => [/[A-Z]/, /[a-z]/, /\d/].filter((r) => r.test(v)).length >= 2,
    '密码须至少包含大写字母、小写字母、数字中的两种',
  );

/** ISO date-time or epoch milliseconds, as an instant. */
export const instant = z.union([z.iso.datetime({ offset: true }), z.iso.date(), z.number().int()]).transform((v) => new Date(v));

export const dateRange = z.object({
  start: instant.optional(),
  end: instant.optional(),
});

// ── xlsx imports ──────────────────────────────────────────────────────────────────────
// The one import path (the server's platform/xlsx/import.ts): each domain declares its sheet's
// columns and a row schema over the row's cells (column key → trimmed text, absent when empty);
// a file with any bad row is refused whole, every bad cell listed by row and column.

export const importRowError = z.object({
  /** 1-based sheet row (row 1 is the header); 0 for the file as a whole. */
  row: z.number(),
  /** Column header, '' for the whole row or file. */
  column: z.string(),
  message: z.string(),
});
export type ImportRowError = z.infer<typeof importRowError>;

/**
 * A refused import answers RULE_VIOLATION (406); its tipMsg names the first error and its
 * errorMsg is the JSON of this (historyId when the import keeps a history).
 */
export const importRefusal = z.object({
  historyId: z.number().optional(),
  errors: z.array(importRowError),
});
export type ImportRefusal = z.infer<typeof importRefusal>;

/** A sheet column: its key in the row schema and its source-text header. */
export interface SheetColumn {
  key: string;
  header: string;
  /** The column must be present (and the row schema decides whether its cells may be empty). */
  required?: boolean;
}

const BAD_CELL = Symbol('bad cell');
type BadCell = { [BAD_CELL]: string };

/**
 * A cell of a row schema: `read` gets the trimmed text ('' when empty) and answers the value, or
 * `bad(message)` to refuse the cell (the import lists it by row and column).
 */
export const cell = <T>(read: (text: string, bad: (message: string) => BadCell) => T | BadCell) =>
  z.string().optional().transform((v, ctx): T => {
    const r = read((v ?? '').trim(), (message) => ({ [BAD_CELL]: message }));
    if (typeof r === 'object' && r !== null && BAD_CELL in r) {
      ctx.addIssue({ code: 'custom', message: r[BAD_CELL] });
      return z.NEVER;
    }
    return r;
  });

/** Text, at most `max` characters; empty → null, or refused with `${header}不能为空` when the header is given. */
export function cellText(max: number): ReturnType<typeof cell<string | null>>;
export function cellText(max: number, requiredHeader: string): ReturnType<typeof cell<string>>;
export function cellText(max: number, requiredHeader?: string) {
  return cell((s, bad) => {
    if (!s) return requiredHeader ? bad(`${requiredHeader}不能为空`) : null;
    return s.length > max ? bad(`不能超过${max}个字符`) : s;
  });
}

/** A number in [min, max] (an integer when `int`); empty → null. */
export const cellNumber = (min: number, max: number, int: boolean) =>
  cell((s, bad) => {
    if (!s) return null;
    const n = Number(s);
    return !Number.isFinite(n) || (int && !Number.isInteger(n)) || n < min || n > max ? bad(`须为${int ? '整数' : '数字'}，范围 ${min}–${max}`) : n;
  });

const YES = ['是', 'true', '1', 'yes', 'y'];
const NO = ['否', 'false', '0', 'no', 'n'];
/** 是/否 (true/false, 1/0, yes/no); empty → `empty`. */
export const cellYesNo = (empty: boolean, message = '须为“是”或“否”') =>
  cell((s, bad) => {
    const v = s.toLowerCase();
    if (!v) return empty;
    return YES.includes(v) ? true : NO.includes(v) ? false : bad(message);
  });

/** A key of an enumeration, written as its label or its key (设备类型 储能变流器 or pcs). */
export function fromLabel<K extends string>(text: string, labels: Record<K, string>): K | undefined {
  if (text === '') return undefined;
  return (Object.entries(labels) as [K, string][]).find(([k, l]) => l === text || k === text)?.[0];
}

// ── sorting ───────────────────────────────────────────────────────────────────────────
// A list declares the fields it sorts by in its request schema; the server sorts through the
// list-query helper (platform/http/paging.ts) and refuses any other field (400, the field named);
// the console's shared table makes exactly those columns sortable.

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** The sort fields of a list request: `sortField` one of `fields`, `sortOrder` asc (default) or desc. */
export function sortRequest<const F extends readonly [string, ...string[]]>(fields: F) {
  return z.object({
    sortField: z
      .enum(fields, { error: (iss) => `不能按“${String(iss.input)}”排序，可排序的字段：${fields.join('、')}` })
      .optional(),
    sortOrder: z.enum(SORT_ORDERS, { error: '排序方向须为 asc 或 desc' }).optional(),
  });
}

/** The fields a request schema lets a list sort by (its `sortField` enumeration), [] when none. */
export function sortFieldsOf(schema: unknown): string[] {
  let s = schema as { shape?: Record<string, unknown>; unwrap?: () => unknown } | undefined;
  // An optional body (the trees') declares its fields inside.
  while (s && !s.shape && typeof s.unwrap === 'function') s = s.unwrap() as typeof s;
  const shape = s?.shape;
  let f = shape?.sortField as { unwrap?: () => unknown; options?: unknown } | undefined;
  while (f && !Array.isArray(f.options) && typeof f.unwrap === 'function') f = f.unwrap() as typeof f;
  return Array.isArray(f?.options) ? (f.options as string[]) : [];
}
