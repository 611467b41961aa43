import { and, asc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { SYSTEM_ACTOR, type MaintLogEntity, type MaintLogRecord, type Photo, type StoredPhoto } from '@ess/contract';
import { maintenanceLog } from '../../db/schema/maintenance.ts';
import { device } from '../../db/schema/device.ts';
import { site } from '../../db/schema/site.ts';
import { appUser } from '../../db/schema/system.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { assertCompany, assertSites, inSiteScope, likeEscaped } from '../../platform/http/scope.ts';
import { checkedImages, downloadUrl } from '../files/index.ts';
import { logRecord } from './maintenance.journal.ts';

export { logRecord };
import { localDateOf } from '@ess/contract';

/**
 * What work orders, defects and repair orders share: numbers, assignees, devices of a station,
 * photos and the state journal (maintenance_log).
 */

/** The next id of a serial table, so a number can carry it (XJ20261127000123) in the same insert. */
export async function nextId(tx: DbOrTx, table: string): Promise<number> {
  const { rows } = await tx.execute<{ id: string | number }>(sql`select nextval(pg_get_serial_sequence(${table}, 'id')) as id`);
  return Number(rows[0]!.id);
}

/** PREFIX + the station-local date + the id, six digits at least. */
export const orderNo = (prefix: string, id: number, at: Date, timeZone: string) =>
  `${prefix}${localDateOf(at.getTime(), timeZone).replaceAll('-', '')}${String(id).padStart(6, '0')}`;

/** A station the caller may see, with its company and zone (404 otherwise: another company's station is not named). */
export async function siteOf(tx: DbOrTx, siteId: number): Promise<{ id: number; companyId: number; timeZone: string; name: string }> {
  const [s] = await tx.select({ id: site.id, companyId: site.companyId, timeZone: site.timeZone, name: site.name }).from(site).where(eq(site.id, siteId));
  return found(s, '站点不存在');
}

/** A device of the station (refused when it stands on another one). */
export async function deviceOfSite(tx: DbOrTx, deviceId: number, siteId: number, field = 'deviceId') {
  const [d] = await tx.select({ id: device.id, siteId: device.siteId, name: device.name, type: device.type }).from(device).where(eq(device.id, deviceId));
  if (!d || d.siteId !== siteId) throw new AppError('INVALID_PARAM', `${field}: 设备不属于该站点`);
  return d;
}

/**
 * The user an order is given to: enabled, and able to see the order's station (the built-in
 * user of its company or one above, or a user granted the station). Answers the name to keep.
 */
export async function assigneeFor(tx: DbOrTx, userId: number, siteId: number): Promise<{ id: number; name: string }> {
  const { rows } = await tx.execute<{ id: number; name: string; username: string }>(sql`
    select u.id, u.name, u.username
    from app_user u
    join company uc on uc.id = u.company_id
    join site s on s.id = ${siteId}
    join company c on c.id = s.company_id
    where u.id = ${userId} and u.status = 1 and c.path like uc.path || '%'
      and (u.build_in or u.all_sites or exists (select 1 from user_site us where us.user_id = u.id and us.site_id = s.id))`);
  const u = rows[0];
  if (!u) throw new AppError('RULE_VIOLATION', '执行人不存在、已停用或无权访问该站点');
  return { id: Number(u.id), name: u.name || u.username };
}

/** The name journals show for a user (or the system). */
export const actorName = (user: AuthUser | null) => (user ? user.name || user.username : SYSTEM_ACTOR);

/** Checks photos a record is about to keep (type by content, size, count, scope) and answers them as stored. */
export async function storedPhotos(tx: DbOrTx, user: AuthUser, suffixes: readonly string[], field = 'photos'): Promise<StoredPhoto[]> {
  return (await checkedImages(tx, user, suffixes, field)).map(({ suffix, name, size }) => ({ suffix, name, size }));
}

/** Photos as answered: with their download URLs. */
export const photosOut = (photos: readonly StoredPhoto[] | null | undefined): Photo[] =>
  (photos ?? []).map((p) => ({ suffix: p.suffix, name: p.name, size: p.size, url: downloadUrl(p.suffix) }));

/** Writes one journal row: who, when, from, to, note. */
export async function writeJournal(
  tx: DbOrTx,
  entity: MaintLogEntity,
  entityId: number,
  e: { action: string; from: string; to: string; note: string | null; user: AuthUser | null },
): Promise<MaintLogRecord> {
  const [row] = await tx
    .insert(maintenanceLog)
    .values({ entity, entityId, action: e.action, fromState: e.from, toState: e.to, note: e.note, userId: e.user?.id ?? null, username: actorName(e.user) })
    .returning();
  return logRecord(row!);
}


/** An entity's journal, oldest first. */
export async function journalOf(db: DbOrTx, entity: MaintLogEntity, entityId: number): Promise<MaintLogRecord[]> {
  const rows = await db.select().from(maintenanceLog).where(and(eq(maintenanceLog.entity, entity), eq(maintenanceLog.entityId, entityId))).orderBy(asc(maintenanceLog.id));
  return rows.map(logRecord);
}

/** Stations of this company and every company under it (a filter's companyId). */
export const sitesUnderCompany = (siteColumn: SQL | typeof site.id, companyId: number) =>
  sql`${siteColumn} in (select s.id from site s join company c on c.id = s.company_id where c.path like (select p.path from company p where p.id = ${companyId}) || '%')`;

/** The user's display name (for a record that keeps it). */
export async function userName(tx: DbOrTx, userId: number): Promise<string> {
  const [u] = await tx.select({ name: appUser.name, username: appUser.username }).from(appUser).where(eq(appUser.id, userId));
  return u ? u.name || u.username : '';
}

/** A filter naming a company, station or device the caller may not see is refused, not answered empty. */
export async function assertOrderFilter(db: DbOrTx, user: AuthUser, f: { companyId?: number | undefined; siteId?: number | undefined; deviceId?: number | undefined }) {
  if (f.companyId) await assertCompany(db, user, f.companyId);
  if (f.siteId) await assertSites(db, user, [f.siteId]);
  if (f.deviceId) found((await db.select({ id: device.id }).from(device).where(and(eq(device.id, f.deviceId), inSiteScope(device.siteId, db, user))))[0], '设备不存在');
}

/** The filter fields the order lists share (defects, work orders, repair orders). */
export interface SharedOrderFilter {
  companyId?: number | undefined;
  siteId?: number | undefined;
  deviceId?: number | undefined;
  status?: string | undefined;
  level?: number | undefined;
  start?: Date | undefined;
  end?: Date | undefined;
  keyword?: string | undefined;
}

/**
 * The conditions of the shared filter fields on one table: company (and those under it), station,
 * device, status, level, a time range on `at` and a keyword over `keyword` columns.
 */
export function sharedOrderFilters(
  c: { siteId: AnyPgColumn; deviceId?: AnyPgColumn; status: AnyPgColumn; level?: AnyPgColumn; at: AnyPgColumn; keyword: AnyPgColumn[] },
  f: SharedOrderFilter,
): (SQL | undefined)[] {
  return [
    f.companyId ? sitesUnderCompany(c.siteId as never, f.companyId) : undefined,
    f.siteId ? eq(c.siteId, f.siteId) : undefined,
    c.deviceId && f.deviceId ? eq(c.deviceId, f.deviceId) : undefined,
    f.status ? eq(c.status, f.status) : undefined,
    c.level && f.level ? eq(c.level, f.level) : undefined,
    f.start ? gte(c.at, f.start) : undefined,
    f.end ? lt(c.at, f.end) : undefined,
    f.keyword ? or(...c.keyword.map((k) => likeEscaped(k, f.keyword!))) : undefined,
  ];
}

/** Open and past its due time. */
export const overdueCondition = (status: AnyPgColumn, dueAt: AnyPgColumn, openStates: readonly string[]) => and(inArray(status, [...openStates]), lt(dueAt, sql`now()`));
