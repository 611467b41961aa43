import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { FIRMWARE_DEVICE_PACKAGE_PATH, FIRMWARE_TASK_FAILED_STATES, type FirmwareWaitReason } from '@ess/contract/firmware';
import { otaDownloadResult } from '@ess/contract';
import { device } from '../../db/schema/device.ts';
import { deviceLatest } from '../../db/schema/telemetry.ts';
import { firmwarePackage, firmwareRollout, firmwareRolloutGroup, firmwareTask } from '../../db/schema/firmware.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { pause, writeThroughOutage } from '../../platform/db/outage.ts';
import { emit } from '../../platform/events/outbox.ts';
import { perApp } from '../../platform/module.ts';
import { notifyUsers, deliver } from '../system/index.ts';
import { statusExpr } from '../device/index.ts';
import { commandChannel, commandNotSent, type CommandChannel, type CommandOutcome } from '../monitor/index.ts';
import { signDeviceToken } from './device-token.ts';
import { gateReason, insideWindows, onlineDevices, stationStates } from './gate.ts';
import { firmwareSettings, type FirmwareSettings } from './setting.service.ts';
import { addStep, isFinal, moveTask, rolloutSites, sendProgress } from './task.state.ts';

/**
 * The rollout engine (decision 0047): a periodic pass on the jobs role, safe to run on several
 * instances at once and across restarts, because everything it knows is in the database:
 *
 * - groups: a running rollout's first group starts at its start time; the next starts when the
 *   previous reached its success threshold; a group whose failures pass its error threshold
 *   pauses the rollout (the creator is notified); the rollout finishes when every task ended.
 *   Each rollout is judged under its row lock (`FOR UPDATE SKIP LOCKED`: another instance skips it).
 * - downloads: pending tasks of started groups are claimed with a lease (deadline_at, `SKIP
 *   LOCKED`), then `otaDownload` is sent; the reply makes them "issued success" / "issued failed",
 *   and a lease that ran out (the instance died before the reply) lets another instance send again
 *   (a second download is harmless).
 * - flashes: a downloaded task is flashed inside the window when the safe gate is open; the claim
 *   writes flashed_at and the command id BEFORE the command goes out, so no instance and no restart
 *   flashes a device twice: a task with flashed_at waits for the device's reports (or times out).
 * - timeouts: a device silent past its step's deadline ends "upgrade failed".
 * - outages: a device's answer is recorded through a database outage (writeThroughOutage); a
 *   download the broker did not take is sent again when it is back, not counted as the device's failure.
 */
export const ENGINE_INTERVAL_MS = 1000;
/** Extra lease beyond the command timeout before another instance may send the download again. */
const LEASE_SLACK_MS = 5000;
const BATCH = 50;

interface EngineState {
  /** Commands in flight (awaited at stop). */
  inflight: Set<Promise<unknown>>;
  running: boolean;
  again: boolean;
  stopped: boolean;
  /** The address devices reach this server at. */
  baseUrl: () => string;
}
const engines = perApp<EngineState>('firmware engine');

export function startEngine(ctx: AppContext, baseUrl: () => string): void {
  engines.set(ctx, { inflight: new Set(), running: false, again: false, stopped: false, baseUrl });
}

export async function stopEngine(ctx: AppContext): Promise<void> {
  const e = engines.get(ctx);
  if (!e) return;
  e.stopped = true;
  await Promise.allSettled([...e.inflight]);
  engines.delete(ctx);
}

/** Runs a pass soon (after a report or an action), or once more when one is running. */
export function kickEngine(ctx: AppContext): void {
  const e = engines.get(ctx);
  if (!e || e.stopped || !ctx.config.roles.has('jobs')) return;
  if (e.running) {
    e.again = true;
    return;
  }
  void enginePass(ctx).catch((err: unknown) => ctx.log.error({ err }, 'firmware engine pass failed'));
}

/** One pass (the periodic job, and kicks); passes of one instance never overlap. */
export async function enginePass(ctx: AppContext): Promise<void> {
  const e = engines.get(ctx);
  if (!e || e.stopped) return;
  if (e.running) {
    e.again = true;
    return;
  }
  e.running = true;
  try {
    do {
      e.again = false;
      const s = await firmwareSettings(ctx.db);
      await expireTasks(ctx);
      await advanceRollouts(ctx, s);
      await issueDownloads(ctx, e, s);
      await judgeFlashes(ctx, e, s);
    } while (e.again && !e.stopped);
  } finally {
    e.running = false;
  }
}

/** Keeps a command's promise until it settles (awaited at stop); a failure is logged, never left unhandled. */
function track(ctx: AppContext, e: EngineState, p: Promise<unknown>): void {
  const settled = p.catch((err: unknown) => ctx.log.error({ err }, 'firmware command not recorded'));
  e.inflight.add(settled);
  void settled.finally(() => e.inflight.delete(settled));
}

/**
 * How long the record of a device's answer (something that already happened outside) is retried
 * through a database outage before it is given up: the task's lease or deadline then decides.
 */
export const RECORD_WITHIN_MS = 120_000;
/** A command the broker could not take (no connection): the task's claim is released and it goes again after this. */
const RESEND_AFTER_MS = 2000;

// ── Timeouts ──────────────────────────────────────────────────────────────────────────

async function expireTasks(ctx: AppContext): Promise<void> {
  const now = new Date();
  const due = await ctx.db
    .select({ id: firmwareTask.id, state: firmwareTask.state, rolloutId: firmwareTask.rolloutId, siteId: firmwareTask.siteId })
    .from(firmwareTask)
    .where(and(
      lt(firmwareTask.deadlineAt, now),
      or(inArray(firmwareTask.state, ['issuedSuccess', 'downloading', 'flashing']), and(eq(firmwareTask.state, 'downloaded'), isNotNull(firmwareTask.flashedAt))),
    ))
    .limit(BATCH);
  for (const t of due) {
    const moved = await ctx.db.transaction(async (tx) => {
      const [locked] = await tx.select({ id: firmwareTask.id }).from(firmwareTask).where(and(eq(firmwareTask.id, t.id), lt(firmwareTask.deadlineAt, now))).for('update', { skipLocked: true });
      if (!locked) return null;
      const what = t.state === 'flashing' || t.state === 'downloaded' ? '刷写' : '下载';
      return moveTask(tx, t.id, [t.state as 'issuedSuccess'], { state: 'upgradeFailed', reason: `设备在${what}超时前未上报结果` }, now);
    });
    if (moved) await sendProgress(ctx, [t.siteId], { rolloutId: t.rolloutId });
  }
  if (due.length) ctx.outbox.nudge();
}

// ── Groups and the rollout's state ────────────────────────────────────────────────────

interface GroupCounts {
  total: number;
  success: number;
  failed: number;
  final: number;
}

async function countsByGroup(tx: DbOrTx, rolloutId: number): Promise<Map<number, GroupCounts>> {
  const rows = await tx
    .select({ groupId: firmwareTask.groupId, state: firmwareTask.state, n: sql<number>`count(*)::int` })
    .from(firmwareTask)
    .where(eq(firmwareTask.rolloutId, rolloutId))
    .groupBy(firmwareTask.groupId, firmwareTask.state);
  const out = new Map<number, GroupCounts>();
  for (const r of rows) {
    const c = out.get(r.groupId) ?? { total: 0, success: 0, failed: 0, final: 0 };
    const n = Number(r.n);
    c.total += n;
    if (r.state === 'success') c.success += n;
    if ((FIRMWARE_TASK_FAILED_STATES as readonly string[]).includes(r.state)) c.failed += n;
    if (isFinal(r.state)) c.final += n;
    out.set(r.groupId, c);
  }
  return out;
}

type RolloutRow = typeof firmwareRollout.$inferSelect;

/** The payload of a rollout event. */
export async function rolloutEvent(tx: DbOrTx, r: RolloutRow, from: string | null, to: string, userId: number | null, reason: string | null, now = new Date()) {
  const [p] = await tx.select({ version: firmwarePackage.version }).from(firmwarePackage).where(eq(firmwarePackage.id, r.packageId));
  return {
    rolloutId: r.id, name: r.name, companyId: r.companyId, packageId: r.packageId, version: p?.version ?? '', siteIds: await rolloutSites(tx, r.id),
    from, to, userId, reason, at: now.toISOString(),
  };
}

async function advanceRollouts(ctx: AppContext, s: FirmwareSettings): Promise<void> {
  const running = await ctx.db.select({ id: firmwareRollout.id }).from(firmwareRollout).where(eq(firmwareRollout.state, 'running'));
  for (const { id } of running) {
    const outcome = await ctx.db.transaction(async (tx) => {
      const [r] = await tx.select().from(firmwareRollout).where(and(eq(firmwareRollout.id, id), eq(firmwareRollout.state, 'running'))).for('update', { skipLocked: true });
      if (!r) return null;
      return advanceOne(tx, r, s);
    });
    if (!outcome) continue;
    ctx.outbox.nudge();
    if (outcome.notify.length) await deliver(ctx, outcome.notify);
    await sendProgress(ctx, outcome.sites, { rolloutId: id });
  }
}

/** Judges one running rollout's groups under its lock; what changed, or null. */
async function advanceOne(tx: DbOrTx, r: RolloutRow, _s: FirmwareSettings) {
  const now = new Date();
  if (r.startAt && r.startAt.getTime() > now.getTime()) return null;
  const groups = await tx.select().from(firmwareRolloutGroup).where(eq(firmwareRolloutGroup.rolloutId, r.id)).orderBy(asc(firmwareRolloutGroup.no));
  const counts = await countsByGroup(tx, r.id);
  let changed = false;
  const setGroup = async (g: (typeof groups)[number], state: string) => {
    g.state = state;
    changed = true;
    await tx
      .update(firmwareRolloutGroup)
      .set({ state, ...(state === 'running' && !g.startedAt ? { startedAt: now } : {}), ...(['finished', 'errorThreshold'].includes(state) ? { finishedAt: now } : {}) })
      .where(eq(firmwareRolloutGroup.id, g.id));
    if (state === 'running' && !g.startedAt) g.startedAt = now;
  };
  // The first group starts once the rollout runs (and its start time has come).
  const first = groups.find((g) => g.state !== 'cancelled');
  if (first && first.state === 'waiting' && !groups.some((g) => g.startedAt)) await setGroup(first, 'running');

  // Held for the user: the rollout pauses with the reason, the creator is told.
  const pause = async (reason: string) => {
    await tx.update(firmwareRollout).set({ state: 'paused', pauseReason: reason, revision: sql`${firmwareRollout.revision} + 1`, updatedAt: now }).where(eq(firmwareRollout.id, r.id));
    await emit(tx, 'firmware.rolloutPaused', [await rolloutEvent(tx, r, 'running', 'paused', null, reason, now)]);
    const notify = r.createdBy ? await notifyUsers(tx, [r.createdBy], `固件升级「${r.name}」已暂停`, reason) : [];
    return { sites: await rolloutSites(tx, r.id), notify };
  };
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i]!;
    if (g.state !== 'running' && g.state !== 'succeeded') continue;
    const c = counts.get(g.id) ?? { total: 0, success: 0, failed: 0, final: 0 };
    const pct = (n: number) => (c.total === 0 ? 0 : (n * 100) / c.total);
    if (g.state === 'running' && c.total > 0 && pct(c.failed) > g.errorThreshold) {
      await setGroup(g, 'errorThreshold');
      return pause(`第${g.no}组失败率 ${Math.round(pct(c.failed))}% 超过阈值 ${g.errorThreshold}%`);
    }
    const next = groups.slice(i + 1).find((x) => x.state === 'waiting');
    if (g.state === 'running' && pct(c.success) >= g.successThreshold) {
      await setGroup(g, c.final === c.total ? 'finished' : 'succeeded');
      if (next) await setGroup(next, 'running');
      continue;
    }
    if (c.final === c.total) {
      if (g.state === 'succeeded') {
        await setGroup(g, 'finished');
        continue;
      }
      // Every device ended without reaching the success threshold (and under the error threshold).
      await setGroup(g, 'finished');
      return pause(`第${g.no}组成功率 ${Math.round(pct(c.success))}% 未达到阈值 ${g.successThreshold}%`);
    }
  }
  // Finished: no group left to start and every task ended.
  const open = groups.some((g) => g.state === 'waiting' || g.state === 'running' || g.state === 'succeeded');
  const allFinal = [...counts.values()].every((c) => c.final === c.total);
  if (!open && allFinal) {
    await tx.update(firmwareRollout).set({ state: 'finished', finishedAt: now, revision: sql`${firmwareRollout.revision} + 1`, updatedAt: now }).where(eq(firmwareRollout.id, r.id));
    await emit(tx, 'firmware.rolloutFinished', [await rolloutEvent(tx, r, 'running', 'finished', null, null, now)]);
    changed = true;
  }
  return changed ? { sites: await rolloutSites(tx, r.id), notify: [] } : null;
}

// ── Commands ──────────────────────────────────────────────────────────────────────────

interface Claimed {
  id: number;
  rolloutId: number;
  deviceId: number;
  siteId: number;
  commandId: string;
  code: string;
  siteCode: string;
  packageId: number;
  name: string;
  version: string;
  sha256: string;
  size: number;
}

/** Tasks of running rollouts' started groups. */
const startedGroup = () => and(eq(firmwareRollout.state, 'running'), isNotNull(firmwareRolloutGroup.startedAt), sql`${firmwareRolloutGroup.state} <> 'cancelled'`);

async function issueDownloads(ctx: AppContext, e: EngineState, s: FirmwareSettings): Promise<void> {
  const now = new Date();
  const claimed: Claimed[] = await ctx.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: firmwareTask.id })
      .from(firmwareTask)
      .innerJoin(firmwareRollout, eq(firmwareRollout.id, firmwareTask.rolloutId))
      .innerJoin(firmwareRolloutGroup, eq(firmwareRolloutGroup.id, firmwareTask.groupId))
      .where(and(startedGroup(), eq(firmwareTask.state, 'pendingStart'), or(isNull(firmwareTask.deadlineAt), lt(firmwareTask.deadlineAt, now))))
      .orderBy(asc(firmwareTask.id))
      .limit(BATCH)
      .for('update', { of: firmwareTask, skipLocked: true });
    const out: Claimed[] = [];
    for (const { id } of due) {
      const commandId = randomUUID();
      await tx
        .update(firmwareTask)
        .set({ commandId, deadlineAt: new Date(now.getTime() + s.commandTimeoutSeconds * 1000 + LEASE_SLACK_MS), attempts: sql`${firmwareTask.attempts} + 1`, updatedAt: now })
        .where(eq(firmwareTask.id, id));
      const [row] = await tx
        .select({
          id: firmwareTask.id, rolloutId: firmwareTask.rolloutId, deviceId: firmwareTask.deviceId, siteId: firmwareTask.siteId, code: device.code, siteCode: site.code,
          packageId: firmwarePackage.id, name: firmwarePackage.name, version: firmwarePackage.version, sha256: firmwarePackage.sha256, size: firmwarePackage.size,
        })
        .from(firmwareTask)
        .innerJoin(device, eq(device.id, firmwareTask.deviceId))
        .innerJoin(site, eq(site.id, firmwareTask.siteId))
        .innerJoin(firmwareRollout, eq(firmwareRollout.id, firmwareTask.rolloutId))
        .innerJoin(firmwarePackage, eq(firmwarePackage.id, firmwareRollout.packageId))
        .where(eq(firmwareTask.id, id));
      if (row) out.push({ ...row, commandId });
    }
    return out;
  });
  for (const t of claimed) track(ctx, e, sendDownload(ctx, e, s, t));
}

async function sendDownload(ctx: AppContext, e: EngineState, s: FirmwareSettings, t: Claimed): Promise<void> {
  const ch = commandChannel(ctx);
  const token = signDeviceToken(ctx.config.secretKey, { kind: 'package', taskId: t.id, packageId: t.packageId, deviceId: t.deviceId }, s.tokenTtlMinutes * 60_000);
  const params = { taskId: t.id, name: t.name, version: t.version, url: `${e.baseUrl()}/api/manager${FIRMWARE_DEVICE_PACKAGE_PATH}?token=${token}`, sha256: t.sha256, size: t.size };
  let ok = false;
  let reason: string | null = null;
  let alreadyCurrent = false;
  /** The broker was not there (the command not taken, or its answer possibly lost): not the device's failure. */
  let unsent = false;
  const sentAt = Date.now();
  try {
    if (!ch) throw new Error('没有可用的 MQTT 连接');
    const { outcome } = await ch.send(t.siteCode, t.code, 'otaDownload', params, s.commandTimeoutSeconds * 1000);
    if (outcome.kind === 'timeout') {
      reason = `设备在 ${s.commandTimeoutSeconds} 秒内未应答`;
      unsent = ch.interruptedSince(sentAt);
    } else if (!outcome.reply.ok) reason = outcome.reply.error ?? '设备拒绝了下载命令';
    else {
      ok = true;
      alreadyCurrent = otaDownloadResult.safeParse(outcome.reply.result ?? {}).data?.alreadyCurrent === true;
    }
  } catch (err) {
    reason = `命令未能下发：${(err as Error).message}`;
    unsent = ch !== null;
  }
  const now = new Date();
  const moved = await writeThroughOutage(() => ctx.db.transaction(async (tx) => {
    const [cur] = await tx.select().from(firmwareTask).where(eq(firmwareTask.id, t.id)).for('update');
    // Not ours any more (the lease ran out and another instance sent again, or the rollout was stopped).
    if (!cur || cur.commandId !== t.commandId) return null;
    if (!ok && unsent && cur.state === 'pendingStart') {
      // Sent again once the broker is back (a second download is harmless).
      await tx.update(firmwareTask).set({ commandId: null, deadlineAt: new Date(now.getTime() + RESEND_AFTER_MS), updatedAt: now }).where(eq(firmwareTask.id, t.id));
      return null;
    }
    if (!ok) return moveTask(tx, t.id, ['pendingStart'], { state: 'issuedFailed', reason }, now);
    const issued = { issuedAt: now, deadlineAt: new Date(now.getTime() + s.downloadTimeoutMinutes * 60_000) };
    if (alreadyCurrent) {
      return moveTask(tx, t.id, ['pendingStart', 'issuedSuccess', 'downloading'], { state: 'success', progress: 100, reason: '设备已是目标版本', set: { issuedAt: now, reportedVersion: t.version } }, now);
    }
    if (cur.state !== 'pendingStart') {
      // A report came first (downloading already): the reply is history only; that report
      // recorded the issue with its step already (task.reports.ts issuedByReport) if issuedAt is set.
      if (cur.issuedAt === null) {
        await addStep(tx, t.id, 'issuedSuccess', {}, now);
        await tx.update(firmwareTask).set({ issuedAt: now }).where(eq(firmwareTask.id, t.id));
      }
      return cur;
    }
    return moveTask(tx, t.id, ['pendingStart'], { state: 'issuedSuccess', set: issued }, now);
  }), RECORD_WITHIN_MS, () => e.stopped);
  if (!moved) return;
  ctx.outbox.nudge();
  await sendProgress(ctx, [t.siteId], { rolloutId: t.rolloutId });
  kickEngine(ctx);
}

async function judgeFlashes(ctx: AppContext, e: EngineState, s: FirmwareSettings): Promise<void> {
  const waiting = await ctx.db
    .select({
      id: firmwareTask.id, rolloutId: firmwareTask.rolloutId, deviceId: firmwareTask.deviceId, siteId: firmwareTask.siteId, waitReason: firmwareTask.waitReason,
      toVersion: firmwareTask.toVersion, type: device.type, code: device.code, siteCode: site.code, timeZone: site.timeZone,
      windows: firmwareRollout.windows, safeGate: firmwareRollout.safeGate,
    })
    .from(firmwareTask)
    .innerJoin(device, eq(device.id, firmwareTask.deviceId))
    .innerJoin(site, eq(site.id, firmwareTask.siteId))
    .innerJoin(firmwareRollout, eq(firmwareRollout.id, firmwareTask.rolloutId))
    .innerJoin(firmwareRolloutGroup, eq(firmwareRolloutGroup.id, firmwareTask.groupId))
    .where(and(startedGroup(), eq(firmwareTask.state, 'downloaded'), isNull(firmwareTask.flashedAt)))
    .orderBy(asc(firmwareTask.id))
    .limit(500);
  if (waiting.length === 0) return;
  const nowMs = Date.now();
  const stations = await stationStates(ctx, waiting.map((w) => w.siteId), nowMs);
  const online = await onlineDevices(ctx, waiting.map((w) => w.deviceId));
  const changedRollouts = new Map<number, number[]>();
  for (const w of waiting) {
    let reason: FirmwareWaitReason | null = insideWindows(w.windows, nowMs, w.timeZone) ? null : 'outsideWindow';
    if (!reason) reason = w.safeGate ? gateReason(w, stations.get(w.siteId), online.has(w.deviceId), s) : online.has(w.deviceId) ? null : 'deviceOffline';
    if (reason) {
      if (reason === w.waitReason) continue;
      await ctx.db.transaction(async (tx) => {
        const [cur] = await tx.update(firmwareTask).set({ waitReason: reason, updatedAt: new Date() })
          .where(and(eq(firmwareTask.id, w.id), eq(firmwareTask.state, 'downloaded'), isNull(firmwareTask.flashedAt))).returning({ id: firmwareTask.id });
        if (cur) await addStep(tx, w.id, 'downloaded', { waitReason: reason });
      });
      changedRollouts.set(w.rolloutId, [...(changedRollouts.get(w.rolloutId) ?? []), w.siteId]);
      continue;
    }
    // The gate is open: claim the flash (flashed_at written before the command goes out).
    const commandId = randomUUID();
    const now = new Date();
    const [claimed] = await ctx.db
      .update(firmwareTask)
      .set({ flashedAt: now, commandId, waitReason: null, deadlineAt: new Date(now.getTime() + s.flashTimeoutMinutes * 60_000), updatedAt: now })
      .where(and(eq(firmwareTask.id, w.id), eq(firmwareTask.state, 'downloaded'), isNull(firmwareTask.flashedAt)))
      .returning({ id: firmwareTask.id });
    if (!claimed) continue;
    track(ctx, e, sendFlash(ctx, e, s, { ...w, commandId }));
  }
  for (const [rolloutId, sites] of changedRollouts) await sendProgress(ctx, sites, { rolloutId });
}

type FlashClaim = { id: number; rolloutId: number; deviceId: number; siteId: number; code: string; siteCode: string; toVersion: string; commandId: string };

async function sendFlash(ctx: AppContext, e: EngineState, s: FirmwareSettings, t: FlashClaim) {
  const ch = commandChannel(ctx);
  let outcome: 'ok' | 'refused' | 'silent' = 'silent';
  let reason: string | null = null;
  try {
    if (!ch) throw new Error('没有可用的 MQTT 连接');
    // The task's claim id is the command's requestId: sent again (watchFlash), it is the same command.
    const sentAt = Date.now();
    let r: CommandOutcome | null = (await ch.send(t.siteCode, t.code, 'otaFlash', { taskId: t.id, version: t.toVersion }, s.commandTimeoutSeconds * 1000, t.commandId)).outcome;
    if (r.kind === 'timeout') r = await watchFlash(ctx, e, s, ch, t, sentAt);
    if (r?.kind === 'reply') {
      outcome = r.reply.ok ? 'ok' : 'refused';
      reason = r.reply.error ?? null;
    }
  } catch (err) {
    ctx.log.warn({ err, taskId: t.id }, 'otaFlash not sent');
    if (commandNotSent(err)) {
      // The broker never had it (no connection): the claim is released, the flash goes once the broker is back.
      await writeThroughOutage(() => ctx.db.update(firmwareTask).set({ flashedAt: null, commandId: null, deadlineAt: null, updatedAt: new Date() })
        .where(and(eq(firmwareTask.id, t.id), eq(firmwareTask.commandId, t.commandId), eq(firmwareTask.state, 'downloaded'))), RECORD_WITHIN_MS, () => e.stopped);
      return;
    }
  }
  // No reply: the device is flashing (offline), or silent: its reports, or the flash deadline, decide.
  if (outcome === 'silent') return;
  const now = new Date();
  const moved = await writeThroughOutage(() => ctx.db.transaction(async (tx) => {
    const [cur] = await tx.select().from(firmwareTask).where(eq(firmwareTask.id, t.id)).for('update');
    if (!cur || cur.commandId !== t.commandId) return null;
    if (outcome === 'refused') return moveTask(tx, t.id, ['downloaded', 'flashing'], { state: 'flashFailed', reason: reason ?? '设备拒绝了刷写命令' }, now);
    return moveTask(tx, t.id, ['downloaded'], { state: 'flashing', set: { deadlineAt: new Date(now.getTime() + s.flashTimeoutMinutes * 60_000) } }, now);
  }), RECORD_WITHIN_MS, () => e.stopped);
  if (!moved) return;
  ctx.outbox.nudge();
  await sendProgress(ctx, [t.siteId], { rolloutId: t.rolloutId });
}

/** How often a flash that got no answer looks whether it was lost. */
const WATCH_MS = 3000;

/**
 * A flash that got no answer is watched until a report moves its task or its deadline passes.
 * Silence is what a device flashing looks like (it goes offline), but the command may also have
 * been lost: with the server's broker connection (cut before the broker had it, or the broker
 * handed it to a device's clean session that was gone), or with the device's connection (it went
 * offline after the command was sent and came back, still on its old version, without a report).
 * Then, once the device is online again (it subscribes before it says so, docs/mqtt.md), the same
 * command goes again, with the same requestId: a device that had it answers as the first time and
 * does not flash again. An answer ends the watch (null: none came). The watch lives in this
 * instance: after its restart the deadline decides, as before.
 */
async function watchFlash(ctx: AppContext, e: EngineState, s: FirmwareSettings, ch: CommandChannel, t: FlashClaim, sentAt: number): Promise<CommandOutcome | null> {
  let last = sentAt;
  /** Seen back at the previous look too: its status's firmware has had time to be recorded (a device back on the target version is not sent to). */
  let back = false;
  for (;;) {
    await pause(WATCH_MS);
    if (e.stopped || ch.isClosed) return null;
    const now = await silentFlash(ctx, e, t);
    if (!now) return null;
    const lost = ch.interruptedSince(last) || (now.offlineAt !== null && now.offlineAt.getTime() > last);
    const ready = lost && ch.connected && now.status === 'online' && now.version !== t.toVersion;
    if (!ready || !back) {
      back = ready;
      continue;
    }
    back = false;
    last = Date.now();
    ctx.log.info({ taskId: t.id, requestId: t.commandId }, 'otaFlash sent again: the command or its answer was lost');
    try {
      const r = (await ch.send(t.siteCode, t.code, 'otaFlash', { taskId: t.id, version: t.toVersion }, s.commandTimeoutSeconds * 1000, t.commandId)).outcome;
      if (r.kind === 'reply') return r;
    } catch (err) {
      // Not taken by the broker (gone again): tried once more when it is back.
      if (!commandNotSent(err)) throw err;
    }
  }
}

/** A watched flash's device now, or null when its task no longer waits for it (a report moved it, another claim, the deadline passed). */
async function silentFlash(ctx: AppContext, e: EngineState, t: FlashClaim) {
  const status = statusExpr(Date.now(), ctx.config.deviceOfflineTimeoutMs);
  const [row] = await writeThroughOutage(() => ctx.db
    .select({ status, offlineAt: deviceLatest.offlineAt, version: device.firmwareVersion })
    .from(firmwareTask)
    .innerJoin(device, eq(device.id, firmwareTask.deviceId))
    .leftJoin(deviceLatest, eq(deviceLatest.deviceId, firmwareTask.deviceId))
    .where(and(eq(firmwareTask.id, t.id), eq(firmwareTask.commandId, t.commandId), eq(firmwareTask.state, 'downloaded'), gt(firmwareTask.deadlineAt, new Date()))), RECORD_WITHIN_MS, () => e.stopped);
  return row ?? null;
}
