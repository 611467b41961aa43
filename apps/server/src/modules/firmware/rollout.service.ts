import { and, asc, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { allowedActions, canTransition, nextState, transitionRefusal, type Page } from '@ess/contract';
import {
  FIRMWARE_ERRORS, FIRMWARE_ROLLOUT_MACHINE, FIRMWARE_TASK_FAILED_STATES, FIRMWARE_TASK_STATES,
  type FirmwareGroupRecord, type FirmwarePreviewResult, type FirmwareRolloutAction, type FirmwareRolloutDetail, type FirmwareRolloutRecord,
  type FirmwareRolloutState, type FirmwareTaskCounts, type FirmwareTaskState,
  firmwareApproval, firmwarePause, firmwareRetry, firmwareRolloutAdd, firmwareRolloutEdit, firmwareRolloutPage, firmwareRolloutPreview,
} from '@ess/contract/firmware';
import { firmwarePackage, firmwareRollout, firmwareRolloutGroup, firmwareTask } from '../../db/schema/firmware.ts';
import { site } from '../../db/schema/site.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { emit } from '../../platform/events/outbox.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { assertCompany, inCompanyScope, inSiteScope } from '../../platform/http/scope.ts';
import { commandChannel } from '../monitor/index.ts';
import { assertTargetScope, resolveTarget, splitGroups, type PackageRow, type Target } from './rollout.targets.ts';
import { firmwareSettings } from './setting.service.ts';
import { kickEngine, rolloutEvent } from './task.engine.ts';
import { moveTask, rolloutSites, sendProgress } from './task.state.ts';

/**
 * Rollouts (issue 22 item 2; decision 0047): the calls. The state machine FIRMWARE_ROLLOUT_MACHINE
 * decides what each state allows; the two-person rule refuses the creator's own approval; edits
 * only before the start, deletion only of a rollout never started. Every change of state writes
 * its domain event in the same transaction; the engine (task.engine.ts) does the rest.
 */
type Add = z.output<typeof firmwareRolloutAdd>;
type Edit = z.output<typeof firmwareRolloutEdit>;
type PageReq = z.output<typeof firmwareRolloutPage>;
type Row = typeof firmwareRollout.$inferSelect;

export const ROLLOUT_NOT_FOUND = '升级任务不存在';
export const ROLLOUT_STARTED = '升级任务已开始过，不能删除';
export const NO_FAILED = '没有失败的设备可重试';

const approver = alias(appUser, 'rollout_approver');

async function packageOf(db: DbOrTx, user: AuthUser, id: number): Promise<PackageRow> {
  const [p] = await db.select().from(firmwarePackage).where(and(eq(firmwarePackage.id, id), inCompanyScope(firmwarePackage.companyId, db, user)));
  return found(p, '升级包不存在');
}

/** The rollout within the caller's companies, locked when `tx` is a transaction that asks for it. */
async function rolloutOf(db: DbOrTx, user: AuthUser, id: number, lock = false): Promise<Row> {
  const q = db.select().from(firmwareRollout).where(and(eq(firmwareRollout.id, id), inCompanyScope(firmwareRollout.companyId, db, user)));
  const [r] = lock ? await q.for('update') : await q;
  return found(r, ROLLOUT_NOT_FOUND);
}

const refuse = (r: Row, action: FirmwareRolloutAction) => {
  if (!canTransition(FIRMWARE_ROLLOUT_MACHINE, r.state as FirmwareRolloutState, action)) {
    throw new AppError('RULE_VIOLATION', transitionRefusal(FIRMWARE_ROLLOUT_MACHINE, r.state as FirmwareRolloutState, action));
  }
};

// ── Preview, add, edit, delete ────────────────────────────────────────────────────────

export async function rolloutPreview(ctx: AppContext, user: AuthUser, body: z.output<typeof firmwareRolloutPreview>): Promise<FirmwarePreviewResult> {
  const pkg = await packageOf(ctx.db, user, body.target.packageId);
  await assertTargetScope(ctx.db, user, body.target);
  const devices = await resolveTarget(ctx, ctx.db, user, pkg, body.target, null);
  const groups = splitGroups(devices, body.grouping ?? { canarySize: 1, groupSize: null, groupPercent: 50 });
  const targeted = devices.filter((d) => d.skip === null).length;
  return { devices, targeted, skipped: devices.length - targeted, groups };
}

/** Writes the groups and one pending task per targeted device. */
async function writePlan(ctx: AppContext, tx: DbOrTx, user: AuthUser, rolloutId: number, pkg: PackageRow, body: Add, thresholds: { success: number; error: number }) {
  const devices = await resolveTarget(ctx, tx, user, pkg, body.target, rolloutId);
  const sizes = splitGroups(devices, body.grouping);
  if (sizes.length === 0) throw new AppError('RULE_VIOLATION', FIRMWARE_ERRORS.noTargets);
  const groups = await tx
    .insert(firmwareRolloutGroup)
    .values(sizes.map((_, i) => ({ rolloutId, no: i + 1, canary: i === 0 && body.grouping.canarySize > 0, successThreshold: thresholds.success, errorThreshold: thresholds.error })))
    .returning({ id: firmwareRolloutGroup.id, no: firmwareRolloutGroup.no });
  const idOf = new Map(groups.map((g) => [g.no, g.id]));
  const tasks = devices.filter((d) => d.group !== null);
  for (let i = 0; i < tasks.length; i += 500) {
    await tx.insert(firmwareTask).values(tasks.slice(i, i + 500).map((d) => ({
      rolloutId, groupId: idOf.get(d.group!)!, deviceId: d.deviceId, siteId: d.siteId, fromVersion: d.firmwareVersion, toVersion: pkg.version,
    })));
  }
}

function checkPackage(pkg: PackageRow) {
  if (pkg.state !== 'released') throw new AppError('RULE_VIOLATION', FIRMWARE_ERRORS.packageWithdrawn);
}

export async function rolloutAdd(ctx: AppContext, user: AuthUser, body: Add): Promise<{ id: number }> {
  const pkg = await packageOf(ctx.db, user, body.target.packageId);
  checkPackage(pkg);
  await assertCompany(ctx.db, user, pkg.companyId);
  await assertTargetScope(ctx.db, user, body.target);
  const s = await firmwareSettings(ctx.db);
  const requireApproval = body.requireApproval ?? s.requireApproval;
  const success = body.successThreshold ?? s.successThreshold;
  const error = body.errorThreshold ?? s.errorThreshold;
  return ctx.db.transaction(async (tx) => {
    const [r] = await tx
      .insert(firmwareRollout)
      .values({
        companyId: pkg.companyId, name: body.name, packageId: pkg.id, state: requireApproval ? 'pendingApproval' : 'ready', target: body.target as Required<Target>,
        grouping: body.grouping, successThreshold: success, errorThreshold: error, requireApproval, startAt: body.startAt ? new Date(body.startAt) : null,
        windows: body.windows, safeGate: body.safeGate, remark: body.remark, createdBy: user.id,
      })
      .returning({ id: firmwareRollout.id });
    await writePlan(ctx, tx, user, r!.id, pkg, body, { success, error });
    return { id: r!.id };
  });
}

export async function rolloutEdit(ctx: AppContext, user: AuthUser, body: Edit): Promise<boolean> {
  const pkg = await packageOf(ctx.db, user, body.target.packageId);
  checkPackage(pkg);
  await assertTargetScope(ctx.db, user, body.target);
  const s = await firmwareSettings(ctx.db);
  await ctx.db.transaction(async (tx) => {
    const r = await rolloutOf(tx, user, body.id, true);
    refuse(r, 'edit');
    if (pkg.companyId !== r.companyId) throw new AppError('RULE_VIOLATION', '升级包须属于升级任务所在公司');
    const requireApproval = body.requireApproval ?? r.requireApproval;
    const success = body.successThreshold ?? s.successThreshold;
    const error = body.errorThreshold ?? s.errorThreshold;
    // Whatever was approved is not what is saved now: approved again.
    await tx
      .update(firmwareRollout)
      .set({
        name: body.name, packageId: pkg.id, target: body.target, grouping: body.grouping, successThreshold: success, errorThreshold: error,
        requireApproval, state: requireApproval ? 'pendingApproval' : 'ready', approvedBy: null, approvedAt: null, approvalNote: null,
        startAt: body.startAt ? new Date(body.startAt) : null, windows: body.windows, safeGate: body.safeGate, remark: body.remark,
        revision: sql`${firmwareRollout.revision} + 1`, updatedAt: new Date(),
      })
      .where(eq(firmwareRollout.id, r.id));
    await tx.delete(firmwareTask).where(eq(firmwareTask.rolloutId, r.id));
    await tx.delete(firmwareRolloutGroup).where(eq(firmwareRolloutGroup.rolloutId, r.id));
    await writePlan(ctx, tx, user, r.id, pkg, body, { success, error });
  });
  return true;
}

export async function rolloutDelete(ctx: AppContext, user: AuthUser, id: number): Promise<boolean> {
  await ctx.db.transaction(async (tx) => {
    const r = await rolloutOf(tx, user, id, true);
    refuse(r, 'delete');
    if (r.startedAt) throw new AppError('RULE_VIOLATION', ROLLOUT_STARTED);
    await tx.delete(firmwareRollout).where(eq(firmwareRollout.id, r.id));
  });
  return true;
}

// ── Actions ───────────────────────────────────────────────────────────────────────────

/** Takes an action under the rollout's lock: checks the machine, writes the new state and the event the change means. */
async function act(
  ctx: AppContext, user: AuthUser, id: number, action: FirmwareRolloutAction,
  work: (tx: DbOrTx, r: Row, to: FirmwareRolloutState, now: Date) => Promise<{ set?: Partial<Row>; event?: 'firmware.rolloutStarted' | 'firmware.rolloutPaused' | 'firmware.rolloutFinished'; reason?: string | null } | void>,
): Promise<boolean> {
  const r = await ctx.db.transaction(async (tx) => {
    const row = await rolloutOf(tx, user, id, true);
    refuse(row, action);
    const to = nextState(FIRMWARE_ROLLOUT_MACHINE, row.state as FirmwareRolloutState, action);
    const now = new Date();
    const out = (await work(tx, row, to, now)) ?? {};
    await tx.update(firmwareRollout).set({ state: to, ...out.set, revision: sql`${firmwareRollout.revision} + 1`, updatedAt: now }).where(eq(firmwareRollout.id, row.id));
    if (out.event) await emit(tx, out.event, [await rolloutEvent(tx, row, row.state, to, user.id, out.reason ?? null, now)]);
    return row;
  });
  ctx.outbox.nudge();
  kickEngine(ctx);
  await sendProgress(ctx, await rolloutSites(ctx.db, r.id), { rolloutId: r.id });
  return true;
}

export function rolloutApprove(ctx: AppContext, user: AuthUser, body: z.output<typeof firmwareApproval>, approve: boolean): Promise<boolean> {
  return act(ctx, user, body.id, approve ? 'approve' : 'reject', (_tx, r) => {
    if (r.createdBy === user.id) throw new AppError('RULE_VIOLATION', FIRMWARE_ERRORS.approvalSelf);
    return Promise.resolve({ set: { approvedBy: user.id, approvedAt: new Date(), approvalNote: body.note } });
  });
}

export function rolloutStart(ctx: AppContext, user: AuthUser, id: number): Promise<boolean> {
  return act(ctx, user, id, 'start', async (tx, r) => {
    const [pkg] = await tx.select().from(firmwarePackage).where(eq(firmwarePackage.id, r.packageId));
    checkPackage(found(pkg));
    return { set: { startedAt: new Date(), pauseReason: null }, event: 'firmware.rolloutStarted' };
  });
}

export function rolloutPause(ctx: AppContext, user: AuthUser, body: z.output<typeof firmwarePause>): Promise<boolean> {
  const reason = body.reason ?? `由 ${user.name} 暂停`;
  return act(ctx, user, body.id, 'pause', () => Promise.resolve({ set: { pauseReason: reason }, event: 'firmware.rolloutPaused', reason }));
}

export function rolloutResume(ctx: AppContext, user: AuthUser, id: number): Promise<boolean> {
  return act(ctx, user, id, 'resume', async (tx, r) => {
    // The user carries on past a group's error threshold: that group is done being judged.
    await tx.update(firmwareRolloutGroup).set({ state: 'finished', finishedAt: new Date() }).where(and(eq(firmwareRolloutGroup.rolloutId, r.id), eq(firmwareRolloutGroup.state, 'errorThreshold')));
    const next = await tx.select({ id: firmwareRolloutGroup.id, state: firmwareRolloutGroup.state }).from(firmwareRolloutGroup).where(eq(firmwareRolloutGroup.rolloutId, r.id)).orderBy(asc(firmwareRolloutGroup.no));
    const started = next.filter((g) => g.state !== 'waiting' && g.state !== 'cancelled');
    const waiting = next.find((g) => g.state === 'waiting');
    if (started.length > 0 && started.every((g) => g.state === 'finished') && waiting) {
      await tx.update(firmwareRolloutGroup).set({ state: 'running', startedAt: new Date() }).where(eq(firmwareRolloutGroup.id, waiting.id));
    }
    return { set: { pauseReason: null }, event: 'firmware.rolloutStarted' };
  });
}

export async function rolloutStop(ctx: AppContext, user: AuthUser, id: number): Promise<boolean> {
  const dropped: { siteCode: string; code: string; taskId: number }[] = [];
  await act(ctx, user, id, 'stop', async (tx, r, _to, now) => {
    // Devices not yet started are cancelled; a download staged but not flashed is dropped too.
    const open = await tx
      .select({ id: firmwareTask.id, state: firmwareTask.state, flashedAt: firmwareTask.flashedAt })
      .from(firmwareTask)
      .where(and(eq(firmwareTask.rolloutId, r.id), inArray(firmwareTask.state, ['pendingStart', 'downloaded', 'issuedSuccess', 'downloading'])));
    for (const t of open) {
      if (t.state !== 'pendingStart' && t.flashedAt) continue;
      const moved = await moveTask(tx, t.id, [t.state as FirmwareTaskState], { state: 'cancelled', reason: `升级任务由 ${user.name} 停止`, set: { deadlineAt: null, commandId: null } }, now);
      if (moved && t.state !== 'pendingStart') dropped.push({ taskId: t.id, ...(await deviceAddress(tx, moved.deviceId)) });
    }
    await tx.update(firmwareRolloutGroup).set({ state: 'cancelled' }).where(and(eq(firmwareRolloutGroup.rolloutId, r.id), eq(firmwareRolloutGroup.state, 'waiting')));
    return { set: { finishedAt: now }, event: 'firmware.rolloutFinished', reason: '已停止' };
  });
  const ch = commandChannel(ctx);
  for (const d of dropped) void ch?.send(d.siteCode, d.code, 'otaCancel', { taskId: d.taskId }, 5000).catch(() => undefined);
  return true;
}

async function deviceAddress(tx: DbOrTx, deviceId: number) {
  const { rows } = await tx.execute<{ code: string; site_code: string }>(sql`select d.code, s.code as site_code from device d join site s on s.id = d.site_id where d.id = ${deviceId}`);
  return { code: rows[0]?.code ?? '', siteCode: rows[0]?.site_code ?? '' };
}

export function rolloutRetry(ctx: AppContext, user: AuthUser, body: z.output<typeof firmwareRetry>): Promise<boolean> {
  return act(ctx, user, body.id, 'retry', async (tx, r, _to, now) => {
    const failed = await tx
      .select({ id: firmwareTask.id, groupId: firmwareTask.groupId, state: firmwareTask.state })
      .from(firmwareTask)
      .where(and(eq(firmwareTask.rolloutId, r.id), inArray(firmwareTask.state, [...FIRMWARE_TASK_FAILED_STATES]), ...(body.taskIds.length ? [inArray(firmwareTask.id, body.taskIds)] : [])));
    if (failed.length === 0) throw new AppError('RULE_VIOLATION', NO_FAILED);
    for (const t of failed) {
      await moveTask(tx, t.id, [t.state as FirmwareTaskState], {
        state: 'pendingStart', progress: null, reason: `由 ${user.name} 重试`, set: { deadlineAt: null, commandId: null, flashedAt: null, issuedAt: null, reportedVersion: null },
      }, now);
    }
    // Their groups are judged again.
    await tx
      .update(firmwareRolloutGroup)
      .set({ state: 'running', finishedAt: null })
      .where(and(inArray(firmwareRolloutGroup.id, [...new Set(failed.map((t) => t.groupId))]), inArray(firmwareRolloutGroup.state, ['finished', 'errorThreshold', 'succeeded'])));
    await tx.update(firmwareTask).set({ finishedAt: null }).where(inArray(firmwareTask.id, failed.map((t) => t.id)));
    return { set: { pauseReason: null, finishedAt: null }, event: r.state === 'running' ? undefined : 'firmware.rolloutStarted' };
  });
}

// ── Reads ─────────────────────────────────────────────────────────────────────────────

const zeroCounts = (): FirmwareTaskCounts => ({ total: 0, ...Object.fromEntries(FIRMWARE_TASK_STATES.map((s) => [s, 0])) }) as FirmwareTaskCounts;

async function countsOf(db: DbOrTx, rolloutIds: number[], by: 'rollout' | 'group') {
  const out = new Map<number, FirmwareTaskCounts>();
  if (rolloutIds.length === 0) return out;
  const key = by === 'rollout' ? firmwareTask.rolloutId : firmwareTask.groupId;
  const rows = await db
    .select({ key, state: firmwareTask.state, n: sql<number>`count(*)::int` })
    .from(firmwareTask)
    .where(inArray(firmwareTask.rolloutId, rolloutIds))
    .groupBy(key, firmwareTask.state);
  for (const r of rows) {
    const c = out.get(r.key) ?? zeroCounts();
    c[r.state as FirmwareTaskState] = Number(r.n);
    c.total += Number(r.n);
    out.set(r.key, c);
  }
  return out;
}

function actionsFor(r: Row, user: AuthUser, counts: FirmwareTaskCounts): FirmwareRolloutAction[] {
  return allowedActions(FIRMWARE_ROLLOUT_MACHINE, r.state as FirmwareRolloutState).filter((a) => {
    if (a === 'approve' || a === 'reject') return r.createdBy !== user.id;
    if (a === 'delete') return !r.startedAt;
    if (a === 'retry') return FIRMWARE_TASK_FAILED_STATES.some((s) => counts[s] > 0);
    return true;
  });
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

async function records(ctx: AppContext, user: AuthUser, where: SQL | undefined, page: { limit: number; offset: number; order: SQL[] }): Promise<FirmwareRolloutRecord[]> {
  const creator = alias(appUser, 'rollout_creator');
  const rows = await ctx.db
    .select({ r: firmwareRollout, companyName: company.name, packageName: firmwarePackage.name, packageVersion: firmwarePackage.version, deviceType: firmwarePackage.deviceType, createdByName: creator.name, approvedByName: approver.name })
    .from(firmwareRollout)
    .innerJoin(company, eq(company.id, firmwareRollout.companyId))
    .innerJoin(firmwarePackage, eq(firmwarePackage.id, firmwareRollout.packageId))
    .leftJoin(creator, eq(creator.id, firmwareRollout.createdBy))
    .leftJoin(approver, eq(approver.id, firmwareRollout.approvedBy))
    .where(where)
    .orderBy(...(page.order as [SQL]))
    .limit(page.limit)
    .offset(page.offset);
  const ids = rows.map((x) => x.r.id);
  const counts = await countsOf(ctx.db, ids, 'rollout');
  const siteIdsOf = new Map<number, number[]>();
  if (ids.length) {
    const s = await ctx.db.selectDistinct({ rolloutId: firmwareTask.rolloutId, siteId: firmwareTask.siteId }).from(firmwareTask).where(inArray(firmwareTask.rolloutId, ids));
    for (const x of s) siteIdsOf.set(x.rolloutId, [...(siteIdsOf.get(x.rolloutId) ?? []), x.siteId]);
  }
  const allSites = [...new Set([...[...siteIdsOf.values()].flat(), ...rows.flatMap((x) => x.r.target.siteIds ?? [])])];
  const names = new Map((allSites.length ? await ctx.db.select({ id: site.id, name: site.name }).from(site).where(inArray(site.id, allSites)) : []).map((s) => [s.id, s.name]));
  return rows.map(({ r, ...x }) => {
    const c = counts.get(r.id) ?? zeroCounts();
    const sites = r.target.siteIds?.length ? r.target.siteIds : (siteIdsOf.get(r.id) ?? []);
    return {
      id: r.id, companyId: r.companyId, companyName: x.companyName, name: r.name, packageId: r.packageId, packageName: x.packageName, packageVersion: x.packageVersion,
      deviceType: x.deviceType as FirmwareRolloutRecord['deviceType'], state: r.state as FirmwareRolloutState,
      target: { packageId: r.target.packageId, siteIds: r.target.siteIds ?? [], productIds: r.target.productIds ?? [], versions: r.target.versions ?? [], deviceIds: r.target.deviceIds ?? [] },
      siteNames: sites.map((id) => names.get(id) ?? String(id)),
      grouping: { canarySize: r.grouping.canarySize, groupSize: r.grouping.groupSize ?? null, groupPercent: r.grouping.groupPercent ?? null },
      successThreshold: r.successThreshold, errorThreshold: r.errorThreshold, requireApproval: r.requireApproval, approvedByName: x.approvedByName ?? null,
      approvedAt: iso(r.approvedAt), approvalNote: r.approvalNote, startAt: iso(r.startAt), windows: r.windows.map((w) => ({ days: w.days ?? [], start: w.start, end: w.end })),
      safeGate: r.safeGate, startedAt: iso(r.startedAt), finishedAt: iso(r.finishedAt), pauseReason: r.pauseReason, remark: r.remark, counts: c,
      actions: actionsFor(r, user, c), createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(), createdByName: x.createdByName ?? null,
    };
  });
}

const SORTS = { name: firmwareRollout.name, state: firmwareRollout.state, createdAt: firmwareRollout.createdAt, startedAt: firmwareRollout.startedAt } as const;

export async function rolloutPage(ctx: AppContext, user: AuthUser, q: PageReq): Promise<Page<FirmwareRolloutRecord>> {
  const where = and(
    inCompanyScope(firmwareRollout.companyId, ctx.db, user),
    // A rollout with a device outside the caller's stations is not theirs to see.
    sql`not exists (select 1 from firmware_task where ${firmwareTask.rolloutId} = ${firmwareRollout.id} and not (${inSiteScope(firmwareTask.siteId, ctx.db, user)}))`,
    q.name ? ilike(firmwareRollout.name, `%${q.name.replace(/[\\%_]/g, (c) => '\\' + c)}%`) : undefined,
    q.packageId ? eq(firmwareRollout.packageId, q.packageId) : undefined,
    q.companyId ? eq(firmwareRollout.companyId, q.companyId) : undefined,
    q.state ? eq(firmwareRollout.state, q.state) : undefined,
    q.siteId ? sql`exists (select 1 from firmware_task ft where ft.rollout_id = ${firmwareRollout.id} and ft.site_id = ${q.siteId})` : undefined,
  );
  const [{ n } = { n: 0 }] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(firmwareRollout).where(where);
  const col = q.sortField ? SORTS[q.sortField] : undefined;
  const order = [...(col ? [q.sortOrder === 'asc' ? sql`${col} asc nulls last` : sql`${col} desc nulls last`] : []), desc(firmwareRollout.id)] as SQL[];
  const recs = Number(n) === 0 ? [] : await records(ctx, user, where, { limit: q.pageSize, offset: (q.current - 1) * q.pageSize, order });
  return { records: recs, total: Number(n), current: q.current, pageSize: q.pageSize };
}

export async function rolloutOne(ctx: AppContext, user: AuthUser, id: number): Promise<FirmwareRolloutDetail> {
  const r = await rolloutOf(ctx.db, user, id);
  await assertRolloutSites(ctx.db, user, r.id);
  const [rec] = await records(ctx, user, eq(firmwareRollout.id, r.id), { limit: 1, offset: 0, order: [desc(firmwareRollout.id)] });
  const groups = await ctx.db.select().from(firmwareRolloutGroup).where(eq(firmwareRolloutGroup.rolloutId, r.id)).orderBy(asc(firmwareRolloutGroup.no));
  const counts = await countsOf(ctx.db, [r.id], 'group');
  const out: FirmwareGroupRecord[] = groups.map((g) => ({
    id: g.id, no: g.no, canary: g.canary, state: g.state as FirmwareGroupRecord['state'], successThreshold: g.successThreshold, errorThreshold: g.errorThreshold,
    startedAt: iso(g.startedAt), finishedAt: iso(g.finishedAt), counts: counts.get(g.id) ?? zeroCounts(),
  }));
  return { ...rec!, groups: out };
}

/** Refuses a rollout that takes a device outside the caller's stations (404, as if it were not there). */
export async function assertRolloutSites(db: DbOrTx, user: AuthUser, rolloutId: number): Promise<void> {
  const [foreign] = await db
    .select({ id: firmwareTask.id })
    .from(firmwareTask)
    .where(and(eq(firmwareTask.rolloutId, rolloutId), sql`not (${inSiteScope(firmwareTask.siteId, db, user)})`))
    .limit(1);
  if (foreign) throw new AppError('NOT_FOUND', ROLLOUT_NOT_FOUND);
}
