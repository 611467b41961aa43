import { z } from 'zod';
import { commandPayloadSchema, firmwareInfoSchema } from './telemetry.ts';

/**
 * Firmware upgrade (OTA) and log capture over MQTT: the device side of issue 22. Described for
 * humans in docs/mqtt.md ("Firmware upgrade (OTA)" and "Log upload"); the simulator implements it
 * (apps/simulator/src/ota.ts), the server's firmware module sends the commands and follows the
 * reports.
 *
 * - `otaDownload` → reply (ok = "issued success"), then reports on `ess/{site}/{device}/ota`:
 *   `downloading` (progress), `downloaded` (SHA-256 verified, staged) or `downloadFailed` /
 *   `verifyFailed`. A device already on the version answers `{ alreadyCurrent: true }` and
 *   reports `success` at once.
 * - `otaFlash` → `flashing`, the device goes offline (status), reboots, comes online with the new
 *   `firmware` on its status and reports `success` (or `flashFailed`, keeping the old version).
 * - `logUpload` → reply, then reports on `ess/{site}/{device}/log`: `uploading`, `uploaded` (bytes)
 *   or `failed`. The server marks "upload timeout" itself.
 */

const epochMs = z.number().int().nonnegative();
const id = z.number().int().positive();
const reason = z.string().max(500);

/** Lower-case hex SHA-256 of the package file, as the server computes it. */
export const sha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lower-case hex digits');

/** An absolute http(s) URL (the server's package download or log upload, with its short-lived token). */
const httpUrl = z
  .string()
  .max(2048)
  .refine((u) => {
    try {
      const p = new URL(u).protocol;
      return p === 'http:' || p === 'https:';
    } catch {
      return false;
    }
  }, 'url must be an absolute http(s) URL');

export const OTA_COMMAND_NAMES = ['otaDownload', 'otaFlash', 'otaCancel', 'logUpload'] as const;
export type OtaCommandName = (typeof OTA_COMMAND_NAMES)[number];

/** Download `url` (GET, resumable with Range), check its size and SHA-256, stage it for `otaFlash`. */
export const otaDownloadParams = z.object({
  taskId: id,
  name: firmwareInfoSchema.shape.name,
  version: firmwareInfoSchema.shape.version,
  url: httpUrl,
  sha256: sha256HexSchema,
  size: z.number().int().nonnegative(),
});
export type OtaDownloadParams = z.infer<typeof otaDownloadParams>;
/** Reply result of otaDownload: `{}` when the download starts, `{ alreadyCurrent: true }` when the device runs that version already. */
export const otaDownloadResult = z.object({ alreadyCurrent: z.boolean().optional() });
export type OtaDownloadResult = z.infer<typeof otaDownloadResult>;

/** Flash the package staged for `taskId` (ok: false with an error when none is staged or it is another version). */
export const otaFlashParams = z.object({ taskId: id, version: firmwareInfoSchema.shape.version });
export type OtaFlashParams = z.infer<typeof otaFlashParams>;
export const otaFlashResult = z.object({ taskId: id, version: firmwareInfoSchema.shape.version });
export type OtaFlashResult = z.infer<typeof otaFlashResult>;

/** Stop the task's download or drop its staged package; `cancelled` says whether there was one. */
export const otaCancelParams = z.object({ taskId: id });
export type OtaCancelParams = z.infer<typeof otaCancelParams>;
export const otaCancelResult = z.object({ cancelled: z.boolean() });
export type OtaCancelResult = z.infer<typeof otaCancelResult>;

/** Upload the device's log of [from, to] (epoch ms) by HTTP PUT to `url` (text/plain, or gzip with Content-Encoding). */
export const logUploadParams = z
  .object({ captureId: id, from: epochMs, to: epochMs, url: httpUrl })
  .refine((p) => p.from <= p.to, { message: 'from must not be after to', path: ['from'] });
export type LogUploadParams = z.infer<typeof logUploadParams>;
export const logUploadResult = z.object({ captureId: id });
export type LogUploadResult = z.infer<typeof logUploadResult>;

const commandBase = { requestId: z.string().min(1).max(64), ts: epochMs };

/** The OTA and log commands on `ess/{site}/{device}/command` (server → device). */
export const otaCommandPayloadSchema = z.discriminatedUnion('command', [
  z.object({ ...commandBase, command: z.literal('otaDownload'), params: otaDownloadParams }),
  z.object({ ...commandBase, command: z.literal('otaFlash'), params: otaFlashParams }),
  z.object({ ...commandBase, command: z.literal('otaCancel'), params: otaCancelParams }),
  z.object({ ...commandBase, command: z.literal('logUpload'), params: logUploadParams }),
]);
export type OtaCommandPayload = z.infer<typeof otaCommandPayloadSchema>;

/** Every command a device may receive: the thing model's (commandPayloadSchema) and the OTA/log ones. */
export const deviceCommandPayloadSchema = z.union([commandPayloadSchema, otaCommandPayloadSchema]);
export type DeviceCommandPayload = z.infer<typeof deviceCommandPayloadSchema>;
export type DeviceCommandName = DeviceCommandPayload['command'];

export function isOtaCommand(name: string): name is OtaCommandName {
  return (OTA_COMMAND_NAMES as readonly string[]).includes(name);
}

// ── Reports ───────────────────────────────────────────────────────────────────────────

/**
 * Steps a device reports on `ess/{site}/{device}/ota`. `downloading` carries progress 0–100;
 * `success` carries the firmware it now runs (after the reboot, or at once when already current).
 */
export const OTA_STEPS = ['downloading', 'downloaded', 'downloadFailed', 'verifyFailed', 'flashing', 'flashFailed', 'success'] as const;
export type OtaStep = (typeof OTA_STEPS)[number];
/** Steps after which the device does nothing more for the task (downloaded waits for otaFlash). */
export const OTA_FINAL_STEPS: ReadonlySet<OtaStep> = new Set(['downloadFailed', 'verifyFailed', 'flashFailed', 'success']);

/** `ess/{site}/{device}/ota`, device → server, QoS 1, not retained. */
export const otaReportSchema = z
  .object({
    ts: epochMs,
    taskId: id,
    step: z.enum(OTA_STEPS),
    progress: z.number().min(0).max(100).optional(),
    reason: reason.optional(),
    firmware: firmwareInfoSchema.optional(),
  })
  .superRefine((r, ctx) => {
    if (r.step === 'success' && !r.firmware) ctx.addIssue({ code: 'custom', path: ['firmware'], message: 'success must carry the firmware the device runs' });
    if (r.step === 'downloading' && r.progress === undefined) ctx.addIssue({ code: 'custom', path: ['progress'], message: 'downloading must carry progress' });
  });
export type OtaReport = z.infer<typeof otaReportSchema>;

export const LOG_UPLOAD_STATES = ['uploading', 'uploaded', 'failed'] as const;
export type LogUploadState = (typeof LOG_UPLOAD_STATES)[number];

/** `ess/{site}/{device}/log`, device → server, QoS 1, not retained. `bytes`: the size of the uploaded file. */
export const logReportSchema = z.object({
  ts: epochMs,
  captureId: id,
  state: z.enum(LOG_UPLOAD_STATES),
  bytes: z.number().int().nonnegative().optional(),
  reason: reason.optional(),
});
export type LogReport = z.infer<typeof logReportSchema>;

// ── Fault injection (the simulator's, for tests and demos) ────────────────────────────

/**
 * Where a simulated device fails: `issue` = replies ok:false to otaDownload, `download` =
 * downloadFailed, `verify` = the bytes arrive corrupted → verifyFailed, `flash` = flashFailed (the
 * old version stays), `log` = the log upload fails, `cut` = the station's connection breaks as an
 * otaFlash arrives: the command is lost with it (once; the station reconnects).
 */
export const OTA_FAULT_POINTS = ['issue', 'download', 'verify', 'flash', 'log', 'cut'] as const;
export type OtaFaultPoint = (typeof OTA_FAULT_POINTS)[number];
