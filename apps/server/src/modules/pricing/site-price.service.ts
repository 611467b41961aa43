import { and, asc, count, desc, eq, gte, inArray, isNull, lte, ne, or, type SQL } from 'drizzle-orm';
import type {
  BillingSystem, Page, SitePriceCycleAdd, SitePriceCycleEdit, SitePriceCycleFilter, SitePriceCycleRecord, SitePriceCycleSortField,
  SolarPriceCycleAdd, SolarPriceCycleEdit, SolarPriceCycleRecord, SolarPriceCycleSortField,
} from '@ess/contract';
import { priceTemplate, sitePriceCycle, solarPriceCycle } from '../../db/schema/pricing.ts';
import { site } from '../../db/schema/site.ts';
import { company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { sortedBy, type SortRequest } from '../../platform/http/paging.ts';
import { assertCompany, assertSites, inSiteScope } from '../../platform/http/scope.ts';
import { underCompany } from '../site/index.ts';
import { money, moneyIn } from './pricing.records.ts';
import { emitPriceChanges, type PriceChange } from './pricing.service.ts';
import { assertDaysUnsettled, assertNotStarted, assertOnlyEnded, assertPricesUnsettled, changedDays, zoneOfSite } from './price-history.ts';
import { templateInScope } from './template.service.ts';

/** A station's price configuration over time: configure price cycles and solar (feed-in) price cycles. */

const CONFIG_MISSING = '站点电价配置不存在';
const SOLAR_MISSING = '光伏上网电价配置不存在';
export const CONFIG_OVERLAP = '日期范围与该站点已有的电价配置重叠';
export const SOLAR_OVERLAP = '日期范围与该站点已有的光伏上网电价重叠';

/** A filter naming a station or company outside the caller's scope is refused, not answered empty. */
async function assertFilter(db: DbOrTx, user: AuthUser, f: { siteId?: number; companyId?: number }) {
  if (f.siteId) await assertSites(db, user, [f.siteId]);
  if (f.companyId) await assertCompany(db, user, f.companyId);
}

/**
 * Locks the stations' rows for the transaction: two writers of one station's date ranges run one
 * after the other, so the overlap check sees what the other committed. Refuses stations the
 * caller may not see (404).
 */
async function lockSites(tx: DbOrTx, user: AuthUser, siteIds: number[]) {
  const ids = [...new Set(siteIds)].sort((a, b) => a - b);
  const rows = await tx
    .select({ id: site.id, name: site.name, companyId: site.companyId, currency: site.currency, companyPath: company.path })
    .from(site)
    .innerJoin(company, eq(company.id, site.companyId))
    .where(and(inArray(site.id, ids), inSiteScope(site.id, tx, user)))
    .orderBy(asc(site.id))
    .for('update', { of: site });
  if (rows.length !== ids.length) throw new AppError('NOT_FOUND', '站点不存在');
  return new Map(rows.map((r) => [r.id, r]));
}

const earlier = (a: string, b: string) => (a < b ? a : b);
const rangeOf = (r: { siteId: number; startDate: string; endDate: string | null }) => ({ siteId: r.siteId, from: r.startDate, to: r.endDate });

/** An edited date range changes prices from the earlier of its old and new start (on both stations when it moved). */
function changesOfEdit(before: { siteId: number; startDate: string }, after: { siteId: number; startDate: string }): PriceChange[] {
  return before.siteId === after.siteId
    ? [{ siteIds: [after.siteId], fromDate: earlier(before.startDate, after.startDate) }]
    : [{ siteIds: [before.siteId], fromDate: before.startDate }, { siteIds: [after.siteId], fromDate: after.startDate }];
}

// Configure price cycles

const configColumns = {
  id: sitePriceCycle.id,
  siteId: sitePriceCycle.siteId,
  siteName: site.name,
  siteCode: site.code,
  timeZone: site.timeZone,
  templateId: sitePriceCycle.templateId,
  templateName: priceTemplate.name,
  billingSystem: priceTemplate.billingSystem,
  currency: priceTemplate.currency,
  startDate: sitePriceCycle.startDate,
  endDate: sitePriceCycle.endDate,
  serviceFee: sitePriceCycle.serviceFee,
  remark: sitePriceCycle.remark,
  createdAt: sitePriceCycle.createdAt,
  updatedAt: sitePriceCycle.updatedAt,
};

type ConfigRow = Awaited<ReturnType<typeof selectConfigs>>[number];
const toConfigRecord = (r: ConfigRow): SitePriceCycleRecord => ({
  ...r,
  billingSystem: r.billingSystem as BillingSystem,
  serviceFee: money(r.serviceFee),
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const configSortable = {
  templateName: priceTemplate.name, billingSystem: priceTemplate.billingSystem, startDate: sitePriceCycle.startDate, endDate: sitePriceCycle.endDate,
  serviceFee: sitePriceCycle.serviceFee, siteName: site.name, updatedAt: sitePriceCycle.updatedAt,
} satisfies Record<SitePriceCycleSortField, unknown>;

function selectConfigs(db: DbOrTx, where: SQL | undefined, sort: SortRequest = {}) {
  return db
    .select(configColumns)
    .from(sitePriceCycle)
    .innerJoin(site, eq(site.id, sitePriceCycle.siteId))
    .innerJoin(priceTemplate, eq(priceTemplate.id, sitePriceCycle.templateId))
    .where(where)
    .orderBy(...sortedBy(sort, configSortable, [asc(site.name), desc(sitePriceCycle.startDate), asc(sitePriceCycle.id)]));
}

export async function configList(ctx: AppContext, user: AuthUser, f: SitePriceCycleFilter): Promise<SitePriceCycleRecord[]> {
  await assertFilter(ctx.db, user, f);
  const where = and(
    inSiteScope(sitePriceCycle.siteId, ctx.db, user),
    f.siteId ? eq(sitePriceCycle.siteId, f.siteId) : undefined,
    f.companyId ? underCompany(f.companyId) : undefined,
    f.templateId ? eq(sitePriceCycle.templateId, f.templateId) : undefined,
  );
  return (await selectConfigs(ctx.db, where, f).limit(5000)).map(toConfigRecord);
}

async function configInScope(db: DbOrTx, user: AuthUser, id: number): Promise<SitePriceCycleRecord> {
  const [row] = await selectConfigs(db, and(eq(sitePriceCycle.id, id), inSiteScope(sitePriceCycle.siteId, db, user)));
  return toConfigRecord(found(row, CONFIG_MISSING));
}

export const configOne = (ctx: AppContext, user: AuthUser, id: number) => configInScope(ctx.db, user, id);

/** Date ranges [start, end] (end null: open) of one station that meet this one, except `exceptId`. */
const overlapping = (
  t: typeof sitePriceCycle | typeof solarPriceCycle,
  siteId: number,
  startDate: string,
  endDate: string | null,
  exceptId?: number,
) =>
  and(
    eq(t.siteId, siteId),
    exceptId ? ne(t.id, exceptId) : undefined,
    endDate ? lte(t.startDate, endDate) : undefined,
    or(isNull(t.endDate), gte(t.endDate, startDate)),
  );

/** The template is the caller's, of the station's company or one above it, and in the station's currency. */
async function assertTemplateFits(tx: DbOrTx, user: AuthUser, templateId: number, station: { name: string; currency: string; companyPath: string }) {
  const t = await templateInScope(tx, user, templateId);
  const [tc] = await tx.select({ path: company.path }).from(company).where(eq(company.id, t.companyId));
  if (!station.companyPath.startsWith(tc!.path)) throw new AppError('RULE_VIOLATION', '电价模板不属于站点所在公司或其上级公司');
  if (t.currency !== station.currency) throw new AppError('RULE_VIOLATION', '电价模板币种与站点币种不一致', `${t.currency} ≠ ${station.currency}`);
}

async function assertNoConfigOverlap(tx: DbOrTx, b: SitePriceCycleAdd, exceptId?: number) {
  const [other] = await tx
    .select({ startDate: sitePriceCycle.startDate, endDate: sitePriceCycle.endDate })
    .from(sitePriceCycle)
    .where(overlapping(sitePriceCycle, b.siteId, b.startDate, b.endDate, exceptId))
    .limit(1);
  if (other) throw new AppError('RULE_VIOLATION', CONFIG_OVERLAP, `${other.startDate} ~ ${other.endDate ?? '∞'}`);
}

const configValues = (b: SitePriceCycleAdd) => ({
  siteId: b.siteId,
  templateId: b.templateId,
  startDate: b.startDate,
  endDate: b.endDate,
  serviceFee: moneyIn(b.serviceFee),
  remark: b.remark,
});

export async function addConfig(ctx: AppContext, user: AuthUser, body: SitePriceCycleAdd): Promise<{ id: number }> {
  const id = await ctx.db.transaction(async (tx) => {
    const station = (await lockSites(tx, user, [body.siteId])).get(body.siteId)!;
    await assertTemplateFits(tx, user, body.templateId, station);
    await assertNoConfigOverlap(tx, body);
    await assertDaysUnsettled(tx, [{ siteId: body.siteId, from: body.startDate, to: body.endDate }]);
    const [created] = await tx.insert(sitePriceCycle).values(configValues(body)).returning({ id: sitePriceCycle.id });
    await emitPriceChanges(tx, [{ siteIds: [body.siteId], fromDate: body.startDate }]);
    return created!.id;
  });
  ctx.outbox.nudge();
  return { id };
}

export async function editConfig(ctx: AppContext, user: AuthUser, body: SitePriceCycleEdit): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await configInScope(tx, user, body.id);
    const stations = await lockSites(tx, user, [before.siteId, body.siteId]);
    const unchanged = body.siteId === before.siteId && body.templateId === before.templateId && body.startDate === before.startDate && (body.serviceFee ?? null) === before.serviceFee;
    await assertOnlyEnded(tx, { kind: 'sitePrice', id: before.id }, unchanged, body.endDate);
    await assertTemplateFits(tx, user, body.templateId, stations.get(body.siteId)!);
    await assertNoConfigOverlap(tx, body, before.id);
    const charges = body.templateId === before.templateId && (body.serviceFee ?? null) === before.serviceFee;
    await assertDaysUnsettled(tx, changedDays(rangeOf(before), rangeOf(body), !charges));
    await tx.update(sitePriceCycle).set({ ...configValues(body), updatedAt: new Date() }).where(eq(sitePriceCycle.id, before.id));
    await emitPriceChanges(tx, changesOfEdit(before, body));
    return before;
  });
  ctx.outbox.nudge();
}

export async function deleteConfig(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await configInScope(tx, user, id);
    await lockSites(tx, user, [before.siteId]);
    await assertPricesUnsettled(tx, [{ kind: 'sitePrice', id: before.id }]);
    assertNotStarted(before.startDate, before.timeZone);
    await tx.delete(sitePriceCycle).where(eq(sitePriceCycle.id, before.id));
    await emitPriceChanges(tx, [{ siteIds: [before.siteId], fromDate: before.startDate }]);
    return before;
  });
  ctx.outbox.nudge();
}

// Solar price cycles

const solarColumns = {
  id: solarPriceCycle.id,
  siteId: solarPriceCycle.siteId,
  siteName: site.name,
  siteCode: site.code,
  currency: site.currency,
  startDate: solarPriceCycle.startDate,
  endDate: solarPriceCycle.endDate,
  price: solarPriceCycle.price,
  periodPrices: solarPriceCycle.periodPrices,
  remark: solarPriceCycle.remark,
  createdAt: solarPriceCycle.createdAt,
  updatedAt: solarPriceCycle.updatedAt,
};

type SolarRow = Awaited<ReturnType<typeof selectSolar>>[number];
const toSolarRecord = (r: SolarRow): SolarPriceCycleRecord => ({
  ...r,
  price: Number(r.price),
  periodPrices: r.periodPrices ?? null,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const solarSortable = {
  startDate: solarPriceCycle.startDate, endDate: solarPriceCycle.endDate, price: solarPriceCycle.price, siteName: site.name,
  updatedAt: solarPriceCycle.updatedAt,
} satisfies Record<SolarPriceCycleSortField, unknown>;

function selectSolar(db: DbOrTx, where: SQL | undefined, sort: SortRequest = {}) {
  return db
    .select(solarColumns)
    .from(solarPriceCycle)
    .innerJoin(site, eq(site.id, solarPriceCycle.siteId))
    .where(where)
    .orderBy(...sortedBy(sort, solarSortable, [asc(site.name), desc(solarPriceCycle.startDate), asc(solarPriceCycle.id)]));
}

export async function solarPage(
  ctx: AppContext,
  user: AuthUser,
  req: { current: number; pageSize: number; siteId?: number; companyId?: number } & SortRequest,
): Promise<Page<SolarPriceCycleRecord>> {
  await assertFilter(ctx.db, user, req);
  const where = and(
    inSiteScope(solarPriceCycle.siteId, ctx.db, user),
    req.siteId ? eq(solarPriceCycle.siteId, req.siteId) : undefined,
    req.companyId ? underCompany(req.companyId) : undefined,
  );
  const [{ n } = { n: 0 }] = await ctx.db.select({ n: count() }).from(solarPriceCycle).innerJoin(site, eq(site.id, solarPriceCycle.siteId)).where(where);
  const rows = n === 0 ? [] : await selectSolar(ctx.db, where, req).limit(req.pageSize).offset((req.current - 1) * req.pageSize);
  return { records: rows.map(toSolarRecord), total: n, current: req.current, pageSize: req.pageSize };
}

async function solarInScope(db: DbOrTx, user: AuthUser, id: number): Promise<SolarPriceCycleRecord> {
  const [row] = await selectSolar(db, and(eq(solarPriceCycle.id, id), inSiteScope(solarPriceCycle.siteId, db, user)));
  return toSolarRecord(found(row, SOLAR_MISSING));
}

export const solarOne = (ctx: AppContext, user: AuthUser, id: number) => solarInScope(ctx.db, user, id);

async function assertNoSolarOverlap(tx: DbOrTx, b: SolarPriceCycleAdd, exceptId?: number) {
  const [other] = await tx
    .select({ startDate: solarPriceCycle.startDate, endDate: solarPriceCycle.endDate })
    .from(solarPriceCycle)
    .where(overlapping(solarPriceCycle, b.siteId, b.startDate, b.endDate, exceptId))
    .limit(1);
  if (other) throw new AppError('RULE_VIOLATION', SOLAR_OVERLAP, `${other.startDate} ~ ${other.endDate ?? '∞'}`);
}

const solarValues = (b: SolarPriceCycleAdd) => ({
  siteId: b.siteId,
  startDate: b.startDate,
  endDate: b.endDate,
  price: String(b.price),
  periodPrices: b.periodPrices,
  remark: b.remark,
});

export async function addSolar(ctx: AppContext, user: AuthUser, body: SolarPriceCycleAdd): Promise<{ id: number }> {
  const id = await ctx.db.transaction(async (tx) => {
    await lockSites(tx, user, [body.siteId]);
    await assertNoSolarOverlap(tx, body);
    await assertDaysUnsettled(tx, [{ siteId: body.siteId, from: body.startDate, to: body.endDate }]);
    const [created] = await tx.insert(solarPriceCycle).values(solarValues(body)).returning({ id: solarPriceCycle.id });
    await emitPriceChanges(tx, [{ siteIds: [body.siteId], fromDate: body.startDate }]);
    return created!.id;
  });
  ctx.outbox.nudge();
  return { id };
}

export async function editSolar(ctx: AppContext, user: AuthUser, body: SolarPriceCycleEdit): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await solarInScope(tx, user, body.id);
    await lockSites(tx, user, [before.siteId, body.siteId]);
    const unchanged = body.siteId === before.siteId && body.startDate === before.startDate && body.price === before.price &&
      JSON.stringify(body.periodPrices ?? null) === JSON.stringify(before.periodPrices ?? null);
    await assertOnlyEnded(tx, { kind: 'solarPrice', id: before.id }, unchanged, body.endDate);
    await assertNoSolarOverlap(tx, body, before.id);
    const charges = body.price === before.price && JSON.stringify(body.periodPrices ?? null) === JSON.stringify(before.periodPrices ?? null);
    await assertDaysUnsettled(tx, changedDays(rangeOf(before), rangeOf(body), !charges));
    await tx.update(solarPriceCycle).set({ ...solarValues(body), updatedAt: new Date() }).where(eq(solarPriceCycle.id, before.id));
    await emitPriceChanges(tx, changesOfEdit(before, body));
    return before;
  });
  ctx.outbox.nudge();
}

export async function deleteSolar(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await solarInScope(tx, user, id);
    await lockSites(tx, user, [before.siteId]);
    await assertPricesUnsettled(tx, [{ kind: 'solarPrice', id: before.id }]);
    assertNotStarted(before.startDate, await zoneOfSite(tx, before.siteId));
    await tx.delete(solarPriceCycle).where(eq(solarPriceCycle.id, before.id));
    await emitPriceChanges(tx, [{ siteIds: [before.siteId], fromDate: before.startDate }]);
    return before;
  });
  ctx.outbox.nudge();
}
