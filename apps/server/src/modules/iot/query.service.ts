import { and, asc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  IOT_ERRORS, type IotDataType, type IotDeviceRecord, type IotDeviceState, type iotDeviceBind, type iotDeviceFilter, type iotDevicePage, type iotItemFilter, type iotItemPage,
  type iotParamFilter, type IotParamRecord, type iotProductFilter, type iotProductPage, type IotProductRecord,
} from '@ess/contract/iot';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { device } from '../../db/schema/device.ts';
import { iotCommand, iotConfig, iotDevice, iotEvent, iotParam, iotProduct, iotProperty } from '../../db/schema/iot.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { inCompanyScope, inSiteScope, likeEscaped } from '../../platform/http/scope.ts';

/**
 * What the syncs read, as the catalogue's query calls (products, properties, events, commands,
 * parameters, devices), each limited to the caller's companies; and the binding of a platform
 * device to a console device (a station the caller may see, of the application's company tree).
 */
const LIST_CAP = 2000;
const n = (q: SQL) => sql<number>`(${q})`.mapWith(Number);
const iso = (d: Date) => d.toISOString();

/** The console product an iot product's relations map to (they all map to one). */
const relatedProduct = sql<number | null>`(select r.product_id from (
  select product_id, iot_product_id from iot_relate_property union all select product_id, iot_product_id from iot_relate_event
  union all select product_id, iot_product_id from iot_relate_command) r where r.iot_product_id = "iot_product"."id" limit 1)`;

const products = defineListQuery({
  table: iotProduct,
  columns: {
    id: iotProduct.id, configId: iotProduct.configId, configName: iotConfig.name, companyId: iotProduct.companyId, externalId: iotProduct.externalId, name: iotProduct.name,
    description: iotProduct.description, syncedAt: iotProduct.syncedAt,
    propertyCount: n(sql`select count(*) from iot_property x where x.iot_product_id = "iot_product"."id"`),
    eventCount: n(sql`select count(*) from iot_event x where x.iot_product_id = "iot_product"."id"`),
    commandCount: n(sql`select count(*) from iot_command x where x.iot_product_id = "iot_product"."id"`),
    deviceCount: n(sql`select count(*) from iot_device x where x.iot_product_id = "iot_product"."id"`),
    productId: relatedProduct,
    productName: sql<string | null>`(select p.name from product p where p.id = ${relatedProduct})`,
  },
  joins: [{ table: iotConfig, on: eq(iotConfig.id, iotProduct.configId) }],
  scope: (db, user) => inCompanyScope(iotProduct.companyId, db, user),
  filter: (f: z.output<typeof iotProductFilter>) => [f.configId ? eq(iotProduct.configId, f.configId) : undefined, f.name ? likeEscaped(iotProduct.name, f.name) : undefined],
  orderBy: [asc(iotProduct.configId), asc(iotProduct.name), asc(iotProduct.id)],
  sortable: { name: iotProduct.name, syncedAt: iotProduct.syncedAt },
  toRecord: (r): IotProductRecord => ({ ...r, productId: r.productId === null ? null : Number(r.productId), syncedAt: iso(r.syncedAt) }),
});
export const productPage = (ctx: AppContext, user: AuthUser, req: z.output<typeof iotProductPage>) => products.page(ctx.db, user, req);
export const productList = (ctx: AppContext, user: AuthUser, f: z.output<typeof iotProductFilter>) => products.list(ctx.db, user, f, LIST_CAP);
export async function productOne(ctx: AppContext, user: AuthUser, id: number) {
  const [r] = await products.rows(ctx.db, and(eq(iotProduct.id, id), inCompanyScope(iotProduct.companyId, ctx.db, user)), 1);
  return found(r, IOT_ERRORS.productNotFound);
}

/** Properties, events and commands: one list query each over the same shape (an item of a platform product). */
type ItemTable = typeof iotProperty | typeof iotEvent | typeof iotCommand;
function itemQuery<T extends ItemTable, X extends SelectedFields>(table: T, relation: string, extra: (t: T) => X) {
  const t = table as typeof iotProperty;
  const idCol = relation === 'iot_relate_property' ? 'iot_property_id' : relation === 'iot_relate_event' ? 'iot_event_id' : 'iot_command_id';
  const self = relation.replace('iot_relate_', 'iot_');
  return defineListQuery({
    table,
    columns: {
      id: t.id, configId: t.configId, configName: iotConfig.name, companyId: t.companyId, iotProductId: t.iotProductId, iotProductName: iotProduct.name,
      identifier: t.identifier, name: t.name,
      relatedIdentifier: sql<string | null>`(select r.identifier from ${sql.raw(relation)} r where r.${sql.raw(idCol)} = ${sql.raw(`"${self}"."id"`)} and r.iot_device_id is null limit 1)`,
      ...extra(table),
    },
    joins: [
      { table: iotConfig, on: eq(iotConfig.id, t.configId) },
      { table: iotProduct, on: eq(iotProduct.id, t.iotProductId) },
    ],
    scope: (db, user) => inCompanyScope(t.companyId, db, user),
    filter: (f: z.output<typeof iotItemFilter>) => [
      f.configId ? eq(t.configId, f.configId) : undefined,
      f.iotProductId ? eq(t.iotProductId, f.iotProductId) : undefined,
      f.keyword ? or(likeEscaped(t.identifier, f.keyword), likeEscaped(t.name, f.keyword)) : undefined,
    ],
    orderBy: [asc(t.iotProductId), asc(t.identifier), asc(t.id)],
  });
}
const properties = itemQuery(iotProperty, 'iot_relate_property', (t) => ({ dataType: sql<IotDataType>`${t.dataType}`, unit: t.unit, source: t.source }));
const events = itemQuery(iotEvent, 'iot_relate_event', (t) => ({ level: t.level }));
const commands = itemQuery(iotCommand, 'iot_relate_command', (t) => ({ async: t.async }));
const queries = { property: properties, event: events, command: commands };
const notFound = { property: IOT_ERRORS.propertyNotFound, event: IOT_ERRORS.eventNotFound, command: IOT_ERRORS.commandNotFound };
const tables = { property: iotProperty, event: iotEvent, command: iotCommand } as const;

export function itemList<K extends keyof typeof queries>(kind: K, ctx: AppContext, user: AuthUser, f: z.output<typeof iotItemFilter>) {
  return queries[kind].list(ctx.db, user, f, LIST_CAP) as ReturnType<(typeof queries)[K]['list']>;
}
export function itemPage<K extends keyof typeof queries>(kind: K, ctx: AppContext, user: AuthUser, req: z.output<typeof iotItemPage>) {
  return queries[kind].page(ctx.db, user, req) as ReturnType<(typeof queries)[K]['page']>;
}
export async function itemOne<K extends 'event' | 'command'>(kind: K, ctx: AppContext, user: AuthUser, id: number) {
  const t = tables[kind] as typeof iotEvent;
  const [r] = await (queries[kind] as typeof events).rows(ctx.db, and(eq(t.id, id), inCompanyScope(t.companyId, ctx.db, user)), 1);
  return found(r, notFound[kind]) as Awaited<ReturnType<(typeof queries)[K]['rows']>>[number];
}

export async function paramList(ctx: AppContext, user: AuthUser, f: z.output<typeof iotParamFilter>): Promise<IotParamRecord[]> {
  const rows = await ctx.db
    .select({
      id: iotParam.id, configId: iotParam.configId, configName: iotConfig.name, companyId: iotParam.companyId, ownerKind: iotParam.ownerKind, commandId: iotParam.commandId,
      eventId: iotParam.eventId, direction: iotParam.direction, identifier: iotParam.identifier, name: iotParam.name, dataType: iotParam.dataType, unit: iotParam.unit,
    })
    .from(iotParam)
    .innerJoin(iotConfig, eq(iotConfig.id, iotParam.configId))
    .where(and(
      inCompanyScope(iotParam.companyId, ctx.db, user),
      f.commandId ? eq(iotParam.commandId, f.commandId) : undefined,
      f.eventId ? eq(iotParam.eventId, f.eventId) : undefined,
      f.direction ? eq(iotParam.direction, f.direction) : undefined,
    ))
    .orderBy(asc(iotParam.direction), asc(iotParam.identifier), asc(iotParam.id))
    .limit(LIST_CAP);
  return rows.map(({ commandId, eventId, ...r }) => ({
    ...r,
    ownerKind: r.ownerKind as IotParamRecord['ownerKind'],
    ownerId: (commandId ?? eventId)!,
    direction: r.direction as IotParamRecord['direction'],
    dataType: r.dataType as IotDataType,
  }));
}

const devices = defineListQuery({
  table: iotDevice,
  columns: {
    id: iotDevice.id, configId: iotDevice.configId, configName: iotConfig.name, companyId: iotDevice.companyId, iotProductId: iotDevice.iotProductId, iotProductName: iotProduct.name,
    externalId: iotDevice.externalId, name: iotDevice.name, state: iotDevice.state, deviceId: iotDevice.deviceId, deviceCode: device.code, siteName: site.name, syncedAt: iotDevice.syncedAt,
  },
  joins: [
    { table: iotConfig, on: eq(iotConfig.id, iotDevice.configId) },
    { table: iotProduct, on: eq(iotProduct.id, iotDevice.iotProductId) },
    { table: device, on: eq(device.id, iotDevice.deviceId), left: true },
    { table: site, on: eq(site.id, device.siteId), left: true },
  ],
  scope: (db, user) => inCompanyScope(iotDevice.companyId, db, user),
  filter: (f: z.output<typeof iotDeviceFilter>) => [
    f.configId ? eq(iotDevice.configId, f.configId) : undefined,
    f.iotProductId ? eq(iotDevice.iotProductId, f.iotProductId) : undefined,
    f.name ? or(likeEscaped(iotDevice.name, f.name), likeEscaped(iotDevice.externalId, f.name)) : undefined,
    f.state ? eq(iotDevice.state, f.state) : undefined,
  ],
  orderBy: [asc(iotDevice.configId), asc(iotDevice.name), asc(iotDevice.id)],
  sortable: { name: iotDevice.name, state: iotDevice.state, syncedAt: iotDevice.syncedAt },
  toRecord: (r): IotDeviceRecord => ({ ...r, state: r.state as IotDeviceState, syncedAt: iso(r.syncedAt) }),
});
export const devicePage = (ctx: AppContext, user: AuthUser, req: z.output<typeof iotDevicePage>) => devices.page(ctx.db, user, req);
export async function deviceOne(ctx: AppContext, user: AuthUser, id: number) {
  const [r] = await devices.rows(ctx.db, and(eq(iotDevice.id, id), inCompanyScope(iotDevice.companyId, ctx.db, user)), 1);
  return found(r, IOT_ERRORS.deviceNotFound);
}

/**
 * Binds a platform device to a console device (or unbinds it: null): the console device must lie
 * in a station the caller may see and belong to the application's company tree.
 */
export async function deviceBind(ctx: AppContext, user: AuthUser, b: z.output<typeof iotDeviceBind>): Promise<boolean> {
  const d = await deviceOne(ctx, user, b.id);
  if (b.deviceId !== null) {
    const [target] = await ctx.db
      .select({ id: device.id })
      .from(device)
      .innerJoin(site, eq(site.id, device.siteId))
      .where(and(eq(device.id, b.deviceId), inSiteScope(device.siteId, ctx.db, user)));
    if (!target) throw new AppError('OUT_OF_SCOPE', '设备不存在或所在站点无权访问');
    const [owner] = await ctx.db
      .select({ ok: sql<boolean>`(select c.path from company c where c.id = ${site.companyId}) like (select c.path from company c where c.id = ${d.companyId}) || '%'` })
      .from(device)
      .innerJoin(site, eq(site.id, device.siteId))
      .where(eq(device.id, b.deviceId));
    if (!owner?.ok) throw new AppError('RULE_VIOLATION', '设备所在站点不属于该物联网应用的公司');
  }
  await ctx.db.update(iotDevice).set({ deviceId: b.deviceId }).where(eq(iotDevice.id, d.id));
  return true;
}
