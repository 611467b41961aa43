import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  HOOK_EVENT_PAYLOADS, type HookExecRecord, type HookExecRecordDetail, type HookHttpMessage, type HookRecordOrigin, type HookRecordState, type HookReplayResult,
  type HookTestResult, type hookRecordFilter, type hookRecordPage, type hookReplay, type hookTest,
} from '@ess/contract/hooks';
import { hook, hookDelivery, hookExecRecord, hookSetting } from '../../db/schema/hooks.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { assertCompany, inCompanyScope } from '../../platform/http/scope.ts';
import { DISPATCH, Dispatcher, dispatcherOf } from './dispatch.send.ts';
import { maskJson, runHookScript, scriptHash, type ScriptEvent } from './dispatch.script.ts';

/**
 * Execution records (issue 21, item 5): one per attempt, scoped to the caller's companies; the
 * page (filters hook, company, event type, state incl. "running", origin, event, time), one
 * record with what went in and out, the replay (the record's event through the hook's current
 * script, side by side with the original output; optionally sent), the test send, and pruning by
 * age and count (hook_setting).
 */

export const HOOK_RECORD_NOT_FOUND = '执行记录不存在';
export const HOOK_NOT_FOUND = '钩子不存在';

const records = defineListQuery({
  table: hookExecRecord,
  columns: { r: hookExecRecord },
  scope: (db, user) => inCompanyScope(hookExecRecord.companyId, db, user),
  filter: (f: z.output<typeof hookRecordFilter>) => [
    f.hookId ? eq(hookExecRecord.hookId, f.hookId) : undefined,
    f.companyId ? eq(hookExecRecord.companyId, f.companyId) : undefined,
    f.eventType ? eq(hookExecRecord.eventType, f.eventType) : undefined,
    f.state ? eq(hookExecRecord.state, f.state) : undefined,
    f.origin ? eq(hookExecRecord.origin, f.origin) : undefined,
    f.eventId ? eq(hookExecRecord.eventId, f.eventId) : undefined,
    f.start ? gte(hookExecRecord.startedAt, new Date(f.start)) : undefined,
    f.end ? lt(hookExecRecord.startedAt, new Date(f.end)) : undefined,
  ],
  orderBy: [desc(hookExecRecord.startedAt), desc(hookExecRecord.id)],
  sortable: { startedAt: hookExecRecord.startedAt, durationMs: hookExecRecord.durationMs, responseStatus: hookExecRecord.responseStatus, attempt: hookExecRecord.attempt },
  toRecord: ({ r }) => r,
});

type Row = typeof hookExecRecord.$inferSelect;

const toRecord = (r: Row): HookExecRecord => ({
  id: r.id, companyId: r.companyId, hookId: r.hookId, hookName: r.hookName, deliveryId: r.deliveryId, eventId: r.eventId, eventType: r.eventType,
  origin: r.origin as HookRecordOrigin, attempt: r.attempt, state: r.state as HookRecordState, method: r.method, url: r.url, responseStatus: r.responseStatus,
  durationMs: r.durationMs, error: r.error, nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null, replayOf: r.replayOf,
  startedAt: r.startedAt.toISOString(), finishedAt: r.finishedAt?.toISOString() ?? null,
});

/** A filter naming a hook or a company outside the caller's scope is refused, not answered empty. */
async function checkFilter(ctx: AppContext, user: AuthUser, f: { hookId?: number | undefined; companyId?: number | undefined }): Promise<void> {
  if (f.companyId !== undefined) await assertCompany(ctx.db, user, f.companyId);
  if (f.hookId !== undefined) await hookInScope(ctx, user, f.hookId);
}

export async function recordPage(ctx: AppContext, user: AuthUser, req: z.output<typeof hookRecordPage>) {
  await checkFilter(ctx, user, req);
  if (req.start && req.end && new Date(req.start) >= new Date(req.end)) throw new AppError('INVALID_PARAM', '开始时间须早于结束时间');
  const page = await records.page(ctx.db, user, req);
  return { ...page, records: page.records.map(toRecord) };
}

async function recordRow(ctx: AppContext, user: AuthUser, id: number): Promise<Row> {
  const [row] = await records.rows(ctx.db, and(eq(hookExecRecord.id, id), inCompanyScope(hookExecRecord.companyId, ctx.db, user)), 1);
  return found(row, HOOK_RECORD_NOT_FOUND);
}

export async function recordOne(ctx: AppContext, user: AuthUser, id: number): Promise<HookExecRecordDetail> {
  const r = await recordRow(ctx, user, id);
  return {
    ...toRecord(r),
    input: (r.input as Record<string, unknown> | null) ?? null,
    output: r.output ?? null,
    request: (r.request as (HookHttpMessage & { method: string; url: string }) | null) ?? null,
    response: (r.response as (HookHttpMessage & { status: number }) | null) ?? null,
  };
}

/** A hook of the caller's companies: another company's is refused (403), an unknown one 404. */
async function hookInScope(ctx: AppContext, user: AuthUser, id: number) {
  const [h] = await ctx.db.select().from(hook).where(eq(hook.id, id));
  const row = found(h, HOOK_NOT_FOUND);
  await assertCompany(ctx.db, user, row.companyId);
  return row;
}

/** The dispatcher of this instance (every instance has one: tests and replays send from the API). */
function dispatcher(ctx: AppContext): Dispatcher {
  const d = dispatcherOf(ctx);
  if (!d) throw new AppError('NOT_FOUND', '钩子投递未启动');
  return d;
}

/** A delivery made by a user (test, replay), claimed by this instance and attempted at once, once. */
async function sendNow(ctx: AppContext, h: typeof hook.$inferSelect, origin: 'test' | 'replay', eventType: string, payload: unknown, eventId: number | null, replayOf?: number) {
  const d = dispatcher(ctx);
  const [row] = await ctx.db
    .insert(hookDelivery)
    .values({
      hookId: h.id, companyId: h.companyId, eventId: null, eventType, eventAt: new Date(), payload: payload, origin, state: 'running',
      leasedBy: d.id, leaseUntil: new Date(Date.now() + DISPATCH.leaseMs),
    })
    .returning();
  // The original event's id stays with the record (the delivery's key is (hook, event): a replay is not the event's delivery).
  if (eventId !== null) row!.eventId = eventId;
  return d.attempt(row!, { maxRetries: 0, replayOf });
}

/** Extension: a sample event (or the payload given) sent to the hook now; one record, origin "test", no retries, the circuit untouched. */
export async function testSend(ctx: AppContext, user: AuthUser, body: z.output<typeof hookTest>): Promise<HookTestResult> {
  const h = await hookInScope(ctx, user, body.id);
  const payload = body.data ?? exampleOf(h.eventType);
  const r = found(await sendNow(ctx, h, 'test', h.eventType, payload, null), HOOK_NOT_FOUND);
  return { recordId: r.recordId, state: r.state, output: r.output ?? null, responseStatus: r.responseStatus, durationMs: r.durationMs, error: r.error };
}

/** A sample payload of an event type from its schema's fields (numbers 1, strings "sample", …). */
export function exampleOf(eventType: string): Record<string, unknown> {
  const schema = (HOOK_EVENT_PAYLOADS as Record<string, z.ZodObject>)[eventType];
  if (!schema) return {};
  const sample = (s: z.ZodType): unknown => {
    const def = (s as unknown as { def: { type: string; innerType?: z.ZodType; element?: z.ZodType; entries?: Record<string, string> } }).def;
    switch (def.type) {
      case 'nullable':
      case 'optional':
        return sample(def.innerType!);
      case 'number':
        return 1;
      case 'boolean':
        return false;
      case 'array':
        return [sample(def.element!)];
      case 'enum':
        return Object.values(def.entries ?? {})[0] ?? '';
      case 'string':
        return (s.description ?? '').includes('ISO') ? new Date().toISOString() : 'sample';
      default:
        return null;
    }
  };
  return Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([k, v]) => [k, sample(v)]));
}

/**
 * Extension: the record's event through the hook's current script and parameters, side by side
 * with the output that was recorded; `send` also delivers it now (a new record, origin "replay",
 * replayOf the original; no retries).
 */
export async function replay(ctx: AppContext, user: AuthUser, body: z.output<typeof hookReplay>): Promise<HookReplayResult> {
  const r = await recordRow(ctx, user, body.id);
  const h = await hookInScope(ctx, user, r.hookId);
  const [delivery] = r.deliveryId ? await ctx.db.select({ payload: hookDelivery.payload, eventAt: hookDelivery.eventAt }).from(hookDelivery).where(eq(hookDelivery.id, r.deliveryId)) : [];
  const recorded = (r.input as { event?: ScriptEvent } | null)?.event;
  const payload = delivery?.payload ?? recorded?.data;
  if (payload === undefined) throw new AppError('INVALID_PARAM', '该记录没有可重放的事件（事件已清理）');
  const d = dispatcher(ctx);
  const params = await d.params(h.companyId);
  const event: ScriptEvent = {
    id: r.eventId !== null ? String(r.eventId) : (recorded?.id ?? `replay_${r.id}`), type: r.eventType,
    timestamp: delivery?.eventAt.toISOString() ?? recorded?.timestamp ?? r.startedAt.toISOString(), data: payload,
  };
  const current = await runHookScript(h.script, event, params.values);
  const result: HookReplayResult = {
    original: { output: r.output ?? null, state: r.state as HookRecordState, error: r.error },
    current: {
      output: current.kind === 'body' ? maskJson(current.output, params.secrets) : null,
      skipped: current.kind === 'skip',
      error: current.kind === 'error' ? current.error : null,
    },
    sameScript: r.scriptHash !== null && r.scriptHash === scriptHash(h.script),
    recordId: null,
    state: null,
  };
  if (body.send) {
    const sent = found(await sendNow(ctx, h, 'replay', r.eventType, payload, r.eventId, r.id), HOOK_NOT_FOUND);
    result.recordId = sent.recordId;
    result.state = sent.state;
  }
  return result;
}

/**
 * Pruning (hourly, jobs role): records older than `recordMaxAgeDays`, then the oldest beyond
 * `recordMaxCount`; finished deliveries older than the age too (but at least 7 days, the outbox's
 * own retention, so an event the outbox could still redeliver keeps its unique key). Returns how
 * many records went.
 */
export async function pruneRecords(ctx: AppContext, now = new Date()): Promise<{ byAge: number; byCount: number; deliveries: number }> {
  const [s] = await ctx.db.select({ days: hookSetting.recordMaxAgeDays, max: hookSetting.recordMaxCount }).from(hookSetting).where(eq(hookSetting.id, 1));
  const days = s?.days ?? 30;
  const max = s?.max ?? 1_000_000;
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  const byAge = (await ctx.db.delete(hookExecRecord).where(lt(hookExecRecord.startedAt, cutoff)).returning({ id: hookExecRecord.id })).length;
  const { rows } = await ctx.database.sql.query<{ n: number }>(
    `with edge as (select id from hook_exec_record order by id desc offset $1 limit 1),
          gone as (delete from hook_exec_record where id <= (select id from edge) returning 1)
     select count(*)::int as n from gone`,
    [max],
  );
  const deliveryCutoff = new Date(now.getTime() - Math.max(days, 7) * 86_400_000);
  const deliveries = (
    await ctx.db
      .delete(hookDelivery)
      .where(and(sql`${hookDelivery.state} in ('delivered', 'skipped', 'failed')`, lt(hookDelivery.createdAt, deliveryCutoff)))
      .returning({ id: hookDelivery.id })
  ).length;
  return { byAge, byCount: rows[0]?.n ?? 0, deliveries };
}
