import { and, count, type SQL } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Page, PageRequest } from '@ess/contract';
import type { DbOrTx } from '../db/database.ts';
import type { AuthUser } from './auth.ts';

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
  where(where: SQL | undefined): DynamicSelect;
  orderBy(...by: (PgColumn | SQL)[]): DynamicSelect;
  limit(n: number): DynamicSelect;
  offset(n: number): DynamicSelect;
}

/**
 * The list/page idiom of the services, declared once per resource: the rows of `table` (with
 * inner joins) that the caller's data scope admits and the request's filter selects, as
 * `columns`, in `orderBy` order, mapped by `toRecord`; `list` answers them all, `page` one page
 * and the total (pageOf).
 */
export function defineListQuery<F, S extends SelectedFields, R = SelectResultFields<S>>(o: {
  table: PgTable;
  columns: S;
  joins?: { table: PgTable; on: SQL }[];
  /** The rows the caller may see (data scope); undefined: every row. */
  scope: ((db: DbOrTx, user: AuthUser) => SQL | undefined) | null;
  filter: (f: F, db: DbOrTx) => (SQL | undefined)[];
  orderBy: (PgColumn | SQL)[];
  toRecord?: (row: SelectResultFields<S>) => R;
}) {
  const where = (db: DbOrTx, user: AuthUser, f: F) => and(o.scope?.(db, user), ...o.filter(f, db));
  const select = (db: DbOrTx, w: SQL | undefined) => {
    // Drizzle's dynamic query types do not survive a generic join loop; the rows are S's fields.
    let q = db.select(o.columns).from(o.table).$dynamic() as unknown as DynamicSelect;
    for (const j of o.joins ?? []) q = q.innerJoin(j.table, j.on);
    return q.where(w).orderBy(...o.orderBy);
  };
  const map = (rows: unknown[]): R[] => (o.toRecord ? (rows as SelectResultFields<S>[]).map(o.toRecord) : (rows as R[]));
  return {
    where,
    /** Every row, or the first `limit` (an export's cap). */
    list: async (db: DbOrTx, user: AuthUser, f: F, limit?: number): Promise<R[]> => {
      const q = select(db, where(db, user, f));
      return map(await (limit === undefined ? q : q.limit(limit)));
    },
    page: (db: DbOrTx, user: AuthUser, req: F & PageRequest): Promise<Page<R>> => {
      const w = where(db, user, req);
      return pageOf(db, o.table, w, req, async (limit, offset) => map(await select(db, w).limit(limit).offset(offset)));
    },
  };
}
