import { asc, count, eq, ilike, or, sql } from 'drizzle-orm';
import type { DeviceType, Page, PageRequest, ProductAdd, ProductEdit, ProductFilter, ProductRecord, ProductSortField } from '@ess/contract';
import { device, product, productCommand, productEvent, productProperty } from '../../db/schema/device.ts';
import { productTemplate } from '../../db/schema/product.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { likeEscaped } from '../../platform/http/scope.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../platform/db/errors.ts';
import { ingestOf } from '../telemetry/index.ts';

/**
 * Products (thing models) are shared by every company: any user granted the product menu sees
 * and edits all of them. What is scoped is device data read through them (export/data, template
 * data), which stays within the caller's stations.
 */

const counted = (table: typeof productProperty | typeof productEvent | typeof productCommand | typeof device) =>
  sql<number>`(select count(*)::int from ${table} x where x.product_id = "product"."id")`;

const products = defineListQuery({
  table: product,
  columns: {
    id: product.id, code: product.code, name: product.name, type: product.type, description: product.description,
    propertyCount: counted(productProperty), eventCount: counted(productEvent), commandCount: counted(productCommand),
    deviceCount: counted(device), createdAt: product.createdAt, updatedAt: product.updatedAt,
  },
  // Shared by every company (above).
  scope: null,
  filter: (f: ProductFilter) => [
    f.type ? eq(product.type, f.type) : undefined,
    f.code ? likeEscaped(product.code, f.code) : undefined,
    f.name ? likeEscaped(product.name, f.name) : undefined,
    f.keyword ? or(likeEscaped(product.code, f.keyword), likeEscaped(product.name, f.keyword)) : undefined,
  ],
  orderBy: [asc(product.type), asc(product.id)],
  sortable: {
    name: product.name, code: product.code, type: product.type, propertyCount: counted(productProperty), deviceCount: counted(device),
    createdAt: product.createdAt,
  } satisfies Record<ProductSortField, unknown>,
  toRecord: (r): ProductRecord => ({
    ...r,
    type: r.type as DeviceType,
    propertyCount: Number(r.propertyCount),
    eventCount: Number(r.eventCount),
    commandCount: Number(r.commandCount),
    deviceCount: Number(r.deviceCount),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }),
});

export const productList = (ctx: AppContext, f: ProductFilter): Promise<ProductRecord[]> => products.list(ctx.db, null, f, 1000);

export const productPage = (ctx: AppContext, req: PageRequest & ProductFilter): Promise<Page<ProductRecord>> => products.page(ctx.db, null, req);

export async function productOne(ctx: AppContext, id: number): Promise<ProductRecord> {
  const [row] = await products.rows(ctx.db, eq(product.id, id));
  if (!row) throw new AppError('NOT_FOUND', '产品不存在');
  return row;
}

/** The product row, locked for the rest of the transaction (slot assignment, model edits). */
export async function lockProduct(tx: DbOrTx, id: number) {
  const [row] = await tx.select().from(product).where(eq(product.id, id)).for('update');
  if (!row) throw new AppError('NOT_FOUND', '产品不存在');
  return row;
}

export async function deviceCountOf(db: DbOrTx, productId: number): Promise<number> {
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(device).where(eq(device.productId, productId));
  return n;
}

async function assertCodeFree(db: DbOrTx, code: string, exceptId?: number) {
  const [row] = await db.select({ id: product.id }).from(product).where(ilike(product.code, code));
  if (row && row.id !== exceptId) throw new AppError('DUPLICATE', `code: 产品编码 ${code} 已存在`);
}

/** Unique violations that slip past the checks (a concurrent add) become DUPLICATE, not 500. */
export async function uniqueOr<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw new AppError('DUPLICATE', `${what}已存在`);
    throw err;
  }
}

export async function addProduct(ctx: AppContext, b: ProductAdd): Promise<{ id: number }> {
  await assertCodeFree(ctx.db, b.code);
  const [row] = await uniqueOr('产品编码', () =>
    ctx.db.insert(product).values({ code: b.code, name: b.name, type: b.type, description: b.description }).returning({ id: product.id }),
  );
  return { id: row!.id };
}

export async function editProduct(ctx: AppContext, b: ProductEdit): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const cur = await lockProduct(tx, b.id);
    await assertCodeFree(tx, b.code, b.id);
    if (cur.type !== b.type && (await deviceCountOf(tx, b.id)) > 0) {
      throw new AppError('RULE_VIOLATION', 'type: 产品下已有设备，不能修改设备类型');
    }
    await uniqueOr('产品编码', () =>
      tx.update(product).set({ code: b.code, name: b.name, type: b.type, description: b.description, updatedAt: new Date() }).where(eq(product.id, b.id)),
    );
  });
}

/** Refused while devices use the product or templates select from it; its model goes with it. */
export async function deleteProduct(ctx: AppContext, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await lockProduct(tx, id);
    const devices = await deviceCountOf(tx, id);
    if (devices > 0) throw new AppError('RULE_VIOLATION', `产品下有 ${devices} 台设备，不能删除`);
    const templates = await tx.select({ name: productTemplate.name }).from(productTemplate).where(eq(productTemplate.productId, id)).limit(3);
    if (templates.length) throw new AppError('RULE_VIOLATION', `产品被产品模板使用（${templates.map((t) => t.name).join('、')}），不能删除`);
    await tx.delete(product).where(eq(product.id, id));
  });
  await refreshIngest(ctx);
}

/** Makes the ingest of this instance see model changes at once (other instances reload within 30 s). */
export async function refreshIngest(ctx: AppContext): Promise<void> {
  await ingestOf(ctx)?.registry.refresh();
}
