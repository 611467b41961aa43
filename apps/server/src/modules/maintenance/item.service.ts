import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CHECK_TYPE_LABELS, DEVICE_TYPE_LABELS, ITEM_IMPORT_MAX_ROWS, ITEM_SHEET_COLUMNS, itemAdd, itemInUse, itemSheetRow,
  type CheckType, type DeviceType, type ItemAdd, type ItemEdit, type ItemFilter, type ItemImportResult, type ItemRecord,
  type ItemRelRecord, type Page, type PageRequest, type PlanState,
} from '@ess/contract';
import { product } from '../../db/schema/device.ts';
import { inspectionItem, inspectionPlan, inspectionPlanItem } from '../../db/schema/maintenance.ts';
import { company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../platform/db/errors.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery, type SortRequest } from '../../platform/http/paging.ts';
import { assertCompany, inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';
import { importSheet } from '../../platform/xlsx/import.ts';
import { readUploadedSheet } from '../../platform/xlsx/upload.ts';
import { sendXlsx, type ExportLanguage, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';

/**
 * Inspection items (api-catalogue "Inspection" → items): list, page, add, edit, delete (refused
 * while a plan uses the item, naming the plans), xlsx export and import through the one import
 * path. An item belongs to a company; the caller sees the items of the companies in their scope.
 */

const DUPLICATE_TIP = '同一公司已有同名巡检项';
const NOT_FOUND_TIP = '巡检项不存在';

const planCount = sql<number>`(select count(*)::int from ${inspectionPlanItem} where ${inspectionPlanItem.itemId} = ${inspectionItem.id})`;

const items = defineListQuery({
  table: inspectionItem,
  columns: {
    i: inspectionItem,
    companyName: company.name,
    productName: product.name,
    productCode: product.code,
    planCount,
  },
  joins: [
    { table: company, on: eq(company.id, inspectionItem.companyId) },
    { table: product, on: eq(product.id, inspectionItem.productId), left: true },
  ],
  scope: (db, user) => inCompanyScope(inspectionItem.companyId, db, user),
  filter: (f: ItemFilter) => [
    f.companyId ? eq(inspectionItem.companyId, f.companyId) : undefined,
    f.deviceType ? eq(inspectionItem.deviceType, f.deviceType) : undefined,
    f.productId ? eq(inspectionItem.productId, f.productId) : undefined,
    f.checkType ? eq(inspectionItem.checkType, f.checkType) : undefined,
    f.keyword ? sql`(${likeEscaped(inspectionItem.name, f.keyword)} or ${likeEscaped(inspectionItem.standard, f.keyword)})` : undefined,
  ],
  orderBy: [asc(inspectionItem.companyId), asc(inspectionItem.name), asc(inspectionItem.id)],
  sortable: { name: inspectionItem.name, checkType: inspectionItem.checkType, createdAt: inspectionItem.createdAt, updatedAt: inspectionItem.updatedAt },
  toRecord: (r): ItemRecord => ({
    id: r.i.id,
    companyId: r.i.companyId,
    companyName: r.companyName,
    name: r.i.name,
    deviceType: r.i.deviceType as DeviceType | null,
    productId: r.i.productId,
    productName: r.productName,
    productCode: r.productCode,
    checkType: r.i.checkType as CheckType,
    unit: r.i.unit,
    min: r.i.minValue,
    max: r.i.maxValue,
    standard: r.i.standard,
    remark: r.i.remark,
    planCount: Number(r.planCount),
    createdAt: r.i.createdAt.toISOString(),
    updatedAt: r.i.updatedAt.toISOString(),
  }),
});

/** A list never answers more than this many items. */
const LIST_MAX = 5000;

async function assertFilter(db: DbOrTx, user: AuthUser, f: ItemFilter) {
  if (f.companyId) await assertCompany(db, user, f.companyId);
}

export async function itemList(ctx: AppContext, user: AuthUser, f: ItemFilter & SortRequest): Promise<ItemRecord[]> {
  await assertFilter(ctx.db, user, f);
  return items.list(ctx.db, user, f, LIST_MAX);
}

export async function itemPage(ctx: AppContext, user: AuthUser, req: ItemFilter & PageRequest & SortRequest): Promise<Page<ItemRecord>> {
  await assertFilter(ctx.db, user, req);
  return items.page(ctx.db, user, req);
}

/** The item with this id if the caller may see it (else 404, the same for another company's). */
export async function itemInScope(db: DbOrTx, user: AuthUser, id: number) {
  const [row] = await db
    .select()
    .from(inspectionItem)
    .where(and(eq(inspectionItem.id, id), inCompanyScope(inspectionItem.companyId, db, user)));
  return found(row, NOT_FOUND_TIP);
}

async function assertProduct(db: DbOrTx, productId: number | null) {
  if (productId !== null) found((await db.select({ id: product.id }).from(product).where(eq(product.id, productId)))[0], '产品不存在');
}

const fieldsOf = (e: ItemAdd) => ({
  name: e.name, deviceType: e.deviceType, productId: e.productId, checkType: e.checkType, unit: e.unit,
  minValue: e.min, maxValue: e.max, standard: e.standard, remark: e.remark,
});

const onUnique = (err: unknown): never => {
  if (pgErrorCode(err) === UNIQUE_VIOLATION) throw new AppError('DUPLICATE', DUPLICATE_TIP);
  throw err;
};

export async function addItem(ctx: AppContext, user: AuthUser, body: ItemAdd): Promise<{ id: number }> {
  const companyId = body.companyId ?? user.companyId;
  await assertCompany(ctx.db, user, companyId);
  await assertProduct(ctx.db, body.productId);
  const [row] = await ctx.db
    .insert(inspectionItem)
    .values({ ...fieldsOf(body), companyId, createdBy: user.id })
    .returning({ id: inspectionItem.id })
    .catch(onUnique);
  return { id: row!.id };
}

/** Edits an item; plans use its new text from their next order on (orders keep their copies). */
export async function editItem(ctx: AppContext, user: AuthUser, body: ItemEdit): Promise<void> {
  const cur = await itemInScope(ctx.db, user, body.id);
  if (body.companyId !== undefined && body.companyId !== cur.companyId) throw new AppError('RULE_VIOLATION', '巡检项不能改到其他公司');
  await assertProduct(ctx.db, body.productId);
  await ctx.db
    .update(inspectionItem)
    .set({ ...fieldsOf(body), updatedAt: new Date() })
    .where(eq(inspectionItem.id, body.id))
    .catch(onUnique);
}

/** Deletes an item, unless plans use it: refused (406) naming them. */
export async function deleteItem(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await itemInScope(tx, user, id);
    const plans = await tx
      .select({ name: inspectionPlan.name })
      .from(inspectionPlanItem)
      .innerJoin(inspectionPlan, eq(inspectionPlan.id, inspectionPlanItem.planId))
      .where(eq(inspectionPlanItem.itemId, id))
      .orderBy(asc(inspectionPlan.id));
    if (plans.length) throw new AppError('RULE_VIOLATION', itemInUse(plans.map((p) => p.name)));
    await tx.delete(inspectionItem).where(eq(inspectionItem.id, id));
  });
}

// ── Item relations of plans ───────────────────────────────────────────────────────────

/** The items of a plan, or the plans that use an item; the plans of the caller's companies. */
export async function itemRelPage(ctx: AppContext, user: AuthUser, req: { planId?: number | undefined; itemId?: number | undefined } & PageRequest): Promise<Page<ItemRelRecord>> {
  const where = and(
    inCompanyScope(inspectionPlan.companyId, ctx.db, user),
    req.planId ? eq(inspectionPlanItem.planId, req.planId) : undefined,
    req.itemId ? eq(inspectionPlanItem.itemId, req.itemId) : undefined,
  );
  if (req.itemId) await itemInScope(ctx.db, user, req.itemId);
  if (req.planId) {
    const [plan] = await ctx.db.select({ id: inspectionPlan.id }).from(inspectionPlan).where(and(eq(inspectionPlan.id, req.planId), inCompanyScope(inspectionPlan.companyId, ctx.db, user)));
    found(plan, '巡检计划不存在');
  }
  const base = () =>
    ctx.db
      .select({
        planId: inspectionPlan.id, planName: inspectionPlan.name, planStatus: inspectionPlan.status, itemId: inspectionItem.id, itemName: inspectionItem.name,
        checkType: inspectionItem.checkType, deviceType: inspectionItem.deviceType, productName: product.name, standard: inspectionItem.standard, sort: inspectionPlanItem.sort,
      })
      .from(inspectionPlanItem)
      .innerJoin(inspectionPlan, eq(inspectionPlan.id, inspectionPlanItem.planId))
      .innerJoin(inspectionItem, eq(inspectionItem.id, inspectionPlanItem.itemId))
      .leftJoin(product, eq(product.id, inspectionItem.productId));
  const [{ n } = { n: 0 }] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(inspectionPlanItem)
    .innerJoin(inspectionPlan, eq(inspectionPlan.id, inspectionPlanItem.planId))
    .where(where);
  const rows = n === 0 ? [] : await base().where(where).orderBy(asc(inspectionPlan.name), asc(inspectionPlanItem.planId), asc(inspectionPlanItem.sort)).limit(req.pageSize).offset((req.current - 1) * req.pageSize);
  return {
    records: rows.map((r) => ({
      ...r, planStatus: r.planStatus as PlanState, checkType: r.checkType as CheckType, deviceType: r.deviceType as DeviceType | null, sort: r.sort + 1,
    })),
    total: n,
    current: req.current,
    pageSize: req.pageSize,
  };
}

// ── Export and import ─────────────────────────────────────────────────────────────────

const HEADER = Object.fromEntries(ITEM_SHEET_COLUMNS.map((c) => [c.key, c.header])) as Record<(typeof ITEM_SHEET_COLUMNS)[number]['key'], string>;

const EXPORT_COLUMNS: XlsxColumn<ItemRecord>[] = [
  { header: HEADER.name, width: 24, value: (r) => r.name },
  { header: HEADER.deviceType, width: 14, kind: 'label', value: (r) => (r.deviceType ? DEVICE_TYPE_LABELS[r.deviceType] : null) },
  { header: HEADER.productCode, width: 20, value: (r) => r.productCode },
  { header: HEADER.checkType, width: 12, kind: 'label', value: (r) => CHECK_TYPE_LABELS[r.checkType] },
  { header: HEADER.unit, width: 8, value: (r) => r.unit },
  { header: HEADER.min, width: 10, value: (r) => r.min },
  { header: HEADER.max, width: 10, value: (r) => r.max },
  { header: HEADER.standard, width: 36, value: (r) => r.standard },
  { header: HEADER.remark, width: 24, value: (r) => r.remark },
];

/** The items sheet; in the caller's language (its headers and labels in source text are the import's). */
export async function exportItems(ctx: AppContext, user: AuthUser, f: ItemFilter & SortRequest, lang: ExportLanguage, reply: FastifyReply) {
  const rows = await itemList(ctx, user, f);
  return sendXlsx(reply, { fileName: '巡检项', columns: EXPORT_COLUMNS }, rows, lang);
}

/**
 * Imports the items sheet into the caller's company: a row whose name the company already has
 * updates that item, any other adds one. All or nothing: any bad row refuses the file, naming its
 * row and column.
 */
export async function importItems(ctx: AppContext, user: AuthUser, req: FastifyRequest): Promise<ItemImportResult> {
  const { sheet } = await readUploadedSheet(ctx, req);
  const companyId = user.companyId;
  return importSheet(ctx.db, {
    sheet,
    columns: ITEM_SHEET_COLUMNS,
    maxRows: ITEM_IMPORT_MAX_ROWS,
    rowSchema: itemSheetRow,
    check: async (tx, rows, refuse) => {
      const products = new Map((await tx.select({ id: product.id, code: product.code }).from(product)).map((p) => [p.code, p.id]));
      const out: ItemAdd[] = [];
      const firstRowOf = new Map<string, number>();
      for (const { row, data } of rows) {
        let productId: number | null = null;
        if (data.productCode) {
          const pid = products.get(data.productCode);
          if (pid === undefined) {
            refuse(row, HEADER.productCode, '产品不存在');
            continue;
          }
          productId = pid;
        }
        const { productCode: _code, ...fields } = data;
        const parsed = itemAdd.safeParse({ ...fields, productId });
        if (!parsed.success) {
          for (const issue of parsed.error.issues.slice(0, 3)) {
            const key = String(issue.path[0] ?? 'name');
            refuse(row, key === 'productId' ? HEADER.productCode : (HEADER[key as keyof typeof HEADER] ?? HEADER.name), issue.message);
          }
          continue;
        }
        const key = parsed.data.name.toLowerCase();
        const prev = firstRowOf.get(key);
        if (prev !== undefined) {
          refuse(row, HEADER.name, `与第${prev}行重复`);
          continue;
        }
        firstRowOf.set(key, row);
        out.push(parsed.data);
      }
      return out;
    },
    write: async (tx, entries) => {
      let created = 0;
      let updated = 0;
      const existing = entries.length
        ? await tx
            .select({ id: inspectionItem.id, name: inspectionItem.name })
            .from(inspectionItem)
            .where(and(eq(inspectionItem.companyId, companyId), inArray(sql`lower(${inspectionItem.name})`, entries.map((e) => e.name.toLowerCase()))))
        : [];
      const byName = new Map(existing.map((e) => [e.name.toLowerCase(), e.id]));
      for (const e of entries) {
        const id = byName.get(e.name.toLowerCase());
        if (id !== undefined) {
          await tx.update(inspectionItem).set({ ...fieldsOf(e), updatedAt: new Date() }).where(eq(inspectionItem.id, id));
          updated++;
        } else {
          await tx.insert(inspectionItem).values({ ...fieldsOf(e), companyId, createdBy: user.id });
          created++;
        }
      }
      return { totalRows: entries.length, created, updated };
    },
  }).catch(onUnique);
}

/** Refuses item ids the caller may not use (404, as for another company's). */
export async function assertItems(db: DbOrTx, user: AuthUser, ids: number[]) {
  const rows = await db
    .select({ id: inspectionItem.id })
    .from(inspectionItem)
    .where(and(inArray(inspectionItem.id, ids), inCompanyScope(inspectionItem.companyId, db, user)));
  if (rows.length !== new Set(ids).size) throw new AppError('NOT_FOUND', NOT_FOUND_TIP);
}
