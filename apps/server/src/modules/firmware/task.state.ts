import { and, eq, inArray, sql } from 'drizzle-orm';
import { FIRMWARE_TASK_FINAL_STATES, type FirmwareTaskState, type FirmwareWaitReason } from '@ess/contract/firmware';
import { device } from '../../db/schema/device.ts';
import { firmwareRollout, firmwareTask, firmwareTaskStep } from '../../db/schema/firmware.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { emit } from '../../platform/events/outbox.ts';
import { usersSeeingSites } from '../alarm/index.ts';

/**
 * A device task's state changes, in one place: each writes the task, a step of its history (time,
 * state, wait reason, reason) and, when it ends the task, `firmware.taskFinished` — all in the
 * caller's transaction. The change is guarded by the states it may come from (`from`), so two
 * instances (or a report and a command's reply) never both move the same task.
 */
export type TaskRow = typeof firmwareTask.$inferSelect;

export const isFinal = (s: string) => (FIRMWARE_TASK_FINAL_STATES as readonly string[]).includes(s);

export interface TaskChange {
  state: FirmwareTaskState;
  progress?: number | null;
  waitReason?: FirmwareWaitReason | null;
  reason?: string | null;
  /** Columns set besides the state. */
  set?: Partial<Pick<TaskRow, 'deadlineAt' | 'commandId' | 'issuedAt' | 'flashedAt' | 'reportedVersion'>>;
}

/** Moves a task from one of `from` to `change.state`; returns the row after, or null when it was not in `from`. */
export async function moveTask(tx: DbOrTx, taskId: number, from: readonly FirmwareTaskState[], change: TaskChange, now = new Date()): Promise<TaskRow | null> {
  const final = isFinal(change.state);
  const [row] = await tx
    .update(firmwareTask)
    .set({
      state: change.state,
      ...(change.progress !== undefined ? { progress: change.progress } : {}),
      waitReason: change.waitReason ?? null,
      reason: change.reason ?? null,
      ...(final ? { finishedAt: now, deadlineAt: null } : {}),
      ...change.set,
      updatedAt: now,
    })
    .where(and(eq(firmwareTask.id, taskId), inArray(firmwareTask.state, [...from])))
    .returning();
  if (!row) return null;
  await tx.insert(firmwareTaskStep).values({
    taskId, at: now, state: change.state, progress: change.progress ?? null, waitReason: change.waitReason ?? null, reason: change.reason ?? null,
  });
  if (final) await taskFinished(tx, row, now);
  return row;
}

/** Writes a step without a change of state (a wait reason changed, a late reply). */
export async function addStep(tx: DbOrTx, taskId: number, state: FirmwareTaskState, o: { waitReason?: FirmwareWaitReason | null; reason?: string | null; progress?: number | null } = {}, now = new Date()) {
  await tx.insert(firmwareTaskStep).values({ taskId, at: now, state, progress: o.progress ?? null, waitReason: o.waitReason ?? null, reason: o.reason ?? null });
}

async function taskFinished(tx: DbOrTx, row: TaskRow, now: Date): Promise<void> {
  const [d] = await tx.select({ code: device.code }).from(device).where(eq(device.id, row.deviceId));
  await emit(tx, 'firmware.taskFinished', [{
    taskId: row.id, rolloutId: row.rolloutId, deviceId: row.deviceId, code: d?.code ?? '', siteId: row.siteId, fromVersion: row.fromVersion,
    toVersion: row.toVersion, to: row.state, reason: row.reason, at: now.toISOString(),
  }]);
}

/** The device now runs this firmware (a success report, a status when it comes online). */
export async function recordFirmware(db: DbOrTx, deviceId: number, name: string, version: string): Promise<boolean> {
  const rows = await db
    .update(device)
    .set({ firmwareName: name, firmwareVersion: version, updatedAt: new Date() })
    .where(and(eq(device.id, deviceId), sql`(${device.firmwareName} is distinct from ${name} or ${device.firmwareVersion} is distinct from ${version})`))
    .returning({ id: device.id });
  return rows.length > 0;
}

/**
 * Tells the console that a rollout's (or a capture's) devices changed: FirmwareProgress to the users
 * who may see its stations. Best effort (a lost one is caught up by the next change or a reload).
 */
export async function sendProgress(ctx: AppContext, siteIds: readonly number[], data: { rolloutId?: number; captureId?: number }): Promise<void> {
  try {
    const users = await usersSeeingSites(ctx.db, [...new Set(siteIds)]);
    const to = [...new Set([...users.values()].flat())];
    await ctx.sse.send(to, 'FirmwareProgress', data);
  } catch (err) {
    ctx.log.warn({ err }, 'firmware live event not sent');
  }
}

/** The stations of a rollout's tasks. */
export async function rolloutSites(db: DbOrTx, rolloutId: number): Promise<number[]> {
  const rows = await db.selectDistinct({ siteId: firmwareTask.siteId }).from(firmwareTask).where(eq(firmwareTask.rolloutId, rolloutId));
  return rows.map((r) => r.siteId);
}

export async function lockRollout(tx: DbOrTx, id: number) {
  const [r] = await tx.select().from(firmwareRollout).where(eq(firmwareRollout.id, id)).for('update');
  return r ?? null;
}
