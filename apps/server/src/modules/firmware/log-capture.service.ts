import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, asc, desc, eq, ilike, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { FIRMWARE_DEVICE_LOG_PATH, FIRMWARE_ERRORS, FIRMWARE_LOG_STATES, type FirmwareLogDetail, type FirmwareLogDevice, type FirmwareLogRecord, type FirmwareLogState, firmwareLogAdd, firmwareLogPage } from '@ess/contract/firmware';
import type { LogReport, Page } from '@ess/contract';
import { device } from '../../db/schema/device.ts';
import { firmwareLogCapture, firmwareLogDevice } from '../../db/schema/firmware.ts';
import { site } from '../../db/schema/site.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { assertCompany, inCompanyScope, inSiteScope } from '../../platform/http/scope.ts';
import { sendFile } from '../../platform/xlsx/xlsx.ts';
import { commandChannel } from '../monitor/index.ts';
import type { RegisteredDevice } from '../telemetry/index.ts';
import { signDeviceToken, verifyDeviceToken } from './device-token.ts';
import { assertTargetScope } from './rollout.targets.ts';
import { firmwareLogDir, firmwareSettings } from './setting.service.ts';
import { sendProgress } from './task.state.ts';

/**
 * Log capture (issue 22 item 6): selected devices are asked (`logUpload`) to PUT their log of a
 * time range to a token-authorised URL; per device: pending (command not yet answered),
 * uploading, upload complete, upload timeout (nothing completed within the capture's timeout,
 * marked by the engine's pass), upload failed. The files live under <dataDir>/firmware-logs;
 * the console downloads each device's file within the caller's stations.
 */
type Add = z.output<typeof firmwareLogAdd>;
type PageReq = z.output<typeof firmwareLogPage>;

/** Largest log file a device may upload. */
export const LOG_MAX_BYTES = 64 * 1024 * 1024;
export const CAPTURE_NOT_FOUND = '日志抓取任务不存在';
export const LOG_NO_FILE = '该设备尚未上传日志';
export const LOG_TOO_LARGE = `日志文件超过大小上限 ${LOG_MAX_BYTES / 1024 / 1024} MB`;
export const LOG_CLOSED = '该设备的日志上传已结束';
/** A pending command not answered within this is sent again (another instance, a restart). */
const LOG_LEASE_MS = 60_000;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function logAdd(ctx: AppContext, user: AuthUser, body: Add): Promise<{ id: number }> {
  await assertCompany(ctx.db, user, body.companyId);
  await assertTargetScope(ctx.db, user, { packageId: 0, siteIds: [], productIds: [], versions: [], deviceIds: body.deviceIds });
  const devices = await ctx.db.select({ id: device.id, siteId: device.siteId, companyId: site.companyId }).from(device).innerJoin(site, eq(site.id, device.siteId)).where(inArray(device.id, body.deviceIds));
  const s = await firmwareSettings(ctx.db);
  const timeout = body.timeoutMinutes ?? s.logTimeoutMinutes;
  const now = new Date();
  const id = await ctx.db.transaction(async (tx) => {
    const [c] = await tx
      .insert(firmwareLogCapture)
      .values({ companyId: body.companyId, name: body.name, fromAt: new Date(body.from), toAt: new Date(body.to), timeoutMinutes: timeout, remark: body.remark, createdBy: user.id })
      .returning({ id: firmwareLogCapture.id });
    await tx.insert(firmwareLogDevice).values(devices.map((d) => ({ captureId: c!.id, deviceId: d.id, siteId: d.siteId, deadlineAt: new Date(now.getTime() + timeout * 60_000) })));
    return c!.id;
  });
  return { id };
}

async function captureOf(db: DbOrTx, user: AuthUser, id: number) {
  const [c] = await db.select().from(firmwareLogCapture).where(and(eq(firmwareLogCapture.id, id), inCompanyScope(firmwareLogCapture.companyId, db, user)));
  return found(c, CAPTURE_NOT_FOUND);
}

export async function logDelete(ctx: AppContext, user: AuthUser, id: number): Promise<boolean> {
  const c = await captureOf(ctx.db, user, id);
  const files = await ctx.db.select({ key: firmwareLogDevice.storageKey }).from(firmwareLogDevice).where(eq(firmwareLogDevice.captureId, c.id));
  await ctx.db.delete(firmwareLogCapture).where(eq(firmwareLogCapture.id, c.id));
  for (const f of files) if (f.key) await rm(join(firmwareLogDir(ctx), f.key), { force: true });
  return true;
}

async function countsOf(db: DbOrTx, ids: number[]) {
  const out = new Map<number, FirmwareLogRecord['counts']>();
  if (!ids.length) return out;
  const rows = await db
    .select({ id: firmwareLogDevice.captureId, state: firmwareLogDevice.state, n: sql<number>`count(*)::int` })
    .from(firmwareLogDevice)
    .where(inArray(firmwareLogDevice.captureId, ids))
    .groupBy(firmwareLogDevice.captureId, firmwareLogDevice.state);
  for (const r of rows) {
    const c = out.get(r.id) ?? ({ total: 0, ...Object.fromEntries(FIRMWARE_LOG_STATES.map((s) => [s, 0])) } as FirmwareLogRecord['counts']);
    c[r.state as FirmwareLogState] = Number(r.n);
    c.total += Number(r.n);
    out.set(r.id, c);
  }
  return out;
}

/** Captures whose devices all lie in the caller's stations. */
const capturesVisible = (db: DbOrTx, user: AuthUser): SQL =>
  sql`not exists (select 1 from firmware_log_device where ${firmwareLogDevice.captureId} = ${firmwareLogCapture.id} and not (${inSiteScope(firmwareLogDevice.siteId, db, user)}))`;

async function captureRecords(ctx: AppContext, where: SQL | undefined, limit: number, offset: number): Promise<FirmwareLogRecord[]> {
  const rows = await ctx.db
    .select({ c: firmwareLogCapture, companyName: company.name, createdByName: appUser.name })
    .from(firmwareLogCapture)
    .innerJoin(company, eq(company.id, firmwareLogCapture.companyId))
    .leftJoin(appUser, eq(appUser.id, firmwareLogCapture.createdBy))
    .where(where)
    .orderBy(desc(firmwareLogCapture.id))
    .limit(limit)
    .offset(offset);
  const counts = await countsOf(ctx.db, rows.map((r) => r.c.id));
  return rows.map(({ c, companyName, createdByName }) => ({
    id: c.id, companyId: c.companyId, companyName, name: c.name, from: c.fromAt.toISOString(), to: c.toAt.toISOString(), timeoutMinutes: c.timeoutMinutes,
    state: c.state as FirmwareLogRecord['state'], remark: c.remark,
    counts: counts.get(c.id) ?? ({ total: 0, ...Object.fromEntries(FIRMWARE_LOG_STATES.map((s) => [s, 0])) } as FirmwareLogRecord['counts']),
    finishedAt: iso(c.finishedAt), createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString(), createdByName: createdByName ?? null,
  }));
}

export async function logPage(ctx: AppContext, user: AuthUser, q: PageReq): Promise<Page<FirmwareLogRecord>> {
  const where = and(
    inCompanyScope(firmwareLogCapture.companyId, ctx.db, user),
    capturesVisible(ctx.db, user),
    q.name ? ilike(firmwareLogCapture.name, `%${q.name.replace(/[\\%_]/g, (c) => '\\' + c)}%`) : undefined,
    q.companyId ? eq(firmwareLogCapture.companyId, q.companyId) : undefined,
    q.state ? eq(firmwareLogCapture.state, q.state) : undefined,
    q.siteId ? sql`exists (select 1 from firmware_log_device where ${firmwareLogDevice.captureId} = ${firmwareLogCapture.id} and ${firmwareLogDevice.siteId} = ${q.siteId})` : undefined,
  );
  const [{ n } = { n: 0 }] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(firmwareLogCapture).where(where);
  const records = Number(n) ? await captureRecords(ctx, where, q.pageSize, (q.current - 1) * q.pageSize) : [];
  return { records, total: Number(n), current: q.current, pageSize: q.pageSize };
}

export async function logOne(ctx: AppContext, user: AuthUser, id: number): Promise<FirmwareLogDetail> {
  const [rec] = await captureRecords(ctx, and(eq(firmwareLogCapture.id, id), inCompanyScope(firmwareLogCapture.companyId, ctx.db, user), capturesVisible(ctx.db, user)), 1, 0);
  const c = found(rec, CAPTURE_NOT_FOUND);
  const rows = await ctx.db
    .select({ r: firmwareLogDevice, code: device.code, name: device.name, siteName: site.name })
    .from(firmwareLogDevice)
    .innerJoin(device, eq(device.id, firmwareLogDevice.deviceId))
    .innerJoin(site, eq(site.id, firmwareLogDevice.siteId))
    .where(eq(firmwareLogDevice.captureId, id))
    .orderBy(asc(site.name), asc(device.code));
  const devices: FirmwareLogDevice[] = rows.map(({ r, ...x }) => ({
    id: r.id, deviceId: r.deviceId, deviceCode: x.code, deviceName: x.name, siteId: r.siteId, siteName: x.siteName, state: r.state as FirmwareLogState,
    bytes: r.bytes, reason: r.reason, issuedAt: iso(r.issuedAt), finishedAt: iso(r.finishedAt), hasFile: r.storageKey !== null,
  }));
  return { ...c, devices };
}

export async function logDownload(ctx: AppContext, user: AuthUser, rowId: number, reply: FastifyReply) {
  const [row] = await ctx.db
    .select({ r: firmwareLogDevice, code: device.code, captureName: firmwareLogCapture.name })
    .from(firmwareLogDevice)
    .innerJoin(firmwareLogCapture, eq(firmwareLogCapture.id, firmwareLogDevice.captureId))
    .innerJoin(device, eq(device.id, firmwareLogDevice.deviceId))
    .where(and(eq(firmwareLogDevice.id, rowId), inCompanyScope(firmwareLogCapture.companyId, ctx.db, user), inSiteScope(firmwareLogDevice.siteId, ctx.db, user)));
  const r = found(row, '日志不存在');
  if (!r.r.storageKey) throw new AppError('NOT_FOUND', LOG_NO_FILE);
  const path = join(firmwareLogDir(ctx), r.r.storageKey);
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw new AppError('NOT_FOUND', LOG_NO_FILE);
  const gz = r.r.contentType?.includes('gzip') ?? false;
  reply.header('content-length', String(info.size)).header('x-content-type-options', 'nosniff');
  return sendFile(reply, `${r.code}-${r.r.captureId}.log${gz ? '.gz' : ''}`, gz ? 'application/gzip' : 'text/plain; charset=utf-8', createReadStream(path));
}

// ── The device's side ─────────────────────────────────────────────────────────────────

/** The device's PUT of its log file (FIRMWARE_DEVICE_LOG_PATH?token=…): the token is the authority; the size is limited. */
export async function logPut(ctx: AppContext, req: FastifyRequest, body: Readable): Promise<{ bytes: number }> {
  const token = typeof (req.query as { token?: unknown }).token === 'string' ? (req.query as { token: string }).token : '';
  const claims = verifyDeviceToken(ctx.config.secretKey, token, 'log');
  if (!claims) throw new AppError('UNAUTHENTICATED', FIRMWARE_ERRORS.tokenInvalid);
  const [row] = await ctx.db.select().from(firmwareLogDevice).where(and(eq(firmwareLogDevice.id, claims.logId), eq(firmwareLogDevice.captureId, claims.captureId), eq(firmwareLogDevice.deviceId, claims.deviceId)));
  if (!row) throw new AppError('UNAUTHENTICATED', FIRMWARE_ERRORS.tokenInvalid);
  if (row.state !== 'pending' && row.state !== 'uploading') throw new AppError('RULE_VIOLATION', LOG_CLOSED);
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > LOG_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', LOG_TOO_LARGE);
  const dir = firmwareLogDir(ctx);
  await mkdir(dir, { recursive: true });
  const key = `${row.id}-${randomBytes(8).toString('hex')}.log`;
  const path = join(dir, key);
  let bytes = 0;
  try {
    await pipeline(
      body,
      async function* limit(src: AsyncIterable<Buffer>) {
        for await (const chunk of src) {
          bytes += chunk.length;
          if (bytes > LOG_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', LOG_TOO_LARGE);
          yield chunk;
        }
      },
      createWriteStream(path),
    );
  } catch (err) {
    await rm(path, { force: true });
    throw err;
  }
  const gz = String(req.headers['content-type'] ?? '').includes('gzip') || String(req.headers['content-encoding'] ?? '').includes('gzip');
  const now = new Date();
  const [done] = await ctx.db
    .update(firmwareLogDevice)
    .set({ state: 'uploaded', bytes, storageKey: key, contentType: gz ? 'application/gzip' : 'text/plain', reason: null, finishedAt: now, updatedAt: now })
    .where(and(eq(firmwareLogDevice.id, row.id), inArray(firmwareLogDevice.state, ['pending', 'uploading'])))
    .returning({ id: firmwareLogDevice.id });
  if (!done) {
    await rm(path, { force: true });
    throw new AppError('RULE_VIOLATION', LOG_CLOSED);
  }
  if (row.storageKey) await rm(join(dir, row.storageKey), { force: true });
  await finishCaptures(ctx, [row.captureId]);
  await sendProgress(ctx, [row.siteId], { captureId: row.captureId });
  return { bytes };
}

/** The device's `log` report: uploading, uploaded (the PUT already recorded the file), failed. */
export async function onLogReport(ctx: AppContext, dev: RegisteredDevice, r: LogReport): Promise<void> {
  const now = new Date();
  const set =
    r.state === 'uploading' ? { state: 'uploading', issuedAt: sql`coalesce(${firmwareLogDevice.issuedAt}, ${now})` }
    : r.state === 'failed' ? { state: 'failed', reason: r.reason ?? '设备上传失败', finishedAt: now }
    : null;
  if (!set) return;
  const from = r.state === 'uploading' ? ['pending'] : ['pending', 'uploading'];
  const [row] = await ctx.db
    .update(firmwareLogDevice)
    .set({ ...set, updatedAt: now })
    .where(and(eq(firmwareLogDevice.captureId, r.captureId), eq(firmwareLogDevice.deviceId, dev.id), inArray(firmwareLogDevice.state, from)))
    .returning({ captureId: firmwareLogDevice.captureId, siteId: firmwareLogDevice.siteId });
  if (!row) return;
  await finishCaptures(ctx, [row.captureId]);
  await sendProgress(ctx, [row.siteId], { captureId: row.captureId });
}

/** Marks captures finished once every device ended. */
async function finishCaptures(ctx: AppContext, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await ctx.db
    .update(firmwareLogCapture)
    .set({ state: 'finished', finishedAt: new Date(), updatedAt: new Date() })
    .where(and(
      inArray(firmwareLogCapture.id, ids), eq(firmwareLogCapture.state, 'running'),
      sql`not exists (select 1 from firmware_log_device where ${firmwareLogDevice.captureId} = ${firmwareLogCapture.id} and ${firmwareLogDevice.state} in ('pending', 'uploading'))`,
    ));
}

/**
 * The engine's part: sends `logUpload` to pending devices (claimed with a lease, so several
 * instances and restarts send once, or again only when no answer came), and marks "upload timeout"
 * where nothing completed by the capture's deadline.
 */
export async function logCapturePass(ctx: AppContext, baseUrl: string, track: (p: Promise<unknown>) => void): Promise<void> {
  const now = new Date();
  const expired = await ctx.db
    .update(firmwareLogDevice)
    .set({ state: 'timeout', reason: '在超时前未完成上传', finishedAt: now, updatedAt: now })
    .where(and(inArray(firmwareLogDevice.state, ['pending', 'uploading']), lt(firmwareLogDevice.deadlineAt, now)))
    .returning({ captureId: firmwareLogDevice.captureId, siteId: firmwareLogDevice.siteId });
  if (expired.length) {
    const ids = [...new Set(expired.map((e) => e.captureId))];
    await finishCaptures(ctx, ids);
    for (const id of ids) await sendProgress(ctx, expired.filter((e) => e.captureId === id).map((e) => e.siteId), { captureId: id });
  }
  const s = await firmwareSettings(ctx.db);
  const claimed = await ctx.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: firmwareLogDevice.id })
      .from(firmwareLogDevice)
      .where(and(eq(firmwareLogDevice.state, 'pending'), or(isNull(firmwareLogDevice.commandId), lt(firmwareLogDevice.updatedAt, new Date(now.getTime() - LOG_LEASE_MS)))))
      .orderBy(asc(firmwareLogDevice.id))
      .limit(50)
      .for('update', { skipLocked: true });
    if (!due.length) return [];
    const commandId = randomUUID();
    await tx.update(firmwareLogDevice).set({ commandId, updatedAt: now }).where(inArray(firmwareLogDevice.id, due.map((d) => d.id)));
    return tx
      .select({ id: firmwareLogDevice.id, captureId: firmwareLogDevice.captureId, deviceId: firmwareLogDevice.deviceId, siteId: firmwareLogDevice.siteId, code: device.code, siteCode: site.code, from: firmwareLogCapture.fromAt, to: firmwareLogCapture.toAt, deadlineAt: firmwareLogDevice.deadlineAt })
      .from(firmwareLogDevice)
      .innerJoin(device, eq(device.id, firmwareLogDevice.deviceId))
      .innerJoin(site, eq(site.id, firmwareLogDevice.siteId))
      .innerJoin(firmwareLogCapture, eq(firmwareLogCapture.id, firmwareLogDevice.captureId))
      .where(inArray(firmwareLogDevice.id, due.map((d) => d.id)));
  });
  const ch = commandChannel(ctx);
  for (const r of claimed) {
    const ttl = Math.max(60_000, (r.deadlineAt?.getTime() ?? now.getTime()) - now.getTime() + 60_000, s.tokenTtlMinutes * 60_000);
    const token = signDeviceToken(ctx.config.secretKey, { kind: 'log', logId: r.id, captureId: r.captureId, deviceId: r.deviceId }, ttl);
    const params = { captureId: r.captureId, from: r.from.getTime(), to: r.to.getTime(), url: `${baseUrl}/api/manager${FIRMWARE_DEVICE_LOG_PATH}?token=${token}` };
    track((async () => {
      if (!ch) return;
      const { outcome } = await ch.send(r.siteCode, r.code, 'logUpload', params, s.commandTimeoutSeconds * 1000);
      // No answer: pending still; sent again after the lease, until the deadline.
      if (outcome.kind === 'timeout') return;
      const at = new Date();
      const set = outcome.reply.ok
        ? { state: 'uploading', issuedAt: at, updatedAt: at }
        : { state: 'failed', reason: outcome.reply.error ?? '设备拒绝了日志上传命令', finishedAt: at, updatedAt: at };
      const [moved] = await ctx.db.update(firmwareLogDevice).set(set).where(and(eq(firmwareLogDevice.id, r.id), eq(firmwareLogDevice.state, 'pending'))).returning({ id: firmwareLogDevice.id });
      if (!moved) return;
      await finishCaptures(ctx, [r.captureId]);
      await sendProgress(ctx, [r.siteId], { captureId: r.captureId });
    })().catch((err: unknown) => ctx.log.warn({ err, logId: r.id }, 'logUpload not sent')));
  }
}
