import { and, asc, count, eq, inArray, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { PageRequest } from '@ess/contract';
import {
  HOOK_TRIGGER_UNKNOWN, type HookFilterKind, type HookPayloadField, type HookTriggerDef, type HookTriggerFilter,
  type HookTriggerRecord, type HookTriggerScanResult, type HookTriggerStatus, hookFilterKinds, hookTriggerSort,
} from '@ess/contract/hooks';
import { hook, hookTrigger } from '../../db/schema/hooks.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';

/**
 * The trigger catalogue (decision 0041): the domain events the modules declare in their manifests
 * (ctx.events, platform/events/catalogue.ts), each with the JSON Schema of its payload. "Scan"
 * merges the declarations into hook_trigger: a new event appears, one no module declares any more
 * is marked gone (the hooks on it stay and never fire), one declared again comes back, one whose
 * name or schema changed is updated; the answer says which. Every start scans too, so a new
 * version's events are there at once.
 */

type SortField = NonNullable<z.output<typeof hookTriggerSort>['sortField']>;

/** The catalogue as the running modules declare it. */
export function declaredTriggers(ctx: AppContext): HookTriggerDef[] {
  return ctx.events.map((e) => ({ eventType: e.type, module: e.module, name: e.name, payloadSchema: z.toJSONSchema(e.payload) }));
}

/** JSON with keys sorted (jsonb keeps its own key order: compare values, not texts). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Merges the declarations into the stored catalogue (or, with dryRun, says what that would change). */
export async function scanTriggers(ctx: AppContext, dryRun = false): Promise<HookTriggerScanResult> {
  const defs = declaredTriggers(ctx);
  const now = new Date();
  return ctx.db.transaction(async (tx) => {
    // One scan at a time (two instances starting together): the second sees the first's rows.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('hook_trigger_scan'))`);
    const stored = new Map((await tx.select().from(hookTrigger)).map((r) => [r.eventType, r]));
    const result: HookTriggerScanResult = { added: [], gone: [], revived: [], changed: [], unchanged: 0, dryRun, scannedAt: now.toISOString() };
    const declared = new Set<string>();
    for (const d of defs) {
      declared.add(d.eventType);
      const old = stored.get(d.eventType);
      if (!old) {
        result.added.push(d.eventType);
        if (!dryRun) await tx.insert(hookTrigger).values({ ...d, status: 'active', firstSeenAt: now, lastSeenAt: now }).onConflictDoNothing();
        continue;
      }
      const same = old.name === d.name && old.module === d.module && canonical(old.payloadSchema) === canonical(d.payloadSchema);
      if (old.status === 'gone') result.revived.push(d.eventType);
      else if (!same) result.changed.push(d.eventType);
      else result.unchanged++;
      if (!dryRun) {
        await tx
          .update(hookTrigger)
          .set({ name: d.name, module: d.module, payloadSchema: d.payloadSchema, status: 'active', goneAt: null, lastSeenAt: now })
          .where(eq(hookTrigger.id, old.id));
      }
    }
    const gone = [...stored.values()].filter((r) => r.status === 'active' && !declared.has(r.eventType)).map((r) => r.eventType);
    result.gone = gone.sort();
    if (!dryRun && gone.length) await tx.update(hookTrigger).set({ status: 'gone', goneAt: now }).where(inArray(hookTrigger.eventType, gone));
    for (const list of [result.added, result.revived, result.changed]) list.sort();
    return result;
  });
}

/** The top-level fields of a payload's JSON Schema (the detail page's table; the script's event.data.*). */
export function payloadFields(schema: Record<string, unknown>): HookPayloadField[] {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const requiredList = (schema.required ?? []) as string[];
  const required = new Set(requiredList);
  // In declaration order (the required list keeps it; jsonb does not keep the properties' order).
  const names = [...requiredList.filter((n) => n in props), ...Object.keys(props).filter((n) => !required.has(n))];
  return names.map((name) => {
    const p = props[name]!;
    const variants = (p.anyOf as Record<string, unknown>[] | undefined) ?? [p];
    // A type is a name or a list of names (["string", "null"]); an anyOf lists variants.
    const types = variants.flatMap((v) => (Array.isArray(v.type) ? (v.type as string[]) : [(v.type as string | undefined) ?? 'object']));
    const nullable = types.includes('null');
    const main = variants.find((v) => v.type !== 'null') ?? {};
    const values = Array.isArray(main.enum) ? (main.enum as unknown[]).map(String) : null;
    return {
      name,
      type: types.filter((x) => x !== 'null').join('|') || 'null',
      label: typeof p.description === 'string' ? p.description : typeof main.description === 'string' ? main.description : null,
      required: required.has(name),
      nullable,
      values,
    };
  });
}

/** A sample payload for a schema (what "test" sends without one): plausible values by field type and name. */
export function examplePayload(schema: Record<string, unknown>): Record<string, unknown> {
  const sample = (f: HookPayloadField): unknown => {
    if (f.values?.length) return f.values[0];
    const t = f.type.split('|')[0];
    if (t === 'integer') return /level/i.test(f.name) ? 2 : 1;
    if (t === 'number') return 100.5;
    if (t === 'boolean') return false;
    if (t === 'array') return [1];
    if (t === 'object') return {};
    if (/(^at|At|Date)$/.test(f.name)) return f.name.endsWith('Date') ? '2026-01-01' : '2026-01-01T08:00:00.000Z';
    if (f.name === 'month') return '2026-01';
    if (f.name === 'to') return 'completed';
    if (f.name === 'from') return 'pending';
    if (f.name === 'no') return 'NO-20260101-0001';
    return `sample ${f.name}`;
  };
  return Object.fromEntries(payloadFields(schema).map((f) => [f.name, sample(f)]));
}

const triggers = defineListQuery({
  table: hookTrigger,
  columns: {
    id: hookTrigger.id, eventType: hookTrigger.eventType, module: hookTrigger.module, name: hookTrigger.name, status: hookTrigger.status,
    payloadSchema: hookTrigger.payloadSchema, firstSeenAt: hookTrigger.firstSeenAt, lastSeenAt: hookTrigger.lastSeenAt,
  },
  // The catalogue is the same for every company.
  scope: null,
  filter: (f: HookTriggerFilter) => [
    f.keyword ? or(likeEscaped(hookTrigger.eventType, f.keyword), likeEscaped(hookTrigger.name, f.keyword)) : undefined,
    f.module ? eq(hookTrigger.module, f.module) : undefined,
    f.status ? eq(hookTrigger.status, f.status) : undefined,
  ],
  orderBy: [asc(hookTrigger.module), asc(hookTrigger.eventType)],
  sortable: {
    eventType: hookTrigger.eventType, module: hookTrigger.module, status: hookTrigger.status, firstSeenAt: hookTrigger.firstSeenAt,
    lastSeenAt: hookTrigger.lastSeenAt,
  } satisfies Record<SortField, unknown>,
});

type TriggerRow = Awaited<ReturnType<typeof triggers.rows>>[number];

/** The rows as records, with the caller's hooks on each counted. */
async function records(db: DbOrTx, user: AuthUser, rows: TriggerRow[]): Promise<HookTriggerRecord[]> {
  const types = rows.map((r) => r.eventType);
  const counts = types.length
    ? await db
        .select({ eventType: hook.eventType, n: count(), active: sql<number>`count(*) filter (where ${hook.active})`.mapWith(Number) })
        .from(hook)
        .where(and(inArray(hook.eventType, types), inCompanyScope(hook.companyId, db, user)))
        .groupBy(hook.eventType)
    : [];
  const by = new Map(counts.map((c) => [c.eventType, c]));
  return rows.map((r) => {
    const schema = r.payloadSchema as Record<string, unknown>;
    return {
      ...r,
      status: r.status as HookTriggerStatus,
      payloadSchema: schema,
      fields: payloadFields(schema),
      filterKinds: filterKindsOf(schema),
      example: examplePayload(schema),
      firstSeenAt: r.firstSeenAt.toISOString(),
      lastSeenAt: r.lastSeenAt.toISOString(),
      hookCount: by.get(r.eventType)?.n ?? 0,
      activeHookCount: by.get(r.eventType)?.active ?? 0,
    };
  });
}

/** The filters a stored payload schema supports. */
export const filterKindsOf = (schema: Record<string, unknown>): HookFilterKind[] => hookFilterKinds(Object.keys(schema.properties ?? {}));

export async function triggerList(ctx: AppContext, user: AuthUser, f: HookTriggerFilter): Promise<HookTriggerRecord[]> {
  return records(ctx.db, user, await triggers.list(ctx.db, null, f));
}

export async function triggerPage(ctx: AppContext, user: AuthUser, req: HookTriggerFilter & PageRequest) {
  const page = await triggers.page(ctx.db, null, req);
  return { ...page, records: await records(ctx.db, user, page.records) };
}

export async function triggerOne(ctx: AppContext, user: AuthUser, b: { id?: number | undefined; eventType?: string | undefined }): Promise<HookTriggerRecord> {
  const [r] = await triggers.rows(ctx.db, and(b.id ? eq(hookTrigger.id, b.id) : undefined, b.eventType ? eq(hookTrigger.eventType, b.eventType) : undefined), 1);
  if (!r) throw new AppError('NOT_FOUND', '触发器不存在');
  return (await records(ctx.db, user, [r]))[0]!;
}

/** A trigger a hook may attach to: in the catalogue and not gone. */
export async function activeTrigger(db: DbOrTx, eventType: string): Promise<{ eventType: string; name: string; payloadSchema: Record<string, unknown> }> {
  const [r] = await db
    .select({ eventType: hookTrigger.eventType, name: hookTrigger.name, status: hookTrigger.status, payloadSchema: hookTrigger.payloadSchema })
    .from(hookTrigger)
    .where(eq(hookTrigger.eventType, eventType));
  if (!r || r.status !== 'active') throw new AppError('RULE_VIOLATION', HOOK_TRIGGER_UNKNOWN);
  return { eventType: r.eventType, name: r.name, payloadSchema: r.payloadSchema as Record<string, unknown> };
}
