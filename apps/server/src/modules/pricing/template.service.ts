import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  cycleIssues, issueMessage, normalizeBands, priceIssues, type BillingSystem, type ElectricityType, type Page, type PageRequest,
  type PriceCycleAddBatch, type PriceCycleEdit, type PriceCycleInput, type PriceCycleRecord, type PriceIssue, type PriceTemplateAdd,
  type PriceTemplateDetail, type PriceTemplateEdit, type PriceTemplateFilter, type PriceTemplateRecord, type PriceTemplateSortField, type PriceTemplateWithCycles,
} from '@ess/contract';
import { priceCycle, priceTemplate, sitePriceCycle } from '../../db/schema/pricing.ts';
import { site } from '../../db/schema/site.ts';
import { company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { assertCompany, inCompanyScope, inSiteScope, likeEscaped } from '../../platform/http/scope.ts';
import { assertCurrency, siteInScope } from '../site/index.ts';
import { FOREIGN_KEY_VIOLATION, UNIQUE_VIOLATION, pgErrorCode } from '../../platform/db/errors.ts';
import { byFirstMonth, moneyIn, toCycleRecord } from './pricing.records.ts';
import { changesOfTemplate, emitPriceChanges } from './pricing.service.ts';
import { assertPricesUnsettled } from './price-history.ts';

/** Price templates and their operation price cycles (/operation/price/...). */

const TEMPLATE_MISSING = '电价模板不存在';
const CYCLE_MISSING = '电价周期不存在';
export const TEMPLATE_IN_USE = '电价模板正被站点使用，不能删除';

const cycleCount = sql<number>`(select count(*) from ${priceCycle} where ${priceCycle.templateId} = ${priceTemplate.id})::int`;
const siteCount = sql<number>`(select count(distinct ${sitePriceCycle.siteId}) from ${sitePriceCycle} where ${sitePriceCycle.templateId} = ${priceTemplate.id})::int`;

const columns = {
  id: priceTemplate.id,
  companyId: priceTemplate.companyId,
  companyName: company.name,
  name: priceTemplate.name,
  type: priceTemplate.type,
  billingSystem: priceTemplate.billingSystem,
  voltageLevel: priceTemplate.voltageLevel,
  currency: priceTemplate.currency,
  regionCode: priceTemplate.regionCode,
  remark: priceTemplate.remark,
  cycleCount,
  siteCount,
  createdAt: priceTemplate.createdAt,
  updatedAt: priceTemplate.updatedAt,
};

/** Templates of this company and every company under it. */
const underCompany = (companyId: number) =>
  sql`${priceTemplate.companyId} in (select c.id from ${company} c where c.path like (select p.path from ${company} p where p.id = ${companyId}) || '%')`;

const templates = defineListQuery({
  table: priceTemplate,
  columns,
  joins: [{ table: company, on: eq(company.id, priceTemplate.companyId) }],
  scope: (db, user) => inCompanyScope(priceTemplate.companyId, db, user),
  filter: (f: PriceTemplateFilter) => [
    f.companyId ? underCompany(f.companyId) : undefined,
    f.keyword ? likeEscaped(priceTemplate.name, f.keyword) : undefined,
    f.type ? eq(priceTemplate.type, f.type) : undefined,
    f.billingSystem ? eq(priceTemplate.billingSystem, f.billingSystem) : undefined,
    f.currency ? eq(priceTemplate.currency, f.currency.toUpperCase()) : undefined,
  ],
  orderBy: [asc(priceTemplate.id)],
  sortable: {
    name: priceTemplate.name, companyName: company.name, type: priceTemplate.type, billingSystem: priceTemplate.billingSystem,
    currency: priceTemplate.currency, cycleCount, siteCount, createdAt: priceTemplate.createdAt,
  } satisfies Record<PriceTemplateSortField, unknown>,
  toRecord: (r): PriceTemplateRecord => ({
    ...r,
    type: r.type as ElectricityType,
    billingSystem: r.billingSystem as BillingSystem,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }),
});

export async function templateList(ctx: AppContext, user: AuthUser, f: PriceTemplateFilter): Promise<PriceTemplateRecord[]> {
  if (f.companyId) await assertCompany(ctx.db, user, f.companyId);
  return templates.list(ctx.db, user, f, 5000);
}

export async function templatePage(ctx: AppContext, user: AuthUser, req: PageRequest & PriceTemplateFilter): Promise<Page<PriceTemplateRecord>> {
  if (req.companyId) await assertCompany(ctx.db, user, req.companyId);
  return templates.page(ctx.db, user, req);
}

/** A template of the caller's companies (locked for the transaction with `lock`); any other is not found. */
export async function templateInScope(db: DbOrTx, user: AuthUser, id: number, lock = false): Promise<PriceTemplateRecord> {
  if (lock) {
    const [locked] = await db
      .select({ id: priceTemplate.id })
      .from(priceTemplate)
      .where(and(eq(priceTemplate.id, id), inCompanyScope(priceTemplate.companyId, db, user)))
      .for('update');
    found(locked, TEMPLATE_MISSING);
  }
  const [row] = await templates.rows(db, and(eq(priceTemplate.id, id), inCompanyScope(priceTemplate.companyId, db, user)));
  return found(row, TEMPLATE_MISSING);
}

async function cyclesOf(db: DbOrTx, templateIds: number[]): Promise<PriceCycleRecord[]> {
  if (!templateIds.length) return [];
  return (await db.select().from(priceCycle).where(inArray(priceCycle.templateId, templateIds))).map(toCycleRecord).sort(byFirstMonth);
}

/**
 * A template with its cycles and the stations using it: only the stations the caller may see
 * (a template is shared by its company's stations, a user may be granted only some of them).
 */
export async function templateOne(ctx: AppContext, user: AuthUser, id: number): Promise<PriceTemplateDetail> {
  const t = await templateInScope(ctx.db, user, id);
  const uses = await ctx.db
    .select({ configId: sitePriceCycle.id, siteId: site.id, siteName: site.name, siteCode: site.code, startDate: sitePriceCycle.startDate, endDate: sitePriceCycle.endDate })
    .from(sitePriceCycle)
    .innerJoin(site, eq(site.id, sitePriceCycle.siteId))
    .where(and(eq(sitePriceCycle.templateId, t.id), inSiteScope(site.id, ctx.db, user)))
    .orderBy(asc(site.name), asc(sitePriceCycle.startDate));
  return { ...t, cycles: await cyclesOf(ctx.db, [t.id]), uses };
}

const onDuplicateName = (err: unknown): never => {
  if (pgErrorCode(err) === UNIQUE_VIOLATION) throw new AppError('DUPLICATE', '同一公司下已有同名电价模板');
  throw err;
};

export async function addTemplate(ctx: AppContext, user: AuthUser, body: PriceTemplateAdd): Promise<{ id: number }> {
  return ctx.db
    .transaction(async (tx) => {
      await assertCompany(tx, user, body.companyId);
      await assertCurrency(tx, body.currency);
      const [created] = await tx.insert(priceTemplate).values(body).returning({ id: priceTemplate.id });
      return { id: created!.id };
    })
    .catch(onDuplicateName);
}

/**
 * The stations of a refusal, as its detail: by name those the caller may see, the others only
 * counted (the rule holds for every station; the caller learns no name beyond its scope).
 */
async function stationNames(db: DbOrTx, user: AuthUser, stations: { id: number; name: string }[]): Promise<string> {
  const ids = [...new Set(stations.map((s) => s.id))];
  const visible = ids.length ? new Set((await db.select({ id: site.id }).from(site).where(and(inArray(site.id, ids), inSiteScope(site.id, db, user)))).map((r) => r.id)) : new Set<number>();
  const names = [...new Map(stations.filter((s) => visible.has(s.id)).map((s) => [s.id, s.name])).values()];
  const hidden = ids.length - visible.size;
  return [...names, ...(hidden ? [`另有 ${hidden} 个无权查看的站点`] : [])].join(', ');
}

/** Which stations' configuration a template change would break: currency, company, billing system. */
async function assertStillUsable(tx: DbOrTx, user: AuthUser, cur: PriceTemplateRecord, next: PriceTemplateEdit): Promise<void> {
  if (next.currency !== cur.currency || next.companyId !== cur.companyId) {
    const users = await tx
      .select({ id: site.id, name: site.name, currency: site.currency, companyPath: company.path })
      .from(sitePriceCycle)
      .innerJoin(site, eq(site.id, sitePriceCycle.siteId))
      .innerJoin(company, eq(company.id, site.companyId))
      .where(eq(sitePriceCycle.templateId, cur.id));
    if (users.some((u) => u.currency !== next.currency)) {
      throw new AppError('RULE_VIOLATION', '使用该模板的站点币种与新币种不一致', await stationNames(tx, user, users));
    }
    if (next.companyId !== cur.companyId && users.length) {
      const [target] = await tx.select({ path: company.path }).from(company).where(eq(company.id, next.companyId));
      const outside = users.filter((u) => !u.companyPath.startsWith(target!.path));
      if (outside.length) throw new AppError('RULE_VIOLATION', '使用该模板的站点不在新公司之下', await stationNames(tx, user, outside));
    }
  }
  if (next.billingSystem !== cur.billingSystem) {
    const cycles = await cyclesOf(tx, [cur.id]);
    const broken = cycles.flatMap((c) => priceIssues(c, next.billingSystem).map((i) => `周期「${c.name}」：${issueMessage(i)}`));
    if (broken.length) throw new AppError('RULE_VIOLATION', broken.slice(0, 3).join('；'));
  }
}

export async function editTemplate(ctx: AppContext, user: AuthUser, body: PriceTemplateEdit): Promise<void> {
  await ctx.db
    .transaction(async (tx) => {
      const cur = await templateInScope(tx, user, body.id, true);
      await assertPricesUnsettled(tx, [{ kind: 'template', id: cur.id }]);
      if (body.companyId !== cur.companyId) await assertCompany(tx, user, body.companyId);
      // As a station's: a template whose currency was later disabled stays editable.
      if (body.currency !== cur.currency) await assertCurrency(tx, body.currency);
      await assertStillUsable(tx, user, cur, body);
      const { id: _id, ...fields } = body;
      await tx.update(priceTemplate).set({ ...fields, updatedAt: new Date() }).where(eq(priceTemplate.id, cur.id));
      // Only the currency changes what the stations' days cost (the cycles carry the prices).
      if (body.currency !== cur.currency) await emitPriceChanges(tx, await changesOfTemplate(tx, cur.id));
    })
    .catch(onDuplicateName);
  ctx.outbox.nudge();
}

/** Deletes a template and its cycles; refused while a station's price configuration names it. */
export async function deleteTemplate(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  try {
    await ctx.db.transaction(async (tx) => {
      const cur = await templateInScope(tx, user, id, true);
      await assertPricesUnsettled(tx, [{ kind: 'template', id: cur.id }]);
      const users = await tx
        .selectDistinct({ id: site.id, name: site.name })
        .from(sitePriceCycle)
        .innerJoin(site, eq(site.id, sitePriceCycle.siteId))
        .where(eq(sitePriceCycle.templateId, cur.id));
      if (users.length) throw new AppError('RULE_VIOLATION', TEMPLATE_IN_USE, await stationNames(tx, user, users));
      await tx.delete(priceTemplate).where(eq(priceTemplate.id, cur.id));
    });
  } catch (err) {
    // A station configured between the check and the delete.
    if (pgErrorCode(err) === FOREIGN_KEY_VIOLATION) throw new AppError('RULE_VIOLATION', TEMPLATE_IN_USE);
    throw err;
  }
}

// Cycles

const cycleValues = (c: PriceCycleInput) => ({
  name: c.name,
  months: [...c.months].sort((a, b) => a - b),
  periods: normalizeBands(c.periods),
  tipPrice: moneyIn(c.tipPrice),
  peakPrice: moneyIn(c.peakPrice),
  flatPrice: moneyIn(c.flatPrice),
  valleyPrice: moneyIn(c.valleyPrice),
  deepValleyPrice: moneyIn(c.deepValleyPrice),
  demandPrice: moneyIn(c.demandPrice),
  capacityPrice: moneyIn(c.capacityPrice),
});

/** Refuses (406) with every broken rule of the cycles, each named by its cycle when there are several. */
function assertCycles(checked: { name: string; issues: PriceIssue[] }[]): void {
  const named = checked.length > 1;
  const lines = checked.flatMap((c) => c.issues.map((i) => (named ? `周期「${c.name}」：${issueMessage(i)}` : issueMessage(i))));
  if (lines.length) throw new AppError('RULE_VIOLATION', lines.slice(0, 5).join('；'));
}

function assertUniqueNames(names: string[]): void {
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new AppError('DUPLICATE', '同一模板下已有同名周期');
    seen.add(n);
  }
}

export async function cycleList(ctx: AppContext, user: AuthUser, templateId: number): Promise<PriceCycleRecord[]> {
  const t = await templateInScope(ctx.db, user, templateId);
  return cyclesOf(ctx.db, [t.id]);
}

async function cycleInScope(db: DbOrTx, user: AuthUser, id: number): Promise<PriceCycleRecord> {
  const [row] = await db
    .select({ c: priceCycle })
    .from(priceCycle)
    .innerJoin(priceTemplate, eq(priceTemplate.id, priceCycle.templateId))
    .where(and(eq(priceCycle.id, id), inCompanyScope(priceTemplate.companyId, db, user)));
  return toCycleRecord(found(row, CYCLE_MISSING).c);
}

export const cycleOne = (ctx: AppContext, user: AuthUser, id: number) => cycleInScope(ctx.db, user, id);

/** Adds several cycles of one template at once: all of them, or none. */
export async function addCycles(ctx: AppContext, user: AuthUser, body: PriceCycleAddBatch): Promise<{ ids: number[] }> {
  const ids = await ctx.db.transaction(async (tx) => {
    const t = await templateInScope(tx, user, body.templateId, true);
    await assertPricesUnsettled(tx, [{ kind: 'template', id: t.id }]);
    const existing = await cyclesOf(tx, [t.id]);
    assertUniqueNames([...existing.map((c) => c.name), ...body.cycles.map((c) => c.name)]);
    assertCycles(body.cycles.map((c, i) => ({ name: c.name, issues: cycleIssues(c, t.billingSystem, [...existing, ...body.cycles.slice(0, i)]) })));
    const rows = await tx
      .insert(priceCycle)
      .values(body.cycles.map((c) => ({ templateId: t.id, ...cycleValues(c) })))
      .returning({ id: priceCycle.id });
    await emitPriceChanges(tx, await changesOfTemplate(tx, t.id));
    return rows.map((r) => r.id);
  });
  ctx.outbox.nudge();
  return { ids };
}

export async function editCycle(ctx: AppContext, user: AuthUser, body: PriceCycleEdit): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const cur = await cycleInScope(tx, user, body.id);
    const t = await templateInScope(tx, user, cur.templateId, true);
    await assertPricesUnsettled(tx, [{ kind: 'priceCycle', id: cur.id }]);
    const others = (await cyclesOf(tx, [t.id])).filter((c) => c.id !== cur.id);
    assertUniqueNames([...others.map((c) => c.name), body.name]);
    assertCycles([{ name: body.name, issues: cycleIssues(body, t.billingSystem, others) }]);
    await tx.update(priceCycle).set({ ...cycleValues(body), updatedAt: new Date() }).where(eq(priceCycle.id, cur.id));
    await emitPriceChanges(tx, await changesOfTemplate(tx, t.id));
  });
  ctx.outbox.nudge();
}

export async function deleteCycle(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const cur = await cycleInScope(tx, user, id);
    await templateInScope(tx, user, cur.templateId, true);
    await assertPricesUnsettled(tx, [{ kind: 'priceCycle', id: cur.id }]);
    await tx.delete(priceCycle).where(eq(priceCycle.id, cur.id));
    await emitPriceChanges(tx, await changesOfTemplate(tx, cur.templateId));
  });
  ctx.outbox.nudge();
}

/**
 * Templates with their cycles, for pickers. With `siteId`: only those the station may use — of
 * its company or a company above it, in its currency.
 */
export async function templatesWithCycles(
  ctx: AppContext,
  user: AuthUser,
  q: { companyId?: number; siteId?: number; keyword?: string },
): Promise<PriceTemplateWithCycles[]> {
  const { db } = ctx;
  if (q.companyId) await assertCompany(db, user, q.companyId);
  let usable: SQL | undefined;
  if (q.siteId) {
    const s = await siteInScope(db, user, q.siteId);
    usable = and(eq(priceTemplate.currency, s.currency), usableBy(s.companyId));
  }
  const rows = await templates.rows(db, and(templates.where(db, user, { companyId: q.companyId, keyword: q.keyword }), usable), 500);
  const cycles = await cyclesOf(db, rows.map((r) => r.id));
  return rows.map((r) => ({ ...r, cycles: cycles.filter((c) => c.templateId === r.id) }));
}

/** A template's company is the station's company or one above it. */
export const usableBy = (siteCompanyId: number) =>
  sql`(select sc.path from ${company} sc where sc.id = ${siteCompanyId}) like (select tc.path from ${company} tc where tc.id = ${priceTemplate.companyId}) || '%'`;

