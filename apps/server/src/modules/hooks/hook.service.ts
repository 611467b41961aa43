import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { PageRequest } from '@ess/contract';
import {
  HOOK_FILTER_NOT_APPLICABLE, HOOK_URL_PRIVATE, type HookActiveResult, type HookCircuitState, type HookFilter, type HookFilterKind,
  type HookHeader, type HookListFilter, type HookMethod, type HookRecord, hookAdd, hookEdit, hookSort,
} from '@ess/contract/hooks';
import { hook, hookTrigger } from '../../db/schema/hooks.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { assertCompany, assertSites, inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';
import { urlTargetAllowed } from './hook.address.ts';
import { checkHookScript, scriptErrorTip } from './hook.script.ts';
import { HOOK_SIGNING_SECRET, hookSecrets, onceNamed } from './hooks.context.ts';
import { hookSettingsOf } from './setting.service.ts';
import { activeTrigger, filterKindsOf } from './trigger.service.ts';

/**
 * Hooks ("relate triggers"; decision 0041): a company's hook = a trigger + a filter + a script +
 * a target + a timeout and retry policy. Saving checks everything the dispatcher would trip on
 * later: the trigger is in the catalogue, the filter reads fields the event has, the script
 * compiles, runs its top level and defines main (in the sandbox: an endless loop or runaway
 * memory is a script error, nothing else is harmed), the target is not a refused address (a
 * literal one: the dispatcher checks resolved names). The signing secret is made here, sealed,
 * and answered once (add, rotate). Deactivating keeps every setting; activating closes the
 * circuit. Any edit closes it too (the user changed what failed).
 */
export const HOOK_NAME_TAKEN = '该公司下已有同名钩子';
export const HOOK_NOT_FOUND = '钩子不存在';

type Add = z.output<typeof hookAdd>;
type Edit = z.output<typeof hookEdit>;
type SortField = NonNullable<z.output<typeof hookSort>['sortField']>;

const owner = alias(appUser, 'hook_owner');

const hooks = defineListQuery({
  table: hook,
  columns: {
    id: hook.id, companyId: hook.companyId, companyName: company.name, name: hook.name, eventType: hook.eventType, eventName: hookTrigger.name,
    triggerStatus: hookTrigger.status, filter: hook.filter, script: hook.script, method: hook.method, url: hook.url, headers: hook.headers,
    timeoutMs: hook.timeoutMs, maxRetries: hook.maxRetries, backoffMs: hook.backoffMs, active: hook.active, circuit: hook.circuit,
    consecutiveFailures: hook.consecutiveFailures, circuitOpenedAt: hook.circuitOpenedAt, secretHint: hook.secretHint, ownerId: hook.ownerId,
    ownerName: owner.name, remark: hook.remark, lastDeliveryAt: hook.lastDeliveryAt, lastDeliveryState: hook.lastDeliveryState,
    lastResponseStatus: hook.lastResponseStatus, createdAt: hook.createdAt, updatedAt: hook.updatedAt, createdByName: appUser.name,
  },
  joins: [
    { table: company, on: eq(company.id, hook.companyId) },
    { table: hookTrigger, on: eq(hookTrigger.eventType, hook.eventType), left: true },
    { table: owner, on: eq(owner.id, hook.ownerId), left: true },
    { table: appUser, on: eq(appUser.id, hook.createdBy), left: true },
  ],
  scope: (db, user) => inCompanyScope(hook.companyId, db, user),
  filter: (f: HookListFilter) => [
    f.name ? likeEscaped(hook.name, f.name) : undefined,
    f.companyId ? eq(hook.companyId, f.companyId) : undefined,
    f.eventType ? eq(hook.eventType, f.eventType) : undefined,
    f.active === undefined ? undefined : eq(hook.active, f.active),
    f.circuit ? eq(hook.circuit, f.circuit) : undefined,
  ],
  orderBy: [desc(hook.updatedAt), desc(hook.id)],
  sortable: {
    name: hook.name, eventType: hook.eventType, active: hook.active, circuit: hook.circuit, lastDeliveryAt: hook.lastDeliveryAt,
    createdAt: hook.createdAt, updatedAt: hook.updatedAt,
  } satisfies Record<SortField, unknown>,
  toRecord: ({ triggerStatus, maxRetries, backoffMs, ...r }): HookRecord => ({
    ...r,
    eventName: r.eventName ?? r.eventType,
    triggerGone: triggerStatus !== 'active',
    filter: r.filter as HookFilter,
    method: r.method as HookMethod,
    headers: r.headers as HookHeader[],
    retry: { maxRetries, backoffMs },
    circuit: r.circuit as HookCircuitState,
    circuitOpenedAt: r.circuitOpenedAt?.toISOString() ?? null,
    lastDeliveryAt: r.lastDeliveryAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }),
});

export const hookPage = (ctx: AppContext, user: AuthUser, req: HookListFilter & PageRequest) => hooks.page(ctx.db, user, req);

export async function hookOne(ctx: AppContext, user: AuthUser, id: number): Promise<HookRecord> {
  const [r] = await hooks.rows(ctx.db, and(eq(hook.id, id), inCompanyScope(hook.companyId, ctx.db, user)), 1);
  return found(r, HOOK_NOT_FOUND);
}

async function stored(db: DbOrTx, user: AuthUser, id: number) {
  const [r] = await db
    .select({ id: hook.id, active: hook.active, circuit: hook.circuit })
    .from(hook)
    .where(and(eq(hook.id, id), inCompanyScope(hook.companyId, db, user)));
  return found(r, HOOK_NOT_FOUND);
}

/** A new signing secret: "whsec_" + base64 of 32 random bytes (Standard Webhooks). */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const hintOf = (secret: string) => `${secret.slice(0, 10)}…`;

/** Everything a save checks beyond the contract's shape (see the file's comment). */
async function checked(ctx: AppContext, user: AuthUser, b: Add) {
  await assertCompany(ctx.db, user, b.companyId);
  const trigger = await activeTrigger(ctx.db, b.eventType);
  const kinds = filterKindsOf(trigger.payloadSchema);
  const used: [HookFilterKind, unknown[]][] = [['site', b.filter.siteIds], ['level', b.filter.levels], ['status', b.filter.statuses]];
  for (const [kind, values] of used) if (values.length && !kinds.includes(kind)) throw new AppError('RULE_VIOLATION', HOOK_FILTER_NOT_APPLICABLE);
  if (b.filter.siteIds.length) await assertSites(ctx.db, user, b.filter.siteIds);
  const settings = await hookSettingsOf(ctx.db);
  if (!urlTargetAllowed(b.url, settings.allowPrivateTargets)) throw new AppError('RULE_VIOLATION', HOOK_URL_PRIVATE);
  if (b.script !== null) {
    const failure = await checkHookScript(b.script);
    if (failure) throw new AppError('SCRIPT_ERROR', scriptErrorTip(failure));
  }
  const { retry, filter, ...rest } = b;
  return { ...rest, filter: { siteIds: [...new Set(filter.siteIds)], levels: [...new Set(filter.levels)], statuses: [...new Set(filter.statuses)] }, ...retry };
}

export async function hookAddOne(ctx: AppContext, user: AuthUser, b: Add): Promise<{ id: number; secret: string }> {
  const values = await checked(ctx, user, b);
  const secret = newSigningSecret();
  return onceNamed(HOOK_NAME_TAKEN, async () => {
    const [r] = await ctx.db
      .insert(hook)
      .values({ ...values, secretEnc: hookSecrets(ctx).seal(secret, HOOK_SIGNING_SECRET), secretHint: hintOf(secret), ownerId: user.id, createdBy: user.id })
      .returning({ id: hook.id });
    return { id: r!.id, secret };
  });
}

export async function hookEditOne(ctx: AppContext, user: AuthUser, b: Edit): Promise<void> {
  await stored(ctx.db, user, b.id);
  const { id, ...rest } = b;
  const values = await checked(ctx, user, rest);
  await onceNamed(HOOK_NAME_TAKEN, () =>
    ctx.db
      .update(hook)
      .set({ ...values, circuit: 'closed', consecutiveFailures: 0, circuitOpenedAt: null, circuitProbeAt: null, updatedAt: new Date() })
      .where(eq(hook.id, id)),
  );
}

/** Deletes the hook with its planned deliveries and records. */
export async function hookDelete(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  await stored(ctx.db, user, id);
  await ctx.db.delete(hook).where(eq(hook.id, id));
}

/** Sets (or toggles) activation; activating closes the circuit and forgets the failures. */
export async function hookActive(ctx: AppContext, user: AuthUser, id: number, active: boolean | undefined): Promise<HookActiveResult> {
  const old = await stored(ctx.db, user, id);
  const next = active ?? !old.active;
  const closing = next ? { circuit: 'closed', consecutiveFailures: 0, circuitOpenedAt: null, circuitProbeAt: null } : {};
  const [r] = await ctx.db
    .update(hook)
    .set({ active: next, ...closing, updatedAt: new Date() })
    .where(eq(hook.id, id))
    .returning({ active: hook.active, circuit: hook.circuit });
  return { active: r!.active, circuit: r!.circuit as HookCircuitState };
}

/** A new signing secret, answered once; the old one signs nothing from now on. */
export async function hookRotateSecret(ctx: AppContext, user: AuthUser, id: number): Promise<{ secret: string }> {
  await stored(ctx.db, user, id);
  const secret = newSigningSecret();
  await ctx.db
    .update(hook)
    .set({ secretEnc: hookSecrets(ctx).seal(secret, HOOK_SIGNING_SECRET), secretHint: hintOf(secret), updatedAt: new Date() })
    .where(eq(hook.id, id));
  return { secret };
}

/** The hook's signing secret in clear (for the dispatcher's signature). */
export async function signingSecretOf(ctx: AppContext, hookId: number): Promise<string> {
  const [r] = await ctx.db.select({ secretEnc: hook.secretEnc }).from(hook).where(eq(hook.id, hookId));
  return hookSecrets(ctx).open(found(r, HOOK_NOT_FOUND).secretEnc, HOOK_SIGNING_SECRET);
}
