import { and, asc, eq, gte, lte, max, ne, or, sql, type SQL } from 'drizzle-orm';
import { todayIn } from '@ess/contract';
import { priceInUseRefusal } from '@ess/contract/statement';
import { statement, statementPriceUse } from '../../db/schema/statement.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/errors.ts';

/**
 * Prices used for settlement are history (issue 18 item 8; docs/decisions/0035): a template, a
 * cycle of it, a station rate or a solar rate that a confirmed or locked statement priced days
 * with cannot be edited or deleted (406 naming the statements) — a change is a new version from a
 * date (end the old range, add a new one). Drafts do not hold a price: they are recomputed when it
 * changes. And a station's rate or feed-in price that has started cannot be deleted at all:
 * deleting it would leave its past days without prices (their revenue recomputed to 0).
 */

export type PriceRefKind = 'template' | 'priceCycle' | 'sitePrice' | 'solarPrice';
export interface PriceRef {
  kind: PriceRefKind;
  id: number;
}

/** The confirmed or locked statements that priced days with any of `refs`, and the last day they priced. */
export async function settledUses(tx: DbOrTx, refs: readonly PriceRef[]): Promise<{ codes: string[]; lastDate: string | null }> {
  if (!refs.length) return { codes: [], lastDate: null };
  const rows = await tx
    .select({ code: statement.code, lastDate: max(statementPriceUse.lastDate) })
    .from(statementPriceUse)
    .innerJoin(statement, eq(statement.id, statementPriceUse.statementId))
    .where(and(ne(statement.state, 'draft'), or(...refs.map((r) => and(eq(statementPriceUse.kind, r.kind), eq(statementPriceUse.refId, r.id))))))
    .groupBy(statement.code)
    .orderBy(asc(statement.code));
  const last = rows.map((r) => r.lastDate).filter((d): d is string => !!d).sort().at(-1) ?? null;
  return { codes: rows.map((r) => r.code), lastDate: last };
}

const SHOWN = 5;
const named = (codes: string[]) => (codes.length > SHOWN ? [...codes.slice(0, SHOWN), `等${codes.length}张`] : codes);

/** Refuses (406, naming the statements) when a confirmed or locked statement used any of `refs`. */
export async function assertPricesUnsettled(tx: DbOrTx, refs: readonly PriceRef[]): Promise<void> {
  const { codes } = await settledUses(tx, refs);
  if (codes.length) throw new AppError('RULE_VIOLATION', priceInUseRefusal(named(codes)), codes.join(','));
}

/**
 * An edit of a used station or solar rate may only end it (a new version follows from a date):
 * everything else unchanged and the end not before the last day a settled statement priced.
 */
export async function assertOnlyEnded(
  tx: DbOrTx,
  ref: PriceRef,
  unchanged: boolean,
  endDate: string | null,
): Promise<void> {
  const { codes, lastDate } = await settledUses(tx, [ref]);
  if (!codes.length) return;
  if (!unchanged || (endDate !== null && lastDate !== null && endDate < lastDate)) {
    throw new AppError('RULE_VIOLATION', `${priceInUseRefusal(named(codes))}；如需调整，请设置结束日期（不早于${lastDate}）并新增从某日起生效的电价`);
  }
}

export const SETTLED_PERIOD_PRICE = '该时段已有已确认或已锁定的结算单，其电价不能再改动（如需调整，请从结算期之后的日期起新增电价）：';

/** A station-local date range; `to` null is open-ended. */
export interface DateRange {
  siteId: number;
  from: string;
  to: string | null;
}

const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * The days whose price an edit of a dated rate changes: both whole ranges when what it charges
 * changed (or it moved to another station), else only the days it gained or lost at either end.
 */
export function changedDays(before: DateRange, after: DateRange, pricesChanged: boolean): DateRange[] {
  if (pricesChanged || before.siteId !== after.siteId) return [before, after];
  const out: DateRange[] = [];
  if (before.from !== after.from) {
    const [a, b] = before.from < after.from ? [before.from, after.from] : [after.from, before.from];
    out.push({ siteId: after.siteId, from: a, to: dayBefore(b) });
  }
  if (before.to !== after.to) {
    const [a, b] = before.to === null ? [after.to!, null] : after.to === null || before.to < after.to ? [before.to, after.to] : [after.to, before.to];
    out.push({ siteId: after.siteId, from: dayAfter(a), to: b });
  }
  return out;
}

/**
 * Refuses (406, naming the statements) a change of prices on days a confirmed or locked statement
 * of the station settled, whichever rate priced them, or none (issue 18 item 8: a price change
 * touches only drafts and unsettled days; adding a rate over a settled month's unpriced days
 * would change its revenue behind the statement).
 */
export async function assertDaysUnsettled(tx: DbOrTx, ranges: readonly DateRange[]): Promise<void> {
  const hit = (r: DateRange): SQL =>
    and(eq(statement.siteId, r.siteId), gte(statement.periodEnd, r.from), r.to === null ? undefined : lte(statement.periodStart, r.to))!;
  const valid = ranges.filter((r) => r.to === null || r.from <= r.to);
  if (!valid.length) return;
  const rows = await tx
    .select({ code: statement.code })
    .from(statement)
    .where(and(ne(statement.state, 'draft'), or(...valid.map(hit))))
    .orderBy(asc(statement.code));
  if (rows.length) {
    const codes = rows.map((r) => r.code);
    throw new AppError('RULE_VIOLATION', `${SETTLED_PERIOD_PRICE}${named(codes).join('、')}`, codes.join(','));
  }
}

export const STARTED_PRICE_DELETE = '已生效的电价不能删除（删除会使过去的日子失去电价）：请设置结束日期，并新增从某日起生效的电价';

/** Refuses deleting a rate whose range has begun at the station (its past days would lose their price). */
export function assertNotStarted(startDate: string, timeZone: string, now = new Date()): void {
  if (startDate <= todayIn(timeZone, now)) throw new AppError('RULE_VIOLATION', STARTED_PRICE_DELETE);
}

/** The station's zone (for "has it started"). */
export async function zoneOfSite(tx: DbOrTx, siteId: number): Promise<string> {
  const { rows } = await tx.execute<{ time_zone: string }>(sql`select time_zone from site where id = ${siteId}`);
  return rows[0]?.time_zone ?? 'UTC';
}

