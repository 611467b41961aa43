import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { IOT_ERRORS, type IotUnmappedRecord, type iotUnmappedPage, type iotUnmappedRelate } from '@ess/contract/iot';
import { iotConfig, iotProduct, iotProperty, iotUnmapped } from '../../../db/schema/iot.ts';
import type { AppContext } from '../../../platform/context.ts';
import type { AuthUser } from '../../../platform/http/auth.ts';
import { found } from '../../../platform/http/errors.ts';
import { defineListQuery } from '../../../platform/http/paging.ts';
import { inCompanyScope, likeEscaped } from '../../../platform/http/scope.ts';
import { relateAdd } from '../relate.service.ts';

/**
 * The unmapped keys inbox (decision 0051): telemetry keys a platform sent for bound devices that
 * no relation maps. Listed (a key an active relation of its product maps by now is left out),
 * related in one step (a property relation of the platform product, the platform property made
 * when no sync has read the key yet), or dismissed.
 */
const mappedNow = sql`exists (select 1 from iot_relate_property r join iot_property p on p.id = r.iot_property_id
  where r.iot_product_id = ${iotUnmapped.iotProductId} and r.iot_device_id is null and r.active and p.identifier = ${iotUnmapped.key})`;

const inbox = defineListQuery({
  table: iotUnmapped,
  columns: {
    id: iotUnmapped.id, configId: iotUnmapped.configId, configName: iotConfig.name, companyId: iotUnmapped.companyId, iotProductId: iotUnmapped.iotProductId,
    iotProductName: iotProduct.name, key: iotUnmapped.key, samples: iotUnmapped.samples, devices: iotUnmapped.devices, count: iotUnmapped.count,
    firstSeenAt: iotUnmapped.firstSeenAt, lastSeenAt: iotUnmapped.lastSeenAt, dismissed: iotUnmapped.dismissed,
  },
  joins: [
    { table: iotConfig, on: eq(iotConfig.id, iotUnmapped.configId) },
    { table: iotProduct, on: eq(iotProduct.id, iotUnmapped.iotProductId) },
  ],
  scope: (db, user) => inCompanyScope(iotUnmapped.companyId, db, user),
  filter: (f: z.output<typeof iotUnmappedPage>) => [
    f.configId ? eq(iotUnmapped.configId, f.configId) : undefined,
    f.iotProductId ? eq(iotUnmapped.iotProductId, f.iotProductId) : undefined,
    f.key ? likeEscaped(iotUnmapped.key, f.key) : undefined,
    eq(iotUnmapped.dismissed, f.dismissed === true),
    sql`not ${mappedNow}`,
  ],
  orderBy: [asc(iotUnmapped.configId), asc(iotUnmapped.key), asc(iotUnmapped.id)],
  sortable: { key: iotUnmapped.key, count: iotUnmapped.count, lastSeenAt: iotUnmapped.lastSeenAt },
  toRecord: (r): IotUnmappedRecord => ({ ...r, firstSeenAt: r.firstSeenAt.toISOString(), lastSeenAt: r.lastSeenAt.toISOString() }),
});

export const unmappedPage = (ctx: AppContext, user: AuthUser, req: z.output<typeof iotUnmappedPage>) => inbox.page(ctx.db, user, req);

async function unmappedOne(ctx: AppContext, user: AuthUser, id: number) {
  const [r] = await ctx.db.select().from(iotUnmapped).where(and(eq(iotUnmapped.id, id), inCompanyScope(iotUnmapped.companyId, ctx.db, user)));
  return found(r, IOT_ERRORS.unmappedNotFound);
}

/**
 * Relates the key to a console product's property (a relation of the platform product, as the
 * property relation call makes it, with its checks). A platform property the syncs have not read
 * is made first, and removed again when the relation is refused: nothing is left half done.
 */
export async function unmappedRelate(ctx: AppContext, user: AuthUser, b: z.output<typeof iotUnmappedRelate>): Promise<{ id: number }> {
  const u = await unmappedOne(ctx, user, b.id);
  let [prop] = await ctx.db.select({ id: iotProperty.id }).from(iotProperty).where(and(eq(iotProperty.iotProductId, u.iotProductId), eq(iotProperty.identifier, u.key)));
  let made = false;
  if (!prop) {
    [prop] = await ctx.db
      .insert(iotProperty)
      .values({ companyId: u.companyId, configId: u.configId, iotProductId: u.iotProductId, identifier: u.key, name: u.key, dataType: 'unknown', source: 'timeseries' })
      .onConflictDoNothing()
      .returning({ id: iotProperty.id });
    made = !!prop;
    prop ??= (await ctx.db.select({ id: iotProperty.id }).from(iotProperty).where(and(eq(iotProperty.iotProductId, u.iotProductId), eq(iotProperty.identifier, u.key))))[0];
  }
  try {
    const r = await relateAdd('property', ctx, user, {
      iotProductId: u.iotProductId, iotDeviceId: null, productId: b.productId, active: true, remark: b.remark, iotPropertyId: prop!.id, identifier: b.identifier,
      scale: b.scale, offset: b.offset, valueMap: b.valueMap,
    });
    await ctx.db.delete(iotUnmapped).where(eq(iotUnmapped.id, u.id));
    return r;
  } catch (err) {
    if (made) await ctx.db.delete(iotProperty).where(eq(iotProperty.id, prop!.id));
    throw err;
  }
}

/** Hides the key from the inbox (it is still counted; the dismissed filter lists it). */
export async function unmappedDismiss(ctx: AppContext, user: AuthUser, id: number): Promise<boolean> {
  const u = await unmappedOne(ctx, user, id);
  await ctx.db.update(iotUnmapped).set({ dismissed: true }).where(eq(iotUnmapped.id, u.id));
  return true;
}
