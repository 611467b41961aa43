import { and, asc, eq, or, type SQL } from 'drizzle-orm';
import type { ParamRecord, ParamSortField } from '@ess/contract';
import { product, productProperty } from '../../db/schema/device.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { sortedBy, type SortRequest } from '../../platform/http/paging.ts';
import { likeEscaped } from '../../platform/http/scope.ts';
import { latestOne } from '../device/index.ts';

/**
 * Parameters: the settable values of a product's devices — the writable properties of its
 * thing model (set points, limits, switches), with their ranges. Given a device (of the caller's
 * stations), its product's parameters come with the device's current values.
 */
const sortable = {
  productName: product.name, productType: product.type, identifier: productProperty.identifier, name: productProperty.name,
  dataType: productProperty.dataType, unit: productProperty.unit,
} satisfies Record<ParamSortField, unknown>;

export async function paramList(
  ctx: AppContext,
  user: AuthUser,
  f: { productId?: number; deviceId?: number; keyword?: string } & SortRequest,
): Promise<ParamRecord[]> {
  let values: Record<string, number | string | boolean> | null = null;
  let productId = f.productId;
  if (f.deviceId) {
    const latest = await latestOne(ctx, user, { deviceId: f.deviceId });
    if (productId && productId !== latest.productId) throw new AppError('INVALID_PARAM', 'productId: 与设备的产品不一致');
    productId = latest.productId;
    values = latest.values;
  }
  const where: SQL | undefined = and(
    eq(productProperty.writable, true),
    productId ? eq(productProperty.productId, productId) : undefined,
    f.keyword ? or(likeEscaped(productProperty.identifier, f.keyword), likeEscaped(productProperty.name, f.keyword)) : undefined,
  );
  const rows = await ctx.db
    .select({
      id: productProperty.id,
      productId: product.id,
      productCode: product.code,
      productName: product.name,
      productType: product.type,
      identifier: productProperty.identifier,
      name: productProperty.name,
      dataType: productProperty.dataType,
      unit: productProperty.unit,
      min: productProperty.min,
      max: productProperty.max,
      enumValues: productProperty.enumValues,
    })
    .from(productProperty)
    .innerJoin(product, eq(product.id, productProperty.productId))
    .where(where)
    .orderBy(...sortedBy(f, sortable, [asc(product.id), asc(productProperty.sort), asc(productProperty.id)]))
    .limit(5000);
  return rows.map((r) => ({
    ...r,
    enumValues: r.enumValues?.map((e) => ({ value: e.value, label: e.label })) ?? null,
    ...(values ? { value: values[r.identifier] ?? null } : {}),
  }));
}
