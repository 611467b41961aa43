import { createHash } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { IOT_ERRORS, type IotSyncDetail, type IotSyncRecord, type IotSyncState, type iotSyncPage } from '@ess/contract/iot';
import { iotConfig, iotDevice, iotProduct, iotSync } from '../../db/schema/iot.ts';
import { appUser } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { inCompanyScope } from '../../platform/http/scope.ts';
import { PlatformError } from './adapters/index.ts';
import { reasonOf, sessionOf, storedConfig, type StoredConfig } from './config.service.ts';
import { applySnapshot } from './sync.apply.ts';
import { countsOf, diff, storedSnapshot, type Snapshot, type SyncScope } from './sync.plan.ts';

/**
 * Sync (decision 0048): read the platform (full, one product, one device), compare with what is
 * stored, and record the run with its diff. An application that requires approval keeps the run
 * `planned` until an administrator approves it (applied in one transaction, refused when the
 * stored rows changed since: the diff of the stored snapshot is made again and must match) or
 * discards it; one that does not is applied at once. A run that finds nothing to change is
 * `unchanged` and writes nothing else; a platform that cannot be read leaves a `failed` run and
 * answers 406 with the reason.
 */
const creator = alias(appUser, 'sync_creator');
const approver = alias(appUser, 'sync_approver');

const syncs = defineListQuery({
  table: iotSync,
  columns: {
    id: iotSync.id, configId: iotSync.configId, configName: iotConfig.name, companyId: iotSync.companyId, scope: iotSync.scope, target: iotSync.target, state: iotSync.state,
    added: iotSync.added, changed: iotSync.changed, removed: iotSync.removed, error: iotSync.error, createdByName: creator.name, approvedByName: approver.name,
    createdAt: iotSync.createdAt, appliedAt: iotSync.appliedAt, items: iotSync.items,
  },
  joins: [
    { table: iotConfig, on: eq(iotConfig.id, iotSync.configId) },
    { table: creator, on: eq(creator.id, iotSync.createdBy), left: true },
    { table: approver, on: eq(approver.id, iotSync.approvedBy), left: true },
  ],
  scope: (db, user) => inCompanyScope(iotSync.companyId, db, user),
  filter: (f: z.output<typeof iotSyncPage>) => [f.configId ? eq(iotSync.configId, f.configId) : undefined, f.state ? eq(iotSync.state, f.state) : undefined],
  orderBy: [desc(iotSync.createdAt), desc(iotSync.id)],
  toRecord: (r): IotSyncDetail => ({
    ...r,
    scope: r.scope as IotSyncRecord['scope'],
    state: r.state as IotSyncState,
    createdAt: r.createdAt.toISOString(),
    appliedAt: r.appliedAt?.toISOString() ?? null,
  }),
});

export async function syncPage(ctx: AppContext, user: AuthUser, req: z.output<typeof iotSyncPage>) {
  const page = await syncs.page(ctx.db, user, req);
  return { ...page, records: page.records.map(({ items: _i, ...r }): IotSyncRecord => r) };
}

export async function syncOne(ctx: AppContext, user: AuthUser, id: number): Promise<IotSyncDetail> {
  const [r] = await syncs.rows(ctx.db, and(eq(iotSync.id, id), inCompanyScope(iotSync.companyId, ctx.db, user)), 1);
  return found(r, IOT_ERRORS.syncNotFound);
}

/** One sync planned at a time per application on this instance (the apply itself is serialised by the database). */
const planning = new Set<number>();

async function read(ctx: AppContext, c: StoredConfig, s: SyncScope): Promise<Snapshot> {
  const session = await sessionOf(ctx, c);
  if (s.scope === 'full') return { products: await session.products(), devices: await session.devices() };
  if (s.scope === 'product') {
    const p = await session.product(s.target!);
    return { products: p ? [p] : [], devices: [] };
  }
  const d = await session.device(s.target!);
  return { products: [], devices: d ? [d] : [] };
}

const hashOf = (items: unknown) => createHash('sha256').update(JSON.stringify(items)).digest('hex');

async function plan(ctx: AppContext, user: AuthUser, c: StoredConfig, s: SyncScope): Promise<IotSyncDetail> {
  if (planning.has(c.id)) throw new AppError('TASK_BUSY', IOT_ERRORS.syncBusy);
  planning.add(c.id);
  try {
    let snapshot: Snapshot;
    try {
      snapshot = await read(ctx, c, s);
    } catch (err) {
      const reason = err instanceof AppError ? err.tip : reasonOf(err);
      await ctx.db.insert(iotSync).values({ companyId: c.companyId, configId: c.id, scope: s.scope, target: s.target, state: 'failed', error: reason.slice(0, 500), createdBy: user.id });
      if (err instanceof AppError) throw err;
      throw new AppError('RULE_VIOLATION', err instanceof PlatformError && err.kind !== 'unreachable' && err.kind !== 'auth' ? IOT_ERRORS.readFailed(reason) : IOT_ERRORS.connectionFailed(reason));
    }
    const items = diff(await storedSnapshot(ctx.db, c.id, s), snapshot);
    const state: IotSyncState = items.length === 0 ? 'unchanged' : 'planned';
    const id = await ctx.db.transaction(async (tx) => {
      // A newer plan supersedes the application's older ones.
      if (state === 'planned') await tx.update(iotSync).set({ state: 'discarded' }).where(and(eq(iotSync.configId, c.id), eq(iotSync.state, 'planned')));
      const [row] = await tx
        .insert(iotSync)
        .values({ companyId: c.companyId, configId: c.id, scope: s.scope, target: s.target, state, items, snapshot, baseHash: hashOf(items), ...countsOf(items), createdBy: user.id })
        .returning({ id: iotSync.id });
      await tx.update(iotConfig).set({ lastSyncAt: new Date() }).where(eq(iotConfig.id, c.id));
      return row!.id;
    });
    if (state === 'planned' && !c.requireApproval) return await approve(ctx, user, id);
    return await syncOne(ctx, user, id);
  } finally {
    planning.delete(c.id);
  }
}

export async function syncFull(ctx: AppContext, user: AuthUser, configId: number) {
  const c = await storedConfig(ctx.db, user, configId);
  return plan(ctx, user, c, { scope: 'full', target: null });
}

export async function syncProduct(ctx: AppContext, user: AuthUser, productId: number) {
  const [p] = await ctx.db.select().from(iotProduct).where(and(eq(iotProduct.id, productId), inCompanyScope(iotProduct.companyId, ctx.db, user)));
  const product = found(p, IOT_ERRORS.productNotFound);
  return plan(ctx, user, await storedConfig(ctx.db, user, product.configId), { scope: 'product', target: product.externalId });
}

export async function syncDevice(ctx: AppContext, user: AuthUser, deviceId: number) {
  const [d] = await ctx.db.select().from(iotDevice).where(and(eq(iotDevice.id, deviceId), inCompanyScope(iotDevice.companyId, ctx.db, user)));
  const dev = found(d, IOT_ERRORS.deviceNotFound);
  return plan(ctx, user, await storedConfig(ctx.db, user, dev.configId), { scope: 'device', target: dev.externalId });
}

/** Applies a planned run: in one transaction, under the application's lock, only if its diff still holds. */
export async function approve(ctx: AppContext, user: AuthUser, id: number): Promise<IotSyncDetail> {
  const run = await syncOne(ctx, user, id);
  if (run.state !== 'planned') throw new AppError('RULE_VIOLATION', IOT_ERRORS.syncNotPlanned);
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${0x107_0000}, ${run.configId})`);
    const [row] = await tx.select().from(iotSync).where(eq(iotSync.id, id));
    if (!row || row.state !== 'planned') throw new AppError('RULE_VIOLATION', IOT_ERRORS.syncNotPlanned);
    const scope = { scope: row.scope as SyncScope['scope'], target: row.target };
    const snapshot = row.snapshot as Snapshot;
    if (hashOf(diff(await storedSnapshot(tx, row.configId, scope), snapshot)) !== row.baseHash) throw new AppError('RULE_VIOLATION', IOT_ERRORS.syncStale);
    await applySnapshot(tx, { companyId: row.companyId, configId: row.configId }, snapshot, scope);
    await tx.update(iotSync).set({ state: 'applied', approvedBy: user.id, appliedAt: new Date() }).where(eq(iotSync.id, id));
  });
  return syncOne(ctx, user, id);
}

export async function discard(ctx: AppContext, user: AuthUser, id: number): Promise<boolean> {
  const run = await syncOne(ctx, user, id);
  const done = await ctx.db.update(iotSync).set({ state: 'discarded', approvedBy: user.id }).where(and(eq(iotSync.id, run.id), eq(iotSync.state, 'planned'))).returning({ id: iotSync.id });
  if (!done.length) throw new AppError('RULE_VIOLATION', IOT_ERRORS.syncNotPlanned);
  return true;
}
