import { and, desc, eq, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyReply } from 'fastify';
import {
  DEFECT_NO_PREFIX, DEFECT_STATE_LABELS, MAINT_LEVEL_LABELS,
  type DefectAdd, type DefectEdit, type DefectFilter, type DefectRecord, type DefectState, type DeviceType, type MaintLevel, type Page, type StoredPhoto,
} from '@ess/contract';
import { device } from '../../db/schema/device.ts';
import { inspectionDefect, inspectionWorkOrder, inspectionWorkOrderItem, repairOrder } from '../../db/schema/maintenance.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { emit } from '../../platform/events/outbox.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { inSiteScope, likeEscaped } from '../../platform/http/scope.ts';
import { streamXlsx, type ExportLanguage, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';
import { siteInScope } from '../site/index.ts';
import './maintenance.events.ts';
import { actorName, assertOrderFilter, deviceOfSite, nextId, orderNo, photosOut, sharedOrderFilters, storedPhotos } from './order-common.ts';

/** Defects found on site (by hand, or recorded by a failed inspection result), with photos. */

const workOrderOf = alias(inspectionWorkOrder, 'defect_work_order');
const orderItemOf = alias(inspectionWorkOrderItem, 'defect_order_item');
const repairOf = alias(repairOrder, 'defect_repair');

const columns = {
  id: inspectionDefect.id,
  no: inspectionDefect.no,
  siteId: inspectionDefect.siteId,
  siteName: site.name,
  deviceId: inspectionDefect.deviceId,
  deviceCode: device.code,
  deviceName: device.name,
  deviceType: device.type,
  level: inspectionDefect.level,
  description: inspectionDefect.description,
  photos: inspectionDefect.photos,
  status: inspectionDefect.status,
  workOrderId: inspectionDefect.workOrderId,
  workOrderNo: workOrderOf.no,
  workOrderItemId: inspectionDefect.workOrderItemId,
  itemName: orderItemOf.name,
  repairOrderId: inspectionDefect.repairOrderId,
  repairOrderNo: repairOf.no,
  foundAt: inspectionDefect.foundAt,
  foundBy: inspectionDefect.foundBy,
  foundByName: inspectionDefect.foundByName,
  createdAt: inspectionDefect.createdAt,
  updatedAt: inspectionDefect.updatedAt,
};

const defects = defineListQuery({
  table: inspectionDefect,
  columns,
  joins: [
    { table: site, on: eq(site.id, inspectionDefect.siteId) },
    { table: device, on: eq(device.id, inspectionDefect.deviceId), left: true },
    { table: workOrderOf, on: eq(workOrderOf.id, inspectionDefect.workOrderId), left: true },
    { table: orderItemOf, on: eq(orderItemOf.id, inspectionDefect.workOrderItemId), left: true },
    { table: repairOf, on: eq(repairOf.id, inspectionDefect.repairOrderId), left: true },
  ],
  scope: (db, user) => inSiteScope(inspectionDefect.siteId, db, user),
  filter: (f: DefectFilter) => [
    ...sharedOrderFilters(
      {
        siteId: inspectionDefect.siteId, deviceId: inspectionDefect.deviceId, status: inspectionDefect.status, level: inspectionDefect.level,
        at: inspectionDefect.foundAt, keyword: [inspectionDefect.no, inspectionDefect.description, device.name],
      },
      f,
    ),
    f.workOrderId ? eq(inspectionDefect.workOrderId, f.workOrderId) : undefined,
  ],
  orderBy: [desc(inspectionDefect.foundAt), desc(inspectionDefect.id)],
  sortable: { no: inspectionDefect.no, level: inspectionDefect.level, status: inspectionDefect.status, foundAt: inspectionDefect.foundAt },
  toRecord: (r): DefectRecord => ({
    ...r,
    deviceType: r.deviceType as DeviceType | null,
    status: r.status as DefectState,
    photos: photosOut(r.photos),
    foundAt: r.foundAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }),
});

const assertFilter = assertOrderFilter;

export async function defectPage(ctx: AppContext, user: AuthUser, req: DefectFilter & { current: number; pageSize: number }): Promise<Page<DefectRecord>> {
  await assertFilter(ctx.db, user, req);
  return defects.page(ctx.db, user, req);
}

export async function defectList(ctx: AppContext, user: AuthUser, f: DefectFilter): Promise<DefectRecord[]> {
  await assertFilter(ctx.db, user, f);
  return defects.list(ctx.db, user, f, 5000);
}

export async function defectInScope(db: DbOrTx, user: AuthUser, id: number): Promise<DefectRecord> {
  const [row] = await defects.rows(db, and(eq(inspectionDefect.id, id), inSiteScope(inspectionDefect.siteId, db, user)));
  return found(row, '缺陷记录不存在');
}

export const defectOne = (ctx: AppContext, user: AuthUser, id: number) => defectInScope(ctx.db, user, id);

/** What a defect is made of, checked by the caller (station in scope, device of the station, photos). */
export interface NewDefect {
  siteId: number;
  deviceId: number | null;
  level: number;
  description: string;
  photos: StoredPhoto[];
  workOrderId: number | null;
  workOrderItemId: number | null;
  foundAt: Date;
}

/** Writes a defect and its `defect.recorded` event in the caller's transaction; answers its id. */
export async function recordDefect(tx: DbOrTx, user: AuthUser | null, d: NewDefect): Promise<number> {
  const [s] = await tx.select({ timeZone: site.timeZone }).from(site).where(eq(site.id, d.siteId));
  const id = await nextId(tx, 'inspection_defect');
  const no = orderNo(DEFECT_NO_PREFIX, id, d.foundAt, s!.timeZone);
  await tx.insert(inspectionDefect).values({
    id, no, siteId: d.siteId, deviceId: d.deviceId, level: d.level, description: d.description, photos: d.photos, status: 'open',
    workOrderId: d.workOrderId, workOrderItemId: d.workOrderItemId, foundAt: d.foundAt, foundBy: user?.id ?? null, foundByName: actorName(user),
  });
  await emit(tx, 'defect.recorded', [{ id, no, siteId: d.siteId, deviceId: d.deviceId, level: d.level, workOrderId: d.workOrderId, userId: user?.id ?? null }]);
  return id;
}

/** A defect by hand: on a station in scope, a device of that station, photos checked; optionally of a work order of the station. */
export async function addDefect(ctx: AppContext, user: AuthUser, b: DefectAdd): Promise<{ id: number }> {
  const id = await ctx.db.transaction(async (tx) => {
    const s = await siteInScope(tx, user, b.siteId);
    if (b.deviceId !== null) await deviceOfSite(tx, b.deviceId, s.id);
    if (b.workOrderId !== null) {
      const [o] = await tx.select({ siteId: inspectionWorkOrder.siteId }).from(inspectionWorkOrder).where(eq(inspectionWorkOrder.id, b.workOrderId));
      if (!o || o.siteId !== s.id) throw new AppError('INVALID_PARAM', 'workOrderId: 巡检工单不属于该站点');
    }
    const foundAt = b.foundAt ?? new Date();
    if (foundAt.getTime() > Date.now() + 60_000) throw new AppError('INVALID_PARAM', 'foundAt: 发现时间不能晚于当前时间');
    const photos = await storedPhotos(tx, user, b.photos);
    return recordDefect(tx, user, {
      siteId: s.id, deviceId: b.deviceId, level: b.level, description: b.description, photos, workOrderId: b.workOrderId, workOrderItemId: null, foundAt,
    });
  });
  ctx.outbox.nudge();
  return { id };
}

/** Device, level, description, photos and status of a defect; a defect under repair keeps its status until the repair ends. */
export async function editDefect(ctx: AppContext, user: AuthUser, b: DefectEdit): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const cur = await defectInScope(tx, user, b.id);
    await tx.select({ id: inspectionDefect.id }).from(inspectionDefect).where(eq(inspectionDefect.id, cur.id)).for('update');
    if (b.deviceId !== undefined && b.deviceId !== null) await deviceOfSite(tx, b.deviceId, cur.siteId);
    if (b.status !== undefined && b.status !== cur.status && (cur.status === 'repairing' || b.status === 'repairing')) {
      throw new AppError('RULE_VIOLATION', '缺陷的维修状态随维修工单变化，不能直接修改');
    }
    const photos = b.photos !== undefined ? await storedPhotos(tx, user, b.photos) : undefined;
    await tx
      .update(inspectionDefect)
      .set({
        ...(b.deviceId !== undefined ? { deviceId: b.deviceId } : {}),
        ...(b.level !== undefined ? { level: b.level } : {}),
        ...(b.description !== undefined ? { description: b.description } : {}),
        ...(photos !== undefined ? { photos } : {}),
        ...(b.status !== undefined ? { status: b.status } : {}),
        updatedAt: new Date(),
      })
      .where(eq(inspectionDefect.id, cur.id));
    if (b.status !== undefined && b.status !== cur.status) {
      await emit(tx, b.status === 'resolved' ? 'defect.resolved' : 'defect.reopened', [
        { id: cur.id, no: cur.no, siteId: cur.siteId, from: cur.status, to: b.status, userId: user.id },
      ]);
    }
  });
  if (b.status !== undefined) ctx.outbox.nudge();
}

/** Devices of a station a defect can name, with their open defects. */
export async function defectDevices(ctx: AppContext, user: AuthUser, f: { siteId: number; deviceType?: string | undefined; keyword?: string | undefined }) {
  await siteInScope(ctx.db, user, f.siteId);
  const rows = await ctx.db
    .select({
      deviceId: device.id, deviceCode: device.code, deviceName: device.name, deviceType: device.type,
      openDefects: sql<number>`(select count(*) from ${inspectionDefect} d where d.device_id = ${device.id} and d.status <> 'resolved')::int`,
    })
    .from(device)
    .where(and(eq(device.siteId, f.siteId), f.deviceType ? eq(device.type, f.deviceType) : undefined, f.keyword ? or(likeEscaped(device.code, f.keyword), likeEscaped(device.name, f.keyword)) : undefined))
    .orderBy(device.sort, device.id)
    .limit(5000);
  return rows.map((r) => ({ ...r, deviceType: r.deviceType as DeviceType }));
}

export async function exportDefects(ctx: AppContext, user: AuthUser, f: DefectFilter, lang: ExportLanguage, reply: FastifyReply) {
  await assertFilter(ctx.db, user, f);
  const rows = await defects.list(ctx.db, user, f, 50_000);
  const cols: XlsxColumn<DefectRecord>[] = [
    { header: '缺陷编号', width: 20, value: (r) => r.no },
    { header: '站点', width: 18, value: (r) => r.siteName },
    { header: '设备编码', width: 20, value: (r) => r.deviceCode },
    { header: '设备名称', width: 18, kind: 'name', value: (r) => r.deviceName },
    { header: '缺陷等级', width: 10, kind: 'label', value: (r) => MAINT_LEVEL_LABELS[r.level as MaintLevel] },
    { header: '缺陷描述', width: 40, value: (r) => r.description },
    { header: '状态', width: 10, kind: 'label', value: (r) => DEFECT_STATE_LABELS[r.status] },
    { header: '巡检工单', width: 20, value: (r) => r.workOrderNo },
    { header: '维修工单', width: 20, value: (r) => r.repairOrderNo },
    { header: '图片数', width: 8, value: (r) => r.photos.length },
    { header: '发现人', width: 12, value: (r) => r.foundByName },
    { header: '发现时间', width: 22, kind: 'instant', value: (r) => new Date(r.foundAt) },
  ];
  return streamXlsx(reply, { fileName: '缺陷记录', columns: cols }, rows, lang);
}
