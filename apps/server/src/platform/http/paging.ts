import { count, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Page, PageRequest } from '@ess/contract';
import type { DbOrTx } from '../db/database.ts';

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
