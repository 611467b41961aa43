import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { HookParamFilter, HookParamKind, HookParamOption, HookParamRecord, hookParamAdd, hookParamEdit } from '@ess/contract/hooks';
import { hookParam, hookTrigger } from '../../db/schema/hooks.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { assertCompany, inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';
import { HOOK_PARAM_SECRET, hookSecrets, onceNamed } from './hooks.context.ts';
import { payloadFields } from './trigger.service.ts';

/**
 * Parameters (decision 0041): a company's constants and secrets that its hooks' scripts read as
 * `params.<name>`. A secret is sealed at rest (platform/secrets.ts, purpose "hook.param") and
 * never answered (`valueSet` only), masked in execution records. A parameter a script uses can be
 * neither renamed nor deleted (the script would fail at its next event).
 */
export const PARAM_NAME_TAKEN = '该公司下已有同名参数';
export const PARAM_NOT_FOUND = '参数不存在';
export const PARAM_IN_USE = (n: number) => `该参数正被${n}个钩子的脚本使用，不能删除或改名`;

type Add = z.output<typeof hookParamAdd>;
type Edit = z.output<typeof hookParamEdit>;

/** Hooks of the parameter's company whose script names it (params.<name>, as a whole word). */
// Qualified by hand: drizzle leaves a single-table select's columns unqualified, and hook has a name too.
const usedBy = sql<number>`(select count(*) from hook h where h.company_id = "hook_param"."company_id"
  and h.script ~ ('params\\.' || "hook_param"."name" || '([^A-Za-z0-9_]|$)'))`.mapWith(Number);

const params = defineListQuery({
  table: hookParam,
  columns: {
    id: hookParam.id, companyId: hookParam.companyId, companyName: company.name, name: hookParam.name, kind: hookParam.kind,
    value: hookParam.value, valueEnc: hookParam.valueEnc, remark: hookParam.remark, usedBy, createdAt: hookParam.createdAt,
    updatedAt: hookParam.updatedAt, createdByName: appUser.name,
  },
  joins: [
    { table: company, on: eq(company.id, hookParam.companyId) },
    { table: appUser, on: eq(appUser.id, hookParam.createdBy), left: true },
  ],
  scope: (db, user) => inCompanyScope(hookParam.companyId, db, user),
  filter: (f: HookParamFilter) => [
    f.companyId ? eq(hookParam.companyId, f.companyId) : undefined,
    f.name ? likeEscaped(hookParam.name, f.name) : undefined,
    f.kind ? eq(hookParam.kind, f.kind) : undefined,
  ],
  orderBy: [asc(hookParam.companyId), asc(hookParam.name)],
  // A secret's value leaves here as a flag only.
  toRecord: ({ valueEnc, ...r }): HookParamRecord => ({
    ...r,
    kind: r.kind as HookParamKind,
    value: r.kind === 'secret' ? null : r.value,
    valueSet: r.kind === 'secret' ? valueEnc !== null : r.value !== null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }),
});

export const paramList = (ctx: AppContext, user: AuthUser, f: HookParamFilter) => params.list(ctx.db, user, f, 1000);

export async function paramOne(ctx: AppContext, user: AuthUser, id: number): Promise<HookParamRecord> {
  const [r] = await params.rows(ctx.db, and(eq(hookParam.id, id), inCompanyScope(hookParam.companyId, ctx.db, user)), 1);
  return found(r, PARAM_NOT_FOUND);
}

async function stored(db: DbOrTx, user: AuthUser, id: number) {
  const [r] = await db
    .select({ id: hookParam.id, name: hookParam.name, kind: hookParam.kind, value: hookParam.value, valueEnc: hookParam.valueEnc, companyId: hookParam.companyId, usedBy })
    .from(hookParam)
    .where(and(eq(hookParam.id, id), inCompanyScope(hookParam.companyId, db, user)));
  return found(r, PARAM_NOT_FOUND);
}

/** The stored columns of a parameter's kind and value: a secret sealed, a constant in clear. */
function valueColumns(ctx: AppContext, kind: HookParamKind, value: string) {
  return kind === 'secret' ? { value: null, valueEnc: hookSecrets(ctx).seal(value, HOOK_PARAM_SECRET) } : { value, valueEnc: null };
}

export async function paramAdd(ctx: AppContext, user: AuthUser, b: Add): Promise<{ id: number }> {
  await assertCompany(ctx.db, user, b.companyId);
  return onceNamed(PARAM_NAME_TAKEN, async () => {
    const [r] = await ctx.db
      .insert(hookParam)
      .values({ companyId: b.companyId, name: b.name, kind: b.kind, remark: b.remark, ...valueColumns(ctx, b.kind, b.value!), createdBy: user.id })
      .returning({ id: hookParam.id });
    return { id: r!.id };
  });
}

export async function paramEdit(ctx: AppContext, user: AuthUser, b: Edit): Promise<void> {
  const old = await stored(ctx.db, user, b.id);
  await assertCompany(ctx.db, user, b.companyId);
  if (old.usedBy > 0 && (old.name !== b.name || old.companyId !== b.companyId)) throw new AppError('RULE_VIOLATION', PARAM_IN_USE(old.usedBy));
  // A secret left out keeps its value; a constant made secret keeps its value, now sealed.
  const kept = old.kind === 'secret' ? hookSecrets(ctx).open(old.valueEnc!, HOOK_PARAM_SECRET) : old.value!;
  const value = b.value ?? kept;
  await onceNamed(PARAM_NAME_TAKEN, () =>
    ctx.db
      .update(hookParam)
      .set({ companyId: b.companyId, name: b.name, kind: b.kind, remark: b.remark, ...valueColumns(ctx, b.kind, value), updatedAt: new Date() })
      .where(eq(hookParam.id, b.id)),
  );
}

export async function paramDelete(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  const old = await stored(ctx.db, user, id);
  if (old.usedBy > 0) throw new AppError('RULE_VIOLATION', PARAM_IN_USE(old.usedBy));
  await ctx.db.delete(hookParam).where(eq(hookParam.id, id));
}

/** The event's own fields, the same for every trigger. */
const EVENT_FIELDS: HookParamOption[] = [
  { source: 'event', name: 'id', expression: 'event.id', type: 'integer', label: '事件ID', paramId: null, companyId: null },
  { source: 'event', name: 'type', expression: 'event.type', type: 'string', label: '事件类型', paramId: null, companyId: null },
  { source: 'event', name: 'timestamp', expression: 'event.timestamp', type: 'string', label: '事件时间', paramId: null, companyId: null },
];

/**
 * What a hook's script can use: the event's fields, the trigger's payload fields (when a trigger
 * is named) and the parameters of the caller's companies (or of the one named).
 */
export async function hookParamOptions(ctx: AppContext, user: AuthUser, b: { eventType?: string | undefined; companyId?: number | undefined }): Promise<HookParamOption[]> {
  const out = [...EVENT_FIELDS];
  if (b.eventType) {
    const [t] = await ctx.db.select({ schema: hookTrigger.payloadSchema }).from(hookTrigger).where(eq(hookTrigger.eventType, b.eventType));
    if (!t) throw new AppError('NOT_FOUND', '触发器不存在');
    for (const f of payloadFields(t.schema as Record<string, unknown>)) {
      out.push({ source: 'payload', name: f.name, expression: `event.data.${f.name}`, type: f.type, label: f.label, paramId: null, companyId: null });
    }
  }
  if (b.companyId) await assertCompany(ctx.db, user, b.companyId);
  for (const p of await params.list(ctx.db, user, { companyId: b.companyId }, 1000)) {
    out.push({ source: p.kind, name: p.name, expression: `params.${p.name}`, type: 'string', label: p.remark, paramId: p.id, companyId: p.companyId });
  }
  return out;
}

/** A company's parameters for a script run: name → value (secrets opened), and the names of the secrets (to mask in records). */
export async function paramValues(ctx: AppContext, companyId: number): Promise<{ values: Record<string, string>; secrets: string[] }> {
  const rows = await ctx.db.select().from(hookParam).where(eq(hookParam.companyId, companyId));
  const values: Record<string, string> = {};
  const secrets: string[] = [];
  for (const r of rows) {
    if (r.kind === 'secret') {
      if (r.valueEnc === null) continue;
      values[r.name] = hookSecrets(ctx).open(r.valueEnc, HOOK_PARAM_SECRET);
      secrets.push(r.name);
    } else values[r.name] = r.value ?? '';
  }
  return { values, secrets };
}
