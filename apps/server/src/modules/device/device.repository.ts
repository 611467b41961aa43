import { and, asc, eq, ilike, inArray, like, or, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { DeviceFilter, DeviceRecord, DeviceSortField, DeviceStatus } from '@ess/contract';
import { cabinet, device, product } from '../../db/schema/device.ts';
import { site } from '../../db/schema/site.ts';
import { company } from '../../db/schema/system.ts';
import { deviceLatest } from '../../db/schema/telemetry.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { inSiteScope } from '../../platform/http/scope.ts';

const parent = alias(device, 'parent_device');

/**
 * online / offline / disabled / inactive, from the registry and the last-seen time the ingest
 * flushes: offline when an offline status came after the last report, or when nothing came for
 * max(timeout, 3 observed report intervals).
 */
export function statusExpr(nowMs: number, timeoutMs: number): SQL<DeviceStatus> {
  const now = new Date(nowMs).toISOString();
  return sql<DeviceStatus>`case
    when ${device.disabled} then 'disabled'
    when ${deviceLatest.lastSeenAt} is null then 'inactive'
    when ${deviceLatest.offlineAt} is not null and ${deviceLatest.offlineAt} >= ${deviceLatest.lastSeenAt} then 'offline'
    when ${deviceLatest.lastSeenAt} < ${now}::timestamptz - greatest(${timeoutMs}::int, 3 * coalesce(${deviceLatest.intervalMs}, 0)) * interval '1 millisecond' then 'offline'
    else 'online' end`;
}

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The where-condition of a device query: the caller's stations, then the filter. */
export function deviceWhere(db: DbOrTx, user: AuthUser, f: DeviceFilter & { deviceIds?: number[] }, status: SQL<DeviceStatus>): SQL {
  const companyPath = f.companyId
    ? sql`(select ${company.path} from ${company} where ${company.id} = ${f.companyId})`
    : null;
  return and(
    inSiteScope(device.siteId, db, user),
    companyPath ? like(company.path, sql`${companyPath} || '%'`) : undefined,
    f.siteId ? eq(device.siteId, f.siteId) : undefined,
    f.siteIds?.length ? inArray(device.siteId, f.siteIds) : undefined,
    f.deviceIds?.length ? inArray(device.id, f.deviceIds) : undefined,
    f.productId ? eq(device.productId, f.productId) : undefined,
    f.type ? eq(device.type, f.type) : undefined,
    f.types?.length ? inArray(device.type, f.types) : undefined,
    f.parentId ? eq(device.parentId, f.parentId) : undefined,
    f.cabinetId ? eq(device.cabinetId, f.cabinetId) : undefined,
    f.meterPurpose ? eq(device.meterPurpose, f.meterPurpose) : undefined,
    f.code ? ilike(device.code, escapeLike(f.code)) : undefined,
    f.name ? ilike(device.name, escapeLike(f.name)) : undefined,
    f.keyword
      ? or(ilike(device.code, escapeLike(f.keyword)), ilike(device.name, escapeLike(f.keyword)), ilike(device.barcode, escapeLike(f.keyword)))
      : undefined,
    f.disabled !== undefined ? eq(device.disabled, f.disabled) : undefined,
    f.status ? sql`${status} = ${f.status}` : undefined,
  )!;
}

export function deviceColumns(status: SQL<DeviceStatus>) {
  return {
    id: device.id,
    code: device.code,
    name: device.name,
    barcode: device.barcode,
    siteId: device.siteId,
    siteCode: site.code,
    siteName: site.name,
    companyId: site.companyId,
    parentId: device.parentId,
    parentName: parent.name,
    productId: device.productId,
    productName: product.name,
    type: device.type,
    meterPurpose: device.meterPurpose,
    cabinetId: device.cabinetId,
    cabinetName: cabinet.name,
    ratedPower: device.ratedPower,
    no: device.no,
    subNo: device.subNo,
    firmwareName: device.firmwareName,
    firmwareVersion: device.firmwareVersion,
    disabled: device.disabled,
    status,
    lastSeenAt: deviceLatest.lastSeenAt,
    createdAt: device.createdAt,
  };
}

/** Devices joined with what their records show. */
export function selectDevices(db: DbOrTx, status: SQL<DeviceStatus>) {
  return db
    .select(deviceColumns(status))
    .from(device)
    .innerJoin(site, eq(site.id, device.siteId))
    .innerJoin(company, eq(company.id, site.companyId))
    .innerJoin(product, eq(product.id, device.productId))
    .leftJoin(parent, eq(parent.id, device.parentId))
    .leftJoin(cabinet, eq(cabinet.id, device.cabinetId))
    .leftJoin(deviceLatest, eq(deviceLatest.deviceId, device.id));
}

/** Devices with their latest values. */
export function selectLatest(db: DbOrTx, status: SQL<DeviceStatus>) {
  return db
    .select({ ...deviceColumns(status), ts: deviceLatest.ts, v: deviceLatest.v, text: deviceLatest.text })
    .from(device)
    .innerJoin(site, eq(site.id, device.siteId))
    .innerJoin(company, eq(company.id, site.companyId))
    .innerJoin(product, eq(product.id, device.productId))
    .leftJoin(parent, eq(parent.id, device.parentId))
    .leftJoin(cabinet, eq(cabinet.id, device.cabinetId))
    .leftJoin(deviceLatest, eq(deviceLatest.deviceId, device.id));
}

export function countDevices(db: DbOrTx, where: SQL) {
  return db
    .select({ n: sql<number>`count(*)::int` })
    .from(device)
    .innerJoin(site, eq(site.id, device.siteId))
    .innerJoin(company, eq(company.id, site.companyId))
    .leftJoin(deviceLatest, eq(deviceLatest.deviceId, device.id))
    .where(where);
}

export const deviceOrder = [asc(device.siteId), asc(device.sort), asc(device.id)];

/** What each sortable field of the device lists (the contract's deviceSort) sorts by; status as the list computes it. */
export function deviceSortColumns(status: SQL<DeviceStatus>): Record<DeviceSortField, PgColumn | SQL> {
  return {
    name: device.name,
    code: device.code,
    type: device.type,
    siteName: site.name,
    productName: product.name,
    parentName: parent.name,
    cabinetName: cabinet.name,
    meterPurpose: device.meterPurpose,
    status,
    firmwareVersion: device.firmwareVersion,
    lastSeenAt: deviceLatest.lastSeenAt,
    createdAt: device.createdAt,
  };
}

type Row = Omit<DeviceRecord, 'lastSeenAt' | 'createdAt'> & { lastSeenAt: Date | null; createdAt: Date };

export function toRecord<R extends Row>(r: R): Omit<R, 'lastSeenAt' | 'createdAt'> & DeviceRecord {
  return { ...r, lastSeenAt: r.lastSeenAt ? r.lastSeenAt.toISOString() : null, createdAt: r.createdAt.toISOString() };
}
