import { eq } from 'drizzle-orm';
import type { SiteHandleBody, SiteHandleResult } from '@ess/contract';
import { siteHandle, siteMaintenance } from '../../db/schema/comprehensive.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { siteInScope } from '../site/index.ts';
import { UNIQUE_VIOLATION, pgErrorCode } from '../../platform/db/errors.ts';
import { maintenanceOf, toHandleRecord } from './load.ts';

/**
 * Handles a station (docs/decisions/0011-site-handle.md): acknowledge it, or start / end its
 * maintenance. The state change and its journal row are written together or not at all.
 */
export async function handleSite(ctx: AppContext, user: AuthUser, b: SiteHandleBody): Promise<SiteHandleResult> {
  return ctx.db
    .transaction(async (tx) => {
      const s = await siteInScope(tx, user, b.siteId);
      const [cur] = await tx.select({ siteId: siteMaintenance.siteId }).from(siteMaintenance).where(eq(siteMaintenance.siteId, s.id)).for('update');
      if (b.action === 'maintenanceStart') {
        if (cur) throw new AppError('RULE_VIOLATION', '站点已在检修中');
        await tx.insert(siteMaintenance).values({ siteId: s.id, note: b.note, userId: user.id, username: user.username });
      } else if (b.action === 'maintenanceEnd') {
        if (!cur) throw new AppError('RULE_VIOLATION', '站点不在检修中');
        await tx.delete(siteMaintenance).where(eq(siteMaintenance.siteId, s.id));
      }
      const [row] = await tx
        .insert(siteHandle)
        .values({ siteId: s.id, companyId: s.companyId, action: b.action, note: b.note, userId: user.id, username: user.username })
        .returning();
      const maintenance = await maintenanceOf(tx, [s.id]);
      return { siteId: s.id, handle: toHandleRecord(row!), maintenance: maintenance.get(s.id) ?? null };
    })
    .catch((err: unknown) => {
      // Two starts at once: the second finds the first's row only at insert time.
      if (pgErrorCode(err) === UNIQUE_VIOLATION) throw new AppError('RULE_VIOLATION', '站点已在检修中');
      throw err;
    });
}
