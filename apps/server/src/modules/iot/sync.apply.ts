import { and, eq, inArray, like, notInArray, sql } from 'drizzle-orm';
import { IOT_ERRORS } from '@ess/contract/iot';
import { device } from '../../db/schema/device.ts';
import { iotCommand, iotDevice, iotEvent, iotParam, iotProduct, iotProperty } from '../../db/schema/iot.ts';
import { site } from '../../db/schema/site.ts';
import { company } from '../../db/schema/system.ts';
import type { Tx } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { PlatformParam } from './adapters/index.ts';
import type { Snapshot, SyncScope } from './sync.plan.ts';

/**
 * Makes the stored rows of a sync's scope what the snapshot says, row by row: a row whose
 * fields are the same is not written, a new one is inserted, a changed one updated in place
 * (its id, and so its relations, kept), one the platform no longer has deleted (with its
 * relations). Runs in the approval's transaction.
 */
interface Owned {
  companyId: number;
  configId: number;
}

/** Rows keyed by identifier: update the changed, insert the new, delete the missing; returns the ids by key. */
async function reconcile<R extends { id: number; identifier: string }, D extends { identifier: string }>(o: {
  existing: R[];
  desired: D[];
  same: (r: R, d: D) => boolean;
  insert: (d: D) => Promise<number>;
  update: (id: number, d: D) => Promise<void>;
  remove: (ids: number[]) => Promise<void>;
}): Promise<Map<string, number>> {
  const byKey = new Map(o.existing.map((r) => [r.identifier, r]));
  const ids = new Map<string, number>();
  for (const d of o.desired) {
    const r = byKey.get(d.identifier);
    if (!r) ids.set(d.identifier, await o.insert(d));
    else {
      if (!o.same(r, d)) await o.update(r.id, d);
      ids.set(d.identifier, r.id);
    }
  }
  const gone = o.existing.filter((r) => !o.desired.some((d) => d.identifier === r.identifier)).map((r) => r.id);
  if (gone.length) await o.remove(gone);
  return ids;
}

const sameParam = (r: { name: string; dataType: string; unit: string | null }, d: PlatformParam) => r.name === d.name && r.dataType === d.dataType && r.unit === d.unit;

async function applyParams(tx: Tx, own: Owned & { iotProductId: number }, owner: { kind: 'command' | 'event'; id: number }, direction: 'input' | 'output', desired: PlatformParam[]) {
  const ownerCol = owner.kind === 'command' ? iotParam.commandId : iotParam.eventId;
  const where = and(eq(iotParam.ownerKind, owner.kind), eq(ownerCol, owner.id), eq(iotParam.direction, direction));
  await reconcile({
    existing: await tx.select().from(iotParam).where(where),
    desired,
    same: sameParam,
    insert: async (d) => {
      const [r] = await tx
        .insert(iotParam)
        .values({ ...own, ownerKind: owner.kind, [owner.kind === 'command' ? 'commandId' : 'eventId']: owner.id, direction, identifier: d.identifier, name: d.name, dataType: d.dataType, unit: d.unit })
        .returning({ id: iotParam.id });
      return r!.id;
    },
    update: async (id, d) => void (await tx.update(iotParam).set({ name: d.name, dataType: d.dataType, unit: d.unit }).where(eq(iotParam.id, id))),
    remove: async (ids) => void (await tx.delete(iotParam).where(inArray(iotParam.id, ids))),
  });
}

async function applyProducts(tx: Tx, own: Owned, s: Snapshot, scope: SyncScope, now: Date) {
  for (const p of s.products) {
    const [row] = await tx
      .insert(iotProduct)
      .values({ ...own, externalId: p.externalId, name: p.name, description: p.description, syncedAt: now })
      .onConflictDoUpdate({ target: [iotProduct.configId, iotProduct.externalId], set: { name: p.name, description: p.description, syncedAt: now } })
      .returning({ id: iotProduct.id });
    const item = { ...own, iotProductId: row!.id };
    await reconcile({
      existing: await tx.select().from(iotProperty).where(eq(iotProperty.iotProductId, item.iotProductId)),
      desired: p.properties,
      same: (r, d) => sameParam(r, d) && r.source === d.source,
      insert: async (d) => (await tx.insert(iotProperty).values({ ...item, ...d }).returning({ id: iotProperty.id }))[0]!.id,
      update: async (id, d) => void (await tx.update(iotProperty).set({ name: d.name, dataType: d.dataType, unit: d.unit, source: d.source }).where(eq(iotProperty.id, id))),
      remove: async (ids) => void (await tx.delete(iotProperty).where(inArray(iotProperty.id, ids))),
    });
    const events = await reconcile({
      existing: await tx.select().from(iotEvent).where(eq(iotEvent.iotProductId, item.iotProductId)),
      desired: p.events,
      same: (r, d) => r.name === d.name && r.level === d.level,
      insert: async (d) => (await tx.insert(iotEvent).values({ ...item, identifier: d.identifier, name: d.name, level: d.level }).returning({ id: iotEvent.id }))[0]!.id,
      update: async (id, d) => void (await tx.update(iotEvent).set({ name: d.name, level: d.level }).where(eq(iotEvent.id, id))),
      remove: async (ids) => void (await tx.delete(iotEvent).where(inArray(iotEvent.id, ids))),
    });
    for (const e of p.events) await applyParams(tx, item, { kind: 'event', id: events.get(e.identifier)! }, 'output', e.fields);
    const commands = await reconcile({
      existing: await tx.select().from(iotCommand).where(eq(iotCommand.iotProductId, item.iotProductId)),
      desired: p.commands,
      same: (r, d) => r.name === d.name && r.async === d.async,
      insert: async (d) => (await tx.insert(iotCommand).values({ ...item, identifier: d.identifier, name: d.name, async: d.async }).returning({ id: iotCommand.id }))[0]!.id,
      update: async (id, d) => void (await tx.update(iotCommand).set({ name: d.name, async: d.async }).where(eq(iotCommand.id, id))),
      remove: async (ids) => void (await tx.delete(iotCommand).where(inArray(iotCommand.id, ids))),
    });
    for (const c of p.commands) {
      const owner = { kind: 'command' as const, id: commands.get(c.identifier)! };
      await applyParams(tx, item, owner, 'input', c.inputs);
      await applyParams(tx, item, owner, 'output', c.outputs);
    }
  }
  // Products the platform no longer has (their items, devices and relations go with them).
  const kept = s.products.map((p) => p.externalId);
  if (scope.scope === 'full') {
    await tx.delete(iotProduct).where(and(eq(iotProduct.configId, own.configId), kept.length ? notInArray(iotProduct.externalId, kept) : undefined));
  } else if (scope.scope === 'product' && kept.length === 0) {
    await tx.delete(iotProduct).where(and(eq(iotProduct.configId, own.configId), eq(iotProduct.externalId, scope.target!)));
  }
}

/** The console device a new platform device feeds: one of the application's companies whose code is the platform device's name or id. */
async function consoleDeviceFor(tx: Tx, companyId: number, names: string[]): Promise<number | null> {
  const [row] = await tx
    .select({ id: device.id })
    .from(device)
    .innerJoin(site, eq(site.id, device.siteId))
    .innerJoin(company, eq(company.id, site.companyId))
    .where(and(inArray(device.code, names), like(company.path, sql`(select c.path from company c where c.id = ${companyId}) || '%'`)))
    .limit(1);
  return row?.id ?? null;
}

async function applyDevices(tx: Tx, own: Owned, s: Snapshot, scope: SyncScope, now: Date) {
  const products = await tx.select({ id: iotProduct.id, externalId: iotProduct.externalId }).from(iotProduct).where(eq(iotProduct.configId, own.configId));
  const productOf = new Map(products.map((p) => [p.externalId, p.id]));
  for (const d of s.devices) {
    const iotProductId = productOf.get(d.productExternalId);
    if (!iotProductId) throw new AppError('RULE_VIOLATION', `${IOT_ERRORS.productNotFound}：${d.productExternalId}（请先同步产品）`);
    const [old] = await tx.select({ id: iotDevice.id }).from(iotDevice).where(and(eq(iotDevice.configId, own.configId), eq(iotDevice.externalId, d.externalId)));
    if (old) await tx.update(iotDevice).set({ iotProductId, name: d.name, state: d.state, syncedAt: now }).where(eq(iotDevice.id, old.id));
    else {
      const deviceId = await consoleDeviceFor(tx, own.companyId, [d.name, d.externalId]);
      await tx.insert(iotDevice).values({ ...own, iotProductId, externalId: d.externalId, name: d.name, state: d.state, deviceId, syncedAt: now });
    }
  }
  const kept = s.devices.map((d) => d.externalId);
  if (scope.scope === 'full') {
    await tx.delete(iotDevice).where(and(eq(iotDevice.configId, own.configId), kept.length ? notInArray(iotDevice.externalId, kept) : undefined));
  } else if (scope.scope === 'device' && kept.length === 0) {
    await tx.delete(iotDevice).where(and(eq(iotDevice.configId, own.configId), eq(iotDevice.externalId, scope.target!)));
  }
}

export async function applySnapshot(tx: Tx, own: Owned, s: Snapshot, scope: SyncScope): Promise<void> {
  const now = new Date();
  if (scope.scope !== 'device') await applyProducts(tx, own, s, scope, now);
  if (scope.scope !== 'product') await applyDevices(tx, own, s, scope, now);
}
