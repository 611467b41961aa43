import { and, asc, eq, gte, inArray, isNull, lte, or } from 'drizzle-orm';
import type { BillingSystem } from '@ess/contract';
import { priceCycle, priceTemplate, sitePriceCycle, solarPriceCycle } from '../../db/schema/pricing.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { emit } from '../../platform/events/outbox.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import './pricing.events.ts';
import { resolveTariffs, type DayTariff, type TariffConfig } from './tariff.ts';
import { toCycleRecord } from './pricing.records.ts';

/**
 * What other modules use of pricing: the prices of a station's days, and a notice when prices
 * change. Both are in-process and small on purpose; revenue (later) builds its daily figures on
 * `tariffsForSite` and recomputes them on `price.changed` events.
 */

export type { DayTariff, TariffBand } from './tariff.ts';
export { bandAt } from './tariff.ts';

/** Longest range one call resolves (a little over ten years of days). */
const MAX_DAYS = 3700;

/**
 * For each station-local day from `fromLocalDate` to `toLocalDate` (YYYY-MM-DD, inclusive): the
 * period partition with the price of each band (and its UTC instants, so DST days of 23 or 25
 * hours come out right), the demand/capacity price, the charging service fee and the PV feed-in
 * price — each null where nothing is configured for that day. No user scope: callers are other
 * modules acting for the station.
 */
export async function tariffsForSite(ctx: AppContext, siteId: number, fromLocalDate: string, toLocalDate: string): Promise<DayTariff[]> {
  const iso = /^\d{4}-\d{2}-\d{2}$/;
  if (!iso.test(fromLocalDate) || !iso.test(toLocalDate) || fromLocalDate > toLocalDate) {
    throw new AppError('INVALID_PARAM', '日期范围不正确');
  }
  const span = (Date.parse(toLocalDate) - Date.parse(fromLocalDate)) / 86_400_000;
  if (span > MAX_DAYS) throw new AppError('INVALID_PARAM', '日期范围过长');
  const [s] = await ctx.db.select({ timeZone: site.timeZone, currency: site.currency }).from(site).where(eq(site.id, siteId));
  const station = found(s, '站点不存在');
  const configs = await ctx.db
    .select({ c: sitePriceCycle, t: priceTemplate })
    .from(sitePriceCycle)
    .innerJoin(priceTemplate, eq(priceTemplate.id, sitePriceCycle.templateId))
    .where(and(eq(sitePriceCycle.siteId, siteId), lte(sitePriceCycle.startDate, toLocalDate), or(isNull(sitePriceCycle.endDate), gte(sitePriceCycle.endDate, fromLocalDate))))
    .orderBy(asc(sitePriceCycle.startDate));
  const templateIds = [...new Set(configs.map((r) => r.t.id))];
  const cycles = templateIds.length ? await ctx.db.select().from(priceCycle).where(inArray(priceCycle.templateId, templateIds)) : [];
  const solar = await ctx.db.select().from(solarPriceCycle).where(and(eq(solarPriceCycle.siteId, siteId), lte(solarPriceCycle.startDate, toLocalDate), or(isNull(solarPriceCycle.endDate), gte(solarPriceCycle.endDate, fromLocalDate)))).orderBy(asc(solarPriceCycle.startDate));
  const tariffConfigs: TariffConfig[] = configs.map(({ c, t }) => ({
    id: c.id,
    startDate: c.startDate,
    endDate: c.endDate,
    serviceFee: c.serviceFee === null ? null : Number(c.serviceFee),
    template: {
      id: t.id,
      name: t.name,
      billingSystem: t.billingSystem as BillingSystem,
      currency: t.currency,
      cycles: cycles.filter((x) => x.templateId === t.id).map(toCycleRecord),
    },
  }));
  return resolveTariffs(
    {
      timeZone: station.timeZone,
      currency: station.currency,
      configs: tariffConfigs,
      solar: solar.map((r) => ({
        id: r.id,
        startDate: r.startDate,
        endDate: r.endDate,
        price: Number(r.price),
        periodPrices: r.periodPrices ?? null,
      })),
    },
    fromLocalDate,
    toLocalDate,
  );
}

// Change notices

/** Stations whose prices changed, from which station-local date on. */
export interface PriceChange {
  siteIds: number[];
  fromDate: string;
}

/**
 * Writes the `price.changed` events of these changes in the caller's transaction (the change and
 * its event commit together); the caller nudges the outbox after the commit. The revenue module
 * subscribes and recomputes the stations' days from the date on.
 */
export async function emitPriceChanges(tx: DbOrTx, changes: PriceChange[]): Promise<void> {
  await emit(tx, 'price.changed', changes.filter((c) => c.siteIds.length));
}

/** The stations that use a template, grouped by the first date they use it. */
export async function changesOfTemplate(db: DbOrTx, templateId: number): Promise<PriceChange[]> {
  const rows = await db
    .select({ siteId: sitePriceCycle.siteId, startDate: sitePriceCycle.startDate })
    .from(sitePriceCycle)
    .where(eq(sitePriceCycle.templateId, templateId));
  const first = new Map<number, string>();
  for (const r of rows) {
    const cur = first.get(r.siteId);
    if (!cur || r.startDate < cur) first.set(r.siteId, r.startDate);
  }
  const byDate = new Map<string, number[]>();
  for (const [siteId, date] of first) byDate.set(date, [...(byDate.get(date) ?? []), siteId]);
  return [...byDate].sort(([a], [b]) => a.localeCompare(b)).map(([fromDate, siteIds]) => ({ fromDate, siteIds: siteIds.sort((a, b) => a - b) }));
}
