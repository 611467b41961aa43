import { desc, eq, inArray } from 'drizzle-orm';
import type { SiteHandleAction, SiteHandleRecord, SiteMaintenance, SiteRecord, Subsystems } from '@ess/contract';
import { siteHandle, siteMaintenance } from '../../db/schema/comprehensive.ts';
import { siteKeyValue } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { siteInScope } from '../site/index.ts';
import {
  POWER_TYPES, productSlots, rolesOf, stationDevices, subsystemsOf, type Slots, type StationDevice, type StationRoles,
} from './station.ts';

/** One station of the caller, with what the dashboards read of it. */
export interface LoadedStation {
  site: SiteRecord;
  slots: Slots;
  devices: StationDevice[];
  roles: StationRoles;
  subsystems: Subsystems;
  now: number;
}

/** The station (another company's is refused as not found) with its power-relevant devices and their latest values. */
export async function loadStation(ctx: AppContext, user: AuthUser, siteId: number): Promise<LoadedStation> {
  const site = await siteInScope(ctx.db, user, siteId);
  const slots = await productSlots(ctx);
  const devices = await stationDevices(ctx, slots, [site.id], POWER_TYPES);
  const roles = rolesOf(devices);
  return { site, slots, devices, roles, subsystems: subsystemsOf(roles), now: Date.now() };
}

export type KeyValues = typeof siteKeyValue.$inferSelect;

export async function keyValuesOf(ctx: AppContext, siteId: number): Promise<KeyValues | null> {
  const [row] = await ctx.db.select().from(siteKeyValue).where(eq(siteKeyValue.siteId, siteId));
  return row ?? null;
}

/** Stations in maintenance among some. */
export async function maintenanceOf(db: DbOrTx, siteIds: number[]): Promise<Map<number, SiteMaintenance>> {
  if (siteIds.length === 0) return new Map();
  const rows = await db.select().from(siteMaintenance).where(inArray(siteMaintenance.siteId, siteIds));
  return new Map(rows.map((r) => [r.siteId, { since: r.since.toISOString(), note: r.note, userId: r.userId, username: r.username }]));
}

export function toHandleRecord(r: typeof siteHandle.$inferSelect): SiteHandleRecord {
  return {
    id: r.id, siteId: r.siteId, action: r.action as SiteHandleAction, note: r.note, userId: r.userId, username: r.username, createdAt: r.createdAt.toISOString(),
  };
}

export async function recentHandles(ctx: AppContext, siteId: number, limit = 10): Promise<SiteHandleRecord[]> {
  const rows = await ctx.db.select().from(siteHandle).where(eq(siteHandle.siteId, siteId)).orderBy(desc(siteHandle.createdAt), desc(siteHandle.id)).limit(limit);
  return rows.map(toHandleRecord);
}
