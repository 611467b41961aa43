import { and, count, sql, type SQL } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Page, PageRequest, SortOrder } from '@ess/contract';
import type { DbOrTx } from '../db/database.ts';
import type { AuthUser } from './auth.ts';
import { AppError } from './errors.ts';

/** The sort part of a list request (the contract's `sortRequest`). */
export interface SortRequest {
  sortField?: string | undefined;
  sortOrder?: SortOrder | undefined;
}

/** What each sortable field of a list sorts by: a column or an expression of the list's select. */
export type SortColumns = Readonly<Record<string, PgColumn | SQL>>;

/**
 * The ORDER BY of a list request: the requested field's column (ascending unless `desc`, empty
 * values last either way), then the list's own order, which keeps pages stable among equal
 * values. A field the list does not declare is refused (400) — the contract's enumeration
 * refuses it first; this guards a service whose columns and contract have drifted apart.
 */
export function sortedBy(req: SortRequest, columns: SortColumns | undefined, fallback: (PgColumn | SQL)[]): (PgColumn | SQL)[] {
  if (!req.sortField) return fallback;
  const col = columns && Object.hasOwn(columns, req.sortField) ? columns[req.sortField] : undefined;
  if (!col) throw new AppError('INVALID_PARAM', `不能按“${req.sortField}”排序`);
  return [sql`${col} ${sql.raw(req.sortOrder === 'desc' ? 'desc' : 'asc')} nulls last`, ...fallback];
}

/** The one page shape: counts and fetches one page of a table under a condition. */
export async function pageOf<R>(
  db: DbOrTx,
  table: PgTable,
  where: SQL | undefined,
  req: PageRequest,
  fetch: (limit: number, offset: number) => Promise<R[]>,
): Promise<Page<R>> {
  const [totalRow] = await db.select({ n: count() }).from(table).where(where);
  const total = totalRow?.n ?? 0;
  const records = total === 0 ? [] : await fetch(req.pageSize, (req.current - 1) * req.pageSize);
  return { records, total, current: req.current, pageSize: req.pageSize };
}

export type { PgColumn };

interface DynamicSelect extends PromiseLike<unknown[]> {
  innerJoin(table: PgTable, on: SQL): DynamicSelect;
  leftJoin(table: PgTable, on: SQL): DynamicSelect;
  where(where: SQL | undefined): DynamicSelect;
  orderBy(...by: (PgColumn | SQL)[]): DynamicSelect;
  limit(n: number): DynamicSelect;
  offset(n: number): DynamicSelect;
}

/** A joined table; `left` keeps the rows without a match (their columns null). */
export interface ListJoin {
  table: PgTable;
  on: SQL;
  left?: boolean;
}

/**
 * The list/page idiom of the services, declared once per resource: the rows of `table` (with
 * its joins) that the caller's data scope admits and the request's filter selects, as
 * `columns`, in `orderBy` order, mapped by `toRecord`; `list` answers them all, `page` one page
 * and the total (counted over the same joins, so a filter may name a joined table's columns),
 * `rows` those of any condition (a single record's read).
 */
export function defineListQuery<F, S extends SelectedFields, R = SelectResultFields<S>>(o: {
  table: PgTable;
  columns: S;
  joins?: ListJoin[];
  /** The rows the caller may see (data scope); null: every row (resources shared by every company), and the caller may be null. */
  scope: ((db: DbOrTx, user: AuthUser) => SQL | undefined) | null;
  filter: (f: F, db: DbOrTx) => (SQL | undefined)[];
  orderBy: (PgColumn | SQL)[];
  /** The fields a request may sort by (its contract's `sortRequest`) and their columns. */
  sortable?: SortColumns;
  toRecord?: (row: SelectResultFields<S>) => R;
}) {
  const where = (db: DbOrTx, user: AuthUser | null, f: F) => {
    if (o.scope && !user) throw new Error('a scoped list needs the caller');
    return and(o.scope && user ? o.scope(db, user) : undefined, ...o.filter(f, db));
  };
  // Drizzle's dynamic query types do not survive a generic join loop; the rows are S's fields.
  const joined = (q: DynamicSelect) => (o.joins ?? []).reduce((acc, j) => (j.left ? acc.leftJoin(j.table, j.on) : acc.innerJoin(j.table, j.on)), q);
  const select = (db: DbOrTx, w: SQL | undefined, sort: SortRequest = {}) =>
    joined(db.select(o.columns).from(o.table).$dynamic() as unknown as DynamicSelect).where(w).orderBy(...sortedBy(sort, o.sortable, o.orderBy));
  const map = (rows: unknown[]): R[] => (o.toRecord ? (rows as SelectResultFields<S>[]).map(o.toRecord) : (rows as R[]));
  return {
    where,
    /** The records of a condition (the caller's scope is the caller's to add), in order; the first `limit`. */
    rows: async (db: DbOrTx, w: SQL | undefined, limit?: number): Promise<R[]> => {
      const q = select(db, w);
      return map(await (limit === undefined ? q : q.limit(limit)));
    },
    /** Every row, or the first `limit` (an export's cap). */
    list: async (db: DbOrTx, user: AuthUser | null, f: F, limit?: number): Promise<R[]> => {
      const q = select(db, where(db, user, f), f as SortRequest);
      return map(await (limit === undefined ? q : q.limit(limit)));
    },
    page: async (db: DbOrTx, user: AuthUser | null, req: F & PageRequest): Promise<Page<R>> => {
      const w = where(db, user, req);
      const counting = db.select({ n: count() }).from(o.table).$dynamic() as unknown as DynamicSelect;
      const counted = (await joined(counting).where(w)) as { n: number }[];
      const total = counted[0]?.n ?? 0;
      const records = total === 0 ? [] : map(await select(db, w, req as SortRequest).limit(req.pageSize).offset((req.current - 1) * req.pageSize));
      return { records, total, current: req.current, pageSize: req.pageSize };
    },
  };
}
