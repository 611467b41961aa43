import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { FirmwareInfo, OtaReport } from '@ess/contract';
import type { FirmwareTaskState } from '@ess/contract/firmware';
import { firmwareTask } from '../../db/schema/firmware.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { RegisteredDevice } from '../telemetry/index.ts';
import { firmwareSettings } from './setting.service.ts';
import { addStep, moveTask, recordFirmware, sendProgress, type TaskChange } from './task.state.ts';

/**
 * The device's `ota` reports drive its task (docs/mqtt.md "Firmware upgrade (OTA)"): downloading
 * (progress), downloaded (verified, staged: waits for the window and the gate), download failed,
 * verify failed, flashing, flash failed, success (the device's firmware recorded from what it
 * reports). A report that does not fit the task's state (a late duplicate, another task's) changes
 * nothing. A success after the server gave up on a silent device (upgrade failed) is believed: the
 * device runs the version.
 */
const BEFORE_FLASH: FirmwareTaskState[] = ['pendingStart', 'issuedSuccess', 'downloading'];

export async function onOtaReport(ctx: AppContext, dev: RegisteredDevice, r: OtaReport, kick: () => void): Promise<void> {
  const [task] = await ctx.db.select().from(firmwareTask).where(and(eq(firmwareTask.id, r.taskId), eq(firmwareTask.deviceId, dev.id)));
  if (!task) return;
  const s = await firmwareSettings(ctx.db);
  const now = new Date();
  const inMin = (m: number) => new Date(now.getTime() + m * 60_000);
  const reason = r.reason ?? null;
  let from: FirmwareTaskState[];
  let change: TaskChange;
  switch (r.step) {
    case 'downloading': {
      const progress = Math.round(r.progress ?? 0);
      if (task.state === 'downloading') {
        // Progress only: no step of its own.
        await ctx.db.update(firmwareTask).set({ progress, deadlineAt: inMin(s.downloadTimeoutMinutes), updatedAt: now }).where(and(eq(firmwareTask.id, task.id), eq(firmwareTask.state, 'downloading')));
        await sendProgress(ctx, [task.siteId], { rolloutId: task.rolloutId });
        return;
      }
      from = ['pendingStart', 'issuedSuccess'];
      change = { state: 'downloading', progress, set: { deadlineAt: inMin(s.downloadTimeoutMinutes) } };
      break;
    }
    case 'downloaded':
      from = BEFORE_FLASH;
      change = { state: 'downloaded', progress: 100, set: { deadlineAt: null } };
      break;
    case 'downloadFailed':
    case 'verifyFailed':
      from = [...BEFORE_FLASH, 'downloaded'];
      change = { state: r.step, reason: reason ?? (r.step === 'verifyFailed' ? 'SHA-256 校验失败' : '下载失败') };
      break;
    case 'flashing':
      from = ['downloaded'];
      change = { state: 'flashing', set: { deadlineAt: inMin(s.flashTimeoutMinutes) } };
      break;
    case 'flashFailed':
      from = ['downloaded', 'flashing'];
      change = { state: 'flashFailed', reason: reason ?? '刷写失败' };
      break;
    case 'success': {
      const fw = r.firmware!;
      from = [...BEFORE_FLASH, 'downloaded', 'flashing', 'upgradeFailed', 'issuedFailed'];
      change = fw.version === task.toVersion
        ? { state: 'success', progress: 100, reason: task.flashedAt ? null : (reason ?? '设备已是目标版本'), set: { reportedVersion: fw.version } }
        : { state: 'flashFailed', reason: `设备报告的版本 ${fw.version} 不是目标版本 ${task.toVersion}`, set: { reportedVersion: fw.version } };
      break;
    }
  }
  const moved = await ctx.db.transaction(async (tx) => {
    if (from.includes('pendingStart')) await issuedByReport(tx, task.id, now);
    const row = await moveTask(tx, task.id, from, change, now);
    if (row && r.step === 'success') await recordFirmware(tx, dev.id, r.firmware!.name, r.firmware!.version);
    return row;
  });
  if (!moved) return;
  ctx.outbox.nudge();
  await sendProgress(ctx, [task.siteId], { rolloutId: task.rolloutId });
  kick();
}

/**
 * A device reporting on a task whose command's reply has not come (lost with the broker, or late
 * on a busy server) had the command: the task is issued, with its step, before the report's own.
 * The reply, if it still comes, adds nothing (issuedAt is set).
 */
async function issuedByReport(tx: DbOrTx, taskId: number, now: Date): Promise<void> {
  const [row] = await tx
    .update(firmwareTask)
    .set({ issuedAt: now, updatedAt: now })
    .where(and(eq(firmwareTask.id, taskId), eq(firmwareTask.state, 'pendingStart'), isNull(firmwareTask.issuedAt)))
    .returning({ id: firmwareTask.id });
  if (row) await addStep(tx, taskId, 'issuedSuccess', {}, now);
}

/**
 * The firmware a device says it runs when it comes online (status): kept on the device. A task whose
 * flash was issued and that comes back on the target version succeeded even if its `success` report
 * was lost (the server restarted meanwhile): the device is not flashed again.
 */
export async function onStatusFirmware(ctx: AppContext, dev: RegisteredDevice, fw: FirmwareInfo, kick: () => void): Promise<void> {
  await recordFirmware(ctx.db, dev.id, fw.name, fw.version);
  const [task] = await ctx.db
    .select()
    .from(firmwareTask)
    .where(and(eq(firmwareTask.deviceId, dev.id), eq(firmwareTask.toVersion, fw.version), inArray(firmwareTask.state, ['downloaded', 'flashing']), isNotNull(firmwareTask.flashedAt)))
    .limit(1);
  if (!task) return;
  const moved = await ctx.db.transaction((tx) =>
    moveTask(tx, task.id, ['downloaded', 'flashing'], { state: 'success', progress: 100, reason: '设备上线时报告已运行目标版本', set: { reportedVersion: fw.version } }),
  );
  if (!moved) return;
  ctx.outbox.nudge();
  await sendProgress(ctx, [task.siteId], { rolloutId: task.rolloutId });
  kick();
}
