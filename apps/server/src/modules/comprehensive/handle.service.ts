import { eq } from 'drizzle-orm';
import { siteHandleMachine, type SiteHandleBody, type SiteHandleResult, type SiteHandleState } from '@ess/contract';
import { siteHandle, siteMaintenance } from '../../db/schema/comprehensive.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { transition, type StatefulEntity } from '../../platform/state.ts';
import { siteInScope } from '../site/index.ts';
import { maintenanceOf, toHandleRecord } from './load.ts';

type HandledSite = { id: number; companyId: number; state: SiteHandleState };

/** A station as an entity with statuses: in maintenance while it has a site_maintenance row. */
function handledSite(user: AuthUser, siteId: number): StatefulEntity<SiteHandleState, HandledSite, typeof siteHandle.$inferSelect> {
  return {
    lock: async (tx: DbOrTx) => {
      const s = await siteInScope(tx, user, siteId);
      // The station's row is the lock: two handlings of one station run one after the other.
      await tx.select({ id: site.id }).from(site).where(eq(site.id, s.id)).for('update');
      const [cur] = await tx.select({ siteId: siteMaintenance.siteId }).from(siteMaintenance).where(eq(siteMaintenance.siteId, s.id));
      return { id: s.id, companyId: s.companyId, state: cur ? 'maintenance' : 'normal' };
    },
    write: async (tx, e) => {
      if (e.to === 'maintenance') await tx.insert(siteMaintenance).values({ siteId: e.row.id, note: e.note, userId: e.user.id, username: e.user.username });
      else await tx.delete(siteMaintenance).where(eq(siteMaintenance.siteId, e.row.id));
    },
    journal: async (tx, e) => {
      const [row] = await tx
        .insert(siteHandle)
        .values({ siteId: e.row.id, companyId: e.row.companyId, action: e.action, note: e.note, userId: e.user.id, username: e.user.username })
        .returning();
      return row!;
    },
  };
}

/**
 * Handles a station (docs/decisions/0011-site-handle.md): acknowledge it, or start / end its
 * maintenance, through the state-machine helper (contract siteHandleMachine): the state change,
 * its journal row and its event are written together or not at all.
 */
export async function handleSite(ctx: AppContext, user: AuthUser, b: SiteHandleBody): Promise<SiteHandleResult> {
  const { row, journal } = await transition(ctx, siteHandleMachine, handledSite(user, b.siteId), { action: b.action, user, note: b.note });
  const maintenance = await maintenanceOf(ctx.db, [row.id]);
  return { siteId: row.id, handle: toHandleRecord(journal), maintenance: maintenance.get(row.id) ?? null };
}
