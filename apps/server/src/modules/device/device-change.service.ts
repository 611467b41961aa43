import { and, count, desc, eq, gte, ilike, lte, or, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  DeviceChangeBody, DeviceChangeProduct, DeviceChangeRecord, DeviceImportRecord, Page, deviceChangePage, importHistoryPage,
} from '@ess/contract';
import { device, product } from '../../db/schema/device.ts';
import { deviceChange, deviceImport } from '../../db/schema/device-registry.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { pageOf } from '../../platform/http/paging.ts';
import { assertSites, inCompanyScope, inSiteScope } from '../../platform/http/scope.ts';
import { refreshRegistry } from './device-transfer.service.ts';

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Replaces the hardware at a device's position (docs/decisions/0008-device-change.md): the
 * device row keeps its id — station, parent, cabinet, position, product and every stored
 * report stay — and takes the new code (what the new hardware publishes under), barcode, name
 * and firmware version; the change record keeps both sides.
 */
export async function changeDevice(ctx: AppContext, user: AuthUser, b: DeviceChangeBody): Promise<DeviceChangeRecord> {
  const id = await ctx.db.transaction(async (tx) => {
    const [d] = await tx
      .select()
      .from(device)
      .where(and(eq(device.id, b.deviceId), inSiteScope(device.siteId, tx, user)))
      .for('update');
    if (!d) throw new AppError('NOT_FOUND', '设备不存在');
    if (b.newCode === d.code && (b.newBarcode ?? null) === d.barcode) {
      throw new AppError('RULE_VIOLATION', '新设备的编码和条码与原设备相同');
    }
    if (b.newCode !== d.code) {
      const [dup] = await tx.select({ id: device.id }).from(device).where(eq(device.code, b.newCode));
      if (dup) throw new AppError('DUPLICATE', `newCode: 设备编码 ${b.newCode} 已存在`);
    }
    const newName = b.newName ?? d.name;
    const newFirmwareVersion = b.newFirmwareVersion ?? d.firmwareVersion;
    const [c] = await tx
      .insert(deviceChange)
      .values({
        deviceId: d.id, siteId: d.siteId, productId: d.productId, oldCode: d.code, newCode: b.newCode, oldBarcode: d.barcode, newBarcode: b.newBarcode,
        oldName: d.name, newName, oldFirmwareVersion: d.firmwareVersion, newFirmwareVersion, reason: b.reason, userId: user.id, username: user.username,
      })
      .returning({ id: deviceChange.id });
    await tx
      .update(device)
      .set({ code: b.newCode, barcode: b.newBarcode, name: newName, firmwareVersion: newFirmwareVersion, updatedAt: new Date() })
      .where(eq(device.id, d.id));
    return c!.id;
  });
  await refreshRegistry(ctx);
  return changeOne(ctx, user, id);
}

const changeColumns = {
  id: deviceChange.id, deviceId: deviceChange.deviceId, siteId: deviceChange.siteId, siteName: site.name, productId: deviceChange.productId,
  productName: product.name, deviceType: device.type, oldCode: deviceChange.oldCode, newCode: deviceChange.newCode, oldBarcode: deviceChange.oldBarcode,
  newBarcode: deviceChange.newBarcode, oldName: deviceChange.oldName, newName: deviceChange.newName, oldFirmwareVersion: deviceChange.oldFirmwareVersion,
  newFirmwareVersion: deviceChange.newFirmwareVersion, reason: deviceChange.reason, username: deviceChange.username, changedAt: deviceChange.changedAt,
};

function selectChanges(ctx: AppContext) {
  return ctx.db
    .select(changeColumns)
    .from(deviceChange)
    .innerJoin(site, eq(site.id, deviceChange.siteId))
    .innerJoin(device, eq(device.id, deviceChange.deviceId))
    .innerJoin(product, eq(product.id, deviceChange.productId));
}

const toChange = (r: Omit<DeviceChangeRecord, 'changedAt'> & { changedAt: Date }): DeviceChangeRecord => ({ ...r, changedAt: r.changedAt.toISOString() });

export async function changeOne(ctx: AppContext, user: AuthUser, id: number): Promise<DeviceChangeRecord> {
  const [r] = await selectChanges(ctx).where(and(eq(deviceChange.id, id), inSiteScope(deviceChange.siteId, ctx.db, user)));
  if (!r) throw new AppError('NOT_FOUND', '更换记录不存在');
  return toChange(r);
}

export async function changePage(ctx: AppContext, user: AuthUser, req: z.infer<typeof deviceChangePage>): Promise<Page<DeviceChangeRecord>> {
  if (req.siteId) await assertSites(ctx.db, user, [req.siteId]);
  const where: SQL = and(
    inSiteScope(deviceChange.siteId, ctx.db, user),
    req.siteId ? eq(deviceChange.siteId, req.siteId) : undefined,
    req.deviceId ? eq(deviceChange.deviceId, req.deviceId) : undefined,
    req.keyword
      ? or(
          ilike(deviceChange.oldCode, escapeLike(req.keyword)), ilike(deviceChange.newCode, escapeLike(req.keyword)),
          ilike(deviceChange.oldBarcode, escapeLike(req.keyword)), ilike(deviceChange.newBarcode, escapeLike(req.keyword)),
        )
      : undefined,
    req.start ? gte(deviceChange.changedAt, req.start) : undefined,
    req.end ? lte(deviceChange.changedAt, req.end) : undefined,
  )!;
  return pageOf(ctx.db, deviceChange, where, req, async (limit, offset) =>
    (await selectChanges(ctx).where(where).orderBy(desc(deviceChange.changedAt), desc(deviceChange.id)).limit(limit).offset(offset)).map(toChange),
  );
}

/** Products that have devices at the station (the replace screen picks product, then device). */
export async function changeProducts(ctx: AppContext, user: AuthUser, siteId: number): Promise<DeviceChangeProduct[]> {
  await assertSites(ctx.db, user, [siteId]);
  const rows = await ctx.db
    .select({ productId: product.id, productCode: product.code, productName: product.name, type: product.type, deviceCount: count(device.id) })
    .from(device)
    .innerJoin(product, eq(product.id, device.productId))
    .where(eq(device.siteId, siteId))
    .groupBy(product.id, product.code, product.name, product.type)
    .orderBy(product.id);
  return rows.map((r) => ({ ...r, deviceCount: Number(r.deviceCount) }));
}

/** Imports of the caller's companies, newest first. */
export async function importHistoryPageOf(ctx: AppContext, user: AuthUser, req: z.infer<typeof importHistoryPage>): Promise<Page<DeviceImportRecord>> {
  const where: SQL = and(
    inCompanyScope(deviceImport.companyId, ctx.db, user),
    req.kind ? eq(deviceImport.kind, req.kind) : undefined,
    req.status ? eq(deviceImport.status, req.status) : undefined,
    req.fileName ? ilike(deviceImport.fileName, escapeLike(req.fileName)) : undefined,
  )!;
  return pageOf(ctx.db, deviceImport, where, req, async (limit, offset) => {
    const rows = await ctx.db
      .select()
      .from(deviceImport)
      .where(where)
      .orderBy(desc(deviceImport.createdAt), desc(deviceImport.id))
      .limit(limit)
      .offset(offset);
    return rows.map((r) => ({
      id: r.id, kind: r.kind as DeviceImportRecord['kind'], fileName: r.fileName, status: r.status as DeviceImportRecord['status'], totalRows: r.totalRows,
      createdCount: r.createdCount, updatedCount: r.updatedCount, errorCount: r.errorCount, errors: r.errors, username: r.username,
      durationMs: r.durationMs, createdAt: r.createdAt.toISOString(),
    }));
  });
}
