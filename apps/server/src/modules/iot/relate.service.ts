import { and, asc, eq, isNull, ne, not, sql } from 'drizzle-orm';
import { alias, type SelectedFields } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import {
  IOT_ERRORS, type IotValueMap, type iotRelateCommandAdd, type iotRelateEventAdd, type iotRelateFilter, type iotRelatePage, type iotRelatePropertyAdd,
} from '@ess/contract/iot';
import { device, product, productCommand, productEvent, productProperty } from '../../db/schema/device.ts';
import { iotCommand, iotDevice, iotEvent, iotProduct, iotProperty, iotRelateCommand, iotRelateEvent, iotRelateProperty } from '../../db/schema/iot.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { uniquely } from './unique.ts';
import { inCompanyScope } from '../../platform/http/scope.ts';

/**
 * Relations (decision 0048): a platform property, event or command of a platform product mapped
 * to the console thing model's property, event or command (by identifier) of one console
 * product. A relation of the product (no device) applies to every device of it; a device's own
 * relation overrides it. At each level a platform item relates once and a thing-model item is
 * related from one platform item (unique). All relations of a platform product map to the same
 * console product. `active` switches one off and on without losing it.
 */
export type RelationKind = 'property' | 'event' | 'command';
type PropertyBody = z.output<typeof iotRelatePropertyAdd>;
type EventBody = z.output<typeof iotRelateEventAdd>;
type CommandBody = z.output<typeof iotRelateCommandAdd>;
type AnyBody = (PropertyBody | EventBody | CommandBody) & { id?: number };


const KINDS = {
  property: {
    table: iotRelateProperty, item: iotProperty, itemColumn: iotRelateProperty.iotPropertyId, itemField: 'iotPropertyId', target: productProperty,
    notFound: IOT_ERRORS.propertyNotFound, unknown: IOT_ERRORS.unknownProperty,
  },
  event: {
    table: iotRelateEvent, item: iotEvent, itemColumn: iotRelateEvent.iotEventId, itemField: 'iotEventId', target: productEvent,
    notFound: IOT_ERRORS.eventNotFound, unknown: IOT_ERRORS.unknownEvent,
  },
  command: {
    table: iotRelateCommand, item: iotCommand, itemColumn: iotRelateCommand.iotCommandId, itemField: 'iotCommandId', target: productCommand,
    notFound: IOT_ERRORS.commandNotFound, unknown: IOT_ERRORS.unknownCommand,
  },
} as const;

const itemOf = (kind: RelationKind, b: AnyBody): number => (b as unknown as Record<string, number>)[KINDS[kind].itemField]!;

function listQuery(kind: RelationKind) {
  const k = KINDS[kind];
  const t = k.table as unknown as typeof iotRelateCommand;
  const item = alias(k.item as unknown as typeof iotCommand, 'related_item');
  const extra: SelectedFields =
    kind === 'command'
      ? { paramCount: sql<number>`(select count(*) from iot_relate_param p where p.relate_command_id = "iot_relate_command"."id")`.mapWith(Number) }
      : { valueMap: (k.table as typeof iotRelateEvent).valueMap };
  const scaled: SelectedFields = kind === 'property' ? { scale: iotRelateProperty.scale, offset: iotRelateProperty.offset } : {};
  const columns: SelectedFields = {
    id: t.id, configId: t.configId, companyId: t.companyId, iotProductId: t.iotProductId, iotProductName: iotProduct.name, iotDeviceId: t.iotDeviceId, iotDeviceName: iotDevice.name,
      productId: t.productId, productName: product.name, identifier: t.identifier, active: t.active, remark: t.remark, createdAt: t.createdAt, updatedAt: t.updatedAt,
      itemId: k.itemColumn, itemIdentifier: item.identifier, ...extra, ...scaled,
  };
  return defineListQuery({
    table: k.table,
    columns,
    joins: [
      { table: iotProduct, on: eq(iotProduct.id, t.iotProductId) },
      { table: iotDevice, on: eq(iotDevice.id, t.iotDeviceId), left: true },
      { table: product, on: eq(product.id, t.productId) },
      { table: item, on: eq(item.id, k.itemColumn) },
    ],
    scope: (db, user) => inCompanyScope(t.companyId, db, user),
    filter: (f: z.output<typeof iotRelateFilter>) => [
      f.configId ? eq(t.configId, f.configId) : undefined,
      f.iotProductId ? eq(t.iotProductId, f.iotProductId) : undefined,
      f.iotDeviceId ? eq(t.iotDeviceId, f.iotDeviceId) : undefined,
      f.productLevel ? isNull(t.iotDeviceId) : undefined,
      f.active === undefined ? undefined : eq(t.active, f.active),
    ],
    orderBy: [asc(t.iotProductId), sql`${t.iotDeviceId} nulls first`, asc(t.identifier), asc(t.id)],
    toRecord: ({ itemId, itemIdentifier, ...r }) => {
      const key = kind === 'property' ? 'iotProperty' : kind === 'event' ? 'iotEvent' : 'iotCommand';
      return { ...r, [`${key}Id`]: itemId, [`${key}Identifier`]: itemIdentifier, createdAt: (r.createdAt as Date).toISOString(), updatedAt: (r.updatedAt as Date).toISOString() };
    },
  });
}
const queries = { property: listQuery('property'), event: listQuery('event'), command: listQuery('command') };

export const relatePage = (kind: RelationKind, ctx: AppContext, user: AuthUser, req: z.output<typeof iotRelatePage>) => queries[kind].page(ctx.db, user, req);

export async function relateOne(kind: RelationKind, ctx: AppContext, user: AuthUser, id: number) {
  const t = KINDS[kind].table as unknown as typeof iotRelateCommand;
  const [r] = await queries[kind].rows(ctx.db, and(eq(t.id, id), inCompanyScope(t.companyId, ctx.db, user)), 1);
  return found(r, IOT_ERRORS.relationNotFound);
}

async function storedRelation(db: DbOrTx, user: AuthUser, kind: RelationKind, id: number) {
  const t = KINDS[kind].table as unknown as typeof iotRelateCommand;
  const [r] = await db.select({ id: t.id, active: t.active }).from(t).where(and(eq(t.id, id), inCompanyScope(t.companyId, db, user)));
  return found(r, IOT_ERRORS.relationNotFound);
}

/** Every check of an add or edit; answers the row's values. */
async function checked(db: DbOrTx, user: AuthUser, kind: RelationKind, b: AnyBody) {
  const k = KINDS[kind];
  const [p] = await db.select().from(iotProduct).where(and(eq(iotProduct.id, b.iotProductId), inCompanyScope(iotProduct.companyId, db, user)));
  const iotP = found(p, IOT_ERRORS.productNotFound);
  const item = k.item as unknown as typeof iotCommand;
  const [it] = await db.select({ iotProductId: item.iotProductId }).from(item).where(and(eq(item.id, itemOf(kind, b)), inCompanyScope(item.companyId, db, user)));
  if (!it) throw new AppError('NOT_FOUND', k.notFound);
  if (it.iotProductId !== iotP.id) throw new AppError('RULE_VIOLATION', IOT_ERRORS.itemOfOtherProduct);
  if (b.iotDeviceId !== null) {
    const [d] = await db
      .select({ iotProductId: iotDevice.iotProductId, consoleProductId: device.productId })
      .from(iotDevice)
      .leftJoin(device, eq(device.id, iotDevice.deviceId))
      .where(and(eq(iotDevice.id, b.iotDeviceId), inCompanyScope(iotDevice.companyId, db, user)));
    if (!d) throw new AppError('NOT_FOUND', IOT_ERRORS.deviceNotFound);
    if (d.iotProductId !== iotP.id) throw new AppError('RULE_VIOLATION', IOT_ERRORS.deviceOfOtherProduct);
    // A device bound to a console device maps to that device's product.
    if (d.consoleProductId !== null && d.consoleProductId !== b.productId) throw new AppError('RULE_VIOLATION', IOT_ERRORS.deviceTypeMismatch);
  }
  const [cp] = await db.select({ id: product.id }).from(product).where(eq(product.id, b.productId));
  if (!cp) throw new AppError('NOT_FOUND', IOT_ERRORS.consoleProductNotFound);
  const target = k.target as unknown as typeof productProperty;
  const [tm] = await db
    .select({ id: target.id, ...(kind === 'property' ? { enumValues: productProperty.enumValues } : {}) })
    .from(target)
    .where(and(eq(target.productId, b.productId), eq(target.identifier, b.identifier)));
  if (!tm) throw new AppError('RULE_VIOLATION', k.unknown(b.identifier));
  if (kind === 'property') checkStatuses((b as PropertyBody).valueMap, (tm as { enumValues?: { value: number }[] | null }).enumValues);
  // One console product per platform product, over the three kinds of relation.
  const other = await db.execute<{ name: string }>(sql`select p.name from (
      select product_id from iot_relate_property where iot_product_id = ${iotP.id} union select product_id from iot_relate_event where iot_product_id = ${iotP.id}
      union select product_id from iot_relate_command where iot_product_id = ${iotP.id}) r join product p on p.id = r.product_id where r.product_id <> ${b.productId} limit 1`);
  if (other.rows[0]) throw new AppError('RULE_VIOLATION', IOT_ERRORS.otherConsoleProduct(other.rows[0].name));
  const t = k.table as unknown as typeof iotRelateCommand;
  const sameLevel = and(eq(t.iotProductId, iotP.id), b.iotDeviceId === null ? isNull(t.iotDeviceId) : eq(t.iotDeviceId, b.iotDeviceId), b.id ? ne(t.id, b.id) : undefined);
  const [dupItem] = await db.select({ id: t.id }).from(t).where(and(sameLevel, eq(k.itemColumn as typeof iotRelateCommand.iotCommandId, itemOf(kind, b))));
  if (dupItem) throw new AppError('DUPLICATE', IOT_ERRORS.relationExists);
  const [dupTarget] = await db.select({ id: t.id }).from(t).where(and(sameLevel, eq(t.identifier, b.identifier)));
  if (dupTarget) throw new AppError('DUPLICATE', IOT_ERRORS.targetTaken);
  return { companyId: iotP.companyId, configId: iotP.configId };
}

/** An enumeration property's mapped statuses must be values of its enumeration. */
function checkStatuses(map: IotValueMap, enumValues: { value: number }[] | null | undefined): void {
  if (!enumValues?.length) return;
  const bad = map.find((m) => !enumValues.some((e) => e.value === m.status));
  if (bad) throw new AppError('RULE_VIOLATION', `状态值 ${bad.status} 不是该属性的枚举值`);
}


const valuesOf = (b: AnyBody): Record<string, unknown> => {
  const { id: _id, ...rest } = b;
  return rest;
};

export async function relateAdd(kind: RelationKind, ctx: AppContext, user: AuthUser, b: AnyBody): Promise<{ id: number }> {
  const own = await checked(ctx.db, user, kind, b);
  const t = KINDS[kind].table as unknown as typeof iotRelateCommand;
  const [row] = await uniquely(() =>
    ctx.db.insert(t).values({ ...(valuesOf(b) as CommandBody), ...own, createdBy: user.id }).returning({ id: t.id }), IOT_ERRORS.relationExists);
  return { id: row!.id };
}

export async function relateEdit(kind: RelationKind, ctx: AppContext, user: AuthUser, b: AnyBody & { id: number }): Promise<boolean> {
  const r = await storedRelation(ctx.db, user, kind, b.id);
  const own = await checked(ctx.db, user, kind, b);
  const t = KINDS[kind].table as unknown as typeof iotRelateCommand;
  await uniquely(() => ctx.db.update(t).set({ ...(valuesOf(b) as CommandBody), ...own, updatedAt: new Date() }).where(eq(t.id, r.id)), IOT_ERRORS.relationExists);
  return true;
}

export async function relateDelete(kind: RelationKind, ctx: AppContext, user: AuthUser, id: number): Promise<boolean> {
  const r = await storedRelation(ctx.db, user, kind, id);
  const t = KINDS[kind].table as unknown as typeof iotRelateCommand;
  await ctx.db.delete(t).where(eq(t.id, r.id));
  return true;
}

/** Switches the relation on or off (it keeps its mapping either way). */
export async function relateActive(kind: RelationKind, ctx: AppContext, user: AuthUser, id: number): Promise<{ id: number; active: boolean }> {
  const r = await storedRelation(ctx.db, user, kind, id);
  const t = KINDS[kind].table as unknown as typeof iotRelateCommand;
  const [row] = await ctx.db.update(t).set({ active: not(t.active), updatedAt: new Date() }).where(eq(t.id, r.id)).returning({ active: t.active });
  return { id: r.id, active: row!.active };
}

