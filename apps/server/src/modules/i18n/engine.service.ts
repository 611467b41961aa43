import { dataTranslationsChanged } from './data-translation.ts';
import { and, asc, count, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract';
import { I18N_ERRORS, translationProblems, type CompletionRecord, type completionRequest, type engineAdd, type engineEdit, type engineFilter, type EngineKind, type EngineRecord } from '@ess/contract/i18n';
import { i18nCompletion, i18nOriginal, i18nTranslation, language, translationEngine } from '../../db/schema/i18n.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Db } from '../../platform/db/database.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../platform/db/errors.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { likeEscaped } from '../../platform/http/scope.ts';
import { secretBox } from '../../platform/secrets.ts';
import { EngineError, type EngineCredentials } from './engines/engine.ts';
import { engines } from './engines/registry.ts';
import { libreCodesOf } from './engines/libre.ts';
import { languageByCode } from './language.service.ts';
import type { Domain } from './translation.service.ts';

/**
 * Translation engines (issue 24, item 6): the key sealed at rest (purpose `i18n.engine`) and never
 * answered (records say `keySet`); `connect` translates a sample, `supports` asks the service
 * which of the installation's languages it translates; completion runs as a background job
 * (`i18n.completion`) in batches, placeholders protected by the adapters and checked again here.
 */

const PURPOSE = 'i18n.engine';
export const COMPLETION_JOB = 'i18n.completion';
const boxOf = (ctx: AppContext) => secretBox(ctx.config.secretKey);

type EngineRow = typeof translationEngine.$inferSelect;

function toRecord(e: EngineRow): EngineRecord {
  return {
    id: e.id, name: e.name, kind: e.kind as EngineKind, endpoint: e.endpoint, appId: e.appId, keySet: e.keyEnc !== null, enabled: e.enabled, batchSize: e.batchSize,
    remark: e.remark, lastCheckedAt: e.lastCheckedAt?.toISOString() ?? null, lastCheckOk: e.lastCheckOk, createdAt: e.createdAt.toISOString(), updatedAt: e.updatedAt.toISOString(),
  };
}

const engineWhere = (f: z.output<typeof engineFilter>) =>
  and(f.keyword ? likeEscaped(translationEngine.name, f.keyword) : undefined, f.kind ? eq(translationEngine.kind, f.kind) : undefined, f.enabled === undefined ? undefined : eq(translationEngine.enabled, f.enabled));

export async function engineList(db: Db, f: z.output<typeof engineFilter>) {
  return (await db.select().from(translationEngine).where(engineWhere(f)).orderBy(asc(translationEngine.id))).map(toRecord);
}

export async function enginePage(db: Db, f: z.output<typeof engineFilter> & { current: number; pageSize: number }) {
  const w = engineWhere(f);
  const [{ n }] = (await db.select({ n: count() }).from(translationEngine).where(w)) as [{ n: number }];
  const rows = n ? await db.select().from(translationEngine).where(w).orderBy(asc(translationEngine.id)).limit(f.pageSize).offset((f.current - 1) * f.pageSize) : [];
  return { records: rows.map(toRecord), total: n, current: f.current, pageSize: f.pageSize };
}

async function engineRow(db: Db, id: number): Promise<EngineRow> {
  const [row] = await db.select().from(translationEngine).where(eq(translationEngine.id, id));
  return found(row, I18N_ERRORS.engineNotFound);
}

export const engineOne = async (db: Db, id: number) => toRecord(await engineRow(db, id));

function assertFields(v: z.output<typeof engineAdd>, keySet: boolean) {
  if (engines[v.kind].needsAppId && !v.appId) throw new AppError('INVALID_PARAM', I18N_ERRORS.engineAppIdRequired);
  if (!engines[v.kind].keyOptional && !keySet) throw new AppError('INVALID_PARAM', I18N_ERRORS.engineKeyRequired);
}

async function unique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (pgErrorCode(e) === UNIQUE_VIOLATION) throw new AppError('DUPLICATE', I18N_ERRORS.engineDuplicate);
    throw e;
  }
}

export async function addEngine(ctx: AppContext, userId: number, v: z.output<typeof engineAdd>): Promise<{ id: number }> {
  assertFields(v, !!v.apiKey);
  const { apiKey, ...fields } = v;
  return unique(async () => {
    const [row] = await ctx.db.insert(translationEngine).values({ ...fields, keyEnc: apiKey ? boxOf(ctx).seal(apiKey, PURPOSE) : null, createdBy: userId }).returning({ id: translationEngine.id });
    return { id: row!.id };
  });
}

/** An absent key keeps the stored one, '' or null clears it; another kind or address needs the key again. */
export async function editEngine(ctx: AppContext, v: z.output<typeof engineEdit>): Promise<void> {
  const old = await engineRow(ctx.db, v.id);
  const moved = old.kind !== v.kind || old.endpoint !== v.endpoint;
  const keyEnc = v.apiKey === undefined ? (moved ? null : old.keyEnc) : v.apiKey ? boxOf(ctx).seal(v.apiKey, PURPOSE) : null;
  assertFields(v, keyEnc !== null);
  const { id, apiKey: _key, ...fields } = v;
  await unique(() => ctx.db.update(translationEngine).set({ ...fields, keyEnc, updatedAt: sql`now()` }).where(eq(translationEngine.id, id)));
}

/** Completions that ran with the engine keep their results; a queued one fails for want of it. */
export async function deleteEngine(db: Db, id: number): Promise<void> {
  await engineRow(db, id);
  await db.delete(translationEngine).where(eq(translationEngine.id, id));
}

function credentialsOf(ctx: AppContext, e: EngineRow): EngineCredentials {
  return { key: e.keyEnc ? boxOf(ctx).open(e.keyEnc, PURPOSE) : null, appId: e.appId, endpoint: e.endpoint };
}

/** A refusal of the service as the caller's 4xx (never a 500): its own words, never the key. */
function refused(e: unknown): never {
  if (e instanceof EngineError) throw new AppError(e.kind === 'temporary' ? 'THIRD_PARTY' : 'RULE_VIOLATION', I18N_ERRORS.engineFailed(`${e.code} ${e.message}`));
  throw e;
}

/** Translates a sample into English (the service's own check of key and address); records the outcome. */
export async function connectEngine(ctx: AppContext, id: number) {
  const e = await engineRow(ctx.db, id);
  const started = Date.now();
  try {
    const [sample] = await engines[e.kind as EngineKind].translate(credentialsOf(ctx, e), ['储能电站 $1'], DEFAULT_LOCALE, 'en-US', { timeoutMs: 10_000 });
    await ctx.db.update(translationEngine).set({ lastCheckedAt: sql`now()`, lastCheckOk: true }).where(eq(translationEngine.id, id));
    return { ok: true as const, sample: sample!, latencyMs: Date.now() - started };
  } catch (err) {
    await ctx.db.update(translationEngine).set({ lastCheckedAt: sql`now()`, lastCheckOk: false }).where(eq(translationEngine.id, id));
    return refused(err);
  }
}

/** The installation's languages the service translates, with its codes. */
export async function engineSupports(ctx: AppContext, id: number) {
  const e = await engineRow(ctx.db, id);
  const adapter = engines[e.kind as EngineKind];
  const offered = await adapter.languages(credentialsOf(ctx, e), { timeoutMs: 10_000 }).catch(refused);
  const codes = new Map(offered.map((l) => [l.code.toLowerCase(), l]));
  const langs = await ctx.db.select({ code: language.code }).from(language).orderBy(asc(language.sort));
  const out = [];
  for (const { code } of langs) {
    const candidates = e.kind === 'libre' ? libreCodesOf(code) : [adapter.codeOf(code)];
    for (const c of candidates) {
      const hit = c ? codes.get(c.toLowerCase()) ?? (e.kind === 'deepl' ? codes.get(c.split('-')[0]!.toLowerCase()) : undefined) : undefined;
      if (hit) {
        out.push({ languageId: code, engineCode: hit.code, source: hit.source, target: hit.target });
        break;
      }
    }
  }
  return out;
}

// ── Completion ───────────────────────────────────────────────────────────────────────

export async function startCompletion(ctx: AppContext, domain: Domain, userId: number, v: z.output<typeof completionRequest>): Promise<{ id: number }> {
  await languageByCode(ctx.db, v.languageId, true);
  const e = await engineRow(ctx.db, v.engineId);
  if (!e.enabled) throw new AppError('RULE_VIOLATION', I18N_ERRORS.engineDisabled);
  if (!engines[e.kind as EngineKind].codeOf(v.languageId) && (LOCALES as readonly string[]).includes(v.languageId)) throw new AppError('RULE_VIOLATION', I18N_ERRORS.engineLanguage(v.languageId));
  const [busy] = await ctx.db.select({ id: i18nCompletion.id }).from(i18nCompletion)
    .where(and(eq(i18nCompletion.domain, domain), eq(i18nCompletion.languageCode, v.languageId), inArray(i18nCompletion.state, ['queued', 'running'])));
  if (busy) throw new AppError('TASK_BUSY', I18N_ERRORS.completionBusy);
  const todo = await pending(ctx.db, domain, v.languageId, v.ids);
  if (!todo.length) throw new AppError('RULE_VIOLATION', I18N_ERRORS.nothingToTranslate);
  const [row] = await ctx.db.insert(i18nCompletion).values({ domain, languageCode: v.languageId, engineId: e.id, ids: v.ids, total: todo.length, createdBy: userId }).returning({ id: i18nCompletion.id });
  await ctx.jobs.send(COMPLETION_JOB, { id: row!.id });
  return { id: row!.id };
}

/** The originals a completion translates: the chosen ones, or every untranslated and outdated one. */
async function pending(db: Db, domain: Domain, code: string, ids: number[]) {
  const join = and(eq(i18nTranslation.originalId, i18nOriginal.id), eq(i18nTranslation.languageCode, code));
  return db.select({ id: i18nOriginal.id, source: i18nOriginal.source, maxLength: i18nOriginal.maxLength }).from(i18nOriginal).leftJoin(i18nTranslation, join)
    .where(and(eq(i18nOriginal.domain, domain), eq(i18nOriginal.obsolete, false), ids.length ? inArray(i18nOriginal.id, ids) : or(isNull(i18nTranslation.state), eq(i18nTranslation.state, 'outdated'))))
    .orderBy(asc(i18nOriginal.id));
}

/** The job: batches to the engine; each result checked (placeholders, whitespace, length) before it is written as machine translated. */
export async function runCompletion(ctx: AppContext, id: number): Promise<void> {
  const [job] = await ctx.db.select().from(i18nCompletion).where(eq(i18nCompletion.id, id));
  if (!job || (job.state !== 'queued' && job.state !== 'running')) return;
  const finish = (state: 'done' | 'failed', error: string | null) => ctx.db.update(i18nCompletion).set({ state, error, finishedAt: sql`now()` }).where(eq(i18nCompletion.id, id));
  const [e] = job.engineId ? await ctx.db.select().from(translationEngine).where(eq(translationEngine.id, job.engineId)) : [];
  if (!e) return void (await finish('failed', I18N_ERRORS.engineNotFound));
  const todo = await pending(ctx.db, job.domain as Domain, job.languageCode, job.ids);
  await ctx.db.update(i18nCompletion).set({ state: 'running', total: todo.length, done: 0, failed: 0 }).where(eq(i18nCompletion.id, id));
  const adapter = engines[e.kind as EngineKind];
  const cred = credentialsOf(ctx, e);
  let done = 0;
  let failed = 0;
  for (let i = 0; i < todo.length; i += e.batchSize) {
    const batch = todo.slice(i, i + e.batchSize);
    let out: string[];
    try {
      out = await adapter.translate(cred, batch.map((b) => b.source), DEFAULT_LOCALE, job.languageCode);
    } catch (err) {
      const reason = err instanceof EngineError ? `${err.code} ${err.message}` : String(err);
      await ctx.db.update(i18nCompletion).set({ done, failed: failed + (todo.length - i) }).where(eq(i18nCompletion.id, id));
      return void (await finish('failed', reason));
    }
    const good = batch.map((b, k) => ({ b, text: out[k]! })).filter(({ b, text }) => translationProblems(b.source, text, b.maxLength).length === 0);
    failed += batch.length - good.length;
    done += good.length;
    if (good.length) {
      await ctx.db.insert(i18nTranslation).values(good.map(({ b, text }) => ({ originalId: b.id, languageCode: job.languageCode, translation: text, state: 'machine', engineId: e.id })))
        .onConflictDoUpdate({ target: [i18nTranslation.originalId, i18nTranslation.languageCode], set: { translation: sql`excluded.translation`, state: 'machine', engineId: e.id, updatedBy: null, updatedAt: sql`now()` } });
      if (job.domain === 'data') await dataTranslationsChanged(ctx);
    }
    await ctx.db.update(i18nCompletion).set({ done, failed }).where(eq(i18nCompletion.id, id));
  }
  await finish('done', failed ? `${failed} 条译文未通过占位符检查，未写入` : null);
}

export async function completionOne(db: Db, domain: Domain, id: number): Promise<CompletionRecord> {
  const [row] = await db.select({ c: i18nCompletion, engineName: translationEngine.name }).from(i18nCompletion)
    .leftJoin(translationEngine, eq(translationEngine.id, i18nCompletion.engineId))
    .where(and(eq(i18nCompletion.id, id), eq(i18nCompletion.domain, domain)));
  const { c, engineName } = found(row, I18N_ERRORS.completionNotFound);
  return {
    id: c.id, domain: c.domain as Domain, languageId: c.languageCode, engineId: c.engineId, engineName, state: c.state as CompletionRecord['state'],
    total: c.total, done: c.done, failed: c.failed, error: c.error, createdAt: c.createdAt.toISOString(), finishedAt: c.finishedAt?.toISOString() ?? null,
  };
}

/** The kinds an engine may be, as the add form offers them. */
export function engineKinds() {
  return Object.values(engines).map((e) => ({ kind: e.kind, name: e.name, defaultEndpoint: e.defaultEndpoint, needsAppId: e.needsAppId, keyOptional: e.keyOptional, docs: e.docs }));
}
