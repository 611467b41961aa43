import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import { API_BASE, SUCCESS_CODE } from '@ess/contract';
import { FIRMWARE_DEVICE_LOG_PATH } from '@ess/contract/firmware';
import type { AppContext } from '../../platform/context.ts';
import { writeThroughOutage } from '../../platform/db/outage.ts';
import { perApp } from '../../platform/module.ts';
import { addIngestRules, type IngestRules } from '../telemetry/index.ts';
import { LOG_MAX_BYTES, logCapturePass, logPut, onLogReport } from './log-capture.service.ts';
import { ENGINE_INTERVAL_MS, RECORD_WITHIN_MS, enginePass, kickEngine, startEngine, stopEngine } from './task.engine.ts';
import { onOtaReport, onStatusFirmware } from './task.reports.ts';

/**
 * The firmware module's running parts: the engine's periodic pass (jobs role), the ingest sink
 * for `ota` / `log` reports and the firmware a status carries (ingest role), the device's log PUT
 * (api role), and the address devices reach the server at (their download and upload URLs).
 */
const servers = perApp<FastifyInstance>('firmware http');

/**
 * Where devices reach this server: the configured FIRMWARE_PUBLIC_URL (platform/config.ts), else
 * the address the server listens on (0.0.0.0 / :: as 127.0.0.1: the simulator runs beside it).
 */
export function deviceBaseUrl(ctx: AppContext): string {
  if (ctx.config.firmwarePublicUrl) return ctx.config.firmwarePublicUrl;
  const app = servers.get(ctx);
  const addr = app?.server.address();
  const port = addr && typeof addr === 'object' ? addr.port : ctx.config.port;
  const host = !ctx.config.host || ctx.config.host === '0.0.0.0' || ctx.config.host === '::' ? '127.0.0.1' : ctx.config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export function firmwareJobs(ctx: AppContext): void {
  startEngine(ctx, () => deviceBaseUrl(ctx));
  ctx.jobs.every(ENGINE_INTERVAL_MS, async () => {
    await enginePass(ctx);
    await logCapturePass(ctx, deviceBaseUrl(ctx), () => undefined);
  });
}

/** Whether the instance is stopping (a report held through a database outage is then given up). */
const stopping = perApp<{ stopped: boolean }>('firmware reports');

/**
 * A device's report is a record of something that already happened on the device: it is held
 * through a database outage and written when the database is back (writeThroughOutage), the
 * reports of one task in their order of arrival (a later step never lands before an earlier one).
 */
function reportQueue(ctx: AppContext) {
  const state = { stopped: false };
  stopping.set(ctx, state);
  const chains = new Map<string, Promise<void>>();
  return (key: string, write: () => Promise<void>, what: string, extra: Record<string, unknown>): Promise<void> => {
    const run = (chains.get(key) ?? Promise.resolve())
      .then(() => writeThroughOutage(write, RECORD_WITHIN_MS, () => state.stopped))
      .catch((err: unknown) => ctx.log.error({ err, ...extra }, what));
    chains.set(key, run);
    void run.finally(() => {
      if (chains.get(key) === run) chains.delete(key);
    });
    return run;
  };
}

export function firmwareStart(ctx: AppContext): Promise<void> {
  const kick = () => kickEngine(ctx);
  const queue = reportQueue(ctx);
  const sink: IngestRules = {
    report: () => undefined,
    event: () => undefined,
    flush: () => Promise.resolve(),
    start: () => Promise.resolve(),
    stop: () => Promise.resolve(),
    otaReport: (dev, r) => queue(`task:${r.taskId}`, () => onOtaReport(ctx, dev, r, kick), 'ota report not recorded', { taskId: r.taskId }),
    logReport: (dev, r) => queue(`log:${r.captureId}:${dev.id}`, () => onLogReport(ctx, dev, r), 'log report not recorded', { captureId: r.captureId }),
    statusFirmware: (dev, fw) => queue(`device:${dev.id}`, () => onStatusFirmware(ctx, dev, fw, kick), 'device firmware not recorded', { deviceId: dev.id }),
  };
  if (ctx.config.roles.has('ingest')) addIngestRules(ctx, sink);
  return Promise.resolve();
}

export async function firmwareStop(ctx: AppContext): Promise<void> {
  const s = stopping.get(ctx);
  if (s) s.stopped = true;
  stopping.delete(ctx);
  await stopEngine(ctx);
  servers.delete(ctx);
}

/** The device's log upload: PUT FIRMWARE_DEVICE_LOG_PATH?token=… with the file as the body (any type, streamed, size-limited). */
export async function firmwareHttp(app: FastifyInstance, ctx: AppContext): Promise<void> {
  servers.set(ctx, app);
  await app.register((scope, _opts, next) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    scope.put(API_BASE + FIRMWARE_DEVICE_LOG_PATH, { bodyLimit: LOG_MAX_BYTES }, async (req) => {
      const data = await logPut(ctx, req, req.body as Readable);
      return { errorCode: SUCCESS_CODE, tipMsg: '', errorMsg: '', data };
    });
    next();
  });
}
